#!/bin/bash
# FDTD-2D (PolyBench-ACC, on PoCL basic) with no kernel libsplit can split (LIBSPLIT_CC names no
# compiler): native, 4cb7545 (/tmp/ab-new2/lib), 5b3c710 (/tmp/ab-base/lib), and 4cb7545 with its
# compiler (default), rotated, 4 rounds, no dumps. Each lib/ beside a bin/ with the tree's libsplit-cc.
cd /work/sweep/polybench
export NODUMP=1
NEW="LD_PRELOAD=/tmp/ab-new2/lib/libsplit.so LIBSPLIT_CC=/nonexistent"
OLD="LD_PRELOAD=/tmp/ab-base/lib/libsplit.so LIBSPLIT_CC=/nonexistent"
DEF="LD_PRELOAD=/tmp/ab-new2/lib/libsplit.so"
for r in 1 2 3 4; do
  case $((r % 4)) in 0) order="native new old default";; 1) order="new old default native";;
                     2) order="old default native new";; 3) order="default native new old";; esac
  for c in $order; do
    case $c in native) cfg=native;; new) cfg="$NEW";; old) cfg="$OLD";; default) cfg="$DEF";; esac
    line=$(harness/run.sh FDTD-2D "$cfg" t_$c$r)
    echo "$r $c $line"
  done
done
