#!/bin/sh
# check_fuzz_junk.sh ROOT: tests/fuzz_junk.sh's own rule for accepted inputs,
# with stand-ins for parrayc that write C the harness must judge.  One puts an
# error about a pa_ name at line 3 of every input: a finding, every time.
# The other puts an error in the program's own C first (at a line past the
# input's end) and the same pa_ error after it: cc's first error is the
# program's, what follows may be its consequences, so no finding.
set -u
root=$1
wd=$(mktemp -d) || exit 1
trap 'rm -rf "$wd"' EXIT
stand_in() { # NAME C-TEXT: a "parrayc -o OUT IN" that writes C-TEXT, IN for @IN@
  printf '#!/bin/sh\nsed "s|@IN@|$3|g" > "$2" <<%s\n%s\n%s\n' "'C'" "$2" C >"$wd/$1"
  chmod +x "$wd/$1"
}
stand_in finding '#line 3 "@IN@"
int x = pa_missing;'
stand_in consequence '#line 100000 "@IN@"
int y = junk;
#line 3 "@IN@"
int x = pa_missing;'
cd "$wd" || exit 1
if bash "$root/tests/fuzz_junk.sh" "$wd/finding" 4 >out 2>&1; then
  echo "a pa_ error at a line of the input was not a finding"; cat out; exit 1
fi
[ "$(grep -c "^FAIL: input .*pa_missing" out)" -eq 4 ] || { echo "not 4 findings"; cat out; exit 1; }
rm -rf fuzz_failures
bash "$root/tests/fuzz_junk.sh" "$wd/consequence" 4 >out 2>&1 ||
  { echo "an error after the program's own was a finding"; cat out; exit 1; }
echo "check_fuzz_junk: ok"
