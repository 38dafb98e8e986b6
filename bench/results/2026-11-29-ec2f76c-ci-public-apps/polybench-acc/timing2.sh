#!/bin/bash
cd /work/sweep/polybench
export NODUMP=1
L=LD_PRELOAD=/work/sweep/lib/libsplit.so
for a in "$@"; do for i in 1 2 3 4 5 6 7; do
  harness/run.sh $a native u_native$i; harness/run.sh $a default u_default$i
  harness/run.sh $a "$L LIBSPLIT_DISABLE=1" u_disable$i
done; done
