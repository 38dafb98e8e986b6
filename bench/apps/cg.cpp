// A conjugate-gradient solver in the shape of the iterative solvers real codes run: the 2-D
// Poisson equation -lap(x) = f on the N x N interior of a grid with a zero boundary, matrix free
// (the 5-point Laplacian), for a fixed number of iterations of Polak-Ribiere CG. Each iteration is
// five short 1-D launches, a device-side copy and two small blocking reads:
//   cg_laplace      ap = A p
//   cg_dot          the work-groups' partial sums of p . ap, read back and summed on the host
//   clEnqueueCopyBuffer  r_prev = r
//   cg_update_xr    x += alpha p, r -= alpha ap
//   cg_dot (twice)  the partial sums of r . r and r . r_prev into one buffer, read back together
//   cg_update_p     p = r + beta p, with beta = (r . r - r . r_prev) / (r_prev . r_prev)
// so the host waits for the device twice an iteration and every launch reads what the previous
// one wrote. The partial sums are added on the host in a fixed order, so the result does not
// depend on how the device runs the work-groups. The output is x.
#include "common/app_common.hpp"

#include <algorithm>
#include <cmath>

static const char *KernelSource = R"CLC(
__kernel void cg_laplace(__global const float *p, __global float *ap, const uint n) {
  const uint k = get_global_id(0);
  if (k >= n * n)
    return;
  const uint i = k / n, j = k % n;
  float sum = 4.0f * p[k];
  if (i > 0)
    sum -= p[k - n];
  if (i + 1 < n)
    sum -= p[k + n];
  if (j > 0)
    sum -= p[k - 1];
  if (j + 1 < n)
    sum -= p[k + 1];
  ap[k] = sum;
}

// Each work-group adds a grid-strided share of a[k] * b[k] and writes its sum to
// partial[first + group]; the local size is fixed at 256.
__kernel void cg_dot(__global const float *a, __global const float *b, __global float *partial,
                     const uint first, const uint length, __local float *scratch) {
  const uint lid = get_local_id(0);
  float sum = 0.0f;
  for (uint k = get_global_id(0); k < length; k += get_global_size(0))
    sum += a[k] * b[k];
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint width = get_local_size(0) / 2; width > 0; width /= 2) {
    if (lid < width)
      scratch[lid] += scratch[lid + width];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[first + get_group_id(0)] = scratch[0];
}

__kernel void cg_update_xr(__global float *x, __global float *r, __global const float *p,
                           __global const float *ap, const float alpha, const uint length) {
  const uint k = get_global_id(0);
  if (k < length) {
    x[k] += alpha * p[k];
    r[k] -= alpha * ap[k];
  }
}

__kernel void cg_update_p(__global float *p, __global const float *r, const float beta,
                          const uint length) {
  const uint k = get_global_id(0);
  if (k < length)
    p[k] = r[k] + beta * p[k];
}
)CLC";

constexpr size_t DotLocal = 256;
constexpr size_t MaxDotGroups = 512;

static size_t roundUp(size_t Value, size_t Multiple) {
  return (Value + Multiple - 1) / Multiple * Multiple;
}

// ap = A p in double, the operator cg_laplace applies.
static std::vector<double> laplace(const std::vector<double> &P, size_t N) {
  std::vector<double> Ap(P.size());
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < N; ++J) {
      const size_t K = I * N + J;
      double Sum = 4.0 * P[K];
      if (I > 0)
        Sum -= P[K - N];
      if (I + 1 < N)
        Sum -= P[K + N];
      if (J > 0)
        Sum -= P[K - 1];
      if (J + 1 < N)
        Sum -= P[K + 1];
      Ap[K] = Sum;
    }
  return Ap;
}

