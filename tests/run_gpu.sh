#!/bin/sh
# run_gpu.sh PARRAYC FILE.pa [ARGS...]   runs `PARRAYC --run FILE.pa ARGS...`, or
#                                        exits 77 ("SKIPPED: no GPU") without a GPU.
# run_gpu.sh --probe                     exit 0 when a GPU is present, else 1.
have_gpu() {
  command -v nvidia-smi >/dev/null 2>&1 || return 1
  nvidia-smi -L 2>/dev/null | grep -q '^GPU'
}
if [ "${1:-}" = --probe ]; then have_gpu; exit $?; fi
[ $# -ge 2 ] || { echo "usage: $0 PARRAYC FILE.pa [ARGS...]" >&2; exit 2; }
if ! have_gpu; then
  echo "SKIPPED: no GPU"; exit 77
fi
parrayc=$1; shift
# one GPU: the threads or processes of a multi-GPU program share it
if [ "$(nvidia-smi -L | grep -c '^GPU')" -lt 2 ] && [ -z "${PARRAY_GPU_SHARE:-}" ]; then
  export PARRAY_GPU_SHARE=1
fi
exec "$parrayc" --run "$@"
