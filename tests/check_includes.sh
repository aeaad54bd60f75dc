#!/bin/sh
# check_includes.sh SRCDIR: the import graph of compiler/ (the #include "..."
# lines of compiler/*.c and *.h) must have
#   - no cycle;
#   - no arrow from the model (parrayc.h, copy_plan.h and the .c files that
#     implement them: util, diag, expr, types, dollar, copy_plan), direct or
#     through other headers, to the printer (text.h, scope.h, backend.h,
#     hostc.h) or to a backend;
#   - no backend (emit_NAME.c) including another backend's header
#     (emit_OTHER.h), and no backend function named in the walk (emit.c).
set -u
[ $# -eq 1 ] || { echo "usage: $0 SRCDIR" >&2; exit 2; }
cd "$1/compiler" || exit 2
model="parrayc.h copy_plan.h util.c diag.c expr.c types.c dollar.c copy_plan.c"
printer="text.h scope.h backend.h hostc.h"
for f in *.c *.h; do
  sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" | while read -r h; do
    [ -f "$h" ] && echo "$f $h"   # generated headers (parser.h, parray_config.h) have no file here
  done
done | awk -v model="$model" -v printer="$printer" '
  { edge[$1] = edge[$1] " " $2; node[$1] = 1; node[$2] = 1 }
  function visit(v,   n, i, w, list) {
    state[v] = 1; path[++depth] = v
    n = split(edge[v], list, " ")
    for (i = 1; i <= n; i++) {
      w = list[i]
      if (state[w] == 1) { printf "FAIL: include cycle:"; for (k = 1; k <= depth; k++) printf " %s", path[k]; print " " w; bad = 1 }
      else if (!state[w]) visit(w)
    }
    depth--; state[v] = 2
  }
  function reach(v, seen,   n, i, list) {
    n = split(edge[v], list, " ")
    for (i = 1; i <= n; i++)
      if (!(list[i] in seen)) { seen[list[i]] = 1; reach(list[i], seen) }
  }
  END {
    for (v in node) if (!state[v]) visit(v)
    nm = split(model, m, " "); np = split(printer, pr, " ")
    for (i = 1; i <= nm; i++) {
      delete seen; reach(m[i], seen)
      for (w in seen) {
        for (j = 1; j <= np; j++) if (w == pr[j]) { print "FAIL: the model (" m[i] ") reaches the printer: " w; bad = 1 }
        if (w ~ /^emit/) { print "FAIL: the model (" m[i] ") reaches the emitter: " w; bad = 1 }
      }
    }
    for (v in node) if (v ~ /^emit_.*\.c$/) {
      n = split(edge[v], list, " "); own = v; sub(/\.c$/, ".h", own)
      for (i = 1; i <= n; i++) if (list[i] ~ /^emit_.*\.h$/ && list[i] != own) {
        print "FAIL: backend " v " includes another backend'"'"'s header " list[i]; bad = 1 }
    }
    exit bad
  }' || fail=1
if grep -nE '\bemit_(c|cpu|cuda|mpi)_[a-z_]+\(' emit.c; then
  echo "FAIL: the walk (emit.c) names a backend function (above): go through pick_backend" >&2; fail=1
fi
exit ${fail:-0}
