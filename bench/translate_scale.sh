#!/usr/bin/env bash
# bench/translate_scale.sh [LINES...]: translation time against program size.
# Generates programs of LINES lines (default 10000 20000 50000 100000), three
# #parray types per 10 lines (a layout, its transpose and a view), used by
# #create, a transposing #copy, #destroy and $...$ in one long #mainhost,
# translates each with parrayc under /usr/bin/time and prints lines, seconds
# (wall, and CPU: user + system, the figure to trust on a loaded machine), max
# RSS and CPU seconds per 10k lines.  PARRAYC selects the compiler (default build/compiler/parrayc);
# KEEP=DIR keeps the generated programs there.  --gen N prints the program
# of N lines and exits (tests/scale_linear.sh uses it).
set -eo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
parrayc=${PARRAYC:-$root/build/compiler/parrayc}
sizes=("$@")
(( ${#sizes[@]} )) || sizes=(10000 20000 50000 100000)
tmp=${KEEP:-$(mktemp -d)}
mkdir -p "$tmp"
[ -n "$KEEP" ] || trap 'rm -rf "$tmp"' EXIT

# gen N: a program of about N lines on stdout: 10 lines a unit, each with a
# layout T, its transpose W and a view V of W with T's shape (so #copy T to V
# transposes), created, filled, copied, read and destroyed
gen() {
  awk -v lines="$1" 'BEGIN {
    units = int((lines - 5) / 10)
    print "#include <stdio.h>"
    print "#mainhost {"
    print "  double sum = 0;"
    for (u = 0; u < units; u++) {
      r = 2 + u % 7; c = 3 + u % 5
      printf "  #parray {paged float [[%d][2]][%d]} T%d\n", r, c, u
      printf "  #parray {paged float [%d][[%d][2]]} W%d\n", c, r, u
      printf "  #parray {paged float [#W%d_1][#W%d_0]} V%d\n", u, u, u
      printf "  #create T%d(a%d)\n", u, u
      printf "  #create V%d(b%d)\n", u, u
      printf "  for (int i = 0; i < $size(T%d)$; i++) a%d[$T%d[i]$] = i;\n", u, u, u
      printf "  #copy T%d(a%d) to V%d(b%d)\n", u, u, u, u
      printf "  sum += b%d[$V%d[[1][0]][2]$] + a%d[$T%d[[1][0]][2]$] + $dim(T%d_0)$;\n", u, u, u, u, u
      printf "  #destroy V%d(b%d)\n", u, u
      printf "  #destroy T%d(a%d)\n", u, u
    }
    print "  printf(\"%g\\n\", sum);"
    print "  return sum > 0 ? 0 : 1;"
    print "}"
  }'
}

if [ "$1" = --gen ]; then
  gen "$2"
  exit
fi

printf '%8s %8s %8s %10s %12s\n' lines wall_s cpu_s maxrss_MB cpu_s_per_10k
for n in "${sizes[@]}"; do
  pa=$tmp/scale_$n.pa
  gen "$n" >"$pa"
  if ! /usr/bin/time -f '%e %U %S %M' -o "$tmp/time_$n" "$parrayc" -o "$tmp/scale_$n.c" "$pa" 2>"$tmp/err_$n"; then
    echo "translate_scale.sh: parrayc failed on $pa:" >&2; tail -n 5 "$tmp/err_$n" >&2; exit 1
  fi
  [ ! -s "$tmp/err_$n" ] || echo "note: parrayc wrote $(wc -l <"$tmp/err_$n") lines of diagnostics ($tmp/err_$n)" >&2
  read -r wall user sys kb <"$tmp/time_$n"
  awk -v n="$(wc -l <"$pa")" -v w="$wall" -v c="$user + $sys" -v kb="$kb" \
    'BEGIN { split(c, t, " [+] "); c = t[1] + t[2]
             printf "%8d %8.2f %8.2f %10.1f %12.3f\n", n, w, c, kb / 1024, c * 10000 / n }'
done
