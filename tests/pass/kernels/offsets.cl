// A kernel that asks for its global and local ids alone (no rewritten builtin, here or in the
// helper it calls): the app's own code, launched with a global offset over some of its
// work-groups, runs exactly those (the kernel list's offset-exact).

float weight(size_t X) { return (float)(X % 5) + 0.5f; }

__kernel void offsetRows(__global const float *in, __global float *out, uint originX,
                         uint originY, uint width) {
  size_t X = get_global_id(0) - originX, Y = get_global_id(1) - originY;
  out[Y * width + X] = in[Y * width + X] * weight(get_global_id(0)) + (float)get_local_id(1) +
                       (float)get_local_size(0);
}
