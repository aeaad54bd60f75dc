#!/bin/sh
# check_explain.sh PARRAYC DIR/NAME.args: runs PARRAYC in DIR with the arguments
# written in NAME.args (one line) and compares what it prints (stdout, then
# stderr, then "exit N" when N is not 0) with DIR/NAME.out.
parrayc=$1
args_file=$2
dir=$(dirname "$args_file")
name=$(basename "$args_file" .args)
cd "$dir" || exit 1
out=$(mktemp)
trap 'rm -f "$out" "$out.err"' EXIT
# shellcheck disable=SC2046
"$parrayc" $(cat "$name.args") >"$out" 2>"$out.err"
rc=$?
cat "$out.err" >>"$out"
[ $rc -eq 0 ] || echo "exit $rc" >>"$out"
if ! diff -u "$name.out" "$out"; then
  echo "check_explain: '$parrayc $(cat "$name.args")' differs from $dir/$name.out" >&2
  exit 1
fi
