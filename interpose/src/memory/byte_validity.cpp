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

namespace {

bool containsAll(const RangeSet &Set, const RangeSet &Ranges) {
  for (const Span &S : Ranges.spans())
    if (!Set.contains(S.Begin, S.End))
      return false;
  return true;
}

bool intersectsAny(const RangeSet &Set, const RangeSet &Ranges) {
  for (const Span &S : Ranges.spans())
    if (Set.intersects(S.Begin, S.End))
      return true;
  return false;
}

} // namespace

bool ByteValidity::writtenOnlyThere(const RangeSet *Place, const RangeSet &Ranges) const {
  if (!EverWritten || !containsAll(Place ? *Place : Host, Ranges) ||
      (Place && intersectsAny(Host, Ranges)))
    return false;
  for (const RangeSet &Valid : Devices)
    if (&Valid != Place && intersectsAny(Valid, Ranges))
      return false;
  return true;
}

void ByteValidity::markValidOn(std::size_t Device, const RangeSet &Ranges) {
  if (containsAll(Devices[Device], Ranges))
    return;
  changing();
  Devices[Device].add(Ranges);
}

void ByteValidity::forgetOn(std::size_t Device, const RangeSet &Ranges) {
  if (Devices[Device].intersection(Ranges).empty())
    return;
  changing();
  Devices[Device].subtract(Ranges);
}

void ByteValidity::markValidOnHost(const RangeSet &Ranges) {
  if (containsAll(Host, Ranges))
    return;
  changing();
  Host.add(Ranges);
}

void ByteValidity::wroteOn(std::size_t Device, const RangeSet &Ranges) {
  if (writtenOnlyThere(&Devices[Device], Ranges))
    return;
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
  if (writtenOnlyThere(nullptr, Ranges))
    return;
  changing();
  EverWritten = true;
  Host.add(Ranges);
  for (RangeSet &Valid : Devices)
    Valid.subtract(Ranges);
}

} // namespace libsplit
