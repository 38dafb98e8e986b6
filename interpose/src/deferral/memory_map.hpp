// Which of the app's memory libsplit may write-protect for a deferred host write. Only private,
// writable, non-executable mappings qualify (rw-p in /proc/self/maps): protecting code would
// stop it from running, "unprotecting" read-only data later would make it writable, and a
// shared mapping can change under libsplit without any fault. Stacks never qualify: a stack
// page is reused by the next calls' locals, which the kernel would then refuse to write into
// (a system call fails with EFAULT on a protected page instead of faulting).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace libsplit {

// Whether [Begin, End) lies wholly in private writable non-executable mappings that are not
// the main thread's stack. Read-only private parts count when ProtectedByLibsplit says libsplit
// itself made all of them read-only (pending writes of the same bytes). Reads /proc/self/maps
// (tens of microseconds): callers use it for large writes only.
using ProtectionCheck = std::function<bool(std::uintptr_t Begin, std::uintptr_t End)>;
bool isPrivateWritableMemory(std::uintptr_t Begin, std::uintptr_t End,
                             const ProtectionCheck &ProtectedByLibsplit = nullptr);

// Whether [Address, Address + Length) overlaps the calling thread's stack.
bool onCallingThreadStack(const void *Address, std::size_t Length);

} // namespace libsplit
