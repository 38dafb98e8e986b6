// A program as the app made it. Underneath: the app's own program, built by the real
// implementation on the app's devices (its build status, log and binaries are what the app
// queries), and, when the kernel compiler produced one, a partition-ready program built on every
// split device's real context, whose kernels run the slices of split launches.
#pragma once

#include "binary_origins.hpp"
#include "context.hpp"
#include "handles.hpp"
#include "kernel_compiler.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace libsplit {

class Program : public _cl_program, public RefCounted<Program> {
public:
  Program(std::shared_ptr<Context> Owner, cl_program OriginalReal,
          std::vector<std::string> Sources);
  // A program the app created from a binary that libsplit recorded (binary_origins.hpp): its
  // kernels split like those of Origin's source built with Origin's options.
  Program(std::shared_ptr<Context> Owner, cl_program OriginalReal, BinaryOrigin Origin);
  ~Program();

  Context &context() const { return *Owner; }
  const std::shared_ptr<Context> &contextPtr() const { return Owner; }
  cl_program original() const { return OriginalReal; }
  bool fromSource() const { return !Sources.empty(); }

  // clBuildProgram: the real build of the app's program first (its result is the app's result),
  // then the partition-ready variant, whose failure only means "run unsplit".
  cl_int build(const std::vector<cl_device_id> &RealDevices, const char *Options);

  // The partition-ready program on a device's real context and the kernel's split facts, or
  // null when the kernel must run unsplit (Why says why).
  cl_program splitProgramFor(const ExecDevice &Device) const;
  // The partition-ready program is still being built for this device, in the background, or
  // not yet started (see buildSplitVariant): a launch that asks starts it.
  bool splitBuildPending(const ExecDevice &Device);
  // What the partition-ready build not started yet would cost (0 when none waits): the app's
  // own build's time per device, for each device it would build on. Starts nothing.
  double deferredBuildSeconds() const;
  const CompiledKernel *splitKernel(const std::string &Name, std::string &Why) const;
  // Changes whenever splitKernel's answers may change (a build started or ended): kernels keep
  // their facts while it stays the same (they are asked at every launch).
  std::uint64_t factsGeneration() const { return FactsGeneration.load(std::memory_order_acquire); }
  // What the kernel compiler found of a kernel, whether or not it splits (null when it did not
  // compile the program or list the kernel).
  const CompiledKernel *compiledKernel(const std::string &Name) const;
  // Identifies the program's source across runs (empty when it has no partition-ready variant).
  std::string sourceKey() const;
  // The source and options of the last successful build, when the program has a source.
  std::optional<BinaryOrigin> origin() const;

  std::atomic<int> KernelCount{0};
  void addReleaseCallback(void(CL_CALLBACK *Fn)(cl_program, void *), void *UserData);

private:
  void buildSplitVariant(const std::string &Options);
  // Builds the partition-ready source on one real context for Ids: one program for all, else
  // one per device (a device the rewritten source does not suit is left out, not every device).
  // Records what it built in Built and SplitReal (Mutex held by the caller), the first failure
  // in FirstError and FirstLog.
  void buildOn(cl_context RealContext, const std::vector<cl_device_id> &Ids,
               const std::string &Options, cl_int &FirstError, std::string &FirstLog);
  // Waits for a background build, if one runs.
  void joinLaterBuild();

  std::shared_ptr<Context> Owner;
  cl_program OriginalReal;
  std::vector<std::string> Sources;
  // Options the partition-ready variant is built with whatever the app's build passes (a
  // program from a recorded binary: those the binary was made with).
  std::optional<std::string> FixedOptions;
  mutable std::mutex Mutex;
  std::optional<std::string> BuiltOptions; // of the last successful build
  double BuildSecondsPerDevice = 0.0;      // of the app's last build (its real clBuildProgram)
  // deferredBuildSeconds' answer, kept where Deferred changes: it is asked at every launch.
  std::atomic<double> DeferredSeconds{0.0};
  std::atomic<std::uint64_t> FactsGeneration{0};
  std::string SplitUnavailable; // why no kernel of this program splits, if none does
  CompiledProgram Compiled;
  std::map<cl_device_id, cl_program> SplitReal; // per split device (programs may be shared)
  std::vector<cl_program> Built;                // each real partition-ready program once
  std::set<cl_device_id> Pending; // devices whose partition-ready program is still being built
  std::thread LaterBuild;
  // A background build not started yet (devices where first launches run whole, or not open
  // yet): started by the first launch that asks for them.
  std::vector<ExecDevice *> Deferred;
  std::string DeferredOptions;
  // Starts the background build of Later (Mutex held).
  void startLaterBuild(std::vector<ExecDevice *> Later, const std::string &Options);
  // startLaterBuild's work, on its thread.
  void buildLater(const std::vector<ExecDevice *> &Later, const std::string &Options);
  std::vector<std::pair<void(CL_CALLBACK *)(cl_program, void *), void *>> ReleaseCallbacks;
};

Program *asProgram(cl_program Handle);

} // namespace libsplit
