#!/bin/bash
# usage: build.sh [APP...]   builds OpenCL/<dir>/<name>.exe with the dump wrapper force-included
cd /work/sweep/polybench
H=/work/sweep/polybench/harness
apps="$@"; [ -z "$apps" ] && apps=$(awk '{print $1}' $H/apps.txt)
for a in $apps; do
  read -r _ dir name < <(awk -v a=$a '$1==a' $H/apps.txt)
  sz=$(awk -v a=$a '$1==a{$1="";print}' $H/sizes.txt)
  ( cd OpenCL/$dir && gcc -O2 -w -include $H/dump.h -I../../../utilities -I../../utilities \
      -DOPENCL_DEVICE_SELECTION=CL_DEVICE_TYPE_ALL $sz $name.c -o $name.exe -lOpenCL -lm ) \
      && echo "built $a ($sz)" || echo "BUILD FAILED $a"
done
