#!/bin/bash
cd /work/sweep/polybench
L=LD_PRELOAD=/work/sweep/lib/libsplit.so
for a in "$@"; do
  harness/run.sh $a "$L LIBSPLIT_STATIC=0.37,0.63 LIBSPLIT_SUMMARY=1" static_sum
  harness/run.sh $a "$L LIBSPLIT_SPLIT=alternate LIBSPLIT_UPLOAD=at-launch LIBSPLIT_DEFER=copy LIBSPLIT_SUMMARY=1" altupl_sum
  harness/run.sh $a "$L LIBSPLIT_SUBDEVICES=2 LIBSPLIT_SPLIT=always LIBSPLIT_SUMMARY=1" subdev_sum
  for c in static_sum altupl_sum subdev_sum; do harness/cmp.py $a $c; done
done
