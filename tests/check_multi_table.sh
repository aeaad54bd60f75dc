#!/bin/sh
# check_multi_table.sh ROOT: bench/multi_table.py (the table of bench/multi_gpu.sh) on
# the kept outputs of a run, tests/bench/multi_run/ (what multi_ref and the six
# samples print, in their formats; the figures are made up): it must write exactly
# tests/bench/multi_table.md and .csv; take the one-GPU SGEMM time from the [1]
# variant (the whole product on one GPU) when that ran; and fail, naming the program, when a sample says WRONG or
# dies.  Skipped (77) without python3.
set -u
root=$1
command -v python3 >/dev/null 2>&1 || { echo "SKIPPED: no python3"; exit 77; }
wd=$(mktemp -d) || exit 1
trap 'rm -rf "$wd"' EXIT
table() { # DIR: run the table on a fresh copy of the kept run, changed by the caller
  python3 "$root/bench/multi_table.py" "$1" > "$1/stdout"
}
fresh() { rm -rf "${wd:?}/$1" && cp -r "$root/tests/bench/multi_run" "$wd/$1"; }

fresh ok
table "$wd/ok" || { echo "the kept run failed"; cat "$wd/ok/stdout"; exit 1; }
diff -u "$root/tests/bench/multi_table.md" "$wd/ok/multi.md" || exit 1
diff -u "$root/tests/bench/multi_table.csv" "$wd/ok/multi.csv" || exit 1
cmp -s "$wd/ok/multi.md" "$wd/ok/stdout" || { echo "stdout is not multi.md"; exit 1; }

# the [1] variant ran: its time is the one-GPU time
fresh one
echo 'SGEMM N = 16384 on 1 GPUs (pthd): scatter 150.00 ms, compute 248.000 ms (35468.3 GFLOP/s), gather 50.00 ms; correct' \
  > "$wd/one/sgemm_1gpu.log"
echo 'sgemm_1gpu 0' >> "$wd/one/status.txt"
table "$wd/one" || { echo "the [1] variant failed the run"; cat "$wd/one/multi.md"; exit 1; }
grep -q '^| SGEMM on 2 GPUs (pthd), .* | 248 ms (sgemm_pthd.pa with \[1\]: .* | 1.984 | >= 1.95 | met |$' \
  "$wd/one/multi.md" || { echo "one-GPU time not from the [1] variant"; cat "$wd/one/multi.md"; exit 1; }
# ... and it must be right
fresh one_wrong
sed 's/; correct$/; WRONG/' "$wd/one/sgemm_1gpu.log" > "$wd/one_wrong/sgemm_1gpu.log"
echo 'sgemm_1gpu 1' >> "$wd/one_wrong/status.txt"
if table "$wd/one_wrong"; then echo "a WRONG [1] variant did not fail"; exit 1; fi

# a sample says WRONG
fresh wrong
sed -i 's/: correct$/: WRONG/' "$wd/wrong/fft_mpi.log"
if table "$wd/wrong"; then echo "WRONG did not fail"; exit 1; fi
grep -q '^FAILED: fft_mpi: WRONG$' "$wd/wrong/multi.md" || { cat "$wd/wrong/multi.md"; exit 1; }

# a sample dies without a result line
fresh died
: > "$wd/died/transpose_pthd.log"
sed -i 's/^transpose_pthd 0$/transpose_pthd 139/' "$wd/died/status.txt"
if table "$wd/died"; then echo "a dead sample did not fail"; exit 1; fi
grep -q '^FAILED: transpose_pthd: no result line, exit status 139$' "$wd/died/multi.md" ||
  { cat "$wd/died/multi.md"; exit 1; }
echo "multi_table.py: ok"
