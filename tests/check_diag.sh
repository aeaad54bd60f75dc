#!/bin/sh
# check_diag.sh PARRAYC FILE.pa
# parrayc must reject FILE.pa with exit status 1, leave no output file, and
# print exactly FILE.err to stderr (file names relative to FILE's directory).
# PARRAY_UPDATE_EXPECTED=1 (re)writes FILE.err from the actual stderr.
set -u
[ $# -eq 2 ] || { echo "usage: $0 PARRAYC FILE.pa" >&2; exit 2; }
parrayc=$1 file=$2
case $parrayc in /*) ;; *) parrayc=$(pwd)/$parrayc ;; esac
[ -x "$parrayc" ] || { echo "check_diag.sh: parrayc not found: $parrayc" >&2; exit 2; }
dir=$(cd "$(dirname "$file")" && pwd) || exit 2
base=$(basename "$file")
expected=$dir/${base%.pa}.err
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

(cd "$dir" && exec "$parrayc" -o "$tmp/out.c" "$base") >"$tmp/stdout" 2>"$tmp/stderr.raw"
status=$?
# drop any absolute spelling of the file's directory
D="$dir/" awk 'BEGIN { d = ENVIRON["D"] }
  { while ((i = index($0, d)) > 0) $0 = substr($0, 1, i - 1) substr($0, i + length(d)); print }' \
  "$tmp/stderr.raw" >"$tmp/stderr"

fail=0
if [ "$status" -ne 1 ]; then
  echo "FAIL: exit status $status, expected 1" >&2; fail=1
fi
if [ -e "$tmp/out.c" ]; then
  echo "FAIL: parrayc left an output file after an error" >&2; fail=1
fi
if [ "${PARRAY_UPDATE_EXPECTED:-0}" = 1 ]; then
  cp "$tmp/stderr" "$expected" && echo "updated $expected" >&2
elif [ ! -f "$expected" ]; then
  echo "FAIL: missing $expected; actual stderr was:" >&2; cat "$tmp/stderr" >&2; fail=1
elif ! diff -u "$expected" "$tmp/stderr" >&2; then
  echo "FAIL: stderr differs from $expected (diff above: - expected, + actual)" >&2; fail=1
fi
exit $fail
