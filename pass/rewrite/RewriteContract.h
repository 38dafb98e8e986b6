//===- RewriteContract.h - Names shared by the rewrite and its users ------===//
//
// The appended kernel arguments and the rewritten work-item builtins, in one
// place, so that the prelude, the signature edits and the kernel list cannot
// disagree. pass/README.md documents the same contract for the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REWRITE_REWRITECONTRACT_H
#define LIBSPLIT_PASS_REWRITE_REWRITECONTRACT_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace libsplit {

/// Version of the kernel list format written by writeKernelList(); bumped on
/// any change a reader could notice.
inline constexpr unsigned KernelListVersion = 2;

/// Every identifier the rewrite introduces starts with this prefix; a source
/// that uses it (in any letter case) is rejected rather than risk a clash.
inline constexpr llvm::StringLiteral ReservedPrefix = "__libsplit";

/// One argument appended to every kernel (and threaded through helpers).
struct AppendedParam {
  llvm::StringLiteral Type;
  llvm::StringLiteral Name;
};

/// In this order, after the kernel's own arguments. `size_t` is not allowed as
/// a kernel argument type, hence `ulong` (64 bits on every device).
inline constexpr AppendedParam AppendedParams[] = {
    {"uint", "__libsplit_splitdim"},
    {"ulong", "__libsplit_numgroups"},
    {"ulong", "__libsplit_splitorigin"},
};

/// A work-item builtin whose value differs between the full launch and a
/// sub-launch, and the prelude function that computes the full-launch value.
struct RewrittenBuiltin {
  llvm::StringLiteral Name;
  llvm::StringLiteral Replacement;
  /// Whether it takes the dimension index (all but get_global_linear_id).
  bool TakesDim;
  /// Lowest __OPENCL_C_VERSION__ that declares it.
  unsigned MinOpenCLCVersion;
};

inline constexpr RewrittenBuiltin RewrittenBuiltins[] = {
    {"get_global_size", "__libsplit_global_size", true, 100},
    {"get_num_groups", "__libsplit_num_groups", true, 100},
    {"get_group_id", "__libsplit_group_id", true, 100},
    {"get_global_offset", "__libsplit_global_offset", true, 110},
    {"get_global_linear_id", "__libsplit_global_linear_id", false, 200},
};

/// Returns the entry for \p Name, or null when the builtin needs no rewrite.
const RewrittenBuiltin *findRewrittenBuiltin(llvm::StringRef Name);

/// ", uint __libsplit_splitdim, ulong __libsplit_numgroups, ..." without the
/// leading comma when \p Leading is false: the text appended to a parameter
/// list.
std::string appendedParamDecls(bool Leading);

/// "__libsplit_splitdim, __libsplit_numgroups, __libsplit_splitorigin": the
/// text appended to an argument list.
std::string appendedArgNames();

} // namespace libsplit

#endif // LIBSPLIT_PASS_REWRITE_REWRITECONTRACT_H
