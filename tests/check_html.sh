#!/bin/sh
# check_html.sh PARRAYC SRCDIR: opens an --explain page in headless Chromium
# and checks that it renders (a screenshot that is not blank) and that
# hovering works (the page's #selftest hovers its first cell, whose hover data
# must then be shown). Skipped (77) without Chromium: scripts/setup.sh
# installs it when PARRAY_BROWSER_TEST=1.
parrayc=$1
cd "$2" || exit 1
browser=
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
  echo "check_html: no chromium: skipped" >&2
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
page=$tmp/fig7.html
"$parrayc" --explain B --format=html samples/gpu_fig7_transpose.pa >"$page" || exit 1
flags="--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=$tmp/profile"
# shellcheck disable=SC2086
timeout 120 "$browser" $flags --window-size=1200,900 --screenshot="$tmp/shot.png" "file://$page" >/dev/null 2>&1
size=$(wc -c <"$tmp/shot.png" 2>/dev/null || echo 0)
if [ "$size" -lt 10000 ]; then
  echo "check_html: the screenshot of $page is missing or blank ($size bytes)" >&2
  exit 1
fi
# shellcheck disable=SC2086
timeout 120 "$browser" $flags --dump-dom "file://$page#selftest" >"$tmp/dom.html" 2>/dev/null
cells=$(grep -o 'data-info=' "$tmp/dom.html" | wc -l)
if [ "$cells" -lt 256 ]; then
  echo "check_html: the page has $cells cells with hover data, expected at least 256" >&2
  exit 1
fi
if ! grep -q '<div id="info">B\[0\]\[0\]: offset 0</div>' "$tmp/dom.html"; then
  echo "check_html: hovering the first cell did not show its data:" >&2
  grep 'id="info"' "$tmp/dom.html" >&2
  exit 1
fi
echo "check_html: $browser rendered $page ($size-byte screenshot, $cells cells), hover shows B[0][0]: offset 0"
