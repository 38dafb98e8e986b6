#include "run_record.hpp"

#include <algorithm>
#include <cinttypes>
#include <sstream>

namespace libsplit {

namespace {

std::string jsonString(const std::string &Text) {
  std::string Out = "\"";
  for (char C : Text) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (static_cast<unsigned char>(C) < 0x20) {
      char Escaped[8];
      std::snprintf(Escaped, sizeof(Escaped), "\\u%04x", C);
      Out += Escaped;
    } else {
      Out += C;
    }
  }
  return Out + "\"";
}

std::string jsonArray(const std::array<std::uint64_t, 3> &Values, std::uint32_t Count) {
  std::string Out = "[";
  for (std::uint32_t I = 0; I < Count; ++I)
    Out += (I ? "," : "") + std::to_string(Values[I]);
  return Out + "]";
}

std::string number(double Value) {
  char Text[32];
  std::snprintf(Text, sizeof(Text), "%.9g", Value);
  return Text;
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
  if (!L.Split && !L.Unsplit.empty())
    K.Unsplit = L.Unsplit;
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
  Out << ",\"makespan_s\":" << number(L.MakespanSeconds) << ",\"devices\":[";
  for (std::size_t I = 0; I < L.Devices.size(); ++I) {
    const DeviceRecord &D = L.Devices[I];
    Out << (I ? "," : "") << "{\"name\":" << jsonString(D.Name) << ",\"share\":" << number(D.Share)
        << ",\"first_group\":" << D.FirstGroup << ",\"groups\":" << D.Groups
        << ",\"kernel_s\":" << number(D.KernelSeconds)
        << ",\"transfer_s\":" << number(D.TransferSeconds) << ",\"bytes_in\":" << D.BytesIn
        << ",\"bytes_out\":" << D.BytesOut << "}";
  }
  Out << "],\"balancer\":{\"state\":" << jsonString(L.BalancerState)
      << ",\"converged\":" << (L.Converged ? "true" : "false") << ",\"spread\":" << number(L.Spread)
      << ",\"noise\":" << number(L.Noise) << ",\"spread_noise\":" << number(L.SpreadNoise)
      << "}}\n";
  const std::string Line = Out.str();
  std::fwrite(Line.data(), 1, Line.size(), Trace);
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
  std::size_t Width = 6;
  for (const auto &[Name, K] : Kernels)
    Width = std::max(Width, Name.size());
  // A split launch may give every work-group to one device (a device dropped, or measured
  // alone): how many ran on two devices or more is what shows the split.
  Out << "per kernel: launches, split launches, of them on 2+ devices, mean makespan, bytes "
         "moved, last split:\n";
  for (const auto &[Name, K] : Kernels) {
    char Line[256];
    std::snprintf(
        Line, sizeof(Line),
        "  %-*s %6" PRIu64 " launches %6" PRIu64 " split %6" PRIu64 " on 2+ %10.3f ms %10.1f MiB  ",
        static_cast<int>(Width), Name.c_str(), K.Launches, K.SplitLaunches, K.SharedLaunches,
        1e3 * K.MakespanSum / static_cast<double>(std::max<std::uint64_t>(K.Launches, 1)),
        static_cast<double>(K.Bytes) / (1024.0 * 1024.0));
    Out << Line;
    if (K.SplitLaunches == 0) {
      // Where it ran last: a kernel that cannot split moves to the device measured fastest.
      Out << "unsplit";
      if (K.Devices.size() == 1)
        Out << ", last on D" << Index[K.Devices.front()];
      Out << ": " << (K.Unsplit.empty() ? "?" : K.Unsplit) << "\n";
      continue;
    }
    for (std::size_t I = 0; I < K.Devices.size(); ++I) {
      char Share[64];
      std::snprintf(Share, sizeof(Share), "%sD%zu %.3f", I ? ", " : "", Index[K.Devices[I]],
                    K.LastShares[I]);
      Out << Share;
    }
    Out << "\n";
  }
  if (!HostWrites.empty()) {
    auto count = [&](HostWrite Kind, const char *Name) {
      auto It = HostWrites.find(Kind);
      char Text[128];
      std::snprintf(Text, sizeof(Text), "%" PRIu64 " %s (%.1f MiB)",
                    It == HostWrites.end() ? 0 : It->second.Calls, Name,
                    It == HostWrites.end() ? 0.0
                                           : static_cast<double>(It->second.Bytes) / 1048576.0);
      return std::string(Text);
    };
    char Sent[160];
    std::snprintf(Sent, sizeof(Sent),
                  "; host to devices: %.1f MiB before kernels, %.1f MiB at write time\n",
                  static_cast<double>(BytesInLaunches) / 1048576.0,
                  static_cast<double>(EagerBytes) / 1048576.0);
    Out << "host writes: " << count(HostWrite::Deferred, "deferred") << ", "
        << count(HostWrite::Copied, "copied") << ", " << count(HostWrite::Eager, "sent eagerly")
        << ", " << count(HostWrite::ToAppDevice, "sent to the app's device") << ", "
        << count(HostWrite::OnAppMemory, "on the app's memory") << Sent;
  }
  Out << "per device: busy time (kernels and transfers):\n";
  for (const auto &[Name, Seconds] : DeviceBusy) {
    char Line[256];
    std::snprintf(Line, sizeof(Line), "  D%zu %10.3f s  %s\n", Index[Name], Seconds, Name.c_str());
    Out << Line;
  }
  return Out.str();
}

} // namespace libsplit
