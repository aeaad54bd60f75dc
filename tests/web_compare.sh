#!/bin/sh
# web_compare.sh PARRAYC SRCDIR PLAYGROUND: runs tests/web_compare.js, which
# compares parrayc in WebAssembly (PLAYGROUND/parrayc_web.js) with native
# PARRAYC on every sample.  Skipped (77) without node or without the
# WebAssembly build (sh scripts/web.sh builds it).
if ! command -v node >/dev/null 2>&1; then
  echo "web_compare: no node: skipped" >&2
  exit 77
fi
if [ -z "$3" ] || [ ! -f "$3/parrayc_web.js" ]; then
  echo "web_compare: no WebAssembly build in '$3' (sh scripts/web.sh builds it): skipped" >&2
  exit 77
fi
exec node "$2/tests/web_compare.js" "$1" "$2" "$3"
