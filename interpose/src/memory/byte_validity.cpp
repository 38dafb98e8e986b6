#include "byte_validity.hpp"

namespace libsplit {

ByteValidity::ByteValidity(std::size_t DeviceCount, std::size_t Size, bool AppData)
    : Devices(DeviceCount), EverWritten(AppData) {
  Host.add(0, Size);
}

RangeSet ByteValidity::missingOn(std::size_t Device, const RangeSet &Wanted) const {
  RangeSet Missing = Wanted;
  Missing.subtract(Devices[Device]);
  return Missing;
}

RangeSet ByteValidity::missingOnHost(const RangeSet &Wanted) const {
  RangeSet Missing = Wanted;
  Missing.subtract(Host);
  return Missing;
}

bool ByteValidity::validOnHost(const RangeSet &Ranges) const {
  for (const Span &S : Ranges.spans())
    if (!Host.contains(S.Begin, S.End))
      return false;
  return true;
}

bool ByteValidity::wholeOn(std::size_t Device, std::size_t Begin, std::size_t End) const {
  return Devices[Device].contains(Begin, End);
}

bool ByteValidity::onlyOn(std::size_t Device, std::size_t Begin, std::size_t End) const {
  if (OnlyOnKnown && OnlyOnKnown->Device == Device && OnlyOnKnown->Begin <= Begin &&
      End <= OnlyOnKnown->End)
    return true;
  if (!EverWritten || Host.intersects(Begin, End))
    return false;
  for (std::size_t D = 0; D < Devices.size(); ++D)
    if (D == Device ? !Devices[D].contains(Begin, End) : Devices[D].intersects(Begin, End))
      return false;
  OnlyOnKnown = OnlyOnAnswer{Device, Begin, End};
  return true;
}

void ByteValidity::markValidOn(std::size_t Device, const RangeSet &Ranges) {
  changing();
  Devices[Device].add(Ranges);
}

void ByteValidity::markValidOnHost(const RangeSet &Ranges) {
  changing();
  Host.add(Ranges);
}

void ByteValidity::wroteOn(std::size_t Device, const RangeSet &Ranges) {
  changing();
  EverWritten = true;
  Host.subtract(Ranges);
  for (std::size_t D = 0; D < Devices.size(); ++D)
    if (D == Device)
      Devices[D].add(Ranges);
    else
      Devices[D].subtract(Ranges);
}

void ByteValidity::wroteOnHost(const RangeSet &Ranges) {
  changing();
  EverWritten = true;
  Host.add(Ranges);
  for (RangeSet &Valid : Devices)
    Valid.subtract(Ranges);
}

} // namespace libsplit
