#include "BufferData.h"

#include <cstring>
#include <random>

namespace libsplit::test {

std::vector<std::uint8_t> makeBufferData(const std::string &Init, std::size_t Bytes,
                                         std::uint32_t Seed, std::string &Error) {
  std::vector<std::uint8_t> Data(Bytes, 0);
  std::mt19937 Random(Seed * 7919u + 17u);
  auto putInt = [&](std::size_t Index, std::int32_t Value) {
    if ((Index + 1) * 4 <= Bytes)
      std::memcpy(Data.data() + Index * 4, &Value, 4);
  };
  if (Init == "zero" && Seed == 0)
    return Data;
  if (Init == "bytes" || Init == "zero") {
    for (std::uint8_t &Byte : Data)
      Byte = static_cast<std::uint8_t>(Random());
    return Data;
  }
  if (Init == "float") {
    std::uniform_real_distribution<float> Uniform(-1.0f, 1.0f);
    for (std::size_t I = 0; I + 4 <= Bytes; I += 4) {
      const float Value = Uniform(Random);
      std::memcpy(Data.data() + I, &Value, 4);
    }
    return Data;
  }
  if (Init.rfind("int:", 0) == 0) {
    const std::int32_t Modulus = std::stoi(Init.substr(4));
    for (std::size_t I = 0; I * 4 < Bytes; ++I)
      putInt(I, static_cast<std::int32_t>(Random() % static_cast<std::uint32_t>(Modulus)));
    return Data;
  }
  if (Init.rfind("rowptr:", 0) == 0) {
    const std::size_t Colon = Init.find(':', 7);
    const int Rows = std::stoi(Init.substr(7, Colon - 7));
    const int MaxLength = std::stoi(Init.substr(Colon + 1));
    std::int32_t At = 0;
    putInt(0, 0);
    for (int Row = 0; Row < Rows; ++Row) {
      At += static_cast<std::int32_t>(Random() % static_cast<std::uint32_t>(MaxLength + 1));
      putInt(static_cast<std::size_t>(Row) + 1, At);
    }
    return Data;
  }
  Error = "unknown buffer contents '" + Init + "'";
  return {};
}

} // namespace libsplit::test
