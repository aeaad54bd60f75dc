#!/bin/bash
# gpu_suite.sh PARRAYC [--sanitize] [WORKDIR]
# Runs every CUDA sample (first line "parrayc-sample: cuda") and every
# tests/e2e/gpu_*.pa on this machine's GPU (gpu_*_fails.pa must fail, as
# run_fails.sh checks), the FFT sample's column kernels against cuFFT
# (tests/multi/fft_columns_check.cu), the random copies of GPU memory
# distributed over 2 GPUs and over all of a machine's GPUs (tests/random,
# gpu_pthd and gpu_mpi), then checks
# that run-time CUDA failures are reported (kernel fault, bad launch, no GPU).  With
# --sanitize, also runs compute-sanitizer's memcheck and racecheck on the
# transpose and SGEMM samples, the multi-GPU tests and the programs of
# samples/multi (N = 512, 2 GPUs; the SGEMM also on the TF32 tensor cores), each within
# SANITIZE_LIMIT seconds (180; a run past it fails).  Prints PASS/FAIL lines and "N passed, N failed";
# exits 0 only when nothing failed.  GPU_SUITE_ONLY=REGEX (an extended regular
# expression) runs only the checks whose names (as the PASS lines print them) match it:
# GPU_SUITE_ONLY='tf32|sgemm3x' the tensor-core ones.  Logs go to WORKDIR (default
# /tmp/pa_gpu_suite).  Needs a GPU: this is not part of ctest, whose GPU
# tests report skipped where there is none.
set -u
[ $# -ge 1 ] || { echo "usage: $0 PARRAYC [--sanitize] [WORKDIR]" >&2; exit 2; }
parrayc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
sanitize=0
if [ "${1:-}" = --sanitize ]; then sanitize=1; shift; fi
work=${1:-/tmp/pa_gpu_suite}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work" || exit 2
export PATH=$PATH:/usr/local/cuda/bin NCCL_NVLS_ENABLE=0
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # mpirun refuses root else
# one GPU: the threads or processes of a multi-GPU sample share it
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ "$gpus" -lt 2 ] && [ -z "${PARRAY_GPU_SHARE:-}" ]; then
  export PARRAY_GPU_SHARE=1
  echo "one GPU: PARRAY_GPU_SHARE=1 for the multi-GPU samples"
fi
pass=0 fail=0

want() { [ -z "${GPU_SUITE_ONLY:-}" ] || echo "$1" | grep -Eq -- "$GPU_SUITE_ONLY"; }

result() { # NAME STATUS LOG SECONDS (nothing for a check GPU_SUITE_ONLY leaves out)
  want "$1" || return 0
  if [ "$2" -eq 0 ]; then
    echo "PASS $1 (${4}s)"; pass=$((pass + 1))
  else
    echo "FAIL $1 (status $2, ${4}s)"; sed 's/^/    /' "$3" | tail -n 25; fail=$((fail + 1))
  fi
}

# sanitize NAME DIR LAUNCHER BUILD...: builds $work/NAME.sanitize with the
# command BUILD... (once) and runs it under memcheck and racecheck in DIR,
# each mpi process under its own sanitizer when LAUNCHER is mpirun
sanitize() {
  local name=$1 dir=$2 launcher=$3 tool log start status
  shift 3
  for tool in memcheck racecheck; do
    want "$name.$tool" || continue
    log=$work/$name.$tool.log start=$(date +%s)
    [ -x "$work/$name.sanitize" ] || (cd "$work" && "$@") >"$log" 2>&1
    # shellcheck disable=SC2086
    (cd "$dir" && timeout $limit $launcher compute-sanitizer --tool $tool --error-exitcode 99 \
      "$work/$name.sanitize") >>"$log" 2>&1
    status=$?
    result "$name.$tool" $status "$log" $(( $(date +%s) - start ))
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | sed 's/^/    /'
  done
}

is_cuda() { head -n 1 "$1" | grep -q 'parrayc-\(sample\|test\):.*\(cuda\|nvcc\)'; }

