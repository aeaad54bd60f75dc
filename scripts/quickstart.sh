#!/usr/bin/env bash
# quickstart.sh: set up and build, then build and run every sample.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ -d /usr/local/cuda/bin ]; then export PATH="$PATH:/usr/local/cuda/bin"; fi
make -f Makefile.samples run
