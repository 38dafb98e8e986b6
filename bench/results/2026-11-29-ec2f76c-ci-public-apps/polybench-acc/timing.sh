#!/bin/bash
# alternate native/default 3 times each, no dumps
cd /work/sweep/polybench
export NODUMP=1
for a in "$@"; do for i in 1 2 3; do
  harness/run.sh $a native t_native$i; harness/run.sh $a default t_default$i
done; done