# ---- samples and end-to-end tests ----
for f in $(find "$root/samples" -name '*.pa' | LC_ALL=C sort) $(ls "$root"/tests/e2e/gpu_*.pa 2>/dev/null); do
  is_cuda "$f" || continue
  name=$(basename "$f" .pa)
  want "$name" || continue
  log=$work/$name.log
  start=$(date +%s)
  case $f in
    */tests/e2e/*_fails.pa) (cd "$work" && sh "$root/tests/run_fails.sh" "$parrayc" "$f") >"$log" 2>&1 ;;
    */tests/e2e/*) (cd "$work" && sh "$root/tests/run_e2e.sh" "$parrayc" "$f") >"$log" 2>&1 ;;
    *) libs=; head -n 1 "$f" | grep -q 'parrayc-sample:.*cufft' && libs=-lcufft
       # "sm_90a" on the first line: wgmma kernels, built as Hopper-only code
       head -n 1 "$f" | grep -q 'parrayc-sample:.*sm_90a' && libs="$libs --arch=sm_90a"
       (cd "$work" && "$parrayc" --run "$f" $libs -o "$work/$name") >"$log" 2>&1 ;;
  esac
  status=$?
  result "$name" $status "$log" $(( $(date +%s) - start ))
  [ $status -eq 0 ] && grep -v '^SKIPPED' "$log" | sed 's/^/    /' | head -n 12
done

# the FFT sample's column kernels against cuFFT's strided plan, every size
if want fft_columns_check; then
  log=$work/fft_columns_check.log start=$(date +%s)
  nvcc -O3 -arch=sm_90 -std=c++17 "$root/tests/multi/fft_columns_check.cu" -lcufft \
    -o "$work/fft_columns_check" >"$log" 2>&1 && "$work/fft_columns_check" >>"$log" 2>&1
  status=$?
  result fft_columns_check $status "$log" $(( $(date +%s) - start ))
  tail -n 1 "$log" | sed 's/^/    /'
fi

# random copies of GPU memory distributed over 2 GPUs, and over all of them
# where there are more (tests/random/gen_copies.py --procs): scatter, gather,
# all-to-all, gather; every element against the offset rules
for p in 2 $([ "$gpus" -gt 2 ] && echo "$gpus"); do
  for t in gpu_pthd gpu_mpi; do
    name=random_copies_$t
    [ "$p" = 2 ] || name=${name}_$p
    want "$name" || continue
    log=$work/$name.log start=$(date +%s)
    sh "$root/tests/random/run_copies.sh" "$parrayc" $t 1 4 40 "$work/$name" "$p" >"$log" 2>&1
    status=$?
    result "$name" $status "$log" $(( $(date +%s) - start ))
    tail -n 1 "$log" | sed 's/^/    /'
  done
done

# run_sample NAME FILE.pa [PARRAYC FLAGS...]: parrayc --run with the flags; sets status and log
# (status 0 for a check GPU_SUITE_ONLY leaves out, whose result then prints nothing)
run_sample() {
  local name=$1 pa=$2; shift 2
  log=$work/$name.log start=$(date +%s) status=0
  want "$name" || return 0
  (cd "$work" && "$parrayc" --run "$@" "$pa" -o "$work/$name") >"$log" 2>&1
  status=$?
}

# ---- the fast SGEMM with each block tile at an N that is not a multiple of it ----
# (its own check: every element of the four layouts against float64)
for t in 64 128; do
  run_sample perf_sgemm_N288_T$t "$root/samples/perf_sgemm.pa" -DN=288 -DSGEMM_TILE=$t
  result perf_sgemm_N288_T$t $status "$log" $(( $(date +%s) - start ))
done

# ---- the TF32 sample's wgmma kernel (sm_90a only), N = 256, 384 (clipped tiles), 640
# (a 256-row tile across Fig 18b's blocks of N/2 rows), 1000 and 333 (no tile or slice
# divides N: k past N read as zeros; Fig 18a and 18b not run at 1000, none at 333; there
# the sample's default kernel), 1001 (rows off 16 bytes: both operands copied into padded
# storage by one kernel, MNK_COPY_BOTH, column-major through its transposed types) ----
# (its own check: every element of the layouts against float64, TF32 bound)
for n in 256 384 640 1000 333 1001; do
  cfg=-DTF32_CFG=6
  [ $((n % 128)) = 0 ] || cfg=
  run_sample perf_tf32_wgmma_N$n "$root/samples/perf_tf32.pa" --arch=sm_90a -DN=$n $cfg
  result perf_tf32_wgmma_N$n $status "$log" $(( $(date +%s) - start ))
done
# built for sm_90 (no wgmma in it): exit 1 with the reason, no launch
run_sample perf_tf32_wgmma_sm90_fails "$root/samples/perf_tf32.pa" -DN=256 -DTF32_CFG=6
if [ $status -eq 1 ] && grep -q "runs only as sm_90a code" "$log"; then status=0; else status=1; fi
result perf_tf32_wgmma_sm90_fails $status "$log" $(( $(date +%s) - start ))

# ---- FP32 through three TF32 products (sm_90a): N = 384, clipped tiles, 1000 and 333 (no
# tile or slice divides N), 1001 (both copies by one kernel); built for sm_90, refused ----
for n in 384 1000 333 1001; do
  run_sample perf_sgemm3x_N$n "$root/samples/perf_sgemm3x.pa" --arch=sm_90a -DN=$n
  result perf_sgemm3x_N$n $status "$log" $(( $(date +%s) - start ))
done
run_sample perf_sgemm3x_sm90_fails "$root/samples/perf_sgemm3x.pa" -DN=256
if [ $status -eq 1 ] && grep -q "perf_sgemm3x (wgmma) runs only as sm_90a code" "$log"; then status=0; else status=1; fi
result perf_sgemm3x_sm90_fails $status "$log" $(( $(date +%s) - start ))
# the same kernel on the GPUs of samples/multi's SGEMM, each its block of C's columns: N = 640,
# 320 columns a GPU on 2 (a clipped tile of 64), and N = 1040 (k not a multiple of 32)
for form in pthd mpi; do
  for n in 640 1040; do
    run_sample multi_sgemm3x_${form}_N$n "$root/samples/multi/sgemm_$form.pa" --arch=sm_90a -DSGEMM_X3=1 -DN=$n
    result multi_sgemm3x_${form}_N$n $status "$log" $(( $(date +%s) - start ))
  done
done

# ---- run-time failures must name the call, the .pa place and CUDA's error ----
# expect NAME FILE.pa REGEX [ENV...]: the program must exit 1 with REGEX in stderr
expect_failure() {
  local name=$1 pa=$2 regex=$3; shift 3
  want "$name" || return 0
  local log=$work/$name.log start=$(date +%s)
  "$parrayc" --build "$pa" -o "$work/$name" >"$log" 2>&1 || { result "$name" 1 "$log" 0; return; }
  env "$@" "$work/$name" >>"$log" 2>&1
  local status=$?
  if [ $status -eq 1 ] && grep -Eq "$regex" "$log"; then status=0; else status=1; fi
  result "$name" $status "$log" $(( $(date +%s) - start ))
  [ $status -eq 0 ] && grep -E "$regex" "$log" | sed 's/^/    /'
}

cat >"$work/fail_fault.pa" <<'PA'
#parray {cuda(float *x) [4][32]} T
#parray {dmem float [128]} D
#mainhost {
  INIT_GPU(0);
  #create D(d)
  #detour T(d) {
    x[1000000000000LL + $tid$] = 1; /* far outside any allocation */
  }
  #destroy D(d)
}
PA
expect_failure fail_fault "$work/fail_fault.pa" \
  'fail_fault\.pa:6: error: kernel pa_kernel_T_L6 failed: an illegal memory access was encountered$'

