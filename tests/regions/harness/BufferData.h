// Deterministic buffer contents for the soundness test, by kind: any seed gives valid data
// for the kind (indices stay in range), so buffers can be refilled without breaking kernels.
#ifndef LIBSPLIT_TESTS_REGIONS_BUFFERDATA_H
#define LIBSPLIT_TESTS_REGIONS_BUFFERDATA_H

#include <cstdint>
#include <string>
#include <vector>

namespace libsplit::test {

/// \p Bytes bytes of kind \p Init ("float", "bytes", "zero", "int:M", "rowptr:R:K");
/// "zero" gives zeros for seed 0 and random bytes otherwise. Empty Error on success.
std::vector<std::uint8_t> makeBufferData(const std::string &Init, std::size_t Bytes,
                                         std::uint32_t Seed, std::string &Error);

} // namespace libsplit::test

#endif // LIBSPLIT_TESTS_REGIONS_BUFFERDATA_H
