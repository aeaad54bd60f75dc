#!/usr/bin/env bash
# fuzz_junk.sh PARRAYC [COUNT]
# Feeds parrayc COUNT (default 200) malformed inputs, generated reproducibly
# (fixed seed): random bytes, truncated and mutilated samples, token soup.
# Fails when parrayc exits with a status other than 0 or 1, dies from a signal,
# runs past 10 s, or leaves an output file when it reports an error, and
# when the C it wrote for an accepted input (C and pthread/OpenMP targets;
# CC, default cc) fails to compile at a line of the input that holds Parray
# (a directive, or an error about parrayc's pa_ names) with its first error:
# a Parray mistake cc caught is a finding.  Then a scale probe: a 20,000-line
# program must translate in 10 s.  Failing inputs are kept in ./fuzz_failures/.
set -u
if [ $# -lt 1 ]; then echo "usage: $0 PARRAYC [COUNT]" >&2; exit 2; fi
parrayc=$1 count=${2:-200}
case $parrayc in /*) ;; *) parrayc=$PWD/$parrayc ;; esac
if [ ! -x "$parrayc" ] || [ -d "$parrayc" ]; then
  echo "fuzz_junk.sh: parrayc not found or not executable: $parrayc" >&2; exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
# sanitizer reports must not look like parrayc's own exit status 1
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=99"

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
faildir=$PWD/fuzz_failures
RANDOM=42

# corpus: every .pa we know, plus a built-in program in case there is none
shopt -s nullglob globstar
corpus=("$root"/samples/**/*.pa "$root"/tests/e2e/*.pa "$root"/tests/diag/*.pa)
cat >"$tmp/builtin.pa" <<'PA'
#include <stdio.h>
#parray {paged float [[4][8]][8]} M
#parray {pthd [2]} P
#parray {dmem float [#M_0][16 #M_1]} D
#mainhost {
#create M(a)
  a[$M[1][2]$] = 1.0f;
#detour P { printf("%d\n", $tid$); }
#copy M(a) to M(a)
#destroy M(a)
}
PA
corpus+=("$tmp/builtin.pa")
tokens=('#parray' '#create' '#destroy' '#detour' '#copy' '#sync' '#mainhost' '#global'
  '#subprog' '#end' '#insert' '{' '}' '[' ']' '[[' ']]' '(' ')' '$' '$M[' '#M_0' '#A_1_1'
  'paged' 'pinned' 'dmem' 'smem' 'rmem' 'float' 'float2' 'int' 'cuda' 'pthd' 'omp' 'mpi'
  'M' 'A' 'x' '0' '16' '-1' '99999999999999999999' '/' '*' '+' ',' ';' 'to' '"' "'"
  '/*' '*/' '//' '\' '#' '#include <stdio.h>' $'\n' $'\n' ' ' $'\t' $'\r')

rand_big() { R=$(( (RANDOM << 15) | RANDOM )); }  # sets R; no subshell (keeps the seed)
rand_bytes() {  # rand_bytes N SEED: N reproducible pseudo-random bytes
  LC_ALL=C awk -v n="$1" -v s="$2" 'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%c", int(rand() * 256) }'
}

gen() {  # gen I FILE
  local i=$1 out=$2 src size k s pos n
  case $(( i % 4 )) in
    0) local sizes=(0 1 2 7 64 512 4096 65536)
       rand_bytes "${sizes[$(( (i / 4) % ${#sizes[@]} ))]}" "$(( 1000 + i ))" >"$out" ;;
    1) src=${corpus[$(( RANDOM % ${#corpus[@]} ))]}
       size=$(wc -c <"$src"); rand_big
       head -c "$(( size > 0 ? R % size : 0 ))" "$src" >"$out" ;;
    2) src=${corpus[$(( RANDOM % ${#corpus[@]} ))]}
       s=$(LC_ALL=C cat "$src"; echo x); s=${s%x}
       for (( k = 1 + RANDOM % 8; k > 0; k-- )); do
         (( ${#s} )) || break
         rand_big; pos=$(( R % ${#s} )); n=$(( 1 + RANDOM % 4 ))
         s=${s:0:pos}${s:pos+n}
       done
       printf '%s' "$s" >"$out" ;;
    3) for (( k = RANDOM % 120; k > 0; k-- )); do
         printf '%s ' "${tokens[$(( RANDOM % ${#tokens[@]} ))]}"
       done >"$out" ;;
  esac
}

export LC_ALL=C
# own_error NAME: cc ($tmp/cc) rejects a line of the input ($in) that is the
# program's C (no '#' first) and names NAME, with NAME in the message
own_error() {
  local f l rest
  while IFS=: read -r f l _ _ rest; do
    [ "$f" = "$in" ] && [[ $l =~ ^[0-9]+$ ]] && [[ $rest == *"$1"* ]] || continue
    sed -n "${l}p" "$in" | grep -v '^[[:space:]]*#' | grep -Eq "(^|[^A-Za-z0-9_])$1([^A-Za-z0-9_]|$)" && return 0
  done <"$tmp/cc"
  return 1
}

failed=0
for (( i = 0; i < count; i++ )); do
  in=$tmp/in$i.pa
  gen "$i" "$in"
  rm -f "$tmp/out.c"
  timeout 10 "$parrayc" -o "$tmp/out.c" "$in" >/dev/null 2>"$tmp/stderr"
  st=$?
  why=
  if (( st == 124 )); then why="timed out after 10 s"
  elif (( st > 128 )); then why="killed by signal $(( st - 128 ))"
  elif (( st != 0 && st != 1 )); then why="exit status $st"
  elif (( st == 1 )) && [ -e "$tmp/out.c" ]; then why="left an output file after an error"
  elif (( st == 0 )) && [ -e "$tmp/out.c" ] && ! grep -q 'parray_mpi.h\|cuda' "$tmp/out.c"; then
    # cc's errors at lines of the input with Parray in them
    if ! ${CC:-cc} -fsyntax-only -w -fopenmp -I"$root/include" "$tmp/out.c" 2>"$tmp/cc" >/dev/null; then
      # the first error only: after the program's own C errs (a mutilated
      # '#include'), cc's next errors may be its consequences in Parray's code
      while IFS=: read -r f line _ kind msg; do
        [ "$f" = "$in" ] && [[ $line =~ ^[0-9]+$ ]] && [ "$kind" = " error" ] || continue
        # the program's own C (a misspelt name next to a $...$) is not one, nor
        # a #parray's element type that is no C type: parrayc leaves C's names
        # to cc and writes 'sizeof(ELEM)' at the #parray's line so that cc
        # reports it there (doc/language.md, Types)
        name=$(printf '%s' "$msg" | sed -n "s/.*'\([A-Za-z_][A-Za-z0-9_]*\)' undeclared.*/\1/p")
        if [ -n "$name" ] && sed -n "${line}p" "$in" |
             grep -Eq "^[[:space:]]*#[[:space:]]*parray[[:space:]]*\{([a-z]+[[:space:]]+)?$name[[:space:]]*\["; then
          break
        fi
        # ... nor a thread array's parameter of a type C does not know (its
        # declaration is the program's C, bound at the detour's line)
        name=$(printf '%s' "$msg" | sed -En "s/.*unknown type name ('|‘)([A-Za-z_][A-Za-z0-9_]*)('|’).*/\2/p")
        if [ -n "$name" ] &&
             grep -Eq "^[[:space:]]*#[[:space:]]*parray[[:space:]]*\{[[:space:]]*[a-z]+[[:space:]]*\([^)]*\b$name\b" "$in"; then
          break
        fi
        # ... nor, at a #detour's line, a local's declaration the body captures,
        # which parrayc writes there (doc/language.md, Capture), when cc rejects
        # the program's own line of it too: the last name the message quotes is
        # in an error of cc's at a line of the input that is not Parray's
        name=$(printf '%s' "$msg" | sed -En "s/.*('|‘)([A-Za-z_][A-Za-z0-9_]*)('|’).*/\2/p")
        if [ -n "$name" ] && sed -n "${line}p" "$in" | grep -q '^[[:space:]]*#[[:space:]]*detour' &&
             own_error "$name"; then
          break
        fi
        if [[ $msg == *pa_* ]] || sed -n "${line}p" "$in" |
             grep -q '^[[:space:]]*#[[:space:]]*\(parray\|create\|destroy\|copy\|detour\|insert\|sync\|mainhost\|subprog\|global\)'; then
          why="accepted, but cc rejects the C written for line $line: $(grep -m1 "^$in:$line:" "$tmp/cc")"
        fi
        break
      done <"$tmp/cc"
    fi
  fi
  if [ -n "$why" ]; then
    failed=$(( failed + 1 ))
    mkdir -p "$faildir" && cp "$in" "$faildir/input$i.pa"
    echo "FAIL: input $i ($faildir/input$i.pa): $why" >&2
    head -n 5 "$tmp/stderr" | sed 's/^/    /' >&2
  fi
  rm -f "$in"
done
# scale probe: translation time linear in the program's length
bash "$root/bench/translate_scale.sh" --gen 20000 >"$tmp/scale.pa"
if ! timeout 10 "$parrayc" -o "$tmp/scale.c" "$tmp/scale.pa" >/dev/null 2>&1; then
  failed=$(( failed + 1 ))
  echo "FAIL: scale probe: 20,000 lines of bench/translate_scale.sh not translated in 10 s" >&2
fi
echo "fuzz_junk: $count inputs, $failed failures"
(( failed == 0 ))
