#!/bin/sh
# gpu_suite_filter.sh PARRAYC WORKDIR: tests/gpu_suite.sh's GPU_SUITE_ONLY, without a GPU.
# A filter that matches no check's name runs nothing (no PASS or FAIL line, where every
# check would fail without a GPU) and exits 2 naming the filter, so that a mistyped
# filter is not a green run.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=$2/out err=$2/err
mkdir -p "$2" || exit 1
GPU_SUITE_ONLY='^no_such_check$' bash "$root/tests/gpu_suite.sh" "$1" "$2/work" >"$out" 2>"$err"
status=$?
fail=0
[ $status -eq 2 ] || { echo "gpu_suite_filter: exit status $status, want 2"; fail=1; }
grep -q "no check's name matches GPU_SUITE_ONLY='^no_such_check\$'" "$err" ||
  { echo "gpu_suite_filter: no message naming the filter:"; cat "$err"; fail=1; }
grep -q '^0 passed, 0 failed$' "$out" || { echo "gpu_suite_filter: not '0 passed, 0 failed':"; cat "$out"; fail=1; }
if grep -Eq '^(PASS|FAIL) ' "$out"; then echo "gpu_suite_filter: a check ran:"; grep -E '^(PASS|FAIL) ' "$out"; fail=1; fi
[ $fail -eq 0 ] && echo "gpu_suite_filter: ok"
exit $fail
