// Names libsplit's own threads for the system (top -H, perf, gdb, /proc/<pid>/task/*/comm):
// otherwise they carry the app's name, and a profile of an app under libsplit cannot tell its
// threads from libsplit's or the OpenCL implementation's.
#pragma once

#include <pthread.h>

#include <string>

namespace libsplit {

// Name: at most 15 characters kept (the kernel's limit).
inline void nameThisThread(const std::string &Name) {
  pthread_setname_np(pthread_self(), Name.substr(0, 15).c_str());
}

} // namespace libsplit