cat >"$work/fail_launch.pa" <<'PA'
#define NT 2048
#parray {cuda(float *x) [4][NT]} T
#parray {dmem float [4][NT]} D
#mainhost {
  INIT_GPU(0);
  #create D(d)
  #detour T(d) {
    x[$tid$] = 1;
  }
  #destroy D(d)
}
PA
expect_failure fail_launch "$work/fail_launch.pa" \
  'fail_launch\.pa:7: error: kernel pa_kernel_T_L7 failed: invalid (configuration )?argument$'

expect_failure fail_no_gpu "$work/fail_fault.pa" \
  '^parray: error: no CUDA GPU available: .+$' CUDA_VISIBLE_DEVICES=

# ---- compute-sanitizer on the transpose and SGEMM samples and the multi-GPU tests ----
if [ $sanitize = 1 ]; then
  if ! command -v compute-sanitizer >/dev/null 2>&1; then
    echo "FAIL compute-sanitizer (not found)"; fail=$((fail + 1))
  else
    limit=${SANITIZE_LIMIT:-180} # seconds a sanitized run may take: past it, it fails (status 124)
    # gpu_fig21_sgemm (N = 2048, fixed) under memcheck only: racecheck of its 2048^3 product
    # outlasted the suite's 10 minutes; perf_sgemm (N = 256, four layouts) has both, and so
    # have the wgmma kernels at N = 384, built above (clipped tiles: their cp.async reads near
    # the edge; their stages, and perf_sgemm3x's low-part tile, reused while wgmma reads them)
    for s in gpu_fig7_transpose gpu_copy_transpose gpu_fig21_sgemm perf_sgemm perf_tf32_wgmma_N384 perf_sgemm3x_N384; do
      for tool in memcheck racecheck; do
        [ $s.$tool = gpu_fig21_sgemm.racecheck ] && continue
        want "$s.$tool" || continue
        log=$work/$s.$tool.log start=$(date +%s)
        [ -x "$work/$s" ] || "$parrayc" --build "$root/samples/$s.pa" -o "$work/$s" >"$log" 2>&1
        (cd "$work" && timeout $limit compute-sanitizer --tool $tool --error-exitcode 99 "./$s") >>"$log" 2>&1
        status=$?
        result "$s.$tool" $status "$log" $(( $(date +%s) - start ))
        grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | sed 's/^/    /'
      done
    done
    # the multi-GPU programs: every distributed copy path (peer kernels, tiles, packets,
    # rectangles straight from the source, CUDA IPC);
    # each mpi process runs under its own sanitizer
    for t in gpu_pthd_dmem gpu_pthd_tiles gpu_pthd_chunks gpu_pthd_slabs gpu_pthd_partial_source gpu_mpi_dmem \
             gpu_mpi_tiles gpu_mpi_chunks gpu_mpi_slabs gpu_mpi_partial_source gpu_smem_dynamic; do
      f=$root/tests/e2e/$t.pa
      [ -f "$f" ] || continue
      launcher=
      head -n 1 "$f" | grep -q 'mpi' && launcher="mpirun --oversubscribe -np 2"
      sanitize "$t" "$root/tests/e2e" "$launcher" "$parrayc" --build "$f" -o "$work/$t.sanitize"
    done
    # the programs of samples/multi (issue 29: the all-to-all in packets, the set-up at
    # #create), small, on 2 GPUs (or sharing one): each form under memcheck and racecheck
    for s in transpose fft sgemm sgemm3x; do
      for form in pthd mpi; do
        name=multi_${s}_$form src=$s libs= launcher=
        [ $s = fft ] && libs=-lcufft
        [ $s = sgemm3x ] && src=sgemm libs="--arch=sm_90a -DSGEMM_X3=1"
        [ $form = mpi ] && launcher="mpirun --oversubscribe -np 2"
        # shellcheck disable=SC2086
        sanitize "$name" "$work" "$launcher" "$parrayc" --build -DN=512 -DREPS=1 \
          "$root/samples/multi/${src}_$form.pa" $libs -o "$work/$name.sanitize"
      done
    done
  fi
fi

echo "$pass passed, $fail failed"
if [ $((pass + fail)) -eq 0 ] && [ -n "${GPU_SUITE_ONLY:-}" ]; then
  echo "gpu_suite: no check's name matches GPU_SUITE_ONLY='$GPU_SUITE_ONLY'" >&2
  exit 2
fi
[ $fail -eq 0 ]
