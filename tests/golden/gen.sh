#!/bin/sh
# gen.sh PARRAYC OUTDIR: translates every samples/*.pa, samples/multi/*.pa,
# samples/tutorial/*.pa, tests/e2e/*.pa and tests/diag/*.pa into
# OUTDIR/{samples,multi,tutorial,e2e,diag}/:
#   NAME.gen         the generated code (default form, with #line)
#   NAME.noline.gen  the generated code with --no-line
#   NAME.stderr      parrayc's stderr and exit status, when either is not
#                    empty/0 (every diag test has one)
# parrayc runs in the file's directory on its base name, so the names in the
# output do not depend on where the repository is.
set -u
[ $# -eq 2 ] || { echo "usage: $0 PARRAYC OUTDIR" >&2; exit 2; }
parrayc=$1 out=$2
case $parrayc in /*) ;; *) parrayc=$(pwd)/$parrayc ;; esac
[ -x "$parrayc" ] || { echo "gen.sh: parrayc not found: $parrayc" >&2; exit 2; }
mkdir -p "$out" || exit 2
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# one FILE.pa into DIR: the two forms and, if any, stderr and status
translate() {
  file=$1 dir=$2
  name=$(basename "$file" .pa)
  rm -f "$tmp/a" "$tmp/b"
  (cd "$(dirname "$file")" && "$parrayc" -o "$tmp/a" "$name.pa") 2>"$tmp/err1"
  status=$?
  (cd "$(dirname "$file")" && "$parrayc" --no-line -o "$tmp/b" "$name.pa") 2>/dev/null
  [ -f "$tmp/a" ] && cp "$tmp/a" "$dir/$name.gen"
  [ -f "$tmp/b" ] && cp "$tmp/b" "$dir/$name.noline.gen"
  if [ -s "$tmp/err1" ] || [ "$status" -ne 0 ]; then
    { cat "$tmp/err1"; echo "exit status $status"; } >"$dir/$name.stderr"
  fi
}

for group in samples:samples multi:samples/multi tutorial:samples/tutorial e2e:tests/e2e diag:tests/diag; do
  dir=$out/${group%%:*}
  rm -rf "$dir" && mkdir -p "$dir" || exit 2
  for f in "$root/${group#*:}"/*.pa; do
    translate "$f" "$dir"
  done
done
