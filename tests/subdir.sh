#!/bin/sh
# subdir.sh SOURCE_DIR WORKDIR
# examples/cmake-user with parrayc's sources added by add_subdirectory (as
# FetchContent does) instead of an installed package: configure, build, test.
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
echo "subdir: ok"
