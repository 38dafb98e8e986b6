#!/bin/bash
# native / new (72b1eb9) / ec2f76c rotated, 5 rounds, no dumps; PolyBench-ACC apps below 0.9x in session 36
cd /work/sweep/polybench
export NODUMP=1
NEW="LD_PRELOAD=/work/main/build/lib/libsplit.so"
OLD="LD_PRELOAD=/work/sweep/lib/libsplit.so"
for r in 1 2 3 4 5; do
  for a in JACOBI1D ADI MVT 2DCONV BICG 3DCONV ATAX FDTD-2D; do
    case $((r % 3)) in 0) order="native new old";; 1) order="new old native";; 2) order="old native new";; esac
    for c in $order; do
      case $c in native) cfg=native;; new) cfg="$NEW";; old) cfg="$OLD";; esac
      line=$(harness/run.sh $a "$cfg" t_$c$r)
      echo "$r $c $line"
    done
  done
done
