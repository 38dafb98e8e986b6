#include "run_record.hpp"

#include "libsplit/support/json.hpp"
#include "libsplit/support/text.hpp"

#include <algorithm>
#include <cinttypes>
#include <locale>
#include <sstream>

namespace libsplit {

namespace {

using support::jsonString;

std::string jsonArray(const std::array<std::uint64_t, 3> &Values, std::uint32_t Count) {
  std::string Out = "[";
  for (std::uint32_t I = 0; I < Count; ++I)
    Out += (I ? "," : "") + std::to_string(Values[I]);
  return Out + "]";
}

using support::formatFixed;
using support::formatNumber;

// Text right-aligned in Width columns, as printf's "%*s".
std::string padded(const std::string &Text, std::size_t Width) {
  return Text.size() >= Width ? Text : std::string(Width - Text.size(), ' ') + Text;
}

} // namespace

RunRecorder::RunRecorder(const std::string &TracePath, bool Summary) : WantSummary(Summary) {
  if (!TracePath.empty())
    Trace = std::fopen(TracePath.c_str(), "w");
}

RunRecorder::~RunRecorder() {
  if (Trace)
    std::fclose(Trace);
}

void RunRecorder::record(const LaunchRecord &L) {
  // Nothing asked for the totals or the trace: a launch costs no lock or lookup here (set once
  // at construction, so read without the lock).
  if (!WantSummary && !Trace)
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  const std::uint64_t Index = LaunchIndex++;
  KernelTotals &K = Kernels[L.Kernel];
  ++K.Launches;
  K.SplitLaunches += L.Split ? 1 : 0;
  K.SharedLaunches += L.Split && L.Devices.size() >= 2 ? 1 : 0;
  K.ChunkedLaunches += L.Purpose == "chunked" ? 1 : 0;
  if (!L.Split && !L.Unsplit.empty()) {
    K.Unsplit = L.Unsplit;
    K.NotOpenAfter = K.NotOpenWaited = K.NotOpenQueued = -1.0;
  }
  K.MakespanSum += L.MakespanSeconds;
  K.Devices.clear();
  K.LastShares.clear();
  for (const DeviceRecord &D : L.Devices) {
    K.Devices.push_back(D.Name);
    K.LastShares.push_back(D.Share);
    K.Bytes += D.BytesIn + D.BytesOut;
    BytesInLaunches += D.BytesIn;
    DeviceBusy[D.Name] += D.KernelSeconds + D.TransferSeconds;
  }
  if (!Trace)
    return;
  std::ostringstream Out;
  Out.imbue(std::locale::classic()); // no digit grouping from a locale the app set
  Out << "{\"launch\":" << Index << ",\"kernel\":" << jsonString(L.Kernel)
      << ",\"work_dim\":" << L.WorkDim << ",\"global\":" << jsonArray(L.Global, L.WorkDim)
      << ",\"local\":" << (L.Local[0] ? jsonArray(L.Local, L.WorkDim) : "null")
      << ",\"offset\":" << jsonArray(L.Offset, L.WorkDim)
      << ",\"split\":" << (L.Split ? "true" : "false");
  if (L.Split)
    Out << ",\"split_dim\":" << L.SplitDim << ",\"purpose\":" << jsonString(L.Purpose)
        << ",\"merged\":" << (L.Merged ? "true" : "false")
        << ",\"combined\":" << (L.Combined ? "true" : "false");
  else
    Out << ",\"unsplit_reason\":" << jsonString(L.Unsplit);
  Out << ",\"makespan_s\":" << formatNumber(L.MakespanSeconds) << ",\"devices\":[";
  for (std::size_t I = 0; I < L.Devices.size(); ++I) {
    const DeviceRecord &D = L.Devices[I];
    Out << (I ? "," : "") << "{\"name\":" << jsonString(D.Name)
        << ",\"share\":" << formatNumber(D.Share) << ",\"first_group\":" << D.FirstGroup
        << ",\"groups\":" << D.Groups << ",\"kernel_s\":" << formatNumber(D.KernelSeconds)
        << ",\"transfer_s\":" << formatNumber(D.TransferSeconds) << ",\"bytes_in\":" << D.BytesIn
        << ",\"bytes_out\":" << D.BytesOut << ",\"early_groups\":" << D.EarlyGroups << "}";
  }
  Out << "],\"balancer\":{\"state\":" << jsonString(L.BalancerState)
      << ",\"converged\":" << (L.Converged ? "true" : "false")
      << ",\"spread\":" << formatNumber(L.Spread) << ",\"noise\":" << formatNumber(L.Noise)
      << ",\"spread_noise\":" << formatNumber(L.SpreadNoise) << "}}\n";
  const std::string Line = Out.str();
  std::fwrite(Line.data(), 1, Line.size(), Trace);
}

RunRecorder::KernelTotals &RunRecorder::countUntimedLocked(const std::string &Kernel,
                                                           const std::string &Device) {
  KernelTotals &K = Kernels[Kernel];
  ++K.Launches;
  ++K.Untimed;
  if (K.Devices.size() != 1 || K.Devices.front() != Device) {
    K.Devices.assign(1, Device);
    K.LastShares.assign(1, 1.0);
  }
  DeviceBusy.try_emplace(Device, 0.0); // named among the devices, busy or not as far as known
  return K;
}

void RunRecorder::countUntimed(const std::string &Kernel, const std::string &Device,
                               std::string_view Why, std::uint64_t BytesIn) {
  if (!WantSummary)
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  KernelTotals &K = countUntimedLocked(Kernel, Device);
  K.Bytes += BytesIn;
  BytesInLaunches += BytesIn;
  if (K.Unsplit != Why)
    K.Unsplit.assign(Why);
}

void RunRecorder::countUntimedNotOpen(const std::string &Kernel, const std::string &Device,
                                      double OpenAfterSeconds, double WaitedSeconds,
                                      double QueuedSeconds) {
  if (!WantSummary)
    return;
  std::lock_guard<std::mutex> Lock(Mutex);
  KernelTotals &K = countUntimedLocked(Kernel, Device);
  K.Unsplit.clear();
  K.NotOpenAfter = OpenAfterSeconds;
  K.NotOpenWaited = WaitedSeconds;
  K.NotOpenQueued = QueuedSeconds;
}

std::string RunRecorder::notOpenYet(double OpenAfterSeconds, double WaitedSeconds,
                                    double QueuedSeconds) {
  if (OpenAfterSeconds < 0.0 && WaitedSeconds < 0.0)
    return "the split devices are not open yet (LIBSPLIT_OPEN)";
  const bool Queued = QueuedSeconds >= 0.0;
  return "the split devices are not open yet (LIBSPLIT_OPEN: they open once the app has waited " +
         formatFixed(OpenAfterSeconds, 3) + " s for its device" +
         (Queued ? ", or its launches queued are predicted to take that long" : "") +
         "; it had waited " + formatFixed(WaitedSeconds, 3) + " s" +
         (Queued ? ", its launches queued " + formatFixed(QueuedSeconds, 3) + " s" : "") + ")";
}

void RunRecorder::countHostWrite(HostWrite Kind, std::uint64_t Bytes) {
  std::lock_guard<std::mutex> Lock(Mutex);
  WriteCount &C = HostWrites[Kind];
  ++C.Calls;
  C.Bytes += Bytes;
}

void RunRecorder::countEagerBytes(std::uint64_t Bytes) {
  std::lock_guard<std::mutex> Lock(Mutex);
  EagerBytes += Bytes;
}

void RunRecorder::flush() {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Trace)
    std::fflush(Trace);
}

