// A context as the application made it, and underneath it the devices libsplit executes on:
// the app's own devices plus every selected split device, each with a real context (one per
// real platform), a real in-order queue (real_commands.hpp: which profile), and a worker thread.
#pragma once

#include "buffer_home.hpp"
#include "context_services.hpp"
#include "exec_device.hpp"
#include "handles.hpp"
#include "host_upload.hpp"
#include "launch_services.hpp"
#include "platform.hpp"
#include "real_commands.hpp"
#include "timeline.hpp"

#include "libsplit/planner/queue_ahead.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace libsplit {

class Buffer;
class Queue;
struct KernelArg;

// Whether the devices share cores: two CPU devices or more (PoCL's basic and pthread, or
// sub-devices of one CPU); GPUs and a CPU beside them do not.
bool shareCores(const std::vector<ExecDevice *> &Devices);

// Runs Call (OpenCL calls on Device's real queue) as the only thread driving Device where the
// device runs commands on the thread that enqueues or waits (KernelRunsInEnqueue, PoCL's basic
// device, or a CPU device not known yet): holding its worker, which every launch on it holds too.
// Two threads driving such a device at once hung it (a queue's executor waiting for the app's
// launches with a marker while the app's thread launched the next,
// `bench/results/*-pocl-basic-threads`). Its commands ran as they were enqueued: the wait is short.
// Elsewhere Call runs at once.
void onlyThreadOn(ExecDevice &Device, const std::function<void()> &Call);

class Context final : public _cl_context, public RefCounted<Context>, public BufferHome {
public:
  using Notify = void(CL_CALLBACK *)(const char *, const void *, size_t, void *);

  Context(ContextServices &Services, std::vector<Device *> AppDevices,
          std::vector<cl_context_properties> Properties);
  ~Context();

  // Creates the real contexts, queues and workers. Returns the real implementation's error for
  // the app's own devices and properties (so the app sees native error codes).
  cl_int initialize(const cl_context_properties *AppProperties, Notify Callback, void *UserData);

