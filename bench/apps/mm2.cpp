// PolyBench's 2mm (named mm2 here: app names are identifiers), written from its definition:
// D = alpha * A x B x C + beta * D, with A NI x NK, B NK x NJ, C NJ x NL, D NI x NL, row-major.
// Two naive kernels per iteration, one work-item per output element, plain global-memory loops:
// tmp = alpha * A x B, then D = beta * D + tmp x C; the second kernel reads everything the first
// wrote. Both 2D launches leave the local size to the implementation (NULL). Every --iterations
// round runs both kernels again on the D the previous round left.
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>

static const char *KernelSource = R"CLC(
// The global size is exactly the output's, so no bounds checks.
__kernel void mm2_tmp(__global const float *a, __global const float *b, __global float *tmp,
                      const uint nj, const uint nk, const float alpha) {
  const uint j = get_global_id(0);
  const uint i = get_global_id(1);
  float acc = 0.0f;
  for (uint k = 0; k < nk; ++k)
    acc += a[i * nk + k] * b[k * nj + j];
  tmp[i * nj + j] = alpha * acc;
}

__kernel void mm2_d(__global const float *tmp, __global const float *c, __global float *d,
                    const uint nl, const uint nj, const float beta) {
  const uint l = get_global_id(0);
  const uint i = get_global_id(1);
  float acc = 0.0f;
  for (uint j = 0; j < nj; ++j)
    acc += tmp[i * nj + j] * c[j * nl + l];
  d[i * nl + l] = beta * d[i * nl + l] + acc;
}
)CLC";

constexpr float Alpha = 1.5f;
constexpr float Beta = 1.2f;
// All inputs are positive, so no cancellation: tmp carries at most NK * 2^-24 relative error, D
// adds NJ * 2^-24 more, at worst; in practice rounding errors of both signs cancel (measured: at
// most 2e-6 at the manifest's sizes). The update with positive alpha and beta amplifies neither.
static constexpr double Tolerance = 1e-4;
// The reference recomputes at most this many multiply-adds: every row of D when that is enough,
// else every RowStride-th row (each needs its row of tmp first) and the last.
constexpr double ReferenceBudget = 1 << 25;

