#!/bin/sh
# check_sass_loop.sh ROOT: bench/sass_loop.py on tests/bench/sass_fig13.txt (the SASS of
# bench/kernels.cuh's k_fig13 from `cuobjdump -sass`, sm_90, nvcc 13.0; its k loop is
# unrolled 16 times) must print exactly tests/bench/sass_fig13.out. Skipped (77)
# without python3.
set -u
root=$1
command -v python3 >/dev/null 2>&1 || { echo "SKIPPED: no python3"; exit 77; }
out=$(python3 "$root/bench/sass_loop.py" k_fig13 < "$root/tests/bench/sass_fig13.txt") || exit 1
printf '%s\n' "$out" | diff -u "$root/tests/bench/sass_fig13.out" - || exit 1
# a filter that matches no kernel prints nothing
[ -z "$(python3 "$root/bench/sass_loop.py" no_such_kernel < "$root/tests/bench/sass_fig13.txt")" ] || exit 1
echo "sass_loop.py: ok"
