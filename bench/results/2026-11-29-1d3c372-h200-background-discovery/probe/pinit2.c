// Does PoCL's device start on another thread cost the process more at exit than on the main
// thread? argv[1]: none (platforms only), main (PoCL's devices asked for on the main thread),
// thread (asked for on a second thread, joined before main returns). Prints the times main
// began and ended; the caller times the process.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_REALTIME, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static cl_platform_id Pocl;
static void *ask(void *unused) {
  (void)unused;
  cl_device_id D[8]; cl_uint M = 0;
  clGetDeviceIDs(Pocl, CL_DEVICE_TYPE_ALL, 8, D, &M);
  return NULL;
}
int main(int argc, char **argv) {
  double s = now();
  cl_platform_id P[4]; cl_uint N = 0;
  clGetPlatformIDs(4, P, &N);
  for (cl_uint I = 0; I < N; ++I) {
    char Name[256] = {0};
    clGetPlatformInfo(P[I], CL_PLATFORM_NAME, sizeof(Name) - 1, Name, NULL);
    if (strstr(Name, "Portable")) Pocl = P[I];
  }
  const char *How = argc > 1 ? argv[1] : "none";
  if (Pocl && !strcmp(How, "main")) ask(NULL);
  if (Pocl && !strcmp(How, "thread")) { pthread_t T; pthread_create(&T, NULL, ask, NULL); pthread_join(T, NULL); }
  fprintf(stderr, "%.6f %.6f\n", s, now());
  return 0;
}
