#!/bin/bash
# usage: run.sh APP CFG [TAG]   CFG = native|default|always|summary|loginfo|logdebug
# writes results/<APP>/<TAG>.{stdout,stderr,wall,rc} and dumps results/<APP>/dump/<TAG>.*.bin
APP=$1; CFG=$2; TAG=${3:-$2}
R=/work/sweep/polybench/results/$APP; mkdir -p $R/dump
H=/work/sweep/polybench/harness
read -r _ dir name < <(awk -v a=$APP '$1==a' $H/apps.txt)
cd /work/sweep/polybench/OpenCL/$dir
export POCL_DEVICES="basic pthread" LIBSPLIT_TUNING=off
rm -f $R/dump/$TAG.*.bin
ENV=()
case $CFG in
  native) ;;
  default) ENV=(LD_PRELOAD=/work/sweep/lib/libsplit.so) ;;
  always) ENV=(LD_PRELOAD=/work/sweep/lib/libsplit.so LIBSPLIT_SPLIT=always) ;;
  summary) ENV=(LD_PRELOAD=/work/sweep/lib/libsplit.so LIBSPLIT_SUMMARY=1) ;;
  loginfo) ENV=(LD_PRELOAD=/work/sweep/lib/libsplit.so LIBSPLIT_LOG=info) ;;
  logdebug) ENV=(LD_PRELOAD=/work/sweep/lib/libsplit.so LIBSPLIT_LOG=debug) ;;
  *) ENV=($CFG) ;;   # arbitrary "VAR=val VAR2=val" string
esac
t0=$EPOCHREALTIME
DP=DUMP_PREFIX=$R/dump/$TAG; [ -n "$NODUMP" ] && DP=NODUMP=1
env "${ENV[@]}" $DP timeout 300 ./$name.exe > $R/$TAG.stdout 2> $R/$TAG.stderr
rc=$?
t1=$EPOCHREALTIME
echo $rc > $R/$TAG.rc
wall=$(echo "$t1 - $t0" | bc)
echo $wall > $R/$TAG.wall
gpu=$(grep -A1 "GPU Time" $R/$TAG.stdout | tail -1)
nm=$(grep -oE "Threshold of.*|Number of misses.*" $R/$TAG.stdout | tr "\n" " "); err=$(grep -c "Error in\|Failed" $R/$TAG.stdout)
echo "$APP $TAG rc=$rc wall=$wall gpu=$gpu errlines=$err | $nm"
