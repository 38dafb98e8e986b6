// AES-128 encryption in ECB mode, one 16-byte block per work-item, with the classic 32-bit
// T-table formulation (as in OpenSSL's aes_core.c and the vendor SDK samples): the four round
// tables Te0..Te3 and the S-box are program-scope __constant arrays in the kernel source (the
// host computes them and prints them into the source), the key schedule is expanded on the host
// and passed in a __constant buffer. The buffer is encrypted --iterations times in a chain
// (launch k encrypts launch k-1's ciphertext; two buffers swapped with clSetKernelArg), so a
// launch that skipped or mangled any block changes the final result.
//
// Data layout: each 16-byte block is four 32-bit words, and each word holds one column of the
// AES state with the first byte in the most significant position (OpenSSL's GETU32 order). The
// output file is the final ciphertext as those words (u32); the check is a plain byte-oriented
// C++ AES (SubBytes, ShiftRows, MixColumns, AddRoundKey) that is itself checked against the
// FIPS-197 appendix C.1 example first.
#include "common/app_common.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

static const char *KernelBody = R"CLC(
#define B0(x) ((x) >> 24)
#define B1(x) (((x) >> 16) & 0xFFu)
#define B2(x) (((x) >> 8) & 0xFFu)
#define B3(x) ((x) & 0xFFu)

__kernel void aes128_encrypt(__global const uint4 *in, __global uint4 *out,
                             __constant uint *round_keys, const uint blocks) {
  const uint i = get_global_id(0);
  if (i >= blocks)
    return;
  const uint4 b = in[i];
  uint s0 = b.x ^ round_keys[0];
  uint s1 = b.y ^ round_keys[1];
  uint s2 = b.z ^ round_keys[2];
  uint s3 = b.w ^ round_keys[3];
  for (uint r = 1; r < 10; ++r) {
    const uint t0 = Te0[B0(s0)] ^ Te1[B1(s1)] ^ Te2[B2(s2)] ^ Te3[B3(s3)] ^ round_keys[4 * r];
    const uint t1 = Te0[B0(s1)] ^ Te1[B1(s2)] ^ Te2[B2(s3)] ^ Te3[B3(s0)] ^ round_keys[4 * r + 1];
    const uint t2 = Te0[B0(s2)] ^ Te1[B1(s3)] ^ Te2[B2(s0)] ^ Te3[B3(s1)] ^ round_keys[4 * r + 2];
    const uint t3 = Te0[B0(s3)] ^ Te1[B1(s0)] ^ Te2[B2(s1)] ^ Te3[B3(s2)] ^ round_keys[4 * r + 3];
    s0 = t0;
    s1 = t1;
    s2 = t2;
    s3 = t3;
  }
  uint4 c;
  c.x = (Sbox[B0(s0)] << 24) ^ (Sbox[B1(s1)] << 16) ^ (Sbox[B2(s2)] << 8) ^ Sbox[B3(s3)] ^
        round_keys[40];
  c.y = (Sbox[B0(s1)] << 24) ^ (Sbox[B1(s2)] << 16) ^ (Sbox[B2(s3)] << 8) ^ Sbox[B3(s0)] ^
        round_keys[41];
  c.z = (Sbox[B0(s2)] << 24) ^ (Sbox[B1(s3)] << 16) ^ (Sbox[B2(s0)] << 8) ^ Sbox[B3(s1)] ^
        round_keys[42];
  c.w = (Sbox[B0(s3)] << 24) ^ (Sbox[B1(s0)] << 16) ^ (Sbox[B2(s1)] << 8) ^ Sbox[B3(s2)] ^
        round_keys[43];
  out[i] = c;
}
)CLC";

constexpr size_t LocalSize = 64;
constexpr size_t RoundKeyWords = 44;
// The reference re-encrypts at most this many blocks (each through every launch): all of them
// when the run is smaller, else every SampleStride-th block plus the last one. The stride is
// below the local size, so each work-group has checked blocks.
constexpr double ReferenceBlockBudget = 1 << 20;
constexpr size_t SampleStride = 61;

