// A kernel as the app made it. The app's clSetKernelArg calls are checked against a real
// kernel of the app's own program (so errors are the native ones) and recorded; launches take a
// snapshot of the recorded arguments and apply them on each device's own real kernel.
#pragma once

#include "buffer.hpp"
#include "handles.hpp"
#include "interior_cut.hpp"
#include "kernel_arg.hpp"
#include "planning.hpp"
#include "program.hpp"
#include "repeat_memo.hpp"
#include "slice_history.hpp"
#include "slice_regions.hpp"
#include "whole_placement.hpp"

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace libsplit {

class Kernel : public _cl_kernel, public RefCounted<Kernel> {
public:
  Kernel(std::shared_ptr<Program> Owner, std::string Name, cl_kernel Validation);
  ~Kernel();

  Program &program() const { return *Owner; }
  const std::string &name() const { return Name; }
  cl_kernel validation() const { return Validation; }
  cl_uint argCount() const { return static_cast<cl_uint>(Args.size()); }

  cl_int setArg(cl_uint Index, size_t Size, const void *Value);
  // SVM lives on the app's device (clSVMAlloc): an SVM argument, or execution information (SVM
  // pointers the kernel reaches indirectly), makes its launches run there whole.
  cl_int setSvmArg(cl_uint Index, const void *Pointer);
  cl_int setExecInfo(cl_kernel_exec_info Param, size_t Size, const void *Value);
  bool hasExecInfo() const;
  std::vector<std::pair<cl_kernel_exec_info, std::vector<std::uint8_t>>> execInfo() const;
  // The arguments for a launch, each buffer held (not the kernel's weak reference: SetMem stays
  // empty); false (CL_INVALID_MEM_OBJECT) if a buffer argument was released.
  bool snapshotArgs(std::vector<KernelArg> &Out) const;
  // What a launch needs of the kernel, under one lock (each launch asks): whether every
  // argument is set, the reqd_work_group_size on Device (zeros: none), and, where every argument
  // is set, the snapshot of snapshotArgs (ArgsAlive: its answer).
  // RepeatOn (a queue's serial, where the launch could repeat the kernel's last one there: no
  // event, no wait list): where the kernel's repeat memo is of that queue and its buffers are still
  // the arguments, Repeat holds the memo and nothing is snapshot (the launch takes the scalars
  // from the kernel itself: realWithCurrentScalars); ScalarsChanged: some were set since.
  // ArgsGeneration: the arguments' BufferArgs and AllArgs (rememberRepeat) when taken. SetBack:
  // Repeat is the memo before the last one, whose buffers are the arguments again (a loop that
  // swaps two buffers): the launch sets them back on the real kernel (realWithMemoArgs).
  struct LaunchView {
    bool AllSet = false;
    std::array<size_t, 3> Required{0, 0, 0};
    bool ArgsAlive = false;
    std::optional<RepeatMemo> Repeat;
    bool ScalarsChanged = false;
    bool SetBack = false;
    std::pair<std::uint64_t, std::uint64_t> ArgsGeneration{0, 0};
  };
  LaunchView viewForLaunch(cl_device_id Device, std::vector<KernelArg> &Args,
                           std::uint64_t RepeatOn = 0) const;
  // Kept for the next launch where its arguments are still those of Memo (BufferArgs: how many
  // times those that are not scalars changed, a buffer, a __local size, SVM, execution
  // information; AllArgs: all of them).
  void rememberRepeat(const RepeatMemo &Memo);
  // Fills Memo's buffer arguments as the app's own real kernel on Device has them now (right
  // after realWithArgs set them for the launch Memo describes). On Device's worker.
  void describeRepeat(ExecDevice &Device, RepeatMemo &Memo);
  // A launch repeated Memo, the memo before the last one (LaunchView::SetBack): it becomes the
  // last one, with the arguments' counts Seen (BufferArgs, AllArgs) when realWithMemoArgs found
  // them to be Memo's buffers, and the last one the one before.
  void repeatedSetBack(ExecDevice &Device, const RepeatMemo &Memo,
                       std::pair<std::uint64_t, std::uint64_t> Seen);
  // The buffer arguments as they are now, each held, where none was set since the count
  // BufferArgs (a repeat memo's): what a repeat whose memo's entry has completed keeps alive
  // itself (Queue::runRepeat). False where they changed or one was released.
  bool holdBufferArgs(std::uint64_t BufferArgs, std::vector<KernelArg> &Out) const;
  // A repeat of Memo joined or added the queue's entry Entry: the kernel's memo of those buffers
  // on that queue names it from now on.
  void repeatHeldBy(const RepeatMemo &Memo, std::uint64_t Entry);

  // The real kernel a device runs: the app's original kernel (Split = false) or the
  // partition-ready one. Created on first use; used only on that device's worker.
  cl_kernel realFor(ExecDevice &Device, bool Split, cl_int &Error);
  // The same, with Args (the app's arguments of a launch) set on it: only those that differ from
  // what that real kernel last got (real clSetKernelArg calls cost every launch host time, and
  // most launches repeat most arguments). Null with Error set when either fails.
  cl_kernel realWithArgs(ExecDevice &Device, bool Split, const std::vector<KernelArg> &Args,
                         cl_int &Error);
  // A repeated launch's (RepeatMemo): the app's own real kernel on Device with the kernel's
  // scalars as they are now, taken under its lock without a snapshot, the rest as that kernel
  // last got them. Null with Error CL_SUCCESS where its arguments that are not scalars changed
  // since BufferArgs (the launch then goes the usual way); null with Error set where a call fails.
  cl_kernel realWithCurrentScalars(ExecDevice &Device, std::uint64_t BufferArgs, cl_int &Error);
  // A set-back repeat's (LaunchView::SetBack): the app's own real kernel on Device with Memo's
  // buffers where it has others, and the kernel's scalars as they are now, under its lock.
  // Null with Error CL_SUCCESS where the arguments are no longer Memo's buffers. Seen: the
  // arguments' counts (BufferArgs, AllArgs) under that lock, for repeatedSetBack.
  cl_kernel realWithMemoArgs(ExecDevice &Device, const RepeatMemo &Memo, cl_int &Error,
                             std::pair<std::uint64_t, std::uint64_t> &Seen);
  // The app's own real kernel on Device: how many times realWithArgs set its arguments that are
  // not scalars, and any of them (a repeated launch trusts what it has only where no launch
  // through another queue of the device changed them since: RepeatMemo). On Device's worker.
  std::pair<std::uint64_t, std::uint64_t> realArgSets(ExecDevice &Device);
  // The largest work-group the partition-ready kernel allows on Device (register pressure can
  // set it below the device's maximum), asked once; 0 where unknown.
  size_t splitGroupLimit(ExecDevice &Device);
  // The local memory the partition-ready kernel takes on Device by itself
  // (CL_KERNEL_LOCAL_MEM_SIZE; an implementation may count __local arguments set on it too);
  // 0 where unknown.
  cl_ulong splitLocalBytes(ExecDevice &Device);
  // Sets the three arguments a partition-ready kernel Real of Device takes after the app's (from
  // index First): the split dimension, the NDRange's work-group count along it, and its offset
  // there.
  static cl_int setSliceArgs(const ExecDevice &Device, cl_kernel Real, cl_uint First, cl_uint Dim,
                             cl_ulong Groups, cl_ulong Origin);

  // The size of the scalars pointer argument Index points to, from the argument's type name
  // (clGetKernelArgInfo) on the app's kernel or else on Other (a partition-ready kernel, built
  // with argument information); 0 when neither tells (a struct, no argument information).
  std::size_t argElementBytes(cl_uint Index, cl_kernel Other) const;

  // Whether its last launch left its kernels running (FinishesLater): its next launch may then
  // start on the app's thread without holding the app up (Queue::enqueue).
  bool lastLaunchLeftRunning() const { return LeftRunning.load(std::memory_order_relaxed); }
  void noteLaunchLeftRunning(bool Yes) { LeftRunning.store(Yes, std::memory_order_relaxed); }

  // Seconds per work-item that its last launch run in chunks took on the app's device (0: none
  // ran yet; negative: its launches cannot run in chunks before the split devices open): whether
  // a later launch is long enough to run in chunks while they open.
  double chunkedSecondsPerItem() const {
    return ChunkedSecondsPerItem.load(std::memory_order_relaxed);
  }
  void noteChunkedSecondsPerItem(double Seconds) {
    ChunkedSecondsPerItem.store(Seconds, std::memory_order_relaxed);
  }
  // The same measured by a chunk after the launch's first (which also pays for the kernel's
  // first use of the device); 0 where none ran: what its launches queued ahead of the app's
  // device are predicted to take (LIBSPLIT_OPEN=auto).
  double warmSecondsPerItem() const { return WarmSecondsPerItem.load(std::memory_order_relaxed); }
  void noteWarmSecondsPerItem(double Seconds, std::size_t Device) {
    WarmDevice.store(Device, std::memory_order_relaxed);
    WarmSecondsPerItem.store(Seconds, std::memory_order_release);
  }
  // The same, measured on execution device Device, once: what its guard there starts from where
  // it knows no whole time (SplitGuard::startFromWholeTime); 0 where none, or given already.
  double takeWarmSecondsPerItemOn(std::size_t Device) {
    const double Seconds = WarmSecondsPerItem.load(std::memory_order_acquire);
    if (Seconds <= 0.0 || WarmDevice.load(std::memory_order_relaxed) != Device ||
        WarmGiven.load(std::memory_order_relaxed) || WarmGiven.exchange(true))
      return 0.0;
    return Seconds;
  }
  // True for the first caller only: the launch that runs first (in chunks, on the queue's
  // executor), the one the next launches wait for before their own is decided.
  bool claimFirstLaunch() { return !FirstLaunchClaimed.exchange(true, std::memory_order_relaxed); }
  bool firstLaunchClaimed() const { return FirstLaunchClaimed.load(std::memory_order_relaxed); }

  // Why this kernel cannot split (empty if it can) and its split facts.
  // Kept while the program's factsGeneration stays the same.
  const CompiledKernel *splitFacts(std::string &Why) const;

  // Its split guard for launches from app device AppDevice (LaunchPlanner::guardFor, looked up
  // once per kernel object and device).
  std::shared_ptr<GuardSlot> splitGuard(std::size_t AppDevice);

  // Where its launches that cannot split run; shared with the launches still completing.
  const std::shared_ptr<WholePlacement> &wholePlacement() const { return Placement; }
  const std::shared_ptr<SliceHistory> &sliceHistory() const { return History; }
  // Its slices' regions, kept across its launches (SliceRegionMemo).
  const std::shared_ptr<SliceRegionMemo> &regionMemo() const { return Regions; }
  // Its slices' interiors, kept across its launches (InteriorMemo).
  InteriorMemo &interiors() { return Interiors; }
  OverlapChoice &overlapChoice() { return Overlap; }

private:
  std::shared_ptr<WholePlacement> Placement = std::make_shared<WholePlacement>();
  std::shared_ptr<SliceHistory> History = std::make_shared<SliceHistory>();
  std::shared_ptr<SliceRegionMemo> Regions = std::make_shared<SliceRegionMemo>();
  InteriorMemo Interiors;
  OverlapChoice Overlap;
  std::shared_ptr<Program> Owner;
  std::string Name;
  cl_kernel Validation;
  mutable std::mutex Mutex;
  std::vector<KernelArg> Args;
  mutable std::vector<std::size_t> ElementBytes; // argElementBytes, once asked (Mutex held)
  // splitFacts' last answer that had facts, and the program's generation it was given at.
  mutable std::atomic<const CompiledKernel *> CachedFacts{nullptr};
  mutable std::atomic<std::uint64_t> CachedGeneration{~std::uint64_t(0)};
  // A real kernel and the app arguments last set on it (a buffer as its object, alive, and its
  // real memory object; scalars and local sizes by value). Touched only on its device's worker.
  struct SetArg {
    KernelArg::Kind What = KernelArg::Kind::Unset;
    std::weak_ptr<Buffer> Mem;
    cl_mem RealMem = nullptr;
    ArgBytes Value;
    size_t LocalSize = 0;
  };
  struct RealKernel {
    cl_kernel Handle = nullptr;
    std::vector<SetArg> Last;
    std::optional<size_t> GroupLimit; // CL_KERNEL_WORK_GROUP_SIZE, once asked
    std::size_t ExecInfoSet = 0;      // how many of ExecInfo's changes it got
    // How many times realWithArgs set its arguments: any, and those that are not scalars.
    std::uint64_t Sets = 0, NonScalarSets = 0;
  };
  // clSetKernelExecInfo's parameters as last given (Mutex), and how many times they changed.
  std::vector<std::pair<cl_kernel_exec_info, std::vector<std::uint8_t>>> ExecInfo;
  // Read without Mutex by realWithArgs (unchanged, as nearly always: no lock at each launch).
  std::atomic<std::size_t> ExecInfoChanges{0};
  RealKernel *realKernel(ExecDevice &Device, bool Split, cl_int &Error);
  // Its reqd_work_group_size on a real device (zeros without one), asked once per device: the
  // check runs at every launch (Mutex held).
  std::array<size_t, 3> requiredGroupSizeLocked(cl_device_id Device) const;
  // snapshotArgs with Mutex held.
  bool snapshotLocked(std::vector<KernelArg> &Out) const;
  // Whether setArg's Value is the argument the kernel already has at Index, set and accepted
  // before (a buffer still alive, or the same bytes).
  bool setAgain(cl_uint Index, size_t Size, const void *Value) const;
  std::map<std::pair<std::size_t, bool>, RealKernel> Real;
  // Real's entries for the app's kernel on the first devices, once made, read without Mutex at
  // each launch (an entry of Real is never erased, nor moved: a map's node stays put).
  static constexpr std::size_t QuickDevices = 16;
  std::array<std::atomic<RealKernel *>, QuickDevices> QuickReal{};
  std::atomic<bool> LeftRunning{false};
  std::atomic<double> ChunkedSecondsPerItem{0.0};
  std::atomic<double> WarmSecondsPerItem{0.0};
  std::atomic<std::size_t> WarmDevice{0};
  std::atomic<bool> WarmGiven{false};
  std::atomic<bool> FirstLaunchClaimed{false};
  std::uint64_t BufferArgsChanges = 0, ArgsChanges = 0; // Mutex: see rememberRepeat
  std::optional<RepeatMemo> Repeat;                     // Mutex: see rememberRepeat
  std::optional<RepeatMemo> Previous; // Mutex: the memo before Repeat, of other buffers
  // Whether the buffer arguments are Memo's, and nothing else that is not a scalar (Mutex held).
  bool argumentsAreLocked(const RepeatMemo &Memo) const;
  // Sets on K the scalars it does not have as the kernel has them now (Mutex held); false with
  // Error set where a call fails.
  bool setScalarsLocked(RealKernel &K, cl_int &Error);
  std::map<std::size_t, std::shared_ptr<GuardSlot>> Guards;                          // under Mutex
  mutable std::vector<std::pair<cl_device_id, std::array<size_t, 3>>> RequiredSizes; // Mutex
};

Kernel *asKernel(cl_kernel Handle);

} // namespace libsplit
