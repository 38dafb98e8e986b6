#!/usr/bin/env bash
# A stand-in app for bench/tools/rounds.sh's tests: appends which configuration ran it (the
# variable FAKE_CONFIG) to $FAKE_LOG, and prints a timer line whose seconds are FAKE_SECONDS.
echo "${FAKE_CONFIG:-none}" >>"${FAKE_LOG:?}"
echo "fake: PASS on 'stand-in' in ${FAKE_SECONDS:-0.001} s; nothing checked"
