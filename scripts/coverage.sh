#!/usr/bin/env bash
# coverage.sh [DIR]: line coverage of compiler/ by the test suite.  Builds a
# --coverage tree in DIR (default build-cov), runs the suite there (all but the
# libFuzzer test, which builds its own binary with clang), and reports with
# lcov: a summary per file on stdout, the total last, and an HTML report in
# DIR/coverage/html.  Needs lcov (scripts/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-cov}
command -v lcov >/dev/null || { echo "coverage.sh: lcov is missing (apt-get install lcov)" >&2; exit 2; }
if [ -d /usr/local/cuda/bin ]; then export PATH="$PATH:/usr/local/cuda/bin"; fi

cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DPARRAY_COVERAGE=ON >/dev/null
cmake --build "$dir" -j2 >/dev/null
out=$dir/coverage
rm -rf "$out" && mkdir -p "$out"
lcov --quiet --zerocounters --directory "$dir/compiler"
ctest --test-dir "$dir" -j2 -E '^fuzz_libfuzzer$' >"$out/ctest.log" 2>&1 || {
  echo "coverage.sh: some tests failed (see $out/ctest.log); coverage below is of what ran"
}
grep -E 'tests passed|tests failed' "$out/ctest.log" || true
lcov --quiet --capture --directory "$dir/compiler" --output-file "$out/all.info" 2>/dev/null
# compiler/ only: its .c files, and lexer.l and parser.y through the #line
# directives of the code flex and bison wrote
lcov --quiet --extract "$out/all.info" "$PWD/compiler/*" --output-file "$out/compiler.info"
lcov --list "$out/compiler.info"
if command -v genhtml >/dev/null; then
  genhtml --quiet "$out/compiler.info" --output-directory "$out/html" && echo "coverage.sh: report in $out/html/index.html"
fi
