#!/bin/sh
# editors.sh SOURCE_DIR WORKDIR
# editors/vim: Vim (batch mode) highlights directives, type declarations,
# $...$ and dimension paths in every sample and test program (and in a .pah
# header); editors/vscode: the TextMate grammar is valid JSON, its patterns
# compile, and they find the same constructs in every sample.
# Skips (77) when vim is not here (after checking the grammar, if python3 is).
set -u
[ $# -eq 2 ] || { echo "usage: $0 SOURCE_DIR WORKDIR" >&2; exit 2; }
S=$(cd "$1" && pwd) W=$2
mkdir -p "$W" || exit 2
files=$(ls "$S"/samples/*.pa "$S"/tests/e2e/*.pa "$S"/tests/multi/*.pa "$S"/tests/multi/*.pah)
fail=0 have_vim=0
if command -v vim >/dev/null 2>&1; then
  have_vim=1
  rm -f "$W/vim.txt"
  # shellcheck disable=SC2086
  PA_EDITORS=$S/editors/vim PA_RESULT=$W/vim.txt \
    vim -N -u NONE -i NONE -es -S "$S/tests/editors_check.vim" -- $files </dev/null >/dev/null 2>&1
  n=$(echo "$files" | wc -l)
  if [ ! -f "$W/vim.txt" ] || [ "$(grep -c '^ok ' "$W/vim.txt")" -ne "$n" ]; then
    echo "FAIL: vim syntax:" >&2; grep -v '^ok ' "$W/vim.txt" >&2 2>/dev/null || echo "  vim wrote no results" >&2
    fail=1
  else
    echo "vim: $n files ok"
  fi
else
  echo "vim not found: Vim syntax not checked"
fi
if command -v python3 >/dev/null 2>&1; then
  # shellcheck disable=SC2086
  python3 "$S/tests/editors_textmate.py" "$S/editors/vscode/syntaxes/parray.tmLanguage.json" $files || fail=1
else
  echo "python3 not found: TextMate grammar not checked"
fi
[ $fail -eq 0 ] && [ $have_vim -eq 0 ] && exit 77
exit $fail
