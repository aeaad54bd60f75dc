#!/bin/sh
# check.sh PARRAYC: the generated code of every sample and test must equal
# the expected output kept under tests/golden/ (see update.sh).
set -u
[ $# -eq 1 ] || { echo "usage: $0 PARRAYC" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
sh "$here/gen.sh" "$1" "$tmp" || exit 2
fail=0
for group in samples multi tutorial e2e diag; do
  diff -ru "$here/$group" "$tmp/$group" || fail=1
done
[ $fail -eq 0 ] || echo "FAIL: generated code differs from tests/golden (diff above: - expected, + actual;" \
  "tests/golden/update.sh BUILD_DIR regenerates it)" >&2
exit $fail
