#!/bin/sh
# subdir.sh SOURCE_DIR WORKDIR
# examples/cmake-user and tests/projects/layouts with parrayc's sources
# added by add_subdirectory (as FetchContent does) instead of an installed
# package: configure, build, test or run.
set -u
[ $# -eq 2 ] || { echo "usage: $0 SOURCE_DIR WORKDIR" >&2; exit 2; }
S=$(cd "$1" && pwd) W=$2
rm -rf "$W" && mkdir -p "$W" || exit 2
log=$W/log
if ! { cmake -S "$S/examples/cmake-user" -B "$W/b" -DPARRAY_SOURCE_DIR="$S" &&
       cmake --build "$W/b" -j2 && ctest --test-dir "$W/b" --output-on-failure; } >"$log" 2>&1; then
  tail -n 40 "$log" >&2; echo "FAIL: examples/cmake-user through add_subdirectory" >&2; exit 1
fi
grep -q 'host_sgemm .*Passed' "$log" || { echo "FAIL: host_sgemm did not pass" >&2; exit 1; }
# tests/projects/layouts likewise: parray_add_sources in every layout, the
# translations by the parrayc built there
if ! { cmake -S "$S/tests/projects/layouts" -B "$W/l" -DPARRAY_SOURCE_DIR="$S" &&
       cmake --build "$W/l" -j2; } >"$W/log2" 2>&1; then
  tail -n 40 "$W/log2" >&2; echo "FAIL: tests/projects/layouts through add_subdirectory" >&2; exit 1
fi
out=$("$W/l/big"; "$W/l/small"; "$W/l/names")
[ "$out" = "big: 8 elements, sum 28
small: 4 elements, sum 6
names: app 4 9, lib 6, extra 5, early 7" ] || { echo "FAIL: tests/projects/layouts printed: $out" >&2; exit 1; }
echo "subdir: ok"
