#!/usr/bin/env bash
# int_offsets.sh PARRAYC TESTS_DIR WORKDIR: offsets of sizes written with
# macros (tests/offsets/macro_span.pa).  parrayc given -DN=70000 (or 46341:
# N * N just past 2^31) makes them 64-bit and the program is right;
# translated with the program's N = 1000 and compiled with -DN=70000 (the C
# compiler alone), the program must stop at #create with a message naming
# the place and the cure, never write a wrong element; with N = 1000
# everywhere it is right.  A view's first positions taken for one run of
# a digit at parrayc's value of a macro (tests/offsets/macro_fit.pa) are
# asserted in the output: compiled with another value that breaks it, the
# build stops naming the type; given parrayc, that value is right.  A
# macro parrayc cannot evaluate (macro_unknown.pa) keeps the copy on the
# offsets.
set -u
[ $# -eq 3 ] || { echo "usage: $0 PARRAYC TESTS_DIR WORKDIR" >&2; exit 2; }
P=$1 T=$2 W=$3
case $P in /*) ;; *) P=$(pwd)/$P ;; esac
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 2
cp "$T/offsets/macro_span.pa" . || exit 2
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

out=$("$P" --run -save-temps -DN=70000 macro_span.pa -o wide 2>err.txt) || fail "-DN=70000: $(cat err.txt)"
[ "$out" = "N = 70000: ok" ] || fail "-DN=70000 printed '$out'"
grep -q 'long long' wide.c || fail "-DN=70000: no 64-bit offsets in wide.c"

out=$("$P" --run -DN=46341 macro_span.pa -o just 2>err.txt) || fail "-DN=46341: $(cat err.txt)"
[ "$out" = "N = 46341: ok" ] || fail "-DN=46341 (N * N just past 2^31) printed '$out'"

out=$("$P" --run macro_span.pa -o small 2>err.txt) || fail "N = 1000: $(cat err.txt)"
[ "$out" = "N = 1000: ok" ] || fail "N = 1000 printed '$out'"

"$P" --build -Xcompiler -DN=70000 macro_span.pa -o narrow 2>/dev/null || fail "-Xcompiler -DN=70000 does not build"
if [ -x narrow ]; then
  out=$(timeout 60 ./narrow 2>err.txt)
  status=$?
  [ $status -ne 0 ] || fail "int offsets with N = 70000 ran to status 0: '$out'"
  grep -q 'macro_span.pa:22: error: #create A: 4900000000 elements, but its offsets are int' err.txt ||
    fail "int offsets with N = 70000: no #create error: $(cat err.txt)"
  [ -z "$out" ] || fail "int offsets with N = 70000 printed '$out' before stopping"
fi
# the first positions of a view, one run at parrayc's M = 6 (macro_fit.pa)
cp "$T/offsets/macro_fit.pa" . || exit 2
out=$("$P" --run macro_fit.pa -o fit 2>err.txt) || fail "macro_fit M = 6: $(cat err.txt)"
[ "$out" = "M = 6: ok" ] || fail "macro_fit M = 6 printed '$out'"
out=$("$P" --run -DM=3 macro_fit.pa -o fit3 2>err.txt) || fail "macro_fit -DM=3: $(cat err.txt)"
[ "$out" = "M = 3: ok" ] || fail "macro_fit -DM=3 printed '$out'"
if "$P" --build -Xcompiler -DM=3 macro_fit.pa -o unfit 2>err.txt; then
  fail "macro_fit translated at M = 6 built with -Xcompiler -DM=3: $(./unfit 2>&1)"
else
  grep -q 'macro_fit.pa:15: S: parrayc laid out its copies for 3 < M, true at the values it has' err.txt ||
    fail "macro_fit with -Xcompiler -DM=3: no static assertion naming the place: $(cat err.txt)"
fi
# a size macro #undef'd after its last use: the assertion is left out, the program builds
{ cat macro_fit.pa; printf '#undef M\n'; } >macro_undef.pa
out=$("$P" --run macro_undef.pa -o undef 2>err.txt) || fail "macro_fit with #undef M at its end: $(cat err.txt)"
[ "$out" = "M = 6: ok" ] || fail "macro_fit with #undef M at its end printed '$out'"
# a macro named twice in a comparison is tested once
sed 's/\[M #VB_2\]/[M * M - 30 #VB_2]/' macro_fit.pa >macro_twice.pa
"$P" macro_twice.pa -o twice.c 2>err.txt || fail "macro_fit with M * M - 30: $(cat err.txt)"
grep -qx '#if defined(M)' twice.c || fail "M * M - 30: the assertion's guard is not '#if defined(M)': $(grep -n '^#if' twice.c)"
# a macro parrayc cannot evaluate (sizeof) is not taken for large enough
cp "$T/offsets/macro_unknown.pa" . || exit 2
out=$("$P" --run macro_unknown.pa -o unknown 2>err.txt) || fail "macro_unknown: $(cat err.txt)"
[ "$out" = "M = 3: ok" ] || fail "macro_unknown printed '$out'"
[ $fails -eq 0 ] && echo "int_offsets: ok"
exit $((fails > 0))
