#!/bin/sh
# check_cli.sh PARRAYC: the command line: --help, --version, --explain (its
# output against cli/explain.out) and the usage errors with their exit
# status (1, as gcc's, for usage errors and for an input that cannot be
# read or resolved).
set -u
[ $# -eq 1 ] || { echo "usage: $0 PARRAYC" >&2; exit 2; }
parrayc=$1 here=$(cd "$(dirname "$0")" && pwd)
case $parrayc in /*) ;; */*) parrayc=$(pwd)/$parrayc ;; esac
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
# ok ARGS...: parrayc ARGS succeeds
ok() {
  "$parrayc" "$@" >"$tmp/out" 2>&1 ||
    { echo "FAIL: parrayc $*: status $?, output:" >&2; sed 's/^/    /' "$tmp/out" >&2; failed=1; }
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

# ---- issue 32: gcc's conventions ------------------------------------------
# strict options: whole names only, unknown ones refused
expect 1 "unrecognized command-line option '--bui'" --bui "$pa"
expect 1 "unrecognized command-line option '-MX'" -MX "$pa"
expect 1 "'--build=yes' takes no value" --build=yes "$pa"
expect 1 "'-ferror-limit' needs a value" -ferror-limit "$pa"
# -MM is -M (a rule on standard output), not -MMD (which writes OUT.d and translates)
mkdir -p "$tmp/mm" && cp "$pa" "$tmp/mm/"
(cd "$tmp/mm" && "$parrayc" -MM explain.pa >mm.out 2>&1) && grep -q '^explain.c: ' "$tmp/mm/mm.out" &&
  [ ! -e "$tmp/mm/explain.c" ] && [ ! -e "$tmp/mm/explain.d" ] ||
  { echo "FAIL: -MM is not -M: $(cat "$tmp/mm.out")" >&2; failed=1; }
# conflicting modes
expect 1 "'--explain' and '--run' cannot be used together" --explain A --run "$pa"
expect 1 "'-c' and '--explain' cannot be used together" -c --explain A "$pa"
expect 1 "'--build' and '--print-backends' cannot be used together" --build --print-backends "$pa"
expect 1 "'-c' and '--run' cannot be used together" -c --run "$pa"
# nvcc's options reach nvcc (NVCC=true stands in), never read as -l ineinfo; C ones reach cc
cu=$here/cli/cuda.pa
NVCC=true expect 0 "-lineinfo -G --use_fast_math -Xptxas=-v -maxrregcount=64 -std=c++17" \
  --build -v -lineinfo -G --use_fast_math -Xptxas -v -maxrregcount 64 -std=c++17 "$cu" -o "$tmp/cu"
NVCC=true expect 0 "-Xcompiler=-fno-fast-math,-O3" --build -v -Xcompiler -fno-fast-math,-O3 "$cu" -o "$tmp/cu"
expect 0 "-fno-fast-math -O3 -std=c11" --build -v -Xcompiler -fno-fast-math,-O3 -std=c11 "$here/cli/args.pa" -o "$tmp/args"
expect 0 "'-lineinfo' is not passed on: it is nvcc's" --build -lineinfo "$here/cli/args.pa" -o "$tmp/args"
"$parrayc" --build -v -lineinfo "$here/cli/args.pa" -o "$tmp/args" 2>&1 | grep -q 'ineinfo .*-o ' &&
  { echo "FAIL: -lineinfo reached cc" >&2; failed=1; }
# --thread-map goes with --explain-access; --format=tex is a format
expect 1 "'--thread-map' draws the threads of --explain-access" --thread-map "$pa"
expect 0 "\\begin{tikzpicture}" --explain A --format=tex "$pa"
expect 1 "the format is text, svg, html or tex" --explain A --format=pdf "$pa"
# the output kind by content: CUDA never into a .c file
expect 1 "its translation is CUDA C++, not C: not writing it to '$tmp/cu.c'; name the output '$tmp/cu.cu'" "$cu" -o "$tmp/cu.c"
[ ! -e "$tmp/cu.c" ] || { echo "FAIL: CUDA written to cu.c" >&2; failed=1; }
ok "$cu" -o "$tmp/cu.cu"
# a file parrayc did not write is not replaced (helper.c next to helper.pa), unless --force
mkdir -p "$tmp/own" && cp "$here/cli/args.pa" "$tmp/own/helper.pa" && echo 'int helper;' >"$tmp/own/helper.c"
expect 1 "'$tmp/own/helper.c' exists and parrayc did not write it" "$tmp/own/helper.pa"
# -c and --run translate into a private folder: helper.c is not in the way
ok -c "$tmp/own/helper.pa" -o "$tmp/own/helper.o"
expect 5 "arg 1: x" --run "$tmp/own/helper.pa" -o "$tmp/own/helper" -- x
expect 1 "parrayc did not write it" -c -save-temps=obj "$tmp/own/helper.pa" -o "$tmp/own/helper.o"
[ "$(cat "$tmp/own/helper.c")" = 'int helper;' ] || { echo "FAIL: helper.c was replaced" >&2; failed=1; }
ok --force "$tmp/own/helper.pa"
grep -q '^/\* Generated by parrayc' "$tmp/own/helper.c" || { echo "FAIL: --force did not write helper.c" >&2; failed=1; }
ok "$tmp/own/helper.pa"   # its own translation it replaces
# the command line's order of objects and libraries is the linker's
if [ -e /usr/include/x86_64-linux-gnu/cblas.h ] || [ -e /usr/include/cblas.h ]; then
  printf '#include <cblas.h>\nfloat dot(const float *x, const float *y, int n) { return cblas_sdot(n, x, 1, y, 1); }\n' >"$tmp/util.c"
  cc -c "$tmp/util.c" -o "$tmp/util.o" &&
    "$parrayc" -c "$here/cli/dot.pa" -o "$tmp/dot.o" || { echo "FAIL: building the link-order objects" >&2; failed=1; }
  ok --build "$tmp/dot.o" "$tmp/util.o" -lopenblas -o "$tmp/dot"
  [ "$("$tmp/dot")" = "dot 14" ] || { echo "FAIL: link order: $("$tmp/dot" 2>&1)" >&2; failed=1; }
  ok --build "$here/cli/dot.pa" "$tmp/util.o" -lopenblas -o "$tmp/dot2"
  "$parrayc" --build -v "$here/cli/dot.pa" "$tmp/util.o" -L/nowhere -lopenblas -Wl,--as-needed -o "$tmp/dot2" 2>&1 |
    grep -q "util.o -L/nowhere -lopenblas -Wl,--as-needed" || { echo "FAIL: link words not in the command line's order" >&2; failed=1; }
else
  echo "note: no cblas.h: the link-order test is skipped"
fi

# PARRAY_LAUNCH: a cluster's launcher with its options runs the mpi program
# as it is written (here a stand-in that prints what it was given)
if command -v mpicc >/dev/null 2>&1; then
  cat >"$tmp/hello_mpi.pa" <<'PA'
#include <stdio.h>
#parray {mpi [2]} P
#mainhost {
  #detour P {
    if ($tid$ == 0)
      printf("hello\n");
  }
}
PA
  (cd "$tmp" && PARRAY_LAUNCH="sh -c 'echo launched: \"\$*\"' launcher -n 3" "$parrayc" --run hello_mpi.pa -- arg1) \
    >"$tmp/launch" 2>&1
  grep -q 'launched: -n 3 ./hello_mpi arg1' "$tmp/launch" ||
    { echo "FAIL: PARRAY_LAUNCH was not run as given:" >&2; sed 's/^/    /' "$tmp/launch" >&2; failed=1; }
  (cd "$tmp" && PARRAY_LAUNCH="srun" "$parrayc" --run --np 2 hello_mpi.pa) >"$tmp/launch" 2>&1
  grep -q -- "--np with PARRAY_LAUNCH" "$tmp/launch" ||
    { echo "FAIL: --np beside PARRAY_LAUNCH was not refused:" >&2; sed 's/^/    /' "$tmp/launch" >&2; failed=1; }
  # --run's process count from a macro extent: the program's #define, or -D
  printf '%s\n' '#!/bin/sh' 'echo "launcher: $*"' >"$tmp/fake_mpirun"
  chmod +x "$tmp/fake_mpirun"
  sed 's/\[2\]} P/[GPUS]} P/; 1i #ifndef GPUS\n#define GPUS 3\n#endif' "$tmp/hello_mpi.pa" >"$tmp/macro_mpi.pa"
  (cd "$tmp" && MPIRUN="$tmp/fake_mpirun" "$parrayc" --run macro_mpi.pa && MPIRUN="$tmp/fake_mpirun" "$parrayc" --run \
     -DGPUS=5 macro_mpi.pa) >"$tmp/launch" 2>&1
  { grep -q -- '-np 3 ./macro_mpi' "$tmp/launch" && grep -q -- '-np 5 ./macro_mpi' "$tmp/launch"; } ||
    { echo "FAIL: --run did not take the process count from the macro:" >&2; sed 's/^/    /' "$tmp/launch" >&2; failed=1; }
