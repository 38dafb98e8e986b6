#!/bin/bash
cd /work/sweep/polybench
for a in "$@"; do
  for c in native default always summary; do harness/run.sh $a $c; done
  for c in default always; do harness/cmp.py $a $c; done
done
