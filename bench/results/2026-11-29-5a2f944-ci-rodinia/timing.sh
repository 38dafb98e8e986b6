#!/bin/bash
# Rodinia (yuhc/gpu-rodinia 9c10d3e as built in session 36, /work/sweep/rodinia) on PoCL basic
# (0:0): native / new (5a2f944's library, /tmp/ab-new3/lib) / 5b3c710 (/tmp/ab-base/lib), rotated,
# 5 rounds. Each lib/ beside a bin/ with the tree's libsplit-cc. Prints: round config app rc wall timer.
export POCL_DEVICES="basic pthread" LIBSPLIT_TUNING=off
R=/work/sweep/rodinia/opencl
run() { # config app dir cmd...
  local cfg=$1 app=$2 dir=$3; shift 3
  local pre=
  case $cfg in new) pre=/tmp/ab-new3/lib/libsplit.so;; old) pre=/tmp/ab-base/lib/libsplit.so;; esac
  cd $R/$dir
  local s=$EPOCHREALTIME
  out=$(LD_PRELOAD=$pre timeout 300 "$@" 2>&1); local rc=$?
  local e=$EPOCHREALTIME
  t=$(echo "$out" | grep -m1 -E "^Total:" | grep -oE "[0-9]+\.[0-9]+")
  echo "$r $cfg $app $rc $(echo "$e - $s" | bc) $t"
}
for r in 1 2 3 4 5; do
  case $((r % 3)) in 0) order="native new old";; 1) order="new old native";; 2) order="old native new";; esac
  for c in $order; do
    run $c streamcluster streamcluster ./streamcluster.out 10 20 64 8192 8192 1000 none /tmp/sc-out.txt 1 -p 0 -d 0
    run $c gaussian gaussian ./gaussian.out -s 1024 -p 0 -d 0
    run $c b+tree b+tree ./b+tree.out file /work/sweep/rodinia/data/b+tree/keys_1000000.txt command /work/sweep/rodinia/data/b+tree/command.txt -p 0 -d 0
  done
done
