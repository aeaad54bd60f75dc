#!/usr/bin/env bash
# libfuzzer.sh SRC BIN WORK [SECONDS]: build tests/fuzz/fuzz_front.c with
# clang -fsanitize=fuzzer,address,undefined over parrayc's sources (those of
# SRC/compiler, and the lexer and parser that flex and bison wrote into
# BIN/compiler), seed a corpus from SRC's samples/ and tests/, and fuzz for
# SECONDS (default 120; 0: build only) with a per-input timeout.  Exits 0
# when nothing went wrong, 1 on a crash, leak, sanitizer report or timeout
# (the input is kept in WORK as crash-*, leak-* or timeout-*; add it to
# tests/fuzz/crashes/ once fixed), 77 when clang's fuzzer runtime is missing.
# FUZZ_ARGS adds libFuzzer options (e.g. FUZZ_ARGS=-jobs=1 or -runs=N).
set -uo pipefail
if [ $# -lt 3 ]; then echo "usage: $0 SRC BIN WORK [SECONDS]" >&2; exit 2; fi
src=$(cd "$1" && pwd) bin=$(cd "$2" && pwd) work=$3 seconds=${4:-120}
cc=${FUZZ_CC:-clang}
mkdir -p "$work" && work=$(cd "$work" && pwd)

probe=$work/probe
printf '%s\n' '#include <stdint.h>' '#include <stddef.h>' \
  'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' >"$probe.c"
if ! "$cc" -fsanitize=fuzzer,address,undefined "$probe.c" -o "$probe" 2>"$probe.log"; then
  echo "libfuzzer.sh: skipped: $cc cannot build a libFuzzer target (install clang and libclang-rt-dev):"
  head -n 3 "$probe.log"
  exit 77
fi
for f in lexer.c parser.c parray_config.h; do
  if [ ! -e "$bin/compiler/$f" ]; then
    echo "libfuzzer.sh: $bin/compiler/$f is missing: build parrayc first" >&2; exit 2
  fi
done

# the harness: every source of parrayc_core, instrumented
exe=$work/fuzz_front
sources=()
# (at any depth: a target's folder, targets/cuda/, is one level further)
while IFS= read -r f; do
  case "$(basename "$f")" in main.c | driver.c) ;; *) sources+=("$f") ;; esac
done < <(find "$src/compiler" -name '*.c' | sort)
sources+=("$bin/compiler/lexer.c" "$bin/compiler/parser.c" "$src/tests/fuzz/fuzz_front.c")
newest=$(ls -t "${sources[@]}" $(find "$src/compiler" -name '*.h') "$0" 2>/dev/null | head -n 1)
if [ ! -x "$exe" ] || [ "$newest" -nt "$exe" ]; then
  echo "libfuzzer.sh: building $exe"
  "$cc" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
    -std=gnu11 -DPARRAY_VERSION='"fuzz"' -I"$src/compiler" -I"$bin/compiler" \
    -Wno-unused-function -Wno-sign-compare -Wno-unused-but-set-variable \
    "${sources[@]}" -o "$exe" || exit 2
fi
(( seconds > 0 )) || exit 0

# seeds: every program of the repository and every input once found
# (copied here, so the repository holds them once)
seeds=$work/seeds corpus=$work/corpus
rm -rf "$seeds" && mkdir -p "$seeds" "$corpus"
shopt -s nullglob globstar
for f in "$src"/samples/**/*.pa "$src"/tests/e2e/*.pa "$src"/tests/diag/*.pa "$src"/tests/fuzz/crashes/*; do
  cp "$f" "$seeds/$(basename "$(dirname "$f")")_$(basename "$f")"
done
echo "libfuzzer.sh: $(ls "$seeds" | wc -l) seeds; fuzzing for $seconds s"
cd "$work" || exit 2
rm -f crash-* leak-* timeout-* oom-* slow-unit-*
export ASAN_OPTIONS=${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=1
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-}${UBSAN_OPTIONS:+:}print_stacktrace=1
# shellcheck disable=SC2086
"$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
  -dict="$src/tests/fuzz/parray.dict" -close_fd_mask=2 -print_final_stats=1 \
  ${FUZZ_ARGS:-} "$corpus" "$seeds" >"$work/fuzz.log" 2>&1
rc=$?
# the start, the end, the counts and any report (not the dictionary it suggests)
grep -E '^#[0-9]+.*(INITED|DONE)|^Done |^stat::|ERROR|SUMMARY|^(Test unit|artifact_prefix)|^ +#[0-9]+ 0x' \
  "$work/fuzz.log" | head -n 80
found=(crash-* leak-* timeout-* oom-*)
if (( rc != 0 || ${#found[@]} )); then
  echo "libfuzzer.sh: FAILED (status $rc): ${found[*]:-no input kept} in $work"
  exit 1
fi
echo "libfuzzer.sh: ok"
