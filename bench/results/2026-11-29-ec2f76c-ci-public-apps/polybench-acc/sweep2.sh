#!/bin/bash
# extra configs: always+summary, alternate+summary, chunk=always+summary
cd /work/sweep/polybench
L=LD_PRELOAD=/work/sweep/lib/libsplit.so
for a in "$@"; do
  harness/run.sh $a "$L LIBSPLIT_SPLIT=always LIBSPLIT_SUMMARY=1" always_sum
  harness/run.sh $a "$L LIBSPLIT_SPLIT=alternate LIBSPLIT_SUMMARY=1" alternate_sum
  harness/run.sh $a "$L LIBSPLIT_CHUNK=always LIBSPLIT_SUMMARY=1" chunk_sum
  for c in always_sum alternate_sum chunk_sum; do harness/cmp.py $a $c; done
done