int main(int argc, char **argv) {
  app::Options Opts(argc, argv, "[--n ORDER] [--iterations ITERATIONS]");
  const cl_uint N = static_cast<cl_uint>(Opts.integer("n", 256));
  const long Iterations = Opts.integer("iterations", 100);
  if (N < 2 || N > 46340)
    app::fail("--n must be between 2 and 46340");
  if (Iterations < 0)
    app::fail("--iterations must not be negative");
  const cl_uint Length = N * N;

  // A smooth load with a bumpy part, so that both long and short waves need solving.
  std::vector<float> F(Length);
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < N; ++J)
      F[I * N + J] = 1.0f + static_cast<float>(std::sin(0.05 * static_cast<double>(I + 2 * J))) +
                     static_cast<float>((I * 31 + J * 17) % 16) / 32.0f;
  const std::vector<float> Zeros(Length, 0.0f);

  app::DeviceChoice Choice = app::pickDevice(Opts);
  app::DeviceSession Session = app::openDevice(Choice, false);
  cl_context Context = Session.Context;
  cl_command_queue Queue = Session.Queue;
  cl_int Err = CL_SUCCESS;
  const size_t Bytes = sizeof(float) * Length;
  auto createBuffer = [&](const std::vector<float> &Initial, const char *What) {
    cl_mem Buffer = clCreateBuffer(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Bytes,
                                   const_cast<float *>(Initial.data()), &Err);
    CL_CHECK_ERR(Err, What);
    return Buffer;
  };
  // x starts at zero, so r = p = f.
  cl_mem BufX = createBuffer(Zeros, "clCreateBuffer(x)");
  cl_mem BufR = createBuffer(F, "clCreateBuffer(r)");
  cl_mem BufP = createBuffer(F, "clCreateBuffer(p)");
  cl_mem BufAp = createBuffer(Zeros, "clCreateBuffer(ap)");
  cl_mem BufRPrev = createBuffer(Zeros, "clCreateBuffer(r_prev)");
  const size_t DotGroups = std::min(MaxDotGroups, roundUp(Length, DotLocal) / DotLocal);
  cl_mem BufPartial =
      clCreateBuffer(Context, CL_MEM_READ_WRITE, sizeof(float) * 2 * DotGroups, nullptr, &Err);
  CL_CHECK_ERR(Err, "clCreateBuffer(partial)");

  cl_program Program = app::buildProgram(Context, Choice.Device, KernelSource, "");
  auto createKernel = [&](const char *Name) {
    cl_kernel Kernel = clCreateKernel(Program, Name, &Err);
    CL_CHECK_ERR(Err, Name);
    return Kernel;
  };
  cl_kernel Laplace = createKernel("cg_laplace");
  cl_kernel Dot = createKernel("cg_dot");
  cl_kernel UpdateXR = createKernel("cg_update_xr");
  cl_kernel UpdateP = createKernel("cg_update_p");
  CL_CHECK(clSetKernelArg(Laplace, 0, sizeof(cl_mem), &BufP));
  CL_CHECK(clSetKernelArg(Laplace, 1, sizeof(cl_mem), &BufAp));
  CL_CHECK(clSetKernelArg(Laplace, 2, sizeof(cl_uint), &N));
  CL_CHECK(clSetKernelArg(Dot, 2, sizeof(cl_mem), &BufPartial));
  CL_CHECK(clSetKernelArg(Dot, 4, sizeof(cl_uint), &Length));
  CL_CHECK(clSetKernelArg(Dot, 5, sizeof(float) * DotLocal, nullptr));
  CL_CHECK(clSetKernelArg(UpdateXR, 0, sizeof(cl_mem), &BufX));
  CL_CHECK(clSetKernelArg(UpdateXR, 1, sizeof(cl_mem), &BufR));
  CL_CHECK(clSetKernelArg(UpdateXR, 2, sizeof(cl_mem), &BufP));
  CL_CHECK(clSetKernelArg(UpdateXR, 3, sizeof(cl_mem), &BufAp));
  CL_CHECK(clSetKernelArg(UpdateXR, 5, sizeof(cl_uint), &Length));
  CL_CHECK(clSetKernelArg(UpdateP, 0, sizeof(cl_mem), &BufP));
  CL_CHECK(clSetKernelArg(UpdateP, 1, sizeof(cl_mem), &BufR));
  CL_CHECK(clSetKernelArg(UpdateP, 3, sizeof(cl_uint), &Length));

  const size_t Global = roundUp(Length, 64);
  const size_t DotGlobal = DotGroups * DotLocal;
  std::vector<float> Partial(2 * DotGroups);
  auto enqueueDot = [&](cl_mem A, cl_mem B, cl_uint First) {
    CL_CHECK(clSetKernelArg(Dot, 0, sizeof(cl_mem), &A));
    CL_CHECK(clSetKernelArg(Dot, 1, sizeof(cl_mem), &B));
    CL_CHECK(clSetKernelArg(Dot, 3, sizeof(cl_uint), &First));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Dot, 1, nullptr, &DotGlobal, &DotLocal, 0, nullptr, nullptr));
  };
  // The sums of the partials [First, First + DotGroups), in order, in double.
  auto readSums = [&](size_t Count) {
    CL_CHECK(clEnqueueReadBuffer(Queue, BufPartial, CL_TRUE, 0, sizeof(float) * Count * DotGroups,
                                 Partial.data(), 0, nullptr, nullptr));
    std::vector<double> Sums(Count, 0.0);
    for (size_t S = 0; S < Count; ++S)
      for (size_t G = 0; G < DotGroups; ++G)
        Sums[S] += Partial[S * DotGroups + G];
    return Sums;
  };

  double NormF2 = 0.0;
  for (float Value : F)
    NormF2 += static_cast<double>(Value) * Value;
  double RR = NormF2;

  app::Stopwatch Timer;
  for (long It = 0; It < Iterations && RR > 0.0; ++It) {
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, Laplace, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
    enqueueDot(BufP, BufAp, 0);
    const double PAp = readSums(1)[0];
    if (!(PAp > 0.0))
      break;
    const float Alpha = static_cast<float>(RR / PAp);
    CL_CHECK(clEnqueueCopyBuffer(Queue, BufR, BufRPrev, 0, 0, Bytes, 0, nullptr, nullptr));
    CL_CHECK(clSetKernelArg(UpdateXR, 4, sizeof(float), &Alpha));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, UpdateXR, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
    enqueueDot(BufR, BufR, 0);
    enqueueDot(BufR, BufRPrev, static_cast<cl_uint>(DotGroups));
    const std::vector<double> Sums = readSums(2);
    const float Beta = static_cast<float>(std::max(0.0, (Sums[0] - Sums[1]) / RR));
    RR = Sums[0];
    CL_CHECK(clSetKernelArg(UpdateP, 2, sizeof(float), &Beta));
    CL_CHECK(
        clEnqueueNDRangeKernel(Queue, UpdateP, 1, nullptr, &Global, nullptr, 0, nullptr, nullptr));
  }
  std::vector<float> X(Length, std::nanf(""));
  CL_CHECK(clEnqueueReadBuffer(Queue, BufX, CL_TRUE, 0, Bytes, X.data(), 0, nullptr, nullptr));
  const double Seconds = Timer.seconds();

  // The check: the true residual f - A x, in double from the x the device returned, against the
  // residual the iteration kept (r, updated in float). They drift apart only by float rounding
  // (a few ulp of the terms per iteration); a slice of x, r or p left stale by a wrong merge or a
  // lost write separates them by the size of that slice's update.
  std::vector<double> XD(X.begin(), X.end());
  const std::vector<double> Ax = laplace(XD, N);
  double TrueR2 = 0.0;
  size_t NotFinite = 0;
  for (size_t K = 0; K < Length; ++K) {
    if (!std::isfinite(X[K]))
      ++NotFinite;
    const double Residual = F[K] - Ax[K];
    TrueR2 += Residual * Residual;
  }
  const double TrueRel = std::sqrt(TrueR2 / NormF2), KeptRel = std::sqrt(RR / NormF2);
  // Float rounding moves the kept residual away from the true one by about the float epsilon
  // times A's norm (8) times x's norm over f's, growing about as the square root of the
  // iterations; this allows twice that.
  double NormX2 = 0.0;
  for (double Value : XD)
    NormX2 += Value * Value;
  const double Drift =
      2.0 * 6e-8 * 8.0 * std::sqrt(static_cast<double>(Iterations)) * std::sqrt(NormX2 / NormF2);
  const bool Correct = NotFinite == 0 && std::fabs(TrueRel - KeptRel) <= 0.01 * KeptRel + Drift;

  app::writeOutput(Opts, X);
  for (cl_kernel Kernel : {Laplace, Dot, UpdateXR, UpdateP})
    clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  for (cl_mem Buffer : {BufX, BufR, BufP, BufAp, BufRPrev, BufPartial})
    clReleaseMemObject(Buffer);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  char Detail[200];
  std::snprintf(Detail, sizeof(Detail),
                "relative residual %.3g (kept %.3g, gap %.2g, allowed %.2g), %zu not finite",
                TrueRel, KeptRel, std::fabs(TrueRel - KeptRel), 0.01 * KeptRel + Drift, NotFinite);
  return app::report("cg", Correct, Choice, Seconds, Detail);
}
