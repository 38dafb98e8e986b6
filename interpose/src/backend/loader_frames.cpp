#include "loader_frames.hpp"

#include <link.h>
#include <unwind.h>

#include <cstdint>
#include <cstring>

// Defined by the dynamic loader (the TLS ABI's entry point): an address inside it, wherever the
// loader was mapped (as the program's interpreter, or run as a program itself).
extern "C" void *__tls_get_addr(void *);

namespace libsplit {

namespace {

struct TextRange {
  std::uintptr_t Begin = 0;
  std::uintptr_t End = 0;
  bool holds(std::uintptr_t Address) const { return Address >= Begin && Address < End; }
  bool known() const { return Begin != End; }
};

// The code of the objects a walk of a stack may end in, and of the loader.
struct Objects {
  TextRange Loader;   // the object that defines __tls_get_addr
  TextRange Program;  // the first object listed: the program (its _start)
  TextRange CLibrary; // libc.so (a thread's start_thread and clone, the main thread's start)
  bool FirstSeen = false;
};

TextRange textOf(const dl_phdr_info &Info) {
  TextRange Range;
  for (int I = 0; I < Info.dlpi_phnum; ++I) {
    const ElfW(Phdr) &Segment = Info.dlpi_phdr[I];
    if (Segment.p_type == PT_LOAD && (Segment.p_flags & PF_X)) {
      Range.Begin = Info.dlpi_addr + Segment.p_vaddr;
      Range.End = Range.Begin + Segment.p_memsz;
      break;
    }
  }
  return Range;
}

bool holdsAddress(const dl_phdr_info &Info, std::uintptr_t Address) {
  for (int I = 0; I < Info.dlpi_phnum; ++I) {
    const ElfW(Phdr) &Segment = Info.dlpi_phdr[I];
    const std::uintptr_t Begin = Info.dlpi_addr + Segment.p_vaddr;
    if (Segment.p_type == PT_LOAD && Address >= Begin && Address < Begin + Segment.p_memsz)
      return true;
  }
  return false;
}

int noteObject(dl_phdr_info *Info, size_t, void *Data) {
  auto &Found = *static_cast<Objects *>(Data);
  if (!Found.FirstSeen) {
    Found.FirstSeen = true;
    Found.Program = textOf(*Info);
  }
  if (holdsAddress(*Info, reinterpret_cast<std::uintptr_t>(&__tls_get_addr)))
    Found.Loader = textOf(*Info);
  const char *Name = Info->dlpi_name ? std::strrchr(Info->dlpi_name, '/') : nullptr;
  Name = Name ? Name + 1 : Info->dlpi_name;
  if (Name && std::strncmp(Name, "libc.so", 7) == 0)
    Found.CLibrary = textOf(*Info);
  return 0;
}

struct Walk {
  Objects Known;
  bool UnderLoader = false;
  std::uintptr_t LastAddress = 0;
  int Frames = 0;
};

_Unwind_Reason_Code visitFrame(_Unwind_Context *Context, void *Data) {
  auto &State = *static_cast<Walk *>(Data);
  const std::uintptr_t Address = _Unwind_GetIP(Context);
  if (Address == 0) // past the outermost frame
    return _URC_END_OF_STACK;
  State.LastAddress = Address;
  if (State.Known.Loader.holds(Address)) {
    State.UnderLoader = true;
    return _URC_END_OF_STACK;
  }
  return ++State.Frames < 512 ? _URC_NO_REASON : _URC_END_OF_STACK;
}

} // namespace

bool mayRunUnderLoader() {
  Walk State;
  dl_iterate_phdr(noteObject, &State.Known);
  if (!State.Known.Loader.known()) // a static program: no loader
    return false;
  _Unwind_Backtrace(visitFrame, &State);
  if (State.UnderLoader)
    return true;
  // A whole stack ends where a thread or the process starts; a walk stopped elsewhere met a
  // frame it could not read past.
  return !State.Known.Program.holds(State.LastAddress) &&
         !State.Known.CLibrary.holds(State.LastAddress);
}

} // namespace libsplit