int main(int argc, char **argv) {
  app::Options Opts(argc, argv,
                    "[--size NI=NJ=NK=NL] [--ni N] [--nj N] [--nk N] [--nl N] "
                    "[--iterations ROUNDS]");
  const long Size = Opts.integer("size", 256);
  const cl_uint NI = static_cast<cl_uint>(Opts.integer("ni", Size));
  const cl_uint NJ = static_cast<cl_uint>(Opts.integer("nj", Size));
  const cl_uint NK = static_cast<cl_uint>(Opts.integer("nk", Size));
  const cl_uint NL = static_cast<cl_uint>(Opts.integer("nl", Size));
  const long Iterations = Opts.integer("iterations", 1);
  if (NI == 0 || NJ == 0 || NK == 0 || NL == 0)
    app::fail("--ni, --nj, --nk and --nl must be positive");
  if (Iterations == 0)
    app::fail("--iterations must be positive");

  std::vector<float> A(static_cast<size_t>(NI) * NK), B(static_cast<size_t>(NK) * NJ);
  std::vector<float> C(static_cast<size_t>(NJ) * NL), DInit(static_cast<size_t>(NI) * NL);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = 0.25f + static_cast<float>(I % 61) / 61.0f;
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = 0.5f + static_cast<float>((I * 7) % 53) / 53.0f;
  for (size_t I = 0; I < C.size(); ++I)
    C[I] = 0.125f + static_cast<float>((I * 5) % 59) / 59.0f;
  for (size_t I = 0; I < DInit.size(); ++I)
    DInit[I] = 1.0f + static_cast<float>((I * 3) % 47) / 47.0f;
  // tmp starts as NaN on the device, D's host copy until the read: anything left unwritten shows.
  std::vector<float> Tmp(static_cast<size_t>(NI) * NJ, std::nanf(""));
  std::vector<float> D(DInit.size(), std::nanf(""));

  app::DeviceChoice Choice = app::pickDevice(Opts);
  cl_int Err = CL_SUCCESS;
  cl_context Context = clCreateContext(nullptr, 1, &Choice.Device, nullptr, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateContext");
  cl_command_queue Queue = clCreateCommandQueue(Context, Choice.Device, 0, &Err);
  CL_CHECK_ERR(Err, "clCreateCommandQueue");

  auto createBuffer = [&](cl_mem_flags Flags, std::vector<float> &Host, const char *What) {
    cl_mem Buffer = clCreateBuffer(Context, Flags | CL_MEM_COPY_HOST_PTR,
                                   sizeof(float) * Host.size(), Host.data(), &Err);
    CL_CHECK_ERR(Err, What);
    return Buffer;
  };
  cl_mem BufA = createBuffer(CL_MEM_READ_ONLY, A, "clCreateBuffer(a)");
  cl_mem BufB = createBuffer(CL_MEM_READ_ONLY, B, "clCreateBuffer(b)");
  cl_mem BufC = createBuffer(CL_MEM_READ_ONLY, C, "clCreateBuffer(c)");
  cl_mem BufTmp = createBuffer(CL_MEM_READ_WRITE, Tmp, "clCreateBuffer(tmp)");
  cl_mem BufD = createBuffer(CL_MEM_READ_WRITE, DInit, "clCreateBuffer(d)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  cl_kernel KernelTmp = clCreateKernel(Program, "mm2_tmp", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(mm2_tmp)");
  cl_kernel KernelD = clCreateKernel(Program, "mm2_d", &Err);
  CL_CHECK_ERR(Err, "clCreateKernel(mm2_d)");
  CL_CHECK(clSetKernelArg(KernelTmp, 0, sizeof(cl_mem), &BufA));
  CL_CHECK(clSetKernelArg(KernelTmp, 1, sizeof(cl_mem), &BufB));
  CL_CHECK(clSetKernelArg(KernelTmp, 2, sizeof(cl_mem), &BufTmp));
  CL_CHECK(clSetKernelArg(KernelTmp, 3, sizeof(cl_uint), &NJ));
  CL_CHECK(clSetKernelArg(KernelTmp, 4, sizeof(cl_uint), &NK));
  CL_CHECK(clSetKernelArg(KernelTmp, 5, sizeof(cl_float), &Alpha));
  CL_CHECK(clSetKernelArg(KernelD, 0, sizeof(cl_mem), &BufTmp));
  CL_CHECK(clSetKernelArg(KernelD, 1, sizeof(cl_mem), &BufC));
  CL_CHECK(clSetKernelArg(KernelD, 2, sizeof(cl_mem), &BufD));
  CL_CHECK(clSetKernelArg(KernelD, 3, sizeof(cl_uint), &NL));
  CL_CHECK(clSetKernelArg(KernelD, 4, sizeof(cl_uint), &NJ));
  CL_CHECK(clSetKernelArg(KernelD, 5, sizeof(cl_float), &Beta));

  app::Stopwatch Timer;
  const size_t GlobalTmp[2] = {NJ, NI};
  const size_t GlobalD[2] = {NL, NI};
  for (long It = 0; It < Iterations; ++It) {
    CL_CHECK(clEnqueueNDRangeKernel(Queue, KernelTmp, 2, nullptr, GlobalTmp, nullptr, 0, nullptr,
                                    nullptr));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, KernelD, 2, nullptr, GlobalD, nullptr, 0, nullptr, nullptr));
  }
  CL_CHECK(clEnqueueReadBuffer(Queue, BufD, CL_TRUE, 0, sizeof(float) * D.size(), D.data(), 0,
                               nullptr, nullptr));
  const double Seconds = Timer.seconds();

  // Double-precision reference of the sampled rows, plus a scan of all of D for the sentinel.
  const double CostPerRow = static_cast<double>(NJ) * NK + static_cast<double>(NL) * NJ;
  const size_t RowStride = static_cast<size_t>(
      std::max(1.0, std::ceil(static_cast<double>(NI) * CostPerRow / ReferenceBudget)));
  size_t Wrong = 0, Checked = 0;
  double MaxRelError = 0.0;
  for (float Value : D)
    if (!std::isfinite(Value))
      ++Wrong;
  std::vector<double> TmpRow(NJ);
  for (size_t I = 0; I < NI; ++I) {
    if (I % RowStride != 0 && I + 1 != NI)
      continue;
    for (size_t J = 0; J < NJ; ++J) {
      double Dot = 0.0;
      for (size_t K = 0; K < NK; ++K)
        Dot += static_cast<double>(A[I * NK + K]) * B[K * NJ + J];
      TmpRow[J] = static_cast<double>(Alpha) * Dot;
    }
    for (size_t L = 0; L < NL; ++L) {
      double Dot = 0.0;
      for (size_t J = 0; J < NJ; ++J)
        Dot += TmpRow[J] * C[J * NL + L];
      double Want = DInit[I * NL + L];
      for (long It = 0; It < Iterations; ++It)
        Want = static_cast<double>(Beta) * Want + Dot;
      const double RelError = std::fabs(D[I * NL + L] - Want) / Want;
      if (!(RelError <= Tolerance) && std::isfinite(D[I * NL + L]))
        ++Wrong;
      if (std::isfinite(RelError))
        MaxRelError = std::max(MaxRelError, RelError);
      ++Checked;
    }
  }

  app::writeOutput(Opts, D);
  clReleaseKernel(KernelTmp);
  clReleaseKernel(KernelD);
  clReleaseProgram(Program);
  for (cl_mem Buffer : {BufA, BufB, BufC, BufTmp, BufD})
    clReleaseMemObject(Buffer);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[200];
  std::snprintf(Detail, sizeof(Detail),
                "%zu wrong of %zu, %zu checked (row stride %zu), max rel error %.3g "
                "(tolerance %.0e)",
                Wrong, D.size(), Checked, RowStride, MaxRelError, Tolerance);
  return app::report("mm2", Wrong == 0, Choice, Seconds, Detail);
}
