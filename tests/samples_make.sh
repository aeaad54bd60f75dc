#!/usr/bin/env bash
# samples_make.sh PARRAYC SOURCE_DIR WORKDIR
# Makefile.samples under make -j on three samples: every build and run
# line says "[i/3]" and the times, the summaries count them, run's files
# go to OUTDIR/run and build's to OUTDIR; a sample that does not translate
# is a FAIL line and make's status is not 0, the others still run.
set -u
[ $# -eq 3 ] || { echo "usage: $0 PARRAYC SOURCE_DIR WORKDIR" >&2; exit 2; }
P=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") S=$(cd "$2" && pwd) W=$3
rm -rf "$W" && mkdir -p "$W" && W=$(cd "$W" && pwd) || exit 2
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
three="samples/fig1_natural.pa samples/cpu_fig5_hello.pa samples/tutorial/step1_one_thread.pa"
cd "$S" || exit 2

make -f Makefile.samples -j3 PARRAYC="$P" OUTDIR="$W/out" SAMPLES="$three" all run >"$W/log" 2>&1 ||
  fail "make -j3 all run: status $? ($(tail -n 5 "$W/log"))"
for line in '[1/3] BUILT fig1_natural (' '[2/3] BUILT cpu_fig5_hello (' '[3/3] BUILT tutorial_step1_one_thread (' \
            '[1/3] PASS fig1_natural: fig1: ok (' '[2/3] PASS cpu_fig5_hello: ' '[3/3] PASS tutorial_step1_one_thread: ' \
            '3 built, 0 failed, 0 skipped' '3 passed, 0 failed, 0 skipped'; do
  grep -qF "$line" "$W/log" || fail "no line '$line' in: $(cat "$W/log")"
done
grep -q '^\[[0-9]/3\] .* ([0-9]*\.[0-9] s; [0-9]*:[0-9][0-9] in all)$' "$W/log" || fail "no times in: $(cat "$W/log")"
for f in out/fig1_natural out/fig1_natural.build out/run/fig1_natural out/run/fig1_natural.run out/run/fig1_natural.log; do
  [ -e "$W/$f" ] || fail "no $f"
done

# a sample that does not translate: FAIL, the others PASS, make fails
printf '#mainhost {\n  #parray {paged int [} X\n}\n' >"$W/bad.pa"
if make -f Makefile.samples -j3 PARRAYC="$P" OUTDIR="$W/out2" SAMPLES="$W/bad.pa samples/fig1_natural.pa" run \
     >"$W/log2" 2>&1; then
  fail "make run succeeded with a sample that does not translate"
fi
grep -q '^\[1/2\] FAIL ' "$W/log2" || fail "no FAIL line for bad.pa: $(cat "$W/log2")"
grep -q '^\[2/2\] PASS fig1_natural' "$W/log2" || fail "fig1_natural did not run beside the failure: $(cat "$W/log2")"
grep -q '^1 passed, 1 failed, 0 skipped$' "$W/log2" || fail "summary: $(tail -n 1 "$W/log2")"

[ $fails -eq 0 ] && echo "samples_make: ok"
exit $((fails > 0))
