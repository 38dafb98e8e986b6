#!/bin/bash
# usage: run1.sh APP CFG DIR "OUTFILES" -- cmd args...
# CFG: native|default|always|summary|info|debug  (suffix with _N for repeats)
APP=$1; CFG=$2; DIR=$3; OUTS=$4; shift 5
R=/tmp/rod/results/$APP; mkdir -p $R
export POCL_DEVICES="basic pthread" LIBSPLIT_TUNING=off
L=/work/main/build/lib/libsplit.so
base=${CFG%%_*}
case $base in
 native) E=();;
 default) E=(LD_PRELOAD=$L);;
 always) E=(LD_PRELOAD=$L LIBSPLIT_SPLIT=always LIBSPLIT_SUMMARY=1);;
 summary) E=(LD_PRELOAD=$L LIBSPLIT_SUMMARY=1);;
 info) E=(LD_PRELOAD=$L LIBSPLIT_LOG=info);;
 debug) E=(LD_PRELOAD=$L LIBSPLIT_LOG=debug);;
 alwaysinfo) E=(LD_PRELOAD=$L LIBSPLIT_SPLIT=always LIBSPLIT_LOG=info);;
esac
cd $DIR || exit 9
for f in $OUTS; do rm -f "$f"; done
rm -f $R/$CFG.dump
s=$(date +%s.%N)
env "${E[@]}" RODINIA_DUMP=$R/$CFG.dump timeout 300 "$@" > $R/$CFG.stdout 2> $R/$CFG.stderr
rc=$?
e=$(date +%s.%N)
w=$(echo "$e - $s" | bc)
echo "$rc $w" > $R/$CFG.rc
for f in $OUTS; do [ -f "$f" ] && cp "$f" $R/$CFG.$(basename $f); done
echo "$APP $CFG rc=$rc wall=$w"