using Block = std::array<uint8_t, 16>;

static uint8_t xtime(uint8_t X) { return static_cast<uint8_t>((X << 1) ^ ((X & 0x80) ? 0x1B : 0)); }

static uint8_t gfMul(uint8_t A, uint8_t B) {
  uint8_t P = 0;
  for (; B; B >>= 1, A = xtime(A))
    if (B & 1)
      P ^= A;
  return P;
}

// The S-box from its definition: multiplicative inverse in GF(2^8), then the affine map.
static std::array<uint8_t, 256> makeSbox() {
  std::array<uint8_t, 256> Sbox{};
  for (int X = 0; X < 256; ++X) {
    uint8_t Inv = 0;
    for (int Y = 1; Y < 256 && X != 0; ++Y)
      if (gfMul(static_cast<uint8_t>(X), static_cast<uint8_t>(Y)) == 1)
        Inv = static_cast<uint8_t>(Y);
    uint8_t S = 0x63;
    for (int Bit = 0; Bit < 8; ++Bit) {
      const int V = ((Inv >> Bit) ^ (Inv >> ((Bit + 4) % 8)) ^ (Inv >> ((Bit + 5) % 8)) ^
                     (Inv >> ((Bit + 6) % 8)) ^ (Inv >> ((Bit + 7) % 8))) &
                    1;
      S ^= static_cast<uint8_t>(V << Bit);
    }
    Sbox[X] = S;
  }
  return Sbox;
}

// FIPS-197 key expansion, into bytes (reference) and big-endian words (kernel).
static std::array<uint8_t, 176> expandKey(const std::array<uint8_t, 256> &Sbox, const Block &Key) {
  std::array<uint8_t, 176> W{};
  std::copy(Key.begin(), Key.end(), W.begin());
  uint8_t Rcon = 1;
  for (size_t I = 16; I < 176; I += 4) {
    uint8_t T[4] = {W[I - 4], W[I - 3], W[I - 2], W[I - 1]};
    if (I % 16 == 0) {
      const uint8_t First = T[0];
      T[0] = static_cast<uint8_t>(Sbox[T[1]] ^ Rcon);
      T[1] = Sbox[T[2]];
      T[2] = Sbox[T[3]];
      T[3] = Sbox[First];
      Rcon = xtime(Rcon);
    }
    for (size_t J = 0; J < 4; ++J)
      W[I + J] = static_cast<uint8_t>(W[I - 16 + J] ^ T[J]);
  }
  return W;
}

// Textbook AES-128 on a byte block (state in column-major order, as the bytes come).
static void encryptReference(const std::array<uint8_t, 256> &Sbox,
                             const std::array<uint8_t, 176> &RoundKeys, Block &State) {
  for (size_t J = 0; J < 16; ++J)
    State[J] ^= RoundKeys[J];
  for (int Round = 1; Round <= 10; ++Round) {
    for (uint8_t &Byte : State)
      Byte = Sbox[Byte];
    Block Shifted;
    for (size_t Col = 0; Col < 4; ++Col)
      for (size_t Row = 0; Row < 4; ++Row)
        Shifted[4 * Col + Row] = State[4 * ((Col + Row) % 4) + Row];
    State = Shifted;
    if (Round != 10) {
      for (size_t Col = 0; Col < 4; ++Col) {
        uint8_t *C = &State[4 * Col];
        const uint8_t A0 = C[0], A1 = C[1], A2 = C[2], A3 = C[3];
        C[0] = static_cast<uint8_t>(xtime(A0) ^ (xtime(A1) ^ A1) ^ A2 ^ A3);
        C[1] = static_cast<uint8_t>(A0 ^ xtime(A1) ^ (xtime(A2) ^ A2) ^ A3);
        C[2] = static_cast<uint8_t>(A0 ^ A1 ^ xtime(A2) ^ (xtime(A3) ^ A3));
        C[3] = static_cast<uint8_t>((xtime(A0) ^ A0) ^ A1 ^ A2 ^ xtime(A3));
      }
    }
    for (size_t J = 0; J < 16; ++J)
      State[J] ^= RoundKeys[16 * Round + J];
  }
}

