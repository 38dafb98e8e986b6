#!/bin/bash
export POCL_DEVICES='basic pthread' LIBSPLIT_TUNING=off LIBSPLIT_CC=/work/main/build/bin/libsplit-cc
A=/work/main/build/bench/apps
echo "round,app,args,split,library,app_s,bytes_moved,matrix_bytes"
for r in 1 2 3 4 5; do
  for spec in "lu|--n 384|589824" "lu|--n 768|2359296" "gramschmidt|--m 300 --n 200|240000"; do
    IFS='|' read app args mat <<< "$spec"
    t=$($A/$app --device 0:1 $args 2>/dev/null | grep -o ' in [0-9.]* s' | awk '{print $2}')
    echo "$r,$app,$args,native,native,$t,0,$mat"
    for cfg in always:base always:nofixed always:final auto:base auto:final; do
      split=${cfg%%:*}; lib=${cfg##*:}
      rm -f /tmp/rt.jsonl
      t=$(LIBSPLIT_SPLIT=$split LIBSPLIT_TRACE=/tmp/rt.jsonl LD_PRELOAD=/tmp/libsplit-$lib.so $A/$app --device 0:1 $args 2>/dev/null | grep -o ' in [0-9.]* s' | awk '{print $2}')
      b=$(python3 -c "
import json
print(sum(d.get('bytes_in',0)+d.get('bytes_out',0) for l in open('/tmp/rt.jsonl') for d in json.loads(l)['devices']))")
      echo "$r,$app,$args,$split,$lib,$t,$b,$mat"
    done
  done
done
