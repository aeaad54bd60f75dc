#!/usr/bin/env bash
# bench/scale_shapes.sh [SHAPE...]: translation time and memory of the
# shapes issue 55 found superlinear, at about 10k and 100k lines (type
# chains: 2k and 20k types; split chains: 30 and 60 types).  Prints, for
# each shape and size, the lines, CPU seconds (user + system) and max RSS.
# PARRAYC selects the compiler (default build/compiler/parrayc).
# --gen SHAPE N prints the program of that shape and size N and exits
# (tests/scale_linear.sh uses it).
# Shapes: fn_pthd fn_omp fn_cuda (N small functions, each with its own
# #detour), views (N #parray types, each a view of the previous, the last
# created and copied into: its checks walk the chain), wholes and ones
# (N types, each the whole of the previous, or the previous with a
# dimension of extent 1 added; the last created and copied into), twists
# (N types, each splitting the last one's dimension or transposing that
# split: offsets that double every two types, parrayc's error past
# its bound), splits (N
# types, each splitting the previous one's first dimension), pairs (N
# types, each two references to the last, of one element: 2^N nodes
# below the last if each reference were walked again; created, copied,
# indexed and by the threads of a chain of such thread arrays), dollars (N
# lines of 40 $...$ each), nest (blocks nested N deep).
set -eo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
parrayc=${PARRAYC:-$root/build/compiler/parrayc}

gen() {
  local shape=$1 n=$2
  case $shape in
  fn_pthd | fn_omp | fn_cuda)
    awk -v n="$n" -v kind="${shape#fn_}" 'BEGIN {
      print "#include <stdio.h>"
      printf "#parray {%s [2]} P\n", kind
      print "int v[2];"
      for (k = 0; k < n; k++) {
        printf "void f%d(void)\n{\n  #detour P {\n", k
        if (kind == "cuda") print "    int t = $tid$; (void)t;"
        else print "    v[$tid$] += " k ";"
        print "  }\n}"
      }
      print "#mainhost {\n  f0();\n  printf(\"%d\\n\", v[0]);\n  return 0;\n}"
    }' ;;
  views)
    awk -v n="$n" 'BEGIN {
      print "#include <stdio.h>"
      print "#parray {paged float [3][5]} T0"
      for (k = 1; k < n; k++) printf "#parray {paged float [#T%d_1][#T%d_0]} T%d\n", k - 1, k - 1, k
      last = "T" (n - 1)
      printf "#mainhost {\n  #create %s(a)\n  #create T0(b)\n  #copy T0(b) to %s(a)\n", last, last
      printf "  printf(\"%%d\\n\", (int)$%s[1][2]$);\n  #destroy %s(a)\n  #destroy T0(b)\n  return 0;\n}\n", last, last
    }' ;;
  wholes | ones)
    # N types, each the whole of the last ('[#T0]': a chain of whole
    # references, through children) or the last with a dimension of
    # extent 1 added ('[[1][#T0_0]][#T0_1]': a stride digit more each)
    awk -v n="$n" -v shape="$shape" 'BEGIN {
      print "#include <stdio.h>"
      print "#parray {paged float [3][5]} T0"
      for (k = 1; k < n; k++)
        if (shape == "wholes") printf "#parray {paged float [#T%d]} T%d\n", k - 1, k
        else printf "#parray {paged float [[1][#T%d_0]][#T%d_1]} T%d\n", k - 1, k - 1, k
      last = "T" (n - 1)
      index_ = shape == "wholes" ? "[7]" : "[1][2]"
      printf "#mainhost {\n  #create %s(a)\n  #create T0(b)\n  #copy T0(b) to %s(a)\n", last, last
      printf "  printf(\"%%d\\n\", (int)$%s%s$);\n  #destroy %s(a)\n  #destroy T0(b)\n  return 0;\n}\n", last, index_, last, last
    }' ;;
  twists)
    # N types, each a split of the last one's dimension ('[[2][n*2] #S0_0]')
    # or a transpose of that split ('[[#S1_0_1][#S1_0_0]]'): each pair
    # uses the index twice, so the offsets' terms double every two types
    awk -v n="$n" 'BEGIN {
      print "#include <stdio.h>"
      print "int main(int argc, char **argv)\n{\n  int n = 1 << 4, i = argc - 1;\n  (void)argv;"
      print "  #parray {paged float [[2][n*2]]} S0"
      for (k = 1; k < n; k++)
        if (k % 2) printf "  #parray {paged float [[#S%d_0_1][#S%d_0_0]]} S%d\n", k - 1, k - 1, k
        else printf "  #parray {paged float [[2][n*2] #S%d_0]} S%d\n", k - 1, k
      last = "S" (n - 1)
      printf "  #create %s(a)\n  #create S0(b)\n  #copy S0(b) to %s(a)\n", last, last
      printf "  printf(\"%%ld\\n\", (long)$%s[i]$);\n  #destroy %s(a)\n  #destroy S0(b)\n  return 0;\n}\n", last, last
    }' ;;
  splits)
    awk -v n="$n" 'BEGIN {
      print "#include <stdio.h>"
      print "#parray {paged float [n][4]} S0"
      for (k = 1; k < n; k++)
        if (k % 2) printf "#parray {paged float [[#S%d_0][2]][#S%d_1]} S%d\n", k - 1, k - 1, k
        else printf "#parray {paged float [#S%d_0][#S%d_1]} S%d\n", k - 1, k - 1, k
      printf "int main(void)\n{\n  int n = 1 << 20;\n  printf(\"%%ld\\n\", (long)$S%d[1][2]$);\n  return 0;\n}\n", n - 1
    }' ;;
  dollars)
    awk -v n="$n" 'BEGIN {
      print "#include <stdio.h>"
      print "#parray {paged float [4][5]} A"
      print "#mainhost {\n  long s = 0;"
      for (k = 0; k < n; k++) {
        printf "  s +="
        for (j = 0; j < 40; j++) printf " + $A[%d][%d]$", (k + j) % 4, j % 5
        print ";"
      }
      print "  printf(\"%ld\\n\", s);\n  return 0;\n}"
    }' ;;
  pairs)
    awk -v n="$n" 'BEGIN {
      print "#include <stdio.h>"
      print "#parray {paged float [1]} T0"
      print "#parray {pthd [1]} P0"
      for (k = 1; k < n; k++) {
        printf "#parray {paged float [#T%d][#T%d]} T%d\n", k - 1, k - 1, k
        printf "#parray {pthd [#P%d][#P%d]} P%d\n", k - 1, k - 1, k
      }
      t = "T" (n - 1)
      printf "float got;\nint main(int argc, char **argv)\n{\n  int i = argc - 1;\n  (void)argv;\n"
      printf "  #create %s(a)\n  #create %s(b)\n  a[$%s[i][i]$] = 7;\n  #copy %s(a) to %s(b)\n", t, t, t, t, t
      printf "  #detour P%d {\n    got = b[$%s[$tid_0$][$tid_1$]$];\n  }\n", n - 1, t
      printf "  printf(\"%%d\\n\", (int)got);\n  #destroy %s(a)\n  #destroy %s(b)\n  return 0;\n}\n", t, t
    }' ;;
  nest)
    awk -v n="$n" 'BEGIN {
      print "#include <stdio.h>"
      print "#mainhost {\n  int c = 0;"
      for (k = 0; k < n; k++) print "  {"
      print "  c++;"
      for (k = 0; k < n; k++) print "  }"
      print "  printf(\"%d\\n\", c);\n  return 0;\n}"
    }' ;;
  *) echo "scale_shapes.sh: unknown shape '$shape'" >&2; return 2 ;;
  esac
}