static uint32_t word(const uint8_t *Bytes) {
  return (uint32_t{Bytes[0]} << 24) | (uint32_t{Bytes[1]} << 16) | (uint32_t{Bytes[2]} << 8) |
         Bytes[3];
}

static std::string constantTable(const char *Name, const uint32_t *Values) {
  std::string Text = "__constant uint " + std::string(Name) + "[256] = {";
  char Item[16];
  for (int I = 0; I < 256; ++I) {
    std::snprintf(Item, sizeof(Item), "%s0x%08xu",
                  I == 0  ? "\n  "
                  : I % 8 ? ", "
                          : ",\n  ",
                  Values[I]);
    Text += Item;
  }
  return Text + "};\n";
}

// Te0[x] = (2s, s, s, 3s) as a big-endian word for s = S(x); Te1..Te3 are its byte rotations.
static std::string kernelSource(const std::array<uint8_t, 256> &Sbox) {
  uint32_t Te[4][256], S[256];
  for (int X = 0; X < 256; ++X) {
    const uint8_t V = Sbox[X];
    const uint32_t T0 = (uint32_t{xtime(V)} << 24) | (uint32_t{V} << 16) | (uint32_t{V} << 8) |
                        static_cast<uint8_t>(xtime(V) ^ V);
    Te[0][X] = T0;
    Te[1][X] = (T0 >> 8) | (T0 << 24);
    Te[2][X] = (T0 >> 16) | (T0 << 16);
    Te[3][X] = (T0 >> 24) | (T0 << 8);
    S[X] = V;
  }
  return constantTable("Te0", Te[0]) + constantTable("Te1", Te[1]) + constantTable("Te2", Te[2]) +
         constantTable("Te3", Te[3]) + constantTable("Sbox", S) + KernelBody;
}

