#!/bin/sh
# run_archer.sh PARRAYC SRC FILE.pa
# Runs an omp program under a race detector that understands OpenMP: translates
# FILE.pa with parrayc, builds it and the runtime (SRC/runtime) with clang
# -fopenmp -fsanitize=thread against LLVM's libomp, and runs it with Archer
# (libarcher, the OMPT tool that tells ThreadSanitizer about OpenMP's barriers,
# tasks and locks) loaded through OMP_TOOL_LIBRARIES.  Passes when the program
# exits 0 with no race reported (and prints FILE.out, sorted if FILE.pa says
# "parrayc-test: sort"); a "parrayc-test: race" program passes only when a race
# is reported.  Skipped (77), saying why, where clang, its TSan runtime, libomp
# or libarcher is missing.  ARCHER_CC picks the compiler (default clang).
set -u
[ $# -eq 3 ] || { echo "usage: $0 PARRAYC SRC FILE.pa" >&2; exit 2; }
parrayc=$1 src=$2 file=$3
cc=${ARCHER_CC:-clang}
flags=$(sed -n '1s/.*parrayc-\(test\|sample\):\([ ,a-zA-Z0-9_-]*\).*/\2/p' "$file" | tr ',' ' ')
has_flag() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
skip() { echo "SKIPPED: $*"; exit 77; }

command -v "$cc" >/dev/null 2>&1 || skip "no $cc (Debian: clang)"
libdir=$(cd "$("$cc" -print-resource-dir 2>/dev/null)/../.." 2>/dev/null && pwd) || skip "$cc has no resource directory"
archer=$libdir/libarcher.so
[ -e "$archer" ] || skip "no libarcher.so in $libdir (Debian: libomp-dev)"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
export OMP_TOOL_LIBRARIES="$archer" ARCHER_OPTIONS="verbose=1"
export TSAN_OPTIONS="ignore_noninstrumented_modules=1:exitcode=66:halt_on_error=0"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
printf '#include <omp.h>\nint main(void) { int n = 0;\n#pragma omp parallel num_threads(2)\n#pragma omp atomic\nn++;\nreturn n != 2; }\n' >"$tmp/probe.c"
"$cc" -fopenmp -fsanitize=thread "$tmp/probe.c" -o "$tmp/probe" >"$tmp/probe.log" 2>&1 ||
  skip "$cc cannot build with -fopenmp -fsanitize=thread (Debian: libomp-dev, libclang-rt-dev): $(head -n 1 "$tmp/probe.log")"
"$tmp/probe" >"$tmp/probe.log" 2>&1 || skip "an OpenMP program under TSan does not run here: $(head -n 3 "$tmp/probe.log")"
grep -q 'Archer detected' "$tmp/probe.log" || skip "libarcher did not load ($archer)"

name=$(basename "$file" .pa)
"$parrayc" "$file" -o "$tmp/$name.c" || { echo "FAIL: parrayc could not translate $file" >&2; exit 1; }
"$cc" -std=gnu11 -g -O1 -fopenmp -fsanitize=thread -fno-omit-frame-pointer -I"$src/include" \
  "$tmp/$name.c" "$src"/runtime/pa_core*.c "$src"/runtime/pa_thread*.c -lpthread -lm -o "$tmp/$name" ||
  { echo "FAIL: $cc could not build $name" >&2; exit 1; }
(cd "$tmp" && "./$name" >"$tmp/out" 2>"$tmp/stderr")
status=$?
# Archer says on stdout that it is there (verbose=1); the program's output is the rest
grep -q '^Archer detected' "$tmp/out" || { echo "FAIL: Archer was not loaded" >&2; cat "$tmp/stderr" >&2; exit 1; }
grep -v '^Archer detected' "$tmp/out" >"$tmp/stdout"
cat "$tmp/stdout"
races=$(grep -c 'WARNING: ThreadSanitizer' "$tmp/stderr")
if has_flag race; then
  if [ "$races" -eq 0 ]; then
    echo "FAIL: no race reported in a program with a race" >&2; cat "$tmp/stderr" >&2; exit 1
  fi
  echo "ok: the race was reported ($races report(s))"; exit 0
fi
if [ "$races" -ne 0 ] || [ "$status" -ne 0 ]; then
  cat "$tmp/stderr" >&2
  echo "FAIL: $races race report(s), exit status $status" >&2; exit 1
fi
expected=${file%.pa}.out
if [ -f "$expected" ]; then
  if has_flag sort; then
    LC_ALL=C sort "$expected" >"$tmp/e"; LC_ALL=C sort "$tmp/stdout" >"$tmp/a"
  else
    cp "$expected" "$tmp/e"; cp "$tmp/stdout" "$tmp/a"
  fi
  diff -u "$tmp/e" "$tmp/a" >&2 || { echo "FAIL: stdout differs from $expected" >&2; exit 1; }
fi
echo "ok: no race reported"