if [ "${1:-}" = --gen ]; then
  gen "$2" "$3"
  exit
fi
shapes=("$@")
(( ${#shapes[@]} )) || shapes=(fn_pthd fn_omp fn_cuda views wholes ones twists splits pairs dollars nest)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-8s %7s %8s %8s %10s %s\n' shape n lines cpu_s maxrss_kb status
for shape in "${shapes[@]}"; do
  case $shape in
  fn_*) sizes="1700 17000" ;;    # 6 lines a function
  views | wholes | ones | pairs) sizes="2000 20000" ;;
  splits) sizes="30 60" ;;
  twists) sizes="16 60" ;;
  dollars) sizes="10000 100000" ;;
  nest) sizes="500 5000" ;;
  esac
  for n in $sizes; do
    ext=c; [ "$shape" = fn_cuda ] && ext=cu
    gen "$shape" "$n" >"$tmp/p.pa"
    lines=$(wc -l <"$tmp/p.pa")
    status=ok
    /usr/bin/time -f '%U %S %M' -o "$tmp/time" timeout 120 "$parrayc" -o "$tmp/p.$ext" "$tmp/p.pa" >/dev/null 2>"$tmp/err" ||
      status="failed($(grep -v '^ *[0-9.]* [0-9.]* [0-9]*$' "$tmp/err" | head -n 1 | cut -c1-60))"
    read -r u s m < <(tail -n 1 "$tmp/time")
    printf '%-8s %7d %8d %8.2f %10d %s\n' "$shape" "$n" "$lines" "$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')" "$m" "$status"
  done
done
