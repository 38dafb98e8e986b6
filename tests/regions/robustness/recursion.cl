int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int ping(int n);
int pong(int n) { return n ? ping(n - 1) : 0; }
int ping(int n) { return n ? pong(n - 1) : 1; }
__kernel void k(__global int *a) {
  int i = get_global_id(0);
  a[i] = fact(i) + ping(i);
}
