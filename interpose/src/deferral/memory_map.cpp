#include "memory_map.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>

namespace libsplit {

namespace {

// The whole of /proc/self/maps. The file is generated as it is read, a page at a time, so it
// is read to the end in one go rather than line by line.
std::string readMaps() {
  std::string Text;
  const int Fd = ::open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return Text;
  char Chunk[16384];
  for (;;) {
    const ssize_t Got = ::read(Fd, Chunk, sizeof(Chunk));
    if (Got <= 0)
      break;
    Text.append(Chunk, static_cast<std::size_t>(Got));
  }
  ::close(Fd);
  return Text;
}

std::uintptr_t parseHex(const char *&At, const char *End) {
  std::uintptr_t Value = 0;
  for (; At < End; ++At) {
    const char C = *At;
    if (C >= '0' && C <= '9')
      Value = Value * 16 + static_cast<std::uintptr_t>(C - '0');
    else if (C >= 'a' && C <= 'f')
      Value = Value * 16 + static_cast<std::uintptr_t>(C - 'a' + 10);
    else
      break;
  }
  return Value;
}

struct StackBounds {
  std::uintptr_t Begin = 0;
  std::uintptr_t End = 0;
  bool Known = false;
};

StackBounds currentStack() {
  StackBounds Bounds;
  pthread_attr_t Attributes;
  if (pthread_getattr_np(pthread_self(), &Attributes) != 0)
    return Bounds;
  void *Low = nullptr;
  std::size_t Size = 0;
  if (pthread_attr_getstack(&Attributes, &Low, &Size) == 0) {
    Bounds.Begin = reinterpret_cast<std::uintptr_t>(Low);
    Bounds.End = Bounds.Begin + Size;
    Bounds.Known = true;
  }
  pthread_attr_destroy(&Attributes);
  return Bounds;
}

} // namespace

bool isPrivateWritableMemory(std::uintptr_t Begin, std::uintptr_t End,
                             const ProtectionCheck &ProtectedByLibsplit) {
  if (Begin >= End)
    return false;
  const std::string Maps = readMaps();
  // Lines are sorted by address: walk them until [Begin, End) is covered without a gap.
  std::uintptr_t Covered = Begin;
  const char *Line = Maps.data();
  const char *const Stop = Maps.data() + Maps.size();
  while (Line < Stop && Covered < End) {
    const char *LineEnd = static_cast<const char *>(std::memchr(Line, '\n', Stop - Line));
    if (!LineEnd)
      LineEnd = Stop;
    const char *At = Line;
    const std::uintptr_t Low = parseHex(At, LineEnd);
    ++At; // '-'
    const std::uintptr_t High = parseHex(At, LineEnd);
    ++At; // ' '
    const char *Permissions = At;
    if (High > Covered) {
      if (Low > Covered || LineEnd - Permissions < 4 ||
          std::string_view(Line, LineEnd - Line).find("[stack") != std::string_view::npos)
        return false;
      const bool Writable = std::memcmp(Permissions, "rw-p", 4) == 0;
      const bool OursReadOnly = std::memcmp(Permissions, "r--p", 4) == 0 && ProtectedByLibsplit &&
                                ProtectedByLibsplit(Covered, std::min(High, End));
      if (!Writable && !OursReadOnly)
        return false;
      Covered = High;
    }
    Line = LineEnd + 1;
  }
  return Covered >= End;
}

bool onCallingThreadStack(const void *Address, std::size_t Length) {
  // pthread_getattr_np reads /proc/self/maps for the main thread: once per thread is enough.
  thread_local const StackBounds Stack = currentStack();
  const auto Begin = reinterpret_cast<std::uintptr_t>(Address);
  if (!Stack.Known)
    return true; // unknown: the safe answer
  return Begin < Stack.End && Begin + Length > Stack.Begin;
}

} // namespace libsplit