else
  echo "note: no mpicc: the PARRAY_LAUNCH test is skipped"
fi

# ---- issue 51: the option surface of gcc, clang and nvcc ---------------------
args=$here/cli/args.pa
# colours: gcc's and clang's switches, NO_COLOR
bad=$tmp/bad.pa
printf '#mainhost {\n  int x = $dim(Nope)$;\n}\n' >"$bad"
colours() { "$parrayc" "$@" "$bad" 2>&1 | grep -c "$(printf '\033')"; }
[ "$(colours -fdiagnostics-color)" -gt 0 ] && [ "$(colours -fdiagnostics-color -fno-diagnostics-color)" = 0 ] &&
  [ "$(colours -fcolor-diagnostics)" -gt 0 ] && [ "$(colours -fcolor-diagnostics -fno-color-diagnostics)" = 0 ] &&
  [ "$(NO_COLOR=1 colours)" = 0 ] && [ "$(NO_COLOR=1 colours -fdiagnostics-color=always)" -gt 0 ] ||
  { echo "FAIL: the colour switches or NO_COLOR" >&2; failed=1; }
expect 0 "-fdiagnostics-color=never" --build -v -fno-color-diagnostics "$args" -o "$tmp/args"
# @file (nested, quotes, backslashes) and nvcc's --options-file / -optf
printf '%s\n' "-DA='one two' @$tmp/inner.rsp" >"$tmp/outer.rsp"
printf '%s\n' "\"-DB=x y\" -DC=back\\ slash -O1" >"$tmp/inner.rsp"
expect 0 "-DA=one two -DB=x y -DC=back slash -O1" --build -v @"$tmp/outer.rsp" "$args" -o "$tmp/args"
printf '%s\n' '-pedantic' '-isystem /opt/sys' >"$tmp/cc.opt"
expect 0 "-pedantic -isystem /opt/sys" --build -v --options-file "$tmp/cc.opt" "$args" -o "$tmp/args"
expect 0 "-pedantic -isystem /opt/sys" --build -v -optf "$tmp/cc.opt" "$args" -o "$tmp/args"
expect 1 "cannot read the options file '$tmp/none.opt'" --options-file "$tmp/none.opt" "$args"
printf '@%s\n' "$tmp/loop.rsp" >"$tmp/loop.rsp"
expect 1 "nested more than 16 deep" @"$tmp/loop.rsp"
# cc's options reach cc (and through nvcc its host compiler)
expect 0 "-march=native -pedantic-errors -pipe -isystem $tmp -iquote $tmp -include stdio.h" --build -v \
  -march=native -pedantic-errors -pipe -isystem "$tmp" -iquote "$tmp" -include stdio.h "$args" -o "$tmp/args"
