#!/usr/bin/env bash
# web.sh [--install] [BUILD]: builds the playground (web/): parrayc's core in
# WebAssembly with Emscripten and the page around it, into BUILD/web/playground
# (default build/), through the top-level build (PARRAY_PLAYGROUND=ON), so that
# `cmake --install` installs it into share/parrayc/playground and the tests
# web_compare and web_browser run.  --install first installs what it needs
# from Debian: emscripten, libjs-codemirror (the editor), and chromium (the
# browser test); nothing is installed without it.
# Open the page: BUILD/web/playground/index.html in a browser, or
#   python3 -m http.server -d BUILD/web/playground 8000
set -euo pipefail
cd "$(dirname "$0")/.."

install=0
if [ "${1:-}" = --install ]; then install=1; shift; fi
build=${1:-build}

if (( install )); then
  packages=(emscripten libjs-codemirror chromium)
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if (( ${#missing[@]} )); then
    echo "web.sh: installing ${missing[*]}"
    sudo=()
    if (( $(id -u) != 0 )); then sudo=(sudo); fi
    "${sudo[@]}" apt-get update -q
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
fi
for tool in emcc emcmake; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "web.sh: $tool not found: install Debian's emscripten (sh scripts/web.sh --install)" >&2
    exit 1
  fi
done
if [ ! -f /usr/share/javascript/codemirror/lib/codemirror.js ]; then
  echo "web.sh: CodeMirror not found: install Debian's libjs-codemirror (sh scripts/web.sh --install)" >&2
  exit 1
fi

cmake -S . -B "$build" -DPARRAY_PLAYGROUND=ON >/dev/null
cmake --build "$build" -j2 --target parrayc parrayc_playground
echo "web.sh: the playground is $build/web/playground/index.html"
echo "web.sh: open it in a browser, or: python3 -m http.server -d $build/web/playground 8000"
