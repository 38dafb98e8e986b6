#include "CorpusSpec.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace libsplit::test {

namespace {

bool parseSizes(const std::string &Text, std::array<std::size_t, 3> &Out, unsigned &Dims) {
  Dims = 0;
  std::stringstream In(Text);
  std::string Part;
  while (std::getline(In, Part, 'x')) {
    if (Dims == 3 || Part.empty())
      return false;
    Out[Dims++] = std::stoull(Part);
  }
  return Dims > 0;
}

template <typename T> std::vector<std::uint8_t> bytesOf(T Value) {
  std::vector<std::uint8_t> Bytes(sizeof(T));
  std::memcpy(Bytes.data(), &Value, sizeof(T));
  return Bytes;
}

bool parseArg(std::istringstream &In, ArgSpec &Arg) {
  std::string Kind;
  In >> Kind;
  if (Kind == "buffer") {
    Arg.What = ArgSpec::Kind::Buffer;
    return static_cast<bool>(In >> Arg.Bytes >> Arg.Init);
  }
  if (Kind == "local") {
    Arg.What = ArgSpec::Kind::Local;
    return static_cast<bool>(In >> Arg.Bytes);
  }
  std::string Value;
  if (!(In >> Value))
    return false;
  Arg.What = ArgSpec::Kind::Scalar;
  if (Kind == "int")
    Arg.Value = bytesOf<std::int32_t>(std::stoi(Value));
  else if (Kind == "uint")
    Arg.Value = bytesOf<std::uint32_t>(static_cast<std::uint32_t>(std::stoul(Value)));
  else if (Kind == "long")
    Arg.Value = bytesOf<std::int64_t>(std::stoll(Value));
  else if (Kind == "ulong")
    Arg.Value = bytesOf<std::uint64_t>(std::stoull(Value));
  else if (Kind == "float")
    Arg.Value = bytesOf<float>(std::stof(Value));
  else
    return false;
  return true;
}

} // namespace

bool readCorpusFile(const std::string &Path, CorpusFile &Out, std::string &Error) {
  std::ifstream File(Path);
  if (!File) {
    Error = "cannot read " + Path;
    return false;
  }
  std::stringstream Whole;
  Whole << File.rdbuf();
  Out.Source = Whole.str();
  std::istringstream Lines(Out.Source);
  std::string Line;
  int Number = 0;
  while (std::getline(Lines, Line)) {
    ++Number;
    if (Line.rfind("//@ ", 0) != 0)
      continue;
    std::istringstream In(Line.substr(4));
    std::string Keyword;
    In >> Keyword;
    auto Fail = [&](const std::string &What) {
      Error = Path + ":" + std::to_string(Number) + ": " + What;
      return false;
    };
    try {
      if (Keyword == "options") {
        std::getline(In, Out.Options);
        Out.Options.erase(0, Out.Options.find_first_not_of(' '));
      } else if (Keyword == "launch") {
        LaunchSpec Launch;
        Launch.Line = Number;
        In >> Launch.Kernel;
        std::string Word;
        while (In >> Word) {
          const std::size_t Eq = Word.find('=');
          const std::string Key = Word.substr(0, Eq);
          const std::string Value = Eq == std::string::npos ? "" : Word.substr(Eq + 1);
          unsigned Dims = 0;
          if (Key == "global") {
            if (!parseSizes(Value, Launch.Global, Launch.WorkDim))
              return Fail("bad global size");
          } else if (Key == "local") {
            if (!parseSizes(Value, Launch.Local, Dims) || Dims != Launch.WorkDim)
              return Fail("bad local size");
          } else if (Key == "offset") {
            if (!parseSizes(Value, Launch.Offset, Dims) || Dims != Launch.WorkDim)
              return Fail("bad offset");
          } else if (Key == "disjoint") {
            std::stringstream Dimensions(Value);
            std::string D;
            while (std::getline(Dimensions, D, ','))
              Launch.Disjoint.push_back(static_cast<unsigned>(std::stoul(D)));
          } else if (Key == "tight") {
            Launch.Tight = true;
          } else {
            return Fail("unknown launch setting '" + Key + "'");
          }
        }
        for (unsigned D = 0; D < Launch.WorkDim; ++D)
          if (Launch.Local[D] == 0 || Launch.Global[D] % Launch.Local[D] != 0)
            return Fail("global size not a multiple of the local size");
        Out.Launches.push_back(std::move(Launch));
      } else if (Keyword == "arg") {
        if (Out.Launches.empty())
          return Fail("'arg' before any 'launch'");
        ArgSpec Arg;
        if (!parseArg(In, Arg))
          return Fail("bad argument");
        Out.Launches.back().Args.push_back(std::move(Arg));
      } else {
        return Fail("unknown directive '" + Keyword + "'");
      }
    } catch (const std::exception &) {
      return Fail("bad number");
    }
  }
  return true;
}

} // namespace libsplit::test
