#!/bin/bash
# (kept from helper 25a's tf32-dev/: that folder held this script, tf32_2_h.cu as h.cu,
# include/ as inc/, runtime/pa_core*.c and pa_cuda*.cu as rt/, and parrayc's translations of
# samples/perf_tf32.pa (perf_tf32.cu) and tests/e2e/gpu_smem_dynamic.pa (e2e_smem.cu))
# tf32-dev/run.sh (helper 25a): build with nvcc -O3 -arch=sm_90, check, time.
# CFGS / NS select the perf_tf32 tiles and orders.
d=$(cd "$(dirname "$0")" && pwd); cd "$d"
export PATH=$PATH:/usr/local/cuda/bin
B=${BUILD:-/tmp/tf32b}; mkdir -p $B
CFGS=${CFGS:-0 1 2 3 4 5}; NS=${NS:-4096 8192}
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader; nvcc --version | tail -1
F="-O3 -arch=sm_90 -std=c++17 -Iinc"
( cd $B && for c in $d/rt/*.c; do gcc -O2 -c -I$d/inc $c -o $(basename $c).o; done &&
  for c in $d/rt/*.cu; do nvcc -O2 -arch=sm_90 -c -I$d/inc $c -o $(basename $c).o; done && ar rcs libpa.a *.o ) || exit 1
jobs_=()
nvcc $F e2e_smem.cu $B/libpa.a -o $B/e2e 2> $B/e2e.log &
for c in $CFGS; do
  for n in 256 384; do nvcc $F -DN=$n -DTF32_CFG=$c perf_tf32.cu $B/libpa.a -o $B/s_c${c}_N$n 2> $B/s_c${c}_N$n.log & done
  for n in $NS; do nvcc $F -DN=$n -DTF32_CFG=$c h.cu $B/libpa.a -lcublas -o $B/h_c${c}_N$n 2> $B/h_c${c}_N$n.log & done
done
wait
cat $B/*.log | grep -v "^$" | head -20
echo "== e2e gpu_smem_dynamic"; $B/e2e > $B/e2e.out; echo "rc $?"; diff $B/e2e.out e2e_smem.expected && echo "e2e output as expected"
echo "== the sample's float64 check"
for c in $CFGS; do for n in 256 384; do echo -n "cfg $c: "; $B/s_c${c}_N$n | tr '\n' ' '; echo; done; done
echo "== SASS of the TF32 kernels of cfg 2 (per kernel: instruction counts)"
cuobjdump -sass $B/h_c2_N8192 2>/dev/null | awk '/Function :/{if(f)print f, h, l, l128, l64, g, b; f=$3; h=l=l128=l64=g=b=0} /HMMA/{h++} /LDS/{l++} /LDS.128/{l128++} /LDS.64/{l64++} /LDGSTS/{g++} /BAR.SYNC/{b++} END{print f, h, l, l128, l64, g, b}' | awk '$2>0{print "kernel", $1, "HMMA", $2, "LDS", $3, "(LDS.128", $4, "LDS.64", $5 ")", "LDGSTS", $6, "BAR", $7}'
echo "== timing"
for n in $NS; do for c in $CFGS; do $B/h_c${c}_N$n; done; done 2>&1 | tee $B/t.txt
[ -n "$OUT" ] && cp $B/t.txt $OUT/ 2>/dev/null
true
