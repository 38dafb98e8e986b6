// A host array written to a buffer, then written into by another process (as MPI's single-copy
// shared-memory transports do, with process_vm_writev): natively it works.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
static const char *Src = "__kernel void k(__global float *a){ a[get_global_id(0)] += 1.0f; }";
int main(int argc, char **argv) {
  int plat = 0, dev = 1;
  if (argc > 1) sscanf(argv[1], "%d:%d", &plat, &dev);
  cl_platform_id Ps[4]; cl_uint n; clGetPlatformIDs(4, Ps, &n);
  cl_device_id Ds[4]; clGetDeviceIDs(Ps[plat], CL_DEVICE_TYPE_ALL, 4, Ds, &n); cl_device_id D = Ds[dev];
  cl_context C = clCreateContext(nullptr, 1, &D, nullptr, nullptr, nullptr);
  cl_command_queue Q = clCreateCommandQueue(C, D, 0, nullptr);
  cl_program P = clCreateProgramWithSource(C, 1, &Src, nullptr, nullptr);
  clBuildProgram(P, 1, &D, nullptr, nullptr, nullptr);
  cl_kernel K = clCreateKernel(P, "k", nullptr);
  const size_t N = 4 << 20;
  std::vector<float> Host(N, 1.0f);
  cl_mem B = clCreateBuffer(C, CL_MEM_READ_WRITE, N * 4, nullptr, nullptr);
  clEnqueueWriteBuffer(Q, B, CL_TRUE, 0, N * 4, Host.data(), 0, nullptr, nullptr);
  // Another process writes the next step's data into the host array.
  pid_t Parent = getpid();
  pid_t Child = fork();
  if (Child == 0) {
    std::vector<float> Next(N, 7.0f);
    struct iovec L = {Next.data(), N * 4}, R = {Host.data(), N * 4};
    ssize_t W = process_vm_writev(Parent, &L, 1, &R, 1, 0);
    _exit(W == (ssize_t)(N * 4) ? 0 : (errno == EFAULT ? 3 : 4));
  }
  int St = 0; waitpid(Child, &St, 0);
  printf("other process's write: %s; host[5]=%g (7)\n", WEXITSTATUS(St) == 0 ? "ok" : WEXITSTATUS(St) == 3 ? "EFAULT" : "failed", Host[5]);
  size_t G = N; clSetKernelArg(K, 0, sizeof(B), &B);
  clEnqueueNDRangeKernel(Q, K, 1, nullptr, &G, nullptr, 0, nullptr, nullptr);
  std::vector<float> R(N);
  clEnqueueReadBuffer(Q, B, CL_TRUE, 0, N * 4, R.data(), 0, nullptr, nullptr);
  printf("device result [5]=%g (2)\n", R[5]);
  return 0;
}
