// N-body: every body reads every other body (float4 positions with the mass in w), and the
// same with an array of structs.

__kernel void nbody_step(__global const float4 *pos, __global const float4 *vel,
                         __global float4 *newpos, __global float4 *newvel, int n, float dt,
                         float eps) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float4 p = pos[i];
  float3 a = (float3)(0.0f);
  for (int j = 0; j < n; j++) {
    float4 q = pos[j];
    float3 d = q.xyz - p.xyz;
    float r2 = dot(d, d) + eps;
    a += q.w * d / (r2 * sqrt(r2));
  }
  float4 v = vel[i] + (float4)(a * dt, 0.0f);
  newvel[i] = v;
  newpos[i] = p + v * dt;
}
//@ launch nbody_step global=64 local=16 disjoint=0 tight
//@ arg buffer 960 float
//@ arg buffer 960 float
//@ arg buffer 960 float
//@ arg buffer 960 float
//@ arg int 60
//@ arg float 0.01
//@ arg float 0.1

typedef struct {
  float x, y, z, mass;
} Body;

__kernel void nbody_struct(__global const Body *bodies, __global float *ax, int n) {
  int i = get_global_id(0);
  if (i < n) {
    float s = 0;
    for (int j = 0; j < n; j++) {
      float dx = bodies[j].x - bodies[i].x;
      s += bodies[j].mass * dx / (dx * dx + 0.01f);
    }
    ax[i] = s;
  }
}
//@ launch nbody_struct global=64 local=16 disjoint=0
//@ arg buffer 960 float
//@ arg buffer 240 float
//@ arg int 60
