//===- WorkItemBuiltins.h - get_global_id and friends in the IR -----------===//
//
// The leaves of region expressions: calls to the OpenCL work-item functions,
// recognised by their source name (OpenCLNames.h).
//
//===----------------------------------------------------------------------===//

#ifndef LIBSPLIT_PASS_REGIONS_WORKITEMBUILTINS_H
#define LIBSPLIT_PASS_REGIONS_WORKITEMBUILTINS_H

#include "libsplit/analysis/expr.hpp"

#include <cstdint>
#include <optional>

namespace llvm {
class Function;
class Value;
} // namespace llvm

namespace libsplit::regions {

enum class WorkItemFunction {
  GlobalId,
  LocalId,
  GroupId,
  GlobalSize,
  LocalSize,
  EnqueuedLocalSize,
  NumGroups,
  GlobalOffset,
  WorkDim,
  GlobalLinearId,
  LocalLinearId,
};

std::optional<WorkItemFunction> workItemFunction(const llvm::Function &F);

/// True for the functions of one dimension argument (get_global_id(d) ...).
bool takesDimension(WorkItemFunction Function);

/// The summary leaf of a one-dimension query (get_enqueued_local_size is
/// get_local_size: libsplit launches uniform work-groups only).
std::optional<analysis::Leaf> leafOf(WorkItemFunction Function);

/// Values the query can take, as [Min, Max] (Max inclusive), given that the
/// runtime's evaluator treats any size or id above INT64_MAX as unbounded.
void valueBounds(WorkItemFunction Function, std::int64_t &Min, std::int64_t &Max);

struct WorkItemQuery {
  analysis::Leaf Kind = analysis::Leaf::GlobalId;
  std::uint32_t Dim = 0;
};

/// \p V as a leaf: a call to a one-dimension query with a constant dimension
/// below 3, or get_work_dim().
std::optional<WorkItemQuery> asWorkItemQuery(const llvm::Value *V);

} // namespace libsplit::regions

#endif // LIBSPLIT_PASS_REGIONS_WORKITEMBUILTINS_H
