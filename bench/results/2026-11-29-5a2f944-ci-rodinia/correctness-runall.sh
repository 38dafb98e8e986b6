#!/bin/bash
# runall.sh APP DIR "OUTFILES" -- cmd...
APP=$1; DIR=$2; OUTS=$3; shift 4
for c in native default always; do /tmp/rod/run1.sh $APP $c $DIR "$OUTS" -- "$@"; done
R=/tmp/rod/results/$APP
cd $R
for c in default always; do
  for f in dump $(for o in $OUTS; do basename $o; done); do
    [ -f native.$f ] || continue
    if cmp -s native.$f $c.$f; then echo "  $c.$f IDENTICAL ($(stat -c %s native.$f) B)"; else echo "  $c.$f DIFFERS: $(cmp native.$f $c.$f 2>&1 | head -1)"; fi
  done
done
# keep md5 of dumps; drop big ones to save disk
md5sum *.dump > dumps.md5 2>/dev/null
for f in *.dump; do [ $(stat -c %s $f) -gt 50000000 ] && rm -f $f; done
