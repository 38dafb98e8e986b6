#include "kernel_arg.hpp"

#include <algorithm>

namespace libsplit {

void ArgBytes::assign(const std::uint8_t *Begin, const std::uint8_t *End) {
  Count = static_cast<std::size_t>(End - Begin);
  if (Count <= InlineBytes) {
    std::copy(Begin, End, Inline.begin());
    Heap.clear();
  } else {
    Heap.assign(Begin, End);
  }
}

bool usesAppDeviceObjects(const std::vector<KernelArg> &Args) {
  return std::any_of(Args.begin(), Args.end(), [](const KernelArg &A) {
    return A.AppDeviceObject ||
           (A.What == KernelArg::Kind::Buffer && A.Mem && A.Mem->staysOnAppDevice());
  });
}

} // namespace libsplit