  const std::vector<Device *> &appDevices() const { return AppDevices; }
  const std::vector<cl_context_properties> &properties() const { return Properties; }
  std::vector<std::unique_ptr<ExecDevice>> &devices() override { return Exec; }
  ExecDevice &primary() { return *Exec.front(); }
  // The execution device of one of the app's devices of this context, else null (a split device
  // the app never named is not the app's to use).
  ExecDevice *execFor(const Device *AppDevice);
  // The devices launches split across (none, or two and more): none until they are open
  // (LIBSPLIT_OPEN), then those that opened, fixed from there on.
  const std::vector<ExecDevice *> &splitDevices() const override {
    return Opened.load(std::memory_order_acquire) ? OpenSplit : NoDevices;
  }
  // The devices it will split across once open, fixed once initialized: what must hold before
  // and after they open (a buffer on the app's memory, the largest work-group) asks these.
  const std::vector<ExecDevice *> &plannedSplitDevices() const { return SplitExec; }
  bool splitDevicesOpen() const { return Opened.load(std::memory_order_acquire); }
  // Whether any buffer's host memory is watched for the app's changes (absorbHostChanges).
  bool watchesHostMemory() const { return AnyWatched.load(std::memory_order_relaxed); }
  // At each kernel launch, at the app's call and again where it runs: opens the split devices
  // once the app has waited for its devices long enough to pay for them (LIBSPLIT_OPEN), in
  // the background where the platform allows. Only waiting counts: the host work of an app
  // between its launches is no time a split could save. Launches run whole on the app's device
  // until they are open, as natively. HoldingDataLock: the caller holds dataLock().
  void noteLaunch(bool HoldingDataLock) {
    if (!OpeningStarted.load(std::memory_order_relaxed))
      considerOpening(HoldingDataLock);
    awaitOpening();
  }
  // A launch running on the app's device alone is predicted to take PredictedSeconds more: the
  // app will wait at least that long, so the split devices open now where they open in the
  // background (LIBSPLIT_OPEN=auto) and that is long enough to pay for them. Returns whether
  // they are open or opening.
  bool openForLongLaunch(double PredictedSeconds);
  bool openingStarted() const { return OpeningStarted.load(std::memory_order_relaxed); }
  // LIBSPLIT_OPEN=auto, where the split devices open in the background: a launch of the app's
  // queued (whichever way it runs), predicted to run PredictedSeconds on the app's device. They
  // open once the launches queued so far are predicted to take as long as the app would have to
  // wait for them (openAfterSeconds); while they open, with MayHold (a launch that waits for no
  // event: it starts once what was queued before it ran), this returns only once the app's
  // device has less than planner::QueueAhead's hold of work left, so that the launches after it
  // can go to them. Once they open or are opening, the work queued is credited to the kernels'
  // spreads (LaunchPlanner::creditQueuedWork).
  void noteQueued(double PredictedSeconds, bool MayHold);
  // The app has just waited for commands of Waited: where none is left (Queue::idle, asked last:
  // its locks cost a loop of short launches more than the rest) and it is the context's only
  // queue, in order, the launches queued so far count no more than the time they had
  // (planner::QueueAhead::caughtUp).
  void caughtUp(Queue &Waited);
  // The app makes a queue on Device (before it exists): where it is the context's first and
  // profiles, the device's own real queue becomes its profiling twin, since the app's every
  // command profiles anyway (a kernel timed on the twin, with its ordering, cost the driver more
  // than one on a profiling queue).
  void appQueueMade(ExecDevice &Device, bool Profiles);
  // Queues of this context alive (Queue's constructor and destructor).
  void queueOpened() { LiveQueues.fetch_add(1, std::memory_order_relaxed); }
  void queueClosed() { LiveQueues.fetch_sub(1, std::memory_order_relaxed); }
  // The app's kernel launches so far (saved with the wait: how long its launches were).
  void countLaunch() { Launches.fetch_add(1, std::memory_order_relaxed); }
  // How long the app waits, or a launch is predicted to last, before the split devices open.
  double openAfterSeconds() const { return OpenAfterSeconds; }
  // How long the app has waited for its devices so far (what openAfterSeconds is set against).
  double waitedSeconds() const;
  // The work its launches queued so far are predicted to take, where that opens the split
  // devices too (LIBSPLIT_OPEN=auto, opening in the background); negative elsewhere.
  double queuedSeconds() const { return QueuedSeconds.load(std::memory_order_relaxed); }
  // The split devices may open while a launch runs (on another thread, beside it).
  bool opensInBackground() const { return OpenInBackground; }
  // Whether its launches may run in chunks while its split devices open (LIBSPLIT_CHUNK auto,
  // the planner deciding from costs, split devices that share no hardware and open in the
  // background, one of them taking chunks beside the app's device; chunked_launch.hpp): the
  // app's device then builds the partition-ready program with the app's build.
  bool chunksWhileOpening() const;
  // Where the devices open because the warm start says the app's kernels split, what would
  // otherwise run without them (a program's build, a launch) waits until they are open.
  void awaitOpening();
  // Where the app's host writes go at the call (LIBSPLIT_UPLOAD), rather than at the first
  // launch that needs them.
  HostUpload uploadAtWrite(ExecDevice &AppDevice);
  // The first split's weights per splitting device (splitDevices() order), for an app on
  // AppDevice: the balancer's first guess when it has no saved tuning.
  std::vector<double> firstSplitWeights(const ExecDevice &AppDevice) override;
  MemoryServices &services() override { return Services.Memory; }
  // What its launches use (launch/launch_services.hpp).
  LaunchServices &launchServices() const { return Services.Launch; }
  // The real OpenCL implementation, for its objects (programs, kernels, queues, events).
  const RealApi &real() const { return Services.Real; }
  // Everything it and its objects use of the rest of libsplit, the above included.
  ContextServices &contextServices() const { return Services; }
  Context *appContext() override { return this; }

  // Commands of all queues of this context that touch buffers run under this lock, so buffer
  // validity bookkeeping never races (the app's own cross-queue races stay its own).
  std::mutex &dataLock() { return DataMutex; }

  void addDestructorCallback(void(CL_CALLBACK *Callback)(cl_context, void *), void *UserData);

