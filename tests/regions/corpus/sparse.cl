// CSR sparse matrix-vector product: the row's bounds come from rowptr, the column indices
// from col, so val, col and x are read at indices loaded from memory.

__kernel void spmv_csr(__global const int *rowptr, __global const int *col,
                       __global const float *val, __global const float *x, __global float *y,
                       int rows) {
  int r = get_global_id(0);
  if (r < rows) {
    float s = 0;
    for (int j = rowptr[r]; j < rowptr[r + 1]; j++)
      s += val[j] * x[col[j]];
    y[r] = s;
  }
}
//@ launch spmv_csr global=64 local=8 disjoint=0
//@ arg buffer 244 rowptr:60:8
//@ arg buffer 1920 int:40
//@ arg buffer 1920 float
//@ arg buffer 160 float
//@ arg buffer 240 float
//@ arg int 60

// One work-group per row, work-items striding over the row's entries (the "vector" kernel).
__kernel void spmv_csr_vector(__global const int *rowptr, __global const int *col,
                              __global const float *val, __global const float *x,
                              __global float *y, __local float *partial) {
  int r = get_group_id(0), lid = get_local_id(0), lsize = get_local_size(0);
  float s = 0;
  for (int j = rowptr[r] + lid; j < rowptr[r + 1]; j += lsize)
    s += val[j] * x[col[j]];
  partial[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    float t = 0;
    for (int k = 0; k < lsize; k++)
      t += partial[k];
    y[r] = t;
  }
}
//@ launch spmv_csr_vector global=240 local=4 disjoint=0
//@ arg buffer 244 rowptr:60:8
//@ arg buffer 1920 int:40
//@ arg buffer 1920 float
//@ arg buffer 160 float
//@ arg buffer 240 float
//@ arg local 16
