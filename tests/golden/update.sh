#!/bin/sh
# update.sh BUILD_DIR: regenerates the expected output under tests/golden/
# with BUILD_DIR/compiler/parrayc.  Review the diff (git diff tests/golden)
# before committing it: every change in it is a change of generated code.
set -u
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/gen.sh" "$1/compiler/parrayc" "$here"
