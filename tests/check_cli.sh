#!/bin/sh
# check_cli.sh PARRAYC: the command line: --help, --version, --explain (its
# output against cli/explain.out) and the usage errors with their exit
# status (1, as gcc's, for usage errors and for an input that cannot be
# read or resolved).
set -u
[ $# -eq 1 ] || { echo "usage: $0 PARRAYC" >&2; exit 2; }
parrayc=$1 here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0
# expect STATUS TEXT ARGS...: parrayc ARGS exits STATUS and prints TEXT
expect() {
  want=$1 text=$2; shift 2
  "$parrayc" "$@" >"$tmp/out" 2>&1
  got=$?
  if [ "$got" -ne "$want" ] || ! grep -qF -- "$text" "$tmp/out"; then
    echo "FAIL: parrayc $*: status $got (want $want), output:" >&2
    sed 's/^/    /' "$tmp/out" >&2
    echo "    (want it to contain: $text)" >&2
    failed=1
  fi
}
pa=$here/cli/explain.pa
expect 0 "usage: parrayc [options] FILE.pa" --help
expect 0 "usage: parrayc" -h
expect 0 "parrayc " --version
expect 1 "'-o' needs an argument" "$pa" -o
expect 1 "'--np 0': expected a positive number" --np 0 "$pa"
expect 1 "unrecognized command-line option '--bogus'" --bogus "$pa"
expect 1 "cannot specify '-o $tmp/two.c' with several input files" "$pa" "$pa" -o "$tmp/two.c"
expect 1 "no Parray input file" -v
expect 1 "cannot read '$tmp/missing.pa'" "$tmp/missing.pa"
expect 1 "undefined type 'Z'" --explain Z "$pa"
expect 1 "'A' has 2 sub-dimensions (_0 to _1)" --explain A_7 "$pa"
expect 1 "cannot write '$tmp/no/dir/out.c'" "$pa" -o "$tmp/no/dir/out.c"
# #line directives by default, none with --no-line
"$parrayc" "$pa" -o "$tmp/lines.c" && grep -q '^#line' "$tmp/lines.c" ||
  { echo "FAIL: no #line directive in the output without --no-line" >&2; failed=1; }
"$parrayc" --no-line "$pa" -o "$tmp/nolines.c" && ! grep -q '^#line' "$tmp/nolines.c" ||
  { echo "FAIL: --no-line: a #line directive in the output (or parrayc failed)" >&2; failed=1; }
# --run with program arguments; -v shows the commands
expect 0 "arg 2: two words" --run -v "$here/cli/args.pa" -o "$tmp/args" -- one "two words"
expect 0 "-lparray" --run -v "$here/cli/args.pa" -o "$tmp/args" -- one two
expect 5 "arg 1: one" --run "$here/cli/args.pa" -o "$tmp/args" -- one
# a C compiler that cannot be started: status 1, and the reason
CC=$tmp/no-such-cc expect 1 "cannot run '$tmp/no-such-cc'" --build "$here/cli/args.pa" -o "$tmp/args"
# mpi x cuda: nvcc gets the MPI flags (PARRAY_MPI_CFLAGS/LIBS here; `true` stands
# in for nvcc), and an MPI wrapper that cannot say them is an error naming the way out
mc=$here/e2e/gpu_mpi_dmem.pa
NVCC=true PARRAY_MPI_CFLAGS="-DMPI_MARK -pthread" PARRAY_MPI_LIBS="-lmpimark -Wl,-rpath,/x" \
  expect 0 "-DMPI_MARK -Xcompiler=-pthread" --build -v "$mc" -o "$tmp/mc"
NVCC=true PARRAY_MPI_CFLAGS=-DMPI_MARK PARRAY_MPI_LIBS="-lmpimark -Wl,-rpath,/x" \
  expect 0 "-lparray -lmpimark -Xlinker=-rpath,/x" --build -v "$mc" -o "$tmp/mc"
NVCC=true MPICC=false expect 1 "cannot ask 'false' for the MPI compile flags" --build "$mc" -o "$tmp/mc"

for t in A AT SP PV P BIG; do
  echo "\$ parrayc --explain $t"
  "$parrayc" --explain "$t" "$pa" || echo "(status $?)"
done >"$tmp/explain" 2>&1
if ! diff -u "$here/cli/explain.out" "$tmp/explain" >&2; then
  echo "FAIL: --explain output differs from cli/explain.out (- expected, + actual)" >&2
  failed=1
fi
exit $failed
