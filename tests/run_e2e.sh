#!/bin/sh
# run_e2e.sh PARRAYC FILE.pa
# Builds and runs FILE.pa with `parrayc --run`; requires exit status 0 and, when
# FILE.out exists, stdout equal to it (both sorted if the first line of FILE.pa
# says "parrayc-test: sort"). "parrayc-test: cuda" tests are skipped (77) without a GPU;
# "sm_90a" among the flags builds with --arch=sm_90a (Hopper-only code: wgmma).
# PARRAY_UPDATE_EXPECTED=1 (re)writes FILE.out from the actual stdout.
set -u
[ $# -eq 2 ] || { echo "usage: $0 PARRAYC FILE.pa" >&2; exit 2; }
parrayc=$1 file=$2
[ -x "$parrayc" ] || { echo "run_e2e.sh: parrayc not found: $parrayc" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
expected=${file%.pa}.out
flags=$(sed -n '1s/.*parrayc-\(test\|sample\):\([ ,a-zA-Z0-9_-]*\).*/\2/p' "$file" | tr ',' ' ')
has_flag() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }

if has_flag cuda && ! sh "$here/run_gpu.sh" --probe; then
  echo "SKIPPED: no GPU"; exit 77
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
name=$(basename "$file" .pa)

arch=
has_flag sm_90a && arch=--arch=sm_90a
"$parrayc" --run $arch "$file" -o "$(pwd)/$name" >"$tmp/stdout"
status=$?
cat "$tmp/stdout"
if [ "$status" -ne 0 ]; then
  echo "FAIL: parrayc --run exited with status $status" >&2; exit 1
fi
if has_flag sort; then
  LC_ALL=C sort "$tmp/stdout" >"$tmp/actual"
else
  cp "$tmp/stdout" "$tmp/actual"
fi
if [ "${PARRAY_UPDATE_EXPECTED:-0}" = 1 ]; then
  cp "$tmp/actual" "$expected" && echo "updated $expected" >&2; exit 0
fi
[ -f "$expected" ] || exit 0
if has_flag sort; then
  LC_ALL=C sort "$expected" >"$tmp/expected"
else
  cp "$expected" "$tmp/expected"
fi
if ! diff -u "$tmp/expected" "$tmp/actual" >&2; then
  echo "FAIL: stdout differs from $expected (diff above: - expected, + actual)" >&2; exit 1
fi
exit 0
