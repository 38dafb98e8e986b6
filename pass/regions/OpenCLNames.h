//===- OpenCLNames.h - OpenCL builtins as Clang names them in the IR ------===//
//
// Clang declares the OpenCL builtins (with -fdeclare-opencl-builtins) as
// overloaded functions, so for SPIR they reach the IR under Itanium-mangled
// names (`_Z13get_global_idj`, `_Z10atomic_addPU3AS1Vii`); other front ends
// (PoCL's own headers) may leave them plain. The analysis recognises both.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_OPENCLNAMES_H
#define LIBSPLIT_PASS_REGIONS_OPENCLNAMES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace libsplit::regions {

/// The source name of a function symbol: `get_global_id` for both
/// `_Z13get_global_idj` and `get_global_id`.
llvm::StringRef sourceName(llvm::StringRef Symbol);

/// Size in bytes of the type a pointer parameter of a mangled builtin points
/// to (parameter \p Index, from 0), for the simple types OpenCL builtins use:
/// scalars and vectors of them. std::nullopt when the name does not say
/// plainly (not mangled, a substitution, an unknown type).
std::optional<std::uint64_t> mangledPointeeSize(llvm::StringRef Symbol, unsigned Index);

/// The Itanium code of the scalar type that pointer parameter \p Index points
/// to ('i' int, 'j' uint, 'l' long, 'm' ulong, 'f' float...), or std::nullopt
/// when it is not a plain scalar (a vector, a struct) or the name is not mangled.
std::optional<char> mangledPointeeScalar(llvm::StringRef Symbol, unsigned Index);

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_OPENCLNAMES_H
