#!/usr/bin/env bash
# scale_linear.sh PARRAYC SOURCE_DIR: translation time grows linearly with
# the program.  For each shape, a program and one twice its size are
# translated; the best CPU time (user + system) of three runs of each is
# taken, and the test fails when the larger takes more than 3 times the
# smaller (a linear translation takes about 2 times; a quadratic one 4).
# Shapes: one long #mainhost (bench/translate_scale.sh's program), many
# #insert in one function, many #detour in one function, subprograms that
# each insert the next twice (a fan-out doubling with each level), many
# subprograms, one statement of many $...$, many detours capturing locals,
# and one pthd body of many #sync steps (the last four were quadratic).
# Sizes are chosen so the smaller program takes a quarter of a second or
# more: at a tenth, a loaded CI machine once measured 3.2 for a pair that
# measures 2.1 alone.  The runs of the two programs alternate.  The whole
# test takes about ten seconds.
set -uo pipefail
[ $# -eq 2 ] || { echo "usage: $0 PARRAYC SOURCE_DIR" >&2; exit 2; }
parrayc=$1 src=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# gen SHAPE N: a program of that shape and size on stdout
gen() {
  local shape=$1 n=$2 k
  case $shape in
  mainhost) bash "$src/bench/translate_scale.sh" --gen "$n" ;;
  inserts)
    printf '#include <stdio.h>\n#subprog INC(x)\n  x++;\n#end\n#mainhost {\n  int c = 0;\n'
    for ((k = 0; k < n; k++)); do printf '  #insert INC(c)\n'; done
    printf '  printf("%%d\\n", c);\n  return 0;\n}\n' ;;
  detours)
    printf '#include <stdio.h>\n#parray {pthd [2]} P\nint v[2];\n#mainhost {\n'
    for ((k = 0; k < n; k++)); do printf '  #detour P {\n    v[$tid$]++;\n  }\n'; done
    printf '  printf("%%d\\n", v[0]);\n  return 0;\n}\n' ;;
  subprogs) # n subprograms, each inserted once
    printf '#include <stdio.h>\n'
    for ((k = 0; k < n; k++)); do printf '#subprog S%d(x)\n  x += %d;\n#end\n' $k $k; done
    printf '#mainhost {\n  long c = 0;\n'
    for ((k = 0; k < n; k++)); do printf '  #insert S%d(c)\n' $k; done
    printf '  printf("%%ld\\n", c);\n  return 0;\n}\n' ;;
  longline) # one statement of n $...$
    printf '#include <stdio.h>\n#parray {paged float [4][5]} A\n#mainhost {\n  long s = 0'
    for ((k = 0; k < n; k++)); do printf ' + $A[%d][%d]$' $((k % 4)) $((k % 5)); done
    printf ';\n  printf("%%ld\\n", s);\n  return 0;\n}\n' ;;
  captures) # n pthd detours in one function, each capturing a local
    printf '#include <stdio.h>\n#parray {pthd [2]} P\n#mainhost {\n'
    for ((k = 0; k < 50; k++)); do printf '  int v%d = %d;\n' $k $k; done
    for ((k = 0; k < n; k++)); do printf '  #detour P {\n    if ($tid$ == 0 && v%d < 0) printf("x");\n  }\n' $((k % 50)); done
    printf '  return 0;\n}\n' ;;
  syncs) # one pthd body of n steps, each a $tid$ and a #sync
    printf '#include <stdio.h>\n#parray {pthd [2]} P\nint v[2];\n#mainhost {\n  #detour P {\n'
    for ((k = 0; k < n; k++)); do printf '    v[$tid$]++;\n    #sync\n'; done
    printf '  }\n  printf("%%d\\n", v[0]);\n  return 0;\n}\n' ;;
  fanout) # n levels: 2^(n-1) expansions of the last
    printf '#include <stdio.h>\n'
    for ((k = 1; k < n; k++)); do
      printf '#subprog S%d(x)\n  #insert S%d(x)\n  #insert S%d(x)\n#end\n' $k $((k + 1)) $((k + 1))
    done
    printf '#subprog S%d(x)\n  x++;\n#end\n' "$n"
    printf '#mainhost {\n  int c = 0;\n  #insert S1(c)\n  printf("%%d\\n", c);\n  return 0;\n}\n' ;;
  esac
}

# cpu FILE: the CPU seconds of one translation of FILE
cpu() {
  local t
  TIMEFORMAT='%3U %3S'
  t=$( { time "$parrayc" -o "$tmp/out.c" "$1" >/dev/null 2>"$tmp/err"; } 2>&1 ) || {
    echo "FAIL: parrayc rejected $1:" >&2; head -n 5 "$tmp/err" >&2; return 1; }
  awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.3f", a[1] + a[2] }'
}

# least A B: the smaller of two times (an empty A counts as none)
least() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b < a) ? b : a }'; }

fail=0
printf '%-9s %7s %8s %7s %8s %6s\n' shape size cpu_s size2 cpu2_s ratio
# shape, size: the twice-as-large program is size 2n (fanout: one level more)
for case in "mainhost 12000" "inserts 50000" "detours 8000" "fanout 17" "subprogs 30000" "longline 40000" \
  "captures 8000" "syncs 40000"; do
  set -- $case
  shape=$1 n=$2
  n2=$((2 * n))
  [ "$shape" = fanout ] && n2=$((n + 1))
  gen "$shape" "$n" >"$tmp/a.pa"
  gen "$shape" "$n2" >"$tmp/b.pa"
  # the two programs' runs alternate, so that a burst of load on the
  # machine lands on both rather than on one program's three runs
  a= b=
  for i in 1 2 3; do
    t=$(cpu "$tmp/a.pa") || { fail=1; continue 2; }
    a=$(least "$a" "$t")
    t=$(cpu "$tmp/b.pa") || { fail=1; continue 2; }
    b=$(least "$b" "$t")
  done
  # below 20 ms the clock's grain dominates: count 20 ms at least
  ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a < 0.02) a = 0.02; if (b < 0.02) b = 0.02; printf "%.2f", b / a }')
  printf '%-9s %7d %8.3f %7d %8.3f %6.2f\n' "$shape" "$n" "$a" "$n2" "$b" "$ratio"
  if awk -v r="$ratio" 'BEGIN { exit !(r > 3) }'; then
    echo "FAIL: $shape: twice the program took $ratio times as long (more than 3: not linear)" >&2
    fail=1
  fi
done
exit $fail