std::string RunRecorder::summary() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!WantSummary)
    return {};
  // Devices are named once, in the per-device part, and referred to as D0, D1, ... above it.
  std::map<std::string, std::size_t> Index;
  for (const auto &[Name, Seconds] : DeviceBusy)
    Index.emplace(Name, Index.size());
  std::ostringstream Out;
  Out.imbue(std::locale::classic());
  std::size_t Width = 6;
  for (const auto &[Name, K] : Kernels)
    Width = std::max(Width, Name.size());
  // A split launch may give every work-group to one device (a device dropped, or measured
  // alone): how many ran on two devices or more is what shows the split.
  Out << "per kernel: launches, split launches, of them on 2+ devices, mean makespan, bytes "
         "moved, last split (and how many launches ran in chunks, or ran as natively, not "
         "timed):\n";
  for (const auto &[Name, K] : Kernels) {
    Out << "  " << Name << std::string(Width - Name.size(), ' ') << " "
        << padded(std::to_string(K.Launches), 6) << " launches "
        << padded(std::to_string(K.SplitLaunches), 6) << " split "
        << padded(std::to_string(K.SharedLaunches), 6) << " on 2+ "
        << (K.Launches > K.Untimed
                ? padded(formatFixed(
                             1e3 * K.MakespanSum / static_cast<double>(K.Launches - K.Untimed), 3),
                         10)
                : padded("-", 10))
        << " ms " << padded(formatFixed(static_cast<double>(K.Bytes) / (1024.0 * 1024.0), 1), 10)
        << " MiB  ";
    if (K.SplitLaunches == 0) {
      // Where it ran last: a kernel that cannot split moves to the device measured fastest.
      Out << "unsplit";
      if (K.Devices.size() == 1)
        Out << ", last on D" << Index[K.Devices.front()];
      Out << ": "
          << (!K.Unsplit.empty()      ? K.Unsplit
              : K.NotOpenAfter >= 0.0 ? notOpenYet(K.NotOpenAfter, K.NotOpenWaited, K.NotOpenQueued)
                                      : "?");
    } else {
      for (std::size_t I = 0; I < K.Devices.size(); ++I)
        Out << (I ? ", " : "") << "D" << Index[K.Devices[I]] << " "
            << formatFixed(K.LastShares[I], 3);
    }
    if (K.ChunkedLaunches)
      Out << " (" << K.ChunkedLaunches << " in chunks)";
    if (K.Untimed)
      Out << " (" << K.Untimed << " as natively, not timed)";
    Out << "\n";
  }
  if (!HostWrites.empty()) {
    auto count = [&](HostWrite Kind, const char *Name) {
      auto It = HostWrites.find(Kind);
      const bool Any = It != HostWrites.end();
      return std::to_string(Any ? It->second.Calls : 0) + " " + Name + " (" +
             formatFixed(Any ? static_cast<double>(It->second.Bytes) / 1048576.0 : 0.0, 1) +
             " MiB)";
    };
    const std::string Sent =
        "; host to devices: " + formatFixed(static_cast<double>(BytesInLaunches) / 1048576.0, 1) +
        " MiB before kernels, " + formatFixed(static_cast<double>(EagerBytes) / 1048576.0, 1) +
        " MiB at write time\n";
    Out << "host writes: " << count(HostWrite::Deferred, "deferred") << ", "
        << count(HostWrite::Copied, "copied") << ", " << count(HostWrite::Eager, "sent eagerly")
        << ", " << count(HostWrite::ToAppDevice, "sent to the app's device") << ", "
        << count(HostWrite::OnAppMemory, "on the app's memory") << Sent;
  }
  Out << "per device: busy time (kernels and transfers";
  if (std::any_of(Kernels.begin(), Kernels.end(), [](const auto &K) { return K.second.Untimed; }))
    Out << " of the launches timed";
  Out << "):\n";
  for (const auto &[Name, Seconds] : DeviceBusy)
    Out << "  D" << Index[Name] << " " << padded(formatFixed(Seconds, 3), 10) << " s  " << Name
        << "\n";
  return Out.str();
}

} // namespace libsplit
