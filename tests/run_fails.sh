#!/bin/sh
# run_fails.sh PARRAYC FILE.pa
# For tests/e2e/*_fails.pa: programs whose run must fail.  FILE.pa must
# build; then `parrayc --run FILE.pa` must end with a non-zero exit status
# within 60 seconds (a hang fails the test: an MPI job whose process died must
# end, not wait forever).  When FILE.err exists, each of its lines must
# appear somewhere in the run's stderr; a line written "=1 TEXT" must appear
# exactly once (a message every process could print).  First-line flags:
# "cuda" needs a GPU (skipped without), "nvcc" only the CUDA build.
set -u
[ $# -eq 2 ] || { echo "usage: $0 PARRAYC FILE.pa" >&2; exit 2; }
parrayc=$1 file=$2
[ -x "$parrayc" ] || { echo "run_fails.sh: parrayc not found: $parrayc" >&2; exit 2; }
name=$(basename "$file" .pa)
here=$(cd "$(dirname "$0")" && pwd)
if sed -n 1p "$file" | grep -q 'parrayc-test:.*cuda' && ! sh "$here/run_gpu.sh" --probe; then
  echo "SKIPPED: no GPU"; exit 77
fi
# "nvcc": built by nvcc, run with or without a GPU
if sed -n 1p "$file" | grep -q 'parrayc-test:.*nvcc' && ! "$parrayc" --version | grep -q ' cuda'; then
  echo "SKIPPED: parrayc was built without CUDA"; exit 77
fi
expected=${file%.pa}.err
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

if ! "$parrayc" --build "$file" -o "$(pwd)/$name"; then
  echo "FAIL: $file does not build" >&2; exit 1
fi
timeout 60 "$parrayc" --run "$file" -o "$(pwd)/$name" 2>"$tmp/stderr"
status=$?
cat "$tmp/stderr" >&2
if [ "$status" -eq 124 ]; then
  echo "FAIL: the run did not end within 60 s (a hang)" >&2; exit 1
fi
if [ "$status" -eq 0 ]; then
  echo "FAIL: the run exited with status 0; it must fail" >&2; exit 1
fi
if [ -f "$expected" ]; then
  while IFS= read -r line; do
    [ -z "$line" ] && continue
    case $line in
    "=1 "*)
      line=${line#=1 }
      count=$(grep -cF -- "$line" "$tmp/stderr")
      if [ "$count" -ne 1 ]; then
        echo "FAIL: stderr has $count times, not once: $line" >&2; exit 1
      fi
      continue ;;
    esac
    if ! grep -qF -- "$line" "$tmp/stderr"; then
      echo "FAIL: stderr lacks: $line" >&2; exit 1
    fi
  done <"$expected"
fi
echo "failed as expected (status $status)"
exit 0
