/* Host-only dump wrapper, force-included with gcc -include. Kernels untouched.
   - every clEnqueueReadBuffer the app does: after it, clFinish + fwrite the host array
     to $DUMP_PREFIX.outN.bin (N = read index)
   - every clReleaseMemObject the app does (cleanup): read the whole buffer back first
     and fwrite it to $DUMP_PREFIX.bufN.bin (N = release index) -> also intermediates. */
#ifndef SWEEP_DUMP_H
#define SWEEP_DUMP_H
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
static cl_command_queue sweep_dump_q;
static void sweep_dump_write(const char *tag, int idx, const void *p, size_t n) {
  const char *pre = getenv("DUMP_PREFIX"); if (!pre) return;
  char fn[1024]; snprintf(fn, sizeof fn, "%s.%s%d.bin", pre, tag, idx);
  FILE *f = fopen(fn, "wb"); if (!f) { perror(fn); return; }
  if (fwrite(p, 1, n, f) != n) perror("fwrite");
  fclose(f);
}
static cl_int sweep_dump_ReadBuffer(cl_command_queue q, cl_mem m, cl_bool b, size_t off, size_t sz,
    void *p, cl_uint n, const cl_event *w, cl_event *e) {
  static int k = 0;
  cl_int r = clEnqueueReadBuffer(q, m, b, off, sz, p, n, w, e);
  if (r != CL_SUCCESS) fprintf(stderr, "[dump] clEnqueueReadBuffer returned %d\n", r);
  clFinish(q);
  sweep_dump_q = q;
  sweep_dump_write("out", k++, p, sz);
  return r;
}
static cl_int sweep_dump_ReleaseMemObject(cl_mem m) {
  static int k = 0;
  if (sweep_dump_q && getenv("DUMP_PREFIX")) {
    size_t sz = 0;
    cl_int r = clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof sz, &sz, NULL);
    void *p = malloc(sz ? sz : 1);
    if (r == CL_SUCCESS) r = clEnqueueReadBuffer(sweep_dump_q, m, CL_TRUE, 0, sz, p, 0, NULL, NULL);
    if (r != CL_SUCCESS) fprintf(stderr, "[dump] buffer readback failed %d\n", r);
    else sweep_dump_write("buf", k, p, sz);
    free(p);
  }
  k++;
  return clReleaseMemObject(m);
}
#define clEnqueueReadBuffer sweep_dump_ReadBuffer
#define clReleaseMemObject sweep_dump_ReleaseMemObject
#endif
