#!/bin/bash
# gpu_counts.sh PARRAYC [WORKDIR]: the programs of samples/multi (sgemm,
# transpose, fft; pthd and mpi forms) built with -DGPUS=G for each G of
# COUNTS (default "1 2 4 8") at N (default 1024) and run; where G passes the
# machine's GPUs, the threads or processes share them (PARRAY_GPU_SHARE=1):
# a check of correctness only, as on 4 GPUs with 8 processes (issue 34).
# Each program checks its own result element by element.  Prints PASS/FAIL
# lines and "N passed, N failed"; exits 0 only when nothing failed.
set -u
[ $# -ge 1 ] || { echo "usage: $0 PARRAYC [WORKDIR]" >&2; exit 2; }
parrayc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=${2:-/tmp/pa_gpu_counts}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work" || exit 2
export PATH=$PATH:/usr/local/cuda/bin NCCL_NVLS_ENABLE=0
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
N=${N:-1024} COUNTS=${COUNTS:-"1 2 4 8"}
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
pass=0 fail=0

# every build at once: nvcc takes most of the time
for g in $COUNTS; do
  for s in sgemm transpose fft; do
    for form in pthd mpi; do
      libs=
      [ $s = fft ] && libs=-lcufft
      (cd "$work" && "$parrayc" --build -DN="$N" -DGPUS="$g" "$root/samples/multi/${s}_$form.pa" $libs \
         -o "${s}_${form}_g$g" > "${s}_${form}_g$g.build.log" 2>&1; echo $? > "${s}_${form}_g$g.built") &
    done
  done
done
wait

for g in $COUNTS; do
  share=
  [ "$g" -gt "$gpus" ] && share=1
  for s in sgemm transpose fft; do
    for form in pthd mpi; do
      name=${s}_${form}_g$g log=$work/$name.log
      if [ "$(cat "$work/$name.built")" != 0 ]; then
        echo "FAIL $name (build)"; sed 's/^/    /' "$work/$name.build.log" | tail -n 15; fail=$((fail + 1)); continue
      fi
      start=$(date +%s)
      if [ $form = mpi ]; then
        timeout 120 mpirun --oversubscribe -np "$g" ${share:+-x PARRAY_GPU_SHARE=1} -x NCCL_NVLS_ENABLE \
          "$work/$name" > "$log" 2>&1
      else
        env ${share:+PARRAY_GPU_SHARE=1} timeout 120 "$work/$name" > "$log" 2>&1
      fi
      rc=$?
      t=$(( $(date +%s) - start ))
      if [ $rc = 0 ]; then
        echo "PASS $name (${t}s${share:+, $g on $gpus GPUs})"; pass=$((pass + 1))
      else
        echo "FAIL $name (status $rc, ${t}s)"; sed 's/^/    /' "$log" | tail -n 15; fail=$((fail + 1))
      fi
    done
  done
done
echo "$pass passed, $fail failed"
(( fail == 0 ))
