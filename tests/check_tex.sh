#!/bin/sh
# check_tex.sh PARRAYC SRCDIR: --format=tex output compiles with pdflatex:
# a data type with a view (Fig 4's B), a cuda thread array, distributed
# data, and --explain-access with --thread-map on a view of column-major
# storage.  Exit 77 (skipped) without pdflatex.
parrayc=$1
cd "$2" || exit 2
command -v pdflatex >/dev/null 2>&1 || { echo "skipped: no pdflatex"; exit 77; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0
n=0
while read -r args; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  if ! "$parrayc" $args --format=tex >"$tmp/p$n.tex" 2>"$tmp/p$n.err"; then
    echo "FAIL: parrayc $args --format=tex: $(cat "$tmp/p$n.err")" >&2
    status=1
    continue
  fi
  if ! (cd "$tmp" && pdflatex -interaction=nonstopmode -halt-on-error "p$n.tex" >"p$n.log" 2>&1) || [ ! -s "$tmp/p$n.pdf" ]; then
    echo "FAIL: pdflatex on 'parrayc $args --format=tex':" >&2
    grep -A3 '^!' "$tmp/p$n.log" | head -20 >&2
    status=1
  fi
done <<'LIST'
--explain B samples/fig4_artificial.pa
--explain T tests/explain/kinds.pa
--explain BQ tests/explain/kinds.pa
--explain-access tests/explain/touch.pa:21 --thread-map
--explain-access tests/explain/touch.pa:17
--explain-access samples/gpu_fig7_transpose.pa:33
LIST
[ $status -eq 0 ] && echo "tex: $n pictures compiled"
exit $status
