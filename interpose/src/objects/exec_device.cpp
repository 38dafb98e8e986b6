#include "exec_device.hpp"

#include <algorithm>
#include <exception>

namespace libsplit {

namespace {

bool kernelRunsInEnqueue(const DeviceJob &Job) {
  return Job.Device->KernelRunsInEnqueue.load(std::memory_order_relaxed) == 1;
}

} // namespace

cl_int runOnDevices(std::vector<DeviceJob> Jobs, bool Short) {
  if (Jobs.empty())
    return CL_SUCCESS;
  // Short jobs only queue work, one device after the other on this thread. A device whose
  // enqueue runs the kernel goes last, once the others' kernels run (first, it held PoCL's
  // pthread device back for the whole of basic's slice: a held split on the two took the sum of
  // their times); two such devices need a thread each.
  if (Jobs.size() == 1 ||
      (Short && std::count_if(Jobs.begin(), Jobs.end(), kernelRunsInEnqueue) <= 1)) {
    // CPUs' slices, the longest, start first.
    std::stable_partition(Jobs.begin(), Jobs.end(), [](const DeviceJob &Job) {
      return (Job.Device->Type & CL_DEVICE_TYPE_CPU) != 0;
    });
    std::stable_partition(Jobs.begin(), Jobs.end(),
                          [](const DeviceJob &Job) { return !kernelRunsInEnqueue(Job); });
    cl_int Result = CL_SUCCESS;
    for (DeviceJob &Job : Jobs)
      Job.Device->Worker->runHere([&] {
        if (const cl_int Error = Job.Run(); Result == CL_SUCCESS)
          Result = Error;
      });
    return Result;
  }
  // The calling thread runs one job itself, on a device whose worker is idle: a launch on two
  // devices then costs one thread hand-off and wake-up instead of two.
  std::size_t Here = Jobs.size();
  for (std::size_t I = Jobs.size(); I-- > 0 && Here == Jobs.size();)
    if (Jobs[I].Device->Worker->tryHold())
      Here = I;
  // A job's exception (host memory) comes out of here once every job has ended: the posted ones
  // use this stack.
  std::vector<std::exception_ptr> Escaped;
  std::vector<cl_int> Results;
  try {
    Escaped.resize(Jobs.size());
    Results.assign(Jobs.size(), CL_SUCCESS);
  } catch (...) {
    if (Here < Jobs.size())
      Jobs[Here].Device->Worker->release();
    throw;
  }
  Countdown AllDone(static_cast<int>(Jobs.size() - (Here < Jobs.size() ? 1 : 0)));
  for (std::size_t I = 0; I < Jobs.size(); ++I) {
    if (I == Here)
      continue;
    try {
      Jobs[I].Device->Worker->post([&, I] {
        try {
          Results[I] = Jobs[I].Run();
        } catch (...) {
          Escaped[I] = std::current_exception();
        }
        AllDone.done();
      });
    } catch (...) {
      Escaped[I] = std::current_exception(); // never posted: counted here
      AllDone.done();
    }
  }
  if (Here < Jobs.size()) {
    try {
      Results[Here] = Jobs[Here].Run();
    } catch (...) {
      Escaped[Here] = std::current_exception();
    }
    Jobs[Here].Device->Worker->release();
  }
  AllDone.wait();
  for (const std::exception_ptr &E : Escaped)
    if (E)
      std::rethrow_exception(E);
  for (cl_int Result : Results)
    if (Result != CL_SUCCESS)
      return Result;
  return CL_SUCCESS;
}

} // namespace libsplit
