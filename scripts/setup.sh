#!/usr/bin/env bash
# setup.sh: install the build dependencies (Debian/Ubuntu) if missing, then
# configure and build parrayc into build/ (Release). Safe to run repeatedly.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf 'setup: [%d/3] %s (%d:%02d)\n' "$1" "$2" $((SECONDS / 60)) $((SECONDS % 60)); }
step 1 "the build's packages"

packages=(build-essential cmake flex bison check pkg-config libopenmpi-dev openmpi-bin libopenblas-dev)
# the browser test of --explain's HTML (tests/check_html.sh) only when asked for
if [ "${PARRAY_BROWSER_TEST:-0}" = 1 ]; then packages+=(chromium); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if (( ${#missing[@]} )); then
  echo "setup.sh: installing ${missing[*]}"
  sudo=()
  if (( $(id -u) != 0 )); then sudo=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The test tools (optional: their tests skip without them): clang with its
# fuzzer and sanitizer runtimes (the libFuzzer test), LLVM's libomp with the
# Archer tool (omp programs under ThreadSanitizer), lcov (scripts/coverage.sh),
# lintian (the .deb checked by package_release), jsonschema (the JSON and SARIF
# diagnostics checked against their schemas), pdflatex and TikZ (--format=tex),
# Emscripten, CodeMirror and Chromium (the playground, built as WebAssembly
# and driven in the browser: web/, tests/web_*).
step 2 "the test tools"
tools=(clang libclang-rt-dev libomp-dev lcov lintian python3-jsonschema texlive-latex-base texlive-pictures
       emscripten libjs-codemirror chromium)
missing=()
for p in "${tools[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if (( ${#missing[@]} )); then
  echo "setup.sh: installing the test tools ${missing[*]}"
  sudo=()
  if (( $(id -u) != 0 )); then sudo=(sudo); fi
  { "${sudo[@]}" apt-get update -q &&
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; } ||
    echo "setup.sh: could not install ${missing[*]}: the fuzz, tsan, coverage, lintian, schema and playground parts will be skipped"
fi

if [ -d /usr/local/cuda/bin ]; then
  case ":$PATH:" in *:/usr/local/cuda/bin:*) ;; *) export PATH="$PATH:/usr/local/cuda/bin" ;; esac
fi

step 3 "configuring and building parrayc into build/"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j2
printf 'setup: done (%d:%02d)\n' $((SECONDS / 60)) $((SECONDS % 60))