// Fixed-seed 64-bit LCG (Knuth's MMIX constants), so every run sees the same plaintext.
static uint8_t nextByte(uint64_t &State) {
  State = State * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<uint8_t>(State >> 56);
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--blocks BLOCKS] [--iterations LAUNCHES]");
  const long BlocksArg = Opts.integer("blocks", 1 << 20);
  const long Iterations = Opts.integer("iterations", 10);
  if (BlocksArg == 0 || BlocksArg > (1L << 26))
    app::fail("--blocks must be between 1 and 2^26");
  if (Iterations == 0)
    app::fail("--iterations must be positive");
  const cl_uint Blocks = static_cast<cl_uint>(BlocksArg);

  const std::array<uint8_t, 256> Sbox = makeSbox();
  {
    // FIPS-197 appendix C.1: the reference itself must be right.
    Block Key, Plain;
    for (size_t J = 0; J < 16; ++J) {
      Key[J] = static_cast<uint8_t>(J);
      Plain[J] = static_cast<uint8_t>(0x11 * J);
    }
    const Block Expected = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                            0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
    encryptReference(Sbox, expandKey(Sbox, Key), Plain);
    if (Plain != Expected)
      app::fail("the C++ reference AES does not match the FIPS-197 example");
  }

  uint64_t Seed = 0xAE5128;
  Block Key;
  for (uint8_t &Byte : Key)
    Byte = nextByte(Seed);
  const std::array<uint8_t, 176> RoundKeyBytes = expandKey(Sbox, Key);
  std::vector<cl_uint> RoundKeys(RoundKeyWords);
  for (size_t I = 0; I < RoundKeyWords; ++I)
    RoundKeys[I] = word(&RoundKeyBytes[4 * I]);

  std::vector<uint8_t> Plaintext(16 * static_cast<size_t>(Blocks));
  for (uint8_t &Byte : Plaintext)
    Byte = nextByte(Seed);
  std::vector<cl_uint> Words(4 * static_cast<size_t>(Blocks));
  for (size_t I = 0; I < Words.size(); ++I)
    Words[I] = word(&Plaintext[4 * I]);
  std::vector<cl_uint> Result(Words.size(), 0xDEADBEEFu);

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue =
      clCreateCommandQueue(Context, Choice.Device, CL_QUEUE_PROFILING_ENABLE, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  const size_t Bytes = sizeof(cl_uint) * Words.size();
  cl_mem BufData[2];
  BufData[0] = clCreateBuffer(Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(data0)");
  BufData[1] = clCreateBuffer(Context, CL_MEM_READ_WRITE, Bytes, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(data1)");
  cl_mem BufKeys = clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  sizeof(cl_uint) * RoundKeyWords, RoundKeys.data(), &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(round keys)");
  CL_CHECK(clEnqueueWriteBuffer(Queue, BufData[0], CL_FALSE, 0, Bytes, Words.data(), 0, nullptr,
                                nullptr));

  const std::string Source = kernelSource(Sbox);
  cl_program Program = app::buildProgram(Context, Choice.Device, Source.c_str(), "");
  cl_kernel Kernel = clCreateKernel(Program, "aes128_encrypt", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel");
  CL_CHECK(clSetKernelArg(Kernel, 2, sizeof(cl_mem), &BufKeys));
  CL_CHECK(clSetKernelArg(Kernel, 3, sizeof(cl_uint), &Blocks));

  const size_t Global = (Blocks + LocalSize - 1) / LocalSize * LocalSize;
  int Current = 0;
  cl_ulong KernelNs = 0;
  app::Stopwatch Timer;
  for (long It = 0; It < Iterations; ++It) {
    CL_CHECK(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &BufData[Current]));
    CL_CHECK(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &BufData[1 - Current]));
    cl_event Event = nullptr;
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, &LocalSize, 0, nullptr, &Event));
    CL_CHECK(clWaitForEvents(1, &Event));
    cl_ulong Start = 0, End = 0;
    CL_CHECK(
        clGetEventProfilingInfo(Event, CL_PROFILING_COMMAND_START, sizeof(Start), &Start, nullptr));
    CL_CHECK(clGetEventProfilingInfo(Event, CL_PROFILING_COMMAND_END, sizeof(End), &End, nullptr));
    KernelNs += End - Start;
    CL_CHECK(clReleaseEvent(Event));
    Current = 1 - Current;
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufData[Current], CL_TRUE, 0, Bytes, Result.data(), 0,
                               nullptr, nullptr));
  const double Seconds = Timer.seconds();

  const double Work = static_cast<double>(Blocks) * static_cast<double>(Iterations);
  const size_t Stride = Work <= ReferenceBlockBudget ? 1 : SampleStride;
  size_t Checked = 0, Wrong = 0, FirstWrong = 0;
  for (size_t I = 0; I < Blocks; ++I) {
    if (I % Stride != 0 && I + 1 != Blocks)
      continue;
    Block State;
    std::copy_n(&Plaintext[16 * I], 16, State.begin());
    for (long It = 0; It < Iterations; ++It)
      encryptReference(Sbox, RoundKeyBytes, State);
    bool Same = true;
    for (size_t J = 0; J < 4; ++J)
      Same = Same && Result[4 * I + J] == word(&State[4 * J]);
    if (!Same && Wrong++ == 0)
      FirstWrong = I;
    ++Checked;
  }
  const bool Correct = Wrong == 0;

  app::writeOutput(Opts, Result);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseMemObject(BufData[0]);
  clReleaseMemObject(BufData[1]);
  clReleaseMemObject(BufKeys);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[256];
  std::snprintf(Detail, sizeof(Detail),
                "%u blocks, %ld launches, kernel time %.6f s (profiling), %zu blocks checked "
                "(stride %zu), %zu wrong%s",
                Blocks, Iterations, static_cast<double>(KernelNs) * 1e-9, Checked, Stride, Wrong,
                Wrong ? (", first at block " + std::to_string(FirstWrong)).c_str() : "");
  return app::report("aes", Correct, Choice, Seconds, Detail);
}
