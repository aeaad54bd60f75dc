#!/usr/bin/env bash
# capture_lines.sh PARRAYC TESTS_DIR WORKDIR: the C compiler's errors about
# the code parrayc writes before an outlined detour body (the struct of
# its arguments and captured locals, their unpacking, the body's
# parameters) are on the #detour's line, where the program says what the
# code is made of, not on lines of the body or past the end of the file
# (tests/capture_lines/*.pa: each says the lines cc must fault: its
# #detour's and those of its own mistakes).
set -u
[ $# -eq 3 ] || { echo "usage: $0 PARRAYC TESTS_DIR WORKDIR" >&2; exit 2; }
P=$1 T=$2 W=$3
case $P in /*) ;; *) P=$(pwd)/$P ;; esac
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 2
fails=0
for pa in "$T"/capture_lines/*.pa; do
  name=$(basename "$pa")
  cp "$pa" . || exit 2
  want=$(sed -n 's|^// cc errors on lines: ||p' "$name" | tr ' ' '\n' | sort -u)
  if "$P" --build "$name" -o "${name%.pa}" 2>err.txt; then
    echo "FAIL: $name built" >&2; fails=$((fails + 1)); continue
  fi
  lines=$(sed -n "s/^$name:\([0-9]*\):[0-9]*: error: .*/\1/p" err.txt | sort -u)
  if [ -z "$lines" ] || [ "$lines" != "$want" ]; then
    echo "FAIL: $name: errors on lines '$(echo $lines)', not '$(echo $want)':" >&2
    cat err.txt >&2
    fails=$((fails + 1))
  fi
done
[ "$fails" -eq 0 ] && echo "ok: errors about prologues on the #detour's line"
exit $((fails != 0))
