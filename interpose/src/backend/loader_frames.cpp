#include "loader_frames.hpp"

#include <link.h>
#include <sys/auxv.h>
#include <unwind.h>

#include <cstdint>

namespace libsplit {

namespace {

struct TextRange {
  std::uintptr_t Begin = 0;
  std::uintptr_t End = 0;
  bool holds(std::uintptr_t Address) const { return Address >= Begin && Address < End; }
};

// The loader's code: the object loaded at the interpreter's base (AT_BASE), its executable
// segment.
int findLoaderText(dl_phdr_info *Info, size_t, void *Data) {
  if (Info->dlpi_addr != getauxval(AT_BASE))
    return 0;
  auto &Range = *static_cast<TextRange *>(Data);
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &Segment = Info->dlpi_phdr[I];
    if (Segment.p_type == PT_LOAD && (Segment.p_flags & PF_X)) {
      Range.Begin = Info->dlpi_addr + Segment.p_vaddr;
      Range.End = Range.Begin + Segment.p_memsz;
      break;
    }
  }
  return 1;
}

struct Walk {
  TextRange Loader;
  bool Found = false;
  int Frames = 0;
};

_Unwind_Reason_Code visitFrame(_Unwind_Context *Context, void *Data) {
  auto &Through = *static_cast<Walk *>(Data);
  if (Through.Loader.holds(_Unwind_GetIP(Context))) {
    Through.Found = true;
    return _URC_END_OF_STACK;
  }
  return ++Through.Frames < 512 ? _URC_NO_REASON : _URC_END_OF_STACK;
}

} // namespace

bool runsUnderLoader() {
  if (getauxval(AT_BASE) == 0) // a static program, or the loader run as one
    return false;
  Walk Through;
  dl_iterate_phdr(findLoaderText, &Through.Loader);
  if (Through.Loader.Begin == Through.Loader.End)
    return false;
  _Unwind_Backtrace(visitFrame, &Through);
  return Through.Found;
}

} // namespace libsplit
