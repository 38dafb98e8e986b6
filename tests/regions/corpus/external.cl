// A kernel calling a function that is declared but not defined (separate compilation): the
// partition-ready rewrite cannot reach its builtins, so the kernel is unsplittable in the
// kernel list and, consistently, in the summary. Golden only: PoCL cannot link it.

void external_helper(__global float *p);
__kernel void calls_external(__global float *a) { external_helper(a); }

// Its neighbour is unaffected.
__kernel void fill(__global float *a) { a[get_global_id(0)] = 0.0f; }
