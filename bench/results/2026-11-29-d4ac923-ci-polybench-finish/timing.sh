#!/bin/bash
# native / new (d4ac923, /tmp/ab-new/lib) / 5b3c710 (/tmp/ab-base/lib) rotated, 7 rounds, no dumps; each lib/ beside a bin/ with the tree's libsplit-cc
cd /work/sweep/polybench
export NODUMP=1
NEW="LD_PRELOAD=/tmp/ab-new/lib/libsplit.so"
OLD="LD_PRELOAD=/tmp/ab-base/lib/libsplit.so"
for r in 1 2 3 4 5 6 7; do
  for a in JACOBI1D ADI 3DCONV FDTD-2D JACOBI2D; do
    case $((r % 3)) in 0) order="native new old";; 1) order="new old native";; 2) order="old native new";; esac
    for c in $order; do
      case $c in native) cfg=native;; new) cfg="$NEW";; old) cfg="$OLD";; esac
      line=$(harness/run.sh $a "$cfg" t_$c$r)
      echo "$r $c $line"
    done
  done
done
