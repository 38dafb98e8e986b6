__kernel void broken(__global float *out) { out[0] = undeclared_name; }
