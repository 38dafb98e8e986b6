__kernel void broken(__global float *a) {
  a[get_global_id(0)] = 1.0f
}
