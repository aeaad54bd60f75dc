#!/bin/bash
# ncu_access.sh PARRAYC [WORKDIR]: what `parrayc --explain-access` predicts for
# one warp, beside what Nsight Compute counts on the GPU, for the Fig 7
# transpose (padded [16][17] tile), the same with an unpadded [16][16] tile,
# and the Fig 21 SGEMM on its four layouts.  Prints the predictions (one
# line per access) and, per kernel, sectors per global request and
# wavefronts and bank conflicts per shared-memory instruction.  Needs a GPU
# and ncu.  Recorded in doc/explain.md.
set -u
[ $# -ge 1 ] || { echo "usage: $0 PARRAYC [WORKDIR]" >&2; exit 2; }
parrayc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=${2:-/tmp/pa_ncu_access}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work" || exit 2
export PATH=$PATH:/usr/local/cuda/bin
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_ld.sum
metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_st.sum
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum

# NAME FILE.pa LINE...: predictions for LINEs, then the counters of its kernels
measure() {
  local name=$1 pa=$2
  shift 2
  echo "== $name ($pa)"
  for line in "$@"; do
    "$parrayc" --explain-access "$pa:$line" | grep -E '^  \S|memory:' | sed 's/^/  predicted: /'
  done
  "$parrayc" --build "$pa" -o "$work/$name" >"$work/$name.build.log" 2>&1 || { echo "  build failed"; cat "$work/$name.build.log"; return; }
  (cd "$work" && ncu --metrics "$metrics" -k regex:pa_kernel --launch-count 4 --csv "./$name") >"$work/$name.csv" 2>"$work/$name.ncu.log"
  python3 - "$work/$name.csv" <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head, rows = rows[0], rows[1:]
k, m, v = head.index('Kernel Name'), head.index('Metric Name'), head.index('Metric Value')
per = collections.OrderedDict()
for r in rows:
    per.setdefault(r[k].split('(')[0], collections.defaultdict(float))[r[m]] += float(r[v].replace(',', ''))
def ratio(d, a, b):
    return '%.2f' % (d[a] / d[b]) if d[b] else '-'
for name, d in per.items():
    print('  measured: %-28s global ld %s sectors/request, st %s; shared ld %s wavefronts/instr (%s conflicts/instr), st %s (%s)' % (
        name,
        ratio(d, 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum'),
        ratio(d, 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum'),
        ratio(d, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'smsp__sass_inst_executed_op_shared_ld.sum'),
        ratio(d, 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum', 'smsp__sass_inst_executed_op_shared_ld.sum'),
        ratio(d, 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'smsp__sass_inst_executed_op_shared_st.sum'),
        ratio(d, 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum', 'smsp__sass_inst_executed_op_shared_st.sum')))
PY
}

measure fig7_padded "$root/samples/gpu_fig7_transpose.pa" 31 33
measure fig7_unpadded "$root/tests/explain/transpose_unpadded.pa" 31 33
measure fig21 "$root/samples/gpu_fig21_sgemm.pa" 51 60
