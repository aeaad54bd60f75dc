#!/bin/sh
# check_doc.sh PARRAYC SRCDIR FILE.md: runs the code blocks of a document
# that are marked as programs, so the docs cannot drift from the compiler.
#
#   ```c parray-run          a whole program: built and run with parrayc --run,
#   ...                      it must exit with status 0; when the next block is
#   ```                      ```text parray-output, its output must be that text
#
#   ```console parray-check  commands, each on a line "$ parrayc ARGS" (run in
#   $ parrayc ARGS           SRCDIR), each followed by its expected output
#   OUTPUT...                (stdout, then stderr)
#   ```
#
#   ```diff parray-diff OLD NEW   the output of diff -U2 OLD NEW (files of
#   ...                           SRCDIR) without its two header lines
#   ```
#
# Other blocks are not run. Exits 77 (skipped) when FILE has no marked block.
parrayc=$1
src=$2
doc=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src" || exit 1
awk -v dir="$tmp" '
  /^```c parray-run/ { n++; f = dir "/prog" n ".pa"; mode = "prog"; last = n; next }
  /^```text parray-output/ { if (after == last) { f = dir "/prog" last ".expected"; mode = "out" } else mode = "skip"; next }
  /^```console parray-check/ { n++; f = dir "/check" n ".txt"; mode = "check"; next }
  /^```diff parray-diff / { n++; f = dir "/diff" n ".txt"; print $3, $4 > (dir "/diff" n ".files"); printf "" > f; mode = "check"; next }
  /^```/ { if (mode == "prog") after = last; else after = -1; if (mode != "") { mode = ""; next } mode = "other"; next }
  mode == "other" { next }
  mode == "prog" || mode == "out" || mode == "check" { print > f; next }
  /[^ \t]/ { after = -1 }
' "$doc"
count=$(ls "$tmp" | wc -l)
if [ "$count" -eq 0 ]; then
  echo "check_doc: $doc has no marked block" >&2
  exit 77
fi
fail=0
for p in "$tmp"/prog*.pa; do
  [ -e "$p" ] || continue
  base=${p%.pa}
  if ! "$parrayc" --run "$p" -o "$base" >"$base.got" 2>"$base.err"; then
    echo "check_doc: $doc: the program in block $(basename "$base") failed:" >&2
    cat "$base.err" >&2
    fail=1
  elif [ -e "$base.expected" ] && ! diff -u "$base.expected" "$base.got" >&2; then
    echo "check_doc: $doc: the program in block $(basename "$base") printed something else" >&2
    fail=1
  fi
done
for c in "$tmp"/check*.txt; do
  [ -e "$c" ] || continue
  # split into commands and their expected output
  awk -v dir="$c.d" 'BEGIN { system("mkdir -p " dir) }
    /^\$ parrayc / { k++; cmd = dir "/" k ".cmd"; out = dir "/" k ".expected"; sub(/^\$ parrayc /, ""); print > cmd; printf "" > out; next }
    k { print > out }' "$c"
  for cmd in "$c.d"/*.cmd; do
    [ -e "$cmd" ] || continue
    k=${cmd%.cmd}
    # shellcheck disable=SC2046
    eval "set -- $(cat "$cmd")"
    # --run: an mpi program is built in the current directory: build in the scratch one
    case " $* " in *" --run "*) set -- "$@" -o "$k.exe" ;; esac
    "$parrayc" "$@" >"$k.got" 2>&1
    if ! diff -u "$k.expected" "$k.got" >&2; then
      echo "check_doc: $doc: '\$ parrayc $(cat "$cmd")' printed something else" >&2
      fail=1
    fi
  done
done
for d in "$tmp"/diff*.txt; do
  [ -e "$d" ] || continue
  # shellcheck disable=SC2046
  set -- $(cat "${d%.txt}.files")
  diff -U2 "$1" "$2" | tail -n +3 >"$d.got"
  if ! diff -u "$d" "$d.got" >&2; then
    echo "check_doc: $doc: the diff of $1 and $2 is not the one shown" >&2
    fail=1
  fi
done
exit $fail
