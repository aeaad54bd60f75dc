#!/usr/bin/env bash
# branches.sh PARRAYC TESTS_DIR WORKDIR: layouts chosen with #if
# (tests/branches/layouts.pa).  Each of -DCOLMAJOR, -DBLOCKED, -DLAYOUT=2
# and none gives its own layout, right; a header with an include guard
# may be included twice; translated without -DBLOCKED and compiled with
# it (the C compiler alone), the build stops at the #error of the branch
# parrayc left out, never runs the other layout's code; compiled with the
# header's guard defined, at the #error of the branch parrayc took; and a
# branch left out before a condition parrayc cannot decide is guarded too
# (tests/branches/undecided.pa).
set -u
[ $# -eq 3 ] || { echo "usage: $0 PARRAYC TESTS_DIR WORKDIR" >&2; exit 2; }
P=$1 T=$2 W=$3
case $P in /*) ;; *) P=$(pwd)/$P ;; esac
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 2
cp "$T/branches/layouts.pa" "$T/branches/rowmajor.pah" . || exit 2
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
check() { # check WANT FLAGS...: the output of parrayc --run FLAGS layouts.pa
  local want=$1
  shift
  out=$("$P" --run "$@" layouts.pa -o run 2>err.txt) || fail "$*: $(cat err.txt)"
  [ "$out" = "$want" ] || fail "$*: printed '$out', not '$want'"
}
check "row-major: A[1][0] at 8, A[0][5] at 5: ok"
check "column-major: A[1][0] at 1, A[0][5] at 40: ok" -DCOLMAJOR
check "blocked: A[1][0] at 4, A[0][5] at 17: ok" -DBLOCKED
check "8 9 10 11 12 13 14 15
blocked: A[1][0] at 4, A[0][5] at 17: ok" -DLAYOUT=2 -DVERBOSE
if "$P" --build -Xcompiler -DBLOCKED layouts.pa -o mixed 2>err.txt; then
  fail "translated row-major, compiled with -DBLOCKED: built, and ran: $(./mixed 2>&1)"
else
  grep -q 'layouts.pa:17: parrayc left out the Parray constructs of this branch, which the C compiler takes' err.txt ||
    fail "translated row-major, compiled with -DBLOCKED: no #error naming the branch: $(cat err.txt)"
fi
if "$P" --build -Xcompiler -DROWMAJOR_PAH layouts.pa -o unguarded 2>err.txt; then
  fail "compiled with the header's guard defined: built, and ran: $(./unguarded 2>&1)"
else
  grep -q 'rowmajor.pah:5: parrayc translated this branch, which the C compiler leaves out' err.txt ||
    fail "compiled with the header's guard defined: no #error naming the branch: $(cat err.txt)"
fi
# a branch left out before a condition parrayc cannot decide keeps its #error
cp "$T/branches/undecided.pa" . || exit 2
out=$("$P" --run -DDOUBLE undecided.pa -o undecided 2>err.txt) || fail "undecided -DDOUBLE: $(cat err.txt)"
[ "$out" = "b[3] = 4" ] || fail "undecided -DDOUBLE printed '$out'"
if "$P" --build -Xcompiler -DDOUBLE undecided.pa -o half 2>err.txt; then
  fail "undecided, DOUBLE given the C compiler alone: built, and ran: $(./half 2>&1)"
else
  grep -q 'undecided.pa:13: parrayc left out the Parray constructs of this branch' err.txt ||
    fail "undecided, DOUBLE given the C compiler alone: no #error naming the branch: $(cat err.txt)"
fi
# C's meaning: #if in intmax_t/uintmax_t, character constants, continued
# lines, -D -U in order, casts in sizes and indices (cmeaning.pa)
cp "$T/branches/cmeaning.pa" . || exit 2
out=$("$P" --run -w -DGONE -UGONE cmeaning.pa -o cmeaning 2>err.txt) || fail "cmeaning: $(cat err.txt)"
[ "$out" = "6 7 3 2
5 5 29 2
2" ] || fail "cmeaning printed '$out'"
[ $fails -eq 0 ] && echo "branches: ok"
exit $((fails > 0))