NVCC=true expect 0 "-Xcompiler=-march=native -Xcompiler=-pedantic -isystem /s -Xcompiler=-iquote,/q -include x.h" \
  --build -v -march=native -pedantic -isystem /s -iquote /q -include x.h "$cu" -o "$tmp/cu"
# nvcc's: -gencode in both forms, repeated (and then no default -arch), -ccbin, --expt-*, -Xcudafe, -Xnvlink
NVCC=true expect 0 "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 -ccbin=/usr/bin/g++ --expt-relaxed-constexpr --expt-extended-lambda -Xcudafe=--diag_suppress=177 -Xnvlink=-v" \
  --build -v -gencode arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90 --compiler-bindir /usr/bin/g++ \
  --expt-relaxed-constexpr -expt-extended-lambda -Xcudafe --diag_suppress=177 -Xnvlink -v "$cu" -o "$tmp/cu"
NVCC=true "$parrayc" --build -v -gencode arch=compute_80,code=sm_80 "$cu" -o "$tmp/cu" 2>&1 | grep -q -- ' -arch=' &&
  { echo "FAIL: -gencode alone still gets a default -arch" >&2; failed=1; }
NVCC=true expect 0 "-arch=sm_70" --build -v --gpu-architecture sm_70 "$cu" -o "$tmp/cu"
NVCC=true expect 0 "-ccbin=/x" --build -v -ccbin /x "$cu" -o "$tmp/cu"
expect 0 "'-gencode=arch=compute_80,code=sm_80' is not passed on: it is nvcc's, and this program has no CUDA: cc compiles it [-Wunused-command-line-argument]" \
  --build -gencode arch=compute_80,code=sm_80 "$args" -o "$tmp/args"
