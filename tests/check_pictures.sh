#!/bin/sh
# check_pictures.sh PARRAYC SRCDIR [--update]: redraws every picture listed in
# SRCDIR/doc/pictures/pictures.txt (NAME.svg ARGS...) with PARRAYC ARGS, run
# in SRCDIR, and compares it with the committed doc/pictures/NAME.svg
# (--update: rewrites them instead).
parrayc=$1
cd "$2" || exit 1
update=$3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
grep -v '^#' doc/pictures/pictures.txt | while read -r name args; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086
  if ! "$parrayc" $args >"$out"; then
    echo "check_pictures: 'parrayc $args' failed" >&2
    exit 1
  fi
  if [ "$update" = --update ]; then
    cat "$out" >"doc/pictures/$name"
  elif ! cmp -s "$out" "doc/pictures/$name"; then
    echo "check_pictures: doc/pictures/$name is not what 'parrayc $args' draws now" >&2
    diff "doc/pictures/$name" "$out" | head -20 >&2
    exit 1
  fi
done || status=1
exit $status
