#!/usr/bin/env bash
# scale_limits.sh PARRAYC SOURCE_DIR: parrayc's limits are its own located
# errors (issue 55).  Blocks nested 9000 deep translate; 12000 deep give
# "blocks nested too deep" at the '{' past the limit, not the parser's
# "memory exhausted".  Chains of 30000 types each a view of the last (of
# three shapes) translate, in sanitizer builds too, 30001 give parrayc's
# limit at the last; a chain whose offsets double every two types gives
# parrayc's bound on their terms at its first use.  Under a memory limit (ulimit -v), running out of
# memory names the place: the token being read or the construct being
# translated, with exit status 2 (skipped under a sanitizer, which needs
# more address space than any limit leaves).
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 PARRAYC SOURCE_DIR" >&2; exit 2; }
parrayc=$1 src=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
gen() { bash "$src/bench/scale_shapes.sh" --gen "$@"; }
fail=0

gen nest 9000 >"$tmp/deep.pa"
"$parrayc" -o "$tmp/deep.c" "$tmp/deep.pa" 2>"$tmp/err" ||
  { echo "FAIL: blocks nested 9000 deep:"; head -n 3 "$tmp/err"; fail=1; }
gen nest 12000 >"$tmp/deeper.pa"
"$parrayc" -o "$tmp/deeper.c" "$tmp/deeper.pa" 2>"$tmp/err"
status=$?
if [ "$status" -ne 1 ] || ! grep -q 'deeper.pa:10000:[0-9]*: error: blocks nested too deep' "$tmp/err"; then
  echo "FAIL: blocks nested 12000 deep: status $status (expected 1 and a located error):"; head -n 3 "$tmp/err"; fail=1
fi

# a chain of types each a view of the last, its last type created and
# copied into: 30000 translate, 30001 is parrayc's located limit
gen views 30000 >"$tmp/chain.pa"
"$parrayc" -o "$tmp/chain.c" "$tmp/chain.pa" 2>"$tmp/err" ||
  { echo "FAIL: a chain of 30000 views:"; grep error "$tmp/err" | head -n 3; fail=1; }
# chains as long through whole references (walked through children too:
# a release parrayc crashed at 30000) and through views each adding a
# dimension of extent 1 (memory cubic in the chain): walked on the heap,
# not the C stack, so a sanitizer's larger frames change nothing
for shape in wholes ones; do
  gen "$shape" 30000 >"$tmp/$shape.pa"
  "$parrayc" -o "$tmp/$shape.c" "$tmp/$shape.pa" 2>"$tmp/err" ||
    { echo "FAIL: a chain of 30000 $shape:"; grep -i 'error\|sanitizer' "$tmp/err" | head -n 3; fail=1; }
done
# a chain of splits each transposed by the next: its offsets' terms double
# every two types.  16 types translate; past parrayc's bound on terms (512)
# the error stands at the construct, counted, not timed (CPU limit: a
# return to the doubling runs out of it, or of memory, rather than ending)
gen twists 16 >"$tmp/twists.pa"
"$parrayc" -o "$tmp/twists.c" "$tmp/twists.pa" 2>"$tmp/err" ||
  { echo "FAIL: 16 twists:"; grep -i 'error\|sanitizer' "$tmp/err" | head -n 3; fail=1; }
gen twists 60 >"$tmp/twists60.pa"
(ulimit -t 60; exec "$parrayc" -o "$tmp/twists60.c" "$tmp/twists60.pa") 2>"$tmp/err"
status=$?
if [ "$status" -ne 1 ] || ! grep -q "twists60.pa:66:3: error: an offset here would take more than 512 terms" "$tmp/err"; then
  echo "FAIL: 60 twists: status $status (expected 1 and a located error):"; grep -i 'error\|sanitizer' "$tmp/err" | head -n 3; fail=1
fi
gen views 30001 >"$tmp/longer.pa"
"$parrayc" -o "$tmp/longer.c" "$tmp/longer.pa" 2>"$tmp/err"
status=$?
if [ "$status" -ne 1 ] || ! grep -q "longer.pa:30002:[0-9]*: error: type 'T30000' ends a chain of more than 30000 types" "$tmp/err"; then
  echo "FAIL: a chain of 30001 views: status $status (expected 1 and a located error):"; grep error "$tmp/err" | head -n 3; fail=1
fi

if nm "$parrayc" 2>/dev/null | grep '__asan_init\|__tsan_init\|__msan_init' >/dev/null; then
  echo "out of memory: skipped under a sanitizer"
else
  gen dollars 40000 >"$tmp/big.pa"
  for limit in 60000 120000; do
    (ulimit -v "$limit"; exec "$parrayc" -o "$tmp/big.c" "$tmp/big.pa") 2>"$tmp/err"
    status=$?
    if [ "$status" -ne 2 ] || ! grep -Eq '^.*big.pa:[0-9]+:[0-9]+: error: out of memory \([0-9]+ bytes more\) while (reading the source here|translating )' "$tmp/err"; then
      echo "FAIL: out of memory under ulimit -v $limit: status $status (expected 2 and a located error):"
      head -n 3 "$tmp/err"; fail=1
    fi
  done
fi
[ "$fail" = 0 ] && echo "ok"
exit $fail