expect 1 "[-Werror=unused-command-line-argument]" --build -Werror -G "$args" -o "$tmp/args"
# -MT repeated, -MQ quoted for make, -MG: a generated header is a dependency
expect 0 'a.o b$x.o c\ $$y.o:' -M -MT a.o -MT 'b$x.o' -MQ 'c $y.o' "$pa"
printf '#include "gen_later.h"\n' >"$tmp/gen.pa" && cat "$pa" >>"$tmp/gen.pa"
expect 0 "gen_later.h" -M -MG "$tmp/gen.pa"
"$parrayc" -M "$tmp/gen.pa" 2>&1 | grep -q gen_later.h && { echo "FAIL: a missing header listed without -MG" >&2; failed=1; }
# -D and -U in order, and more than 64 of them
printf '#parray {paged float [N]} V\n#mainhost {\n}\n' >"$tmp/dn.pa"
expect 0 "extent N (= 8)" --explain V -DN=4 -UN -DN=8 "$tmp/dn.pa"
"$parrayc" --explain V -DN=4 -UN "$tmp/dn.pa" 2>&1 | grep -q '(= 4)' && { echo "FAIL: -DN=4 -UN: N still 4" >&2; failed=1; }
expect 0 "extent N (= 3)" --explain V $(i=0; while [ $i -lt 100 ]; do echo "-DM$i=$i"; i=$((i + 1)); done) -DN=3 "$tmp/dn.pa"
expect 1 "'-U1X': expected NAME" -U1X "$pa"

for t in A AT SP PV P BIG; do
  echo "\$ parrayc --explain $t"
  "$parrayc" --explain "$t" "$pa" || echo "(status $?)"
done >"$tmp/explain" 2>&1
if ! diff -u "$here/cli/explain.out" "$tmp/explain" >&2; then
  echo "FAIL: --explain output differs from cli/explain.out (- expected, + actual)" >&2
  failed=1
fi
exit $failed