  // CL_MEM_USE_HOST_PTR buffers whose memory the app may read without a map or a read, as it can
  // where its device (a CPU) works in place: refreshHostMemory, at each point where the app
  // synchronizes with its queue, brings the bytes kernels wrote on the devices into the app's
  // memory (the data lock must not be held).
  void watchHostMemory(const std::shared_ptr<Buffer> &B);
  void refreshHostMemory();
  // Before a command that uses these buffers: what the app wrote into a watched buffer's memory
  // since it last synchronized becomes the buffer's newest bytes (Buffer::absorbHostChanges).
  // Nothing to do, and no lock taken, in a context that watches no buffer.
  void absorbHostChanges(const std::vector<KernelArg> &Args);
  void absorbHostChanges(Buffer &B);

private:
  void considerOpening(bool HoldingDataLock);
  friend class AppWait;
  // The app waited Ns for its devices (AppWait). The devices open at a launch, not here: a wait
  // that ends the run (its last read) would open them for nothing.
  void noteWaited(std::int64_t Ns);
  // Creates the real contexts, queues and workers of the split devices not open yet (one real
  // context per platform), then publishes splitDevices(). A device that fails is left out.
  void openSplitDevices();
  // openSplitDevices on Opener; the process's exit waits for it.
  void openInBackground();
  // openSplitDevices, whose exception (host memory) leaves the context opened with no split
  // device rather than ending the thread, and the process with it.
  void openSplitDevicesGuarded();

  std::vector<Device *> AppDevices;
  std::vector<cl_context_properties> Properties;     // as the app gave them, for queries
  ContextServices &Services;                         // the runtime's, shared by every context
  std::map<cl_platform_id, cl_context> RealContexts; // the app's devices'
  std::vector<cl_context> OpenedContexts;            // the split devices' beyond them
  std::vector<std::unique_ptr<ExecDevice>> Exec;     // [0] is the app's first device
  std::vector<ExecDevice *> SplitExec;               // those of Exec with Splits, planned
  std::vector<ExecDevice *> OpenSplit;               // those of SplitExec open, once Opened
  const std::vector<ExecDevice *> NoDevices;
  std::atomic<bool> Opened{false};
  std::atomic<bool> OpeningStarted{false};
  std::atomic<std::uint64_t> Launches{0};
  std::atomic<std::int64_t> WaitedNs{0}; // AppWait's, in total
  std::atomic<int> LiveQueues{0};
  std::atomic<bool> HadQueue{false}; // appQueueMade
  // LIBSPLIT_OPEN=auto with devices to open in the background: the app's queued work
  // (Ahead) opens them (noteQueued, caughtUp).
  bool queuedWorkOpens() const;
  double OpenAfterSeconds = 0.0;
  bool OpenInBackground = true; // else on the app's thread, at the launch that opens them
  // Of the queues of the devices opened for splits; an app's device's queue profiles only for the
  // diagnostics (its kernels timed otherwise run on its TimingQueue).
  cl_command_queue_properties RealQueueProperties = 0;
  std::thread Opener;
  bool AwaitOpening = false; // set before Opener starts
  std::mutex OpenMutex;
  std::condition_variable OpenedChanged;
  planner::QueueAhead Ahead; // LIBSPLIT_OPEN=auto; under OpenMutex
  // Ahead's total, read without the lock (queuedSeconds).
  std::atomic<double> QueuedSeconds{-1.0};
  // Whether the work queued opens the split devices (not where an earlier run's queued little
  // beyond the threshold); set with the context.
  bool QueuedOpens = true;
  // Whether a kernel's first launch may run in chunks while the split devices are not open (not
  // after a run that stayed short of their opening: planner::stayedShortOfOpening); set with the
  // context.
  bool FirstLaunchesInChunks = true;
  std::vector<std::pair<void(CL_CALLBACK *)(cl_context, void *), void *>> DestructorCallbacks;
  std::mutex DataMutex;
  std::mutex WatchedMutex;
  std::vector<std::weak_ptr<Buffer>> Watched; // watchHostMemory's, expired ones pruned
  std::atomic<bool> AnyWatched{false};
};

Context *asContext(cl_context Handle);

// Times a call in which the app waits for its devices (clFinish, clWaitForEvents, a blocking
// transfer or map): what splitting could shorten, and what opens the split devices.
class AppWait {
public:
  explicit AppWait(Context &Waiting) : Waiting(Waiting), Start(std::chrono::steady_clock::now()) {}
  ~AppWait() {
    try {
      Waiting.noteWaited(std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now() - Start)
                             .count());
    } catch (...) {
      // Host memory exhausted: this wait goes unnoted (a destructor's exception would end the
      // process).
    }
  }
  AppWait(const AppWait &) = delete;
  AppWait &operator=(const AppWait &) = delete;

private:
  Context &Waiting;
  std::chrono::steady_clock::time_point Start;
};

} // namespace libsplit
