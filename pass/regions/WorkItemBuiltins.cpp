//===- WorkItemBuiltins.cpp - get_global_id and friends in the IR ---------===//

#include "WorkItemBuiltins.h"

#include "OpenCLNames.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

#include <limits>

namespace libsplit::regions {

using analysis::Leaf;

std::optional<WorkItemFunction> workItemFunction(const llvm::Function &F) {
  if (!F.isDeclaration())
    return std::nullopt; // a user function that happens to share the name
  using WIF = WorkItemFunction;
  return llvm::StringSwitch<std::optional<WIF>>(sourceName(F.getName()))
      .Case("get_global_id", WIF::GlobalId)
      .Case("get_local_id", WIF::LocalId)
      .Case("get_group_id", WIF::GroupId)
      .Case("get_global_size", WIF::GlobalSize)
      .Case("get_local_size", WIF::LocalSize)
      .Case("get_enqueued_local_size", WIF::EnqueuedLocalSize)
      .Case("get_num_groups", WIF::NumGroups)
      .Case("get_global_offset", WIF::GlobalOffset)
      .Case("get_work_dim", WIF::WorkDim)
      .Case("get_global_linear_id", WIF::GlobalLinearId)
      .Case("get_local_linear_id", WIF::LocalLinearId)
      .Default(std::nullopt);
}

bool takesDimension(WorkItemFunction Function) {
  return Function != WorkItemFunction::WorkDim && Function != WorkItemFunction::GlobalLinearId &&
         Function != WorkItemFunction::LocalLinearId;
}

std::optional<Leaf> leafOf(WorkItemFunction Function) {
  switch (Function) {
  case WorkItemFunction::GlobalId:
    return Leaf::GlobalId;
  case WorkItemFunction::LocalId:
    return Leaf::LocalId;
  case WorkItemFunction::GroupId:
    return Leaf::GroupId;
  case WorkItemFunction::GlobalSize:
    return Leaf::GlobalSize;
  case WorkItemFunction::LocalSize:
  case WorkItemFunction::EnqueuedLocalSize:
    return Leaf::LocalSize;
  case WorkItemFunction::NumGroups:
    return Leaf::NumGroups;
  case WorkItemFunction::GlobalOffset:
    return Leaf::GlobalOffset;
  case WorkItemFunction::WorkDim:
    return Leaf::WorkDim;
  case WorkItemFunction::GlobalLinearId:
  case WorkItemFunction::LocalLinearId:
    return std::nullopt;
  }
  return std::nullopt;
}

void valueBounds(WorkItemFunction Function, std::int64_t &Min, std::int64_t &Max) {
  Max = std::numeric_limits<std::int64_t>::max();
  switch (Function) {
  case WorkItemFunction::GlobalSize:
  case WorkItemFunction::LocalSize:
  case WorkItemFunction::EnqueuedLocalSize:
  case WorkItemFunction::NumGroups:
    Min = 1; // OpenCL sizes are never 0 (unused dimensions report 1)
    return;
  case WorkItemFunction::WorkDim:
    Min = 1;
    Max = 3;
    return;
  default:
    Min = 0;
    return;
  }
}

std::optional<WorkItemQuery> asWorkItemQuery(const llvm::Value *V) {
  const auto *Call = llvm::dyn_cast<llvm::CallBase>(V);
  const llvm::Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee)
    return std::nullopt;
  std::optional<WorkItemFunction> Function = workItemFunction(*Callee);
  if (!Function)
    return std::nullopt;
  std::optional<Leaf> Kind = leafOf(*Function);
  if (!Kind)
    return std::nullopt;
  WorkItemQuery Query;
  Query.Kind = *Kind;
  if (!takesDimension(*Function))
    return Call->arg_size() == 0 ? std::optional<WorkItemQuery>(Query) : std::nullopt;
  if (Call->arg_size() != 1)
    return std::nullopt;
  const auto *Dim = llvm::dyn_cast<llvm::ConstantInt>(Call->getArgOperand(0));
  if (!Dim || Dim->getZExtValue() >= 3)
    return std::nullopt;
  Query.Dim = static_cast<std::uint32_t>(Dim->getZExtValue());
  return Query;
}

} // namespace libsplit::regions
