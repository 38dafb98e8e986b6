#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
  int n=atoi(argv[1]); /* devices in the context */
  cl_platform_id P[8];cl_uint np;clGetPlatformIDs(8,P,&np);
  cl_platform_id p=0;cl_device_id D[8];cl_uint nd=0;
  for(cl_uint i=0;i<np;i++){char name[256];clGetPlatformInfo(P[i],CL_PLATFORM_NAME,256,name,0);if(strstr(name,"NVIDIA")){p=P[i];break;}}
  clGetDeviceIDs(p,CL_DEVICE_TYPE_GPU,8,D,&nd);
  double t0=now();cl_int e;
  cl_context c=clCreateContext(0,n,D,0,0,&e);
  double t1=now();
  cl_command_queue q=clCreateCommandQueue(c,D[0],0,&e);
  size_t bytes=64<<20; char*h=malloc(bytes);memset(h,1,bytes);
  cl_mem b=clCreateBuffer(c,CL_MEM_READ_WRITE|CL_MEM_COPY_HOST_PTR,bytes,h,&e);
  const char*src="__kernel void k(__global float*a){size_t i=get_global_id(0);a[i]=a[i]*2.0f+1.0f;}";
  cl_program pr=clCreateProgramWithSource(c,1,&src,0,&e);
  e=clBuildProgram(pr,1,D,"",0,0);
  cl_kernel k=clCreateKernel(pr,"k",&e);clSetKernelArg(k,0,sizeof(b),&b);
  size_t g=bytes/4; double t2=now();
  clEnqueueNDRangeKernel(q,k,1,0,&g,0,0,0,0);clFinish(q);
  double t3=now();
  for(int i=0;i<100;i++)clEnqueueNDRangeKernel(q,k,1,0,&g,0,0,0,0);clFinish(q);
  double t4=now();
  clEnqueueReadBuffer(q,b,CL_TRUE,0,bytes,h,0,0,0);
  double t5=now();
  double t6=t5,t7=t5;
  if(argc>2){ /* open the second GPU in a context of its own, as libsplit does later */
    t6=now(); cl_context c2=clCreateContext(0,1,D+1,0,0,&e); cl_command_queue q2=clCreateCommandQueue(c2,D[1],0,&e);
    cl_mem b2=clCreateBuffer(c2,CL_MEM_READ_WRITE,bytes,0,&e); clEnqueueWriteBuffer(q2,b2,CL_TRUE,0,bytes,h,0,0,0); t7=now();
    clReleaseMemObject(b2);clReleaseCommandQueue(q2);clReleaseContext(c2);}
  double t8=now();
  clReleaseKernel(k);clReleaseProgram(pr);clReleaseMemObject(b);clReleaseCommandQueue(q);clReleaseContext(c);
  double t9=now();
  printf("devices %d: context %.1f ms, first kernel %.2f ms, 100 kernels %.2f ms, read %.2f ms, second context+write %.1f ms, release %.1f ms\n",n,(t1-t0)*1e3,(t3-t2)*1e3,(t4-t3)*1e3,(t5-t4)*1e3,(t7-t6)*1e3,(t9-t8)*1e3);
  return 0;}
