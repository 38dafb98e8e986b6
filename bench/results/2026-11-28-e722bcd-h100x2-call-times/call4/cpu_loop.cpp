// Scratch probe: does the app's own CPU work run slower once libsplit is loaded?
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <sched.h>
#include <xmmintrin.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
static double loop(std::vector<double> &A, std::vector<double> &B, int Reps) {
  auto S = std::chrono::steady_clock::now();
  for (int R = 0; R < Reps; ++R) {
    for (size_t I = 1; I + 1 < A.size(); ++I) B[I] = (A[I - 1] + A[I] + A[I + 1]) / 3.0;
    A.swap(B);
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - S).count();
}
int main(int argc, char **argv) {
  int Phase = argc > 1 ? std::atoi(argv[1]) : 2; // 0: no OpenCL, 1: platforms, 2: + context and queue
  std::vector<double> A(4096, 1.0), B(4096, 0.0);
  for (size_t I = 0; I < A.size(); ++I) A[I] = 1.0 + (I % 7);
  double Before = loop(A, B, 20000);
  cl_context C = nullptr; cl_command_queue Q = nullptr;
  if (Phase >= 1) {
    cl_platform_id P[8]; cl_uint N = 0; clGetPlatformIDs(8, P, &N);
    for (cl_uint I = 0; I < N && Phase >= 2 && !C; ++I) {
      cl_device_id D; if (clGetDeviceIDs(P[I], CL_DEVICE_TYPE_GPU, 1, &D, nullptr) != CL_SUCCESS) continue;
      C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
      Q = clCreateCommandQueueWithProperties(C, D, nullptr, nullptr);
    }
  }
  cpu_set_t Set; sched_getaffinity(0, sizeof Set, &Set);
  double After = loop(A, B, 20000), After2 = loop(A, B, 20000);
  std::printf("phase %d: cpus %d mxcsr %#x loop before %.1f ms, after %.1f / %.1f ms (%g)\n", Phase,
              CPU_COUNT(&Set), _mm_getcsr(), Before, After, After2, A[100]);
  if (Q) clReleaseCommandQueue(Q);
  if (C) clReleaseContext(C);
}
