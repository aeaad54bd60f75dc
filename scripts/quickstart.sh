#!/usr/bin/env bash
# quickstart.sh: set up and build, then build and run every sample, saying
# at each step where it is ("[i/N]") and how long it has taken.
#   PARRAY_JOBS=N   samples built and run at once (default: the cores; 1 for
#                   timings that no other sample disturbs)
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '[%d/2] %s (%d:%02d)\n' "$1" "$2" $((SECONDS / 60)) $((SECONDS % 60)); }
step 1 "setup: the packages that are missing, then parrayc built into build/"
bash scripts/setup.sh
if [ -d /usr/local/cuda/bin ]; then export PATH="$PATH:/usr/local/cuda/bin"; fi
jobs=${PARRAY_JOBS:-$(nproc)}
step 2 "the samples, $jobs at a time (Makefile.samples; logs in build/samples/run)"
status=0
make -f Makefile.samples -j"$jobs" run || status=$?
printf 'quickstart: done in %d:%02d\n' $((SECONDS / 60)) $((SECONDS % 60))
exit $status
