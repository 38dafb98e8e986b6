#include "KernelList.h"

#include <sstream>

namespace libsplit::test {

const ListedKernel *KernelList::find(const std::string &Name) const {
  for (const ListedKernel &Kernel : Kernels)
    if (Kernel.Name == Name)
      return &Kernel;
  return nullptr;
}

namespace {

bool parseIndex(const std::string &Word, int &Index) {
  if (Word == "-") {
    Index = -1;
    return true;
  }
  try {
    size_t Used = 0;
    Index = std::stoi(Word, &Used);
    return Used == Word.size() && Index >= 0;
  } catch (...) {
    return false;
  }
}

std::string restOfLine(std::istringstream &Line) {
  std::string Rest;
  std::getline(Line >> std::ws, Rest);
  return Rest;
}

} // namespace

std::optional<KernelList> parseKernelList(const std::string &Text, std::string &Error) {
  std::istringstream Lines(Text);
  std::string Line;
  KernelList List;
  if (!std::getline(Lines, Line) || Line != "libsplit-kernels 2") {
    Error = "bad header line '" + Line + "'";
    return std::nullopt;
  }
  if (!std::getline(Lines, Line)) {
    Error = "missing program line";
    return std::nullopt;
  }
  {
    std::istringstream Words(Line);
    std::string Key, Status;
    Words >> Key >> Status;
    if (Key != "program" || (Status != "rewritten" && Status != "rejected")) {
      Error = "bad program line '" + Line + "'";
      return std::nullopt;
    }
    List.Rewritten = Status == "rewritten";
    List.ProgramReason = restOfLine(Words);
  }
  while (std::getline(Lines, Line)) {
    std::istringstream Words(Line);
    std::string Key;
    Words >> Key;
    if (Key == "end") {
      size_t Count = 0;
      Words >> Count;
      if (Count != List.Kernels.size()) {
        Error = "end line counts " + std::to_string(Count) + " kernels, read " +
                std::to_string(List.Kernels.size());
        return std::nullopt;
      }
      return List;
    }
    ListedKernel Kernel;
    std::string ArgsKey, DimKey, Dim, GroupsKey, Groups, OriginKey, Origin, Verdict;
    Words >> Kernel.Name >> ArgsKey >> Kernel.NumArgs >> DimKey >> Dim >> GroupsKey >> Groups >>
        OriginKey >> Origin >> Verdict;
    if (Key != "kernel" || ArgsKey != "args" || DimKey != "splitdim" || GroupsKey != "numgroups" ||
        OriginKey != "splitorigin" || !parseIndex(Dim, Kernel.SplitDimIndex) ||
        !parseIndex(Groups, Kernel.NumGroupsIndex) ||
        !parseIndex(Origin, Kernel.SplitOriginIndex) ||
        (Verdict != "splittable" && Verdict != "unsplittable")) {
      Error = "bad kernel line '" + Line + "'";
      return std::nullopt;
    }
    Kernel.Splittable = Verdict == "splittable";
    Kernel.Reason = restOfLine(Words);
    if (Kernel.Splittable) {
      Kernel.OffsetExact = Kernel.Reason == "offset-exact";
      if (!Kernel.OffsetExact && !Kernel.Reason.empty()) {
        Error = "bad kernel line '" + Line + "'";
        return std::nullopt;
      }
      Kernel.Reason.clear();
    }
    List.Kernels.push_back(Kernel);
  }
  Error = "no end line (truncated?)";
  return std::nullopt;
}

} // namespace libsplit::test
