#!/usr/bin/env bash
# test.sh: build and run all tests: build/ (Release), then build-asan/
# (address,undefined) and build-tsan/ (thread; only tests labelled tsan).
# PARRAY_NO_SANITIZE=1 runs only the plain build. Exit status 0 only if all pass.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -d /usr/local/cuda/bin ]; then export PATH="$PATH:/usr/local/cuda/bin"; fi

passed=0 failed=0 skipped=0
finish() {
  echo "test.sh: $passed passed, $failed failed, $skipped skipped"
  (( failed == 0 ))
  exit $?
}

# run_ctest DIR [CTEST ARGS...]: run ctest, add its results to the totals
run_ctest() {
  local dir=$1 log rc p s f
  shift
  log=$(mktemp)
  ctest --test-dir "$dir" --output-on-failure -j2 "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  local line='^ *[0-9]+/[0-9]+ +Test +#[0-9]+: '
  p=$(grep -cE "$line.* Passed " "$log")
  s=$(grep -cE "$line.*Skipped" "$log")
  f=$(grep -E "$line" "$log" | grep -cvE ' Passed |Skipped')
  rm -f "$log"
  if (( rc != 0 && f == 0 )); then f=1; fi   # ctest failed without a failing test line
  echo "test.sh: $dir: $p passed, $f failed, $s skipped"
  passed=$(( passed + p )) failed=$(( failed + f )) skipped=$(( skipped + s ))
}

# build_variant DIR SANITIZERS: configure and build a sanitized tree
build_variant() {
  cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DPARRAY_SANITIZE=$2" >/dev/null &&
    cmake --build "$1" -j2
}

if ! bash scripts/setup.sh; then
  echo "test.sh: setup.sh failed (build/ not built)"
  failed=$(( failed + 1 )); finish
fi
run_ctest build

if [ "${PARRAY_NO_SANITIZE:-0}" = 1 ]; then
  echo "test.sh: PARRAY_NO_SANITIZE=1: skipping sanitizer builds"
  finish
fi

if build_variant build-asan address,undefined; then
  run_ctest build-asan
else
  echo "test.sh: build-asan failed to build"; failed=$(( failed + 1 ))
fi

ntsan=$(ctest --test-dir build -N -L tsan 2>/dev/null | grep -cE '^ *Test +#')
if (( ntsan == 0 )); then
  echo "test.sh: no tests labelled tsan"
elif ! echo 'int main(void){return 0;}' | cc -x c -fsanitize=thread -o /tmp/pa_tsan_probe.$$ - 2>/dev/null ||
     ! /tmp/pa_tsan_probe.$$ >/dev/null 2>&1; then
  echo "test.sh: ThreadSanitizer does not work here: skipping $ntsan tsan tests"
  skipped=$(( skipped + ntsan ))
elif build_variant build-tsan thread; then
  run_ctest build-tsan -L tsan
else
  echo "test.sh: build-tsan failed to build"; failed=$(( failed + 1 ))
fi
rm -f /tmp/pa_tsan_probe.$$
finish
