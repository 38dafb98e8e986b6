// Writes an answer to a clGet*Info query the way the specification asks: the size is always
// reported, the value only when the caller's buffer is large enough.
#pragma once

#include "opencl.hpp"

#include <cstring>
#include <string>
#include <vector>

namespace libsplit {

inline cl_int returnInfo(const void *Data, size_t Size, size_t ValueSize, void *Value,
                         size_t *SizeRet) {
  if (Value) {
    if (ValueSize < Size)
      return CL_INVALID_VALUE;
    if (Size)
      std::memcpy(Value, Data, Size);
  }
  if (SizeRet)
    *SizeRet = Size;
  return CL_SUCCESS;
}

template <typename T>
cl_int returnValue(const T &Item, size_t ValueSize, void *Value, size_t *SizeRet) {
  return returnInfo(&Item, sizeof(T), ValueSize, Value, SizeRet);
}

template <typename T>
cl_int returnVector(const std::vector<T> &Items, size_t ValueSize, void *Value, size_t *SizeRet) {
  return returnInfo(Items.data(), Items.size() * sizeof(T), ValueSize, Value, SizeRet);
}

inline cl_int returnString(const std::string &Text, size_t ValueSize, void *Value,
                           size_t *SizeRet) {
  return returnInfo(Text.c_str(), Text.size() + 1, ValueSize, Value, SizeRet);
}

inline void setError(cl_int *ErrorRet, cl_int Error) {
  if (ErrorRet)
    *ErrorRet = Error;
}

} // namespace libsplit
