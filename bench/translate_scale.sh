#!/usr/bin/env bash
# bench/translate_scale.sh [LINES...]: translation time against program size.
# Generates programs of LINES lines (default 10000 20000 50000 100000), one
# #parray type (and its transposed view) per 10 lines, each used by #create,
# #copy, #destroy and $...$ in one long #mainhost, translates each with parrayc
# under /usr/bin/time and prints lines, seconds (wall, and CPU: user + system,
# the figure to trust on a loaded machine), max RSS and CPU seconds per 10k
# lines.  PARRAYC selects the compiler (default build/compiler/parrayc);
# KEEP=DIR keeps the generated programs there.
set -eo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
parrayc=${PARRAYC:-$root/build/compiler/parrayc}
sizes=("$@")
(( ${#sizes[@]} )) || sizes=(10000 20000 50000 100000)
tmp=${KEEP:-$(mktemp -d)}
mkdir -p "$tmp"
[ -n "$KEEP" ] || trap 'rm -rf "$tmp"' EXIT

# gen N: a program of N lines on stdout (10 lines a unit, 5 of them header/footer)
gen() {
  awk -v lines="$1" 'BEGIN {
    units = int((lines - 5) / 10)
    print "#include <stdio.h>"
    print "#mainhost {"
    print "  double sum = 0;"
    for (u = 0; u < units; u++) {
      r = 2 + u % 7; c = 3 + u % 5
      printf "  #parray {paged float [[%d][2]][%d]} T%d\n", r, c, u
      printf "  #parray {paged float [#T%d_1][#T%d_0]} V%d\n", u, u, u
      printf "  #create T%d(a%d)\n", u, u
      printf "  #create V%d(b%d)\n", u, u
      printf "  for (int i = 0; i < $size(T%d)$; i++) a%d[$T%d[i]$] = i;\n", u, u, u
      printf "  #copy T%d(a%d) to V%d(b%d)\n", u, u, u, u
      printf "  sum += b%d[$V%d[1][[0][1]]$] + a%d[$T%d[[1][0]][2]$] + $dim(T%d_0)$;\n", u, u, u, u, u
      printf "  #destroy V%d(b%d)\n", u, u
      printf "  #destroy T%d(a%d)\n", u, u
      print  "  if (sum < 0) return 1;"
    }
    print "  printf(\"%g\\n\", sum);"
    print "  return 0;"
    print "}"
  }'
}

printf '%8s %8s %8s %10s %12s\n' lines wall_s cpu_s maxrss_MB cpu_s_per_10k
for n in "${sizes[@]}"; do
  pa=$tmp/scale_$n.pa
  gen "$n" >"$pa"
  /usr/bin/time -f '%e %U %S %M' -o "$tmp/time_$n" "$parrayc" -o "$tmp/scale_$n.c" "$pa"
  read -r wall user sys kb <"$tmp/time_$n"
  awk -v n="$(wc -l <"$pa")" -v w="$wall" -v c="$user + $sys" -v kb="$kb" \
    'BEGIN { split(c, t, " [+] "); c = t[1] + t[2]
             printf "%8d %8.2f %8.2f %10.1f %12.3f\n", n, w, c, kb / 1024, c * 10000 / n }'
done
