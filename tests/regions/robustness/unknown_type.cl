__kernel void k(__global mystery *a) { a[0] = 0; }
