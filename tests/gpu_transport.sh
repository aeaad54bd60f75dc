#!/bin/bash
# gpu_transport.sh PARRAYC [WORKDIR]
# The copies between the GPU blocks of mpi processes with each transport
# forced (issue 30), on a machine with 2 or more GPUs (4 for the 4-process
# runs; fewer: PARRAY_GPU_SHARE=1, NCCL cases skipped, as NCCL refuses two
# processes on one GPU).  parrayc must be built with NCCL (cmake
# -DPARRAY_NCCL=ON).  Runs:
#  - tests/transport/xfer.pa (scatter, gather, float transpose in tiles,
#    double rows to columns and back, char transpose) with 2 and 4
#    processes, under PARRAY_TRANSPORT=ipc, host (packed on the GPU: the
#    node's shared window, and on two made-up nodes MPI between them; and
#    element by element: PARRAY_TEST_UNPACKED=1), nccl (NCCL's own choice:
#    NVLink), nccl with NCCL_P2P_DISABLE=1 (shared memory), nccl with
#    NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_IB_DISABLE=1 (sockets over
#    loopback: the network transport), and auto on two made-up nodes
#    (PARRAY_FAKE_NODES=2: must pick nccl), and auto with each process
#    seeing only its own GPU (CUDA_VISIBLE_DEVICES, as srun
#    --gpus-per-task=1 sets it: must pick nccl); each checks every element, says
#    which transport it took (PARRAY_VERBOSE) and, for NCCL, which NCCL
#    transport (NCCL_DEBUG=INFO);
#  - the mpi x cuda end-to-end tests and the transpose and FFT samples with
#    ipc, nccl over sockets and host;
#  - a process that dies in the middle of a copy through NCCL (p2p and
#    sockets), and one that stops before NCCL's communicator is made: the
#    job must end with a message, not hang (timeout 120 s);
#  - the SGEMM sample's scatter and gather, mpi against pthd (N = 16384);
#  - NCCL's own all-to-all of the same bytes, and the pinned copy of them
#    (tests/transport/nccl_ref.cu).
# Prints PASS/FAIL lines, the transport table (also WORKDIR/transport.md,
# for bench/results/) and "N passed, M failed"; exits 0 only when nothing
# failed.  TN (default 8192) is the table's matrix size, SN (16384) the
# SGEMM's.
set -u
[ $# -ge 1 ] || { echo "usage: $0 PARRAYC [WORKDIR]" >&2; exit 2; }
parrayc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=${2:-/tmp/pa_gpu_transport}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work" || exit 2
cd "$work" || exit 2
export PATH=$PATH:/usr/local/cuda/bin NCCL_NVLS_ENABLE=0
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
TN=${TN:-8192} SN=${SN:-16384}
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
pass=0 fail=0
result() { # NAME STATUS LOG WHY
  if [ "$2" -eq 0 ]; then echo "PASS $1"; pass=$((pass + 1))
  else echo "FAIL $1${4:+: $4}"; sed 's/^/    /' "$3" | tail -n 20; fail=$((fail + 1)); fi
}
# (mpirun reads stdin: every run below gets </dev/null, or it eats the loops' input)
mpirun_np=(mpirun --oversubscribe --bind-to none -np)
"$parrayc" --version | head -n 3

# ---- builds, all at once (nvcc takes most of the time): xfer for 2 and 4
# processes at N = 1024 and TN, NCCL's reference, the e2e programs and
# samples, the SGEMM sample on 2 and 4 GPUs in both forms at N = SN ----
build() { # NAME PARRAYC-ARGS...: parrayc --build ... -o NAME, log build_NAME.log
  local name=$1; shift
  "$parrayc" --build "$@" -o "$work/$name" >"build_$name.log" 2>&1
  echo $? >"build_$name.status"
}
builds=""
for np in 2 4; do
  sed "s/^#define NP 2/#define NP $np/" "$root/tests/transport/xfer.pa" >"xfer$np.pa"
  for n in 1024 $([ "$TN" = 1024 ] || echo "$TN"); do build "xfer${np}_$n" -DN="$n" "xfer$np.pa" & builds="$builds xfer${np}_$n"; done
  for form in pthd mpi; do
    build "sgemm${np}_$form" -DN="$SN" -DGPUS="$np" "$root/samples/multi/sgemm_$form.pa" & builds="$builds sgemm${np}_$form"
  done
done
# every mpi x cuda end-to-end program (the *_fails ones aside)
e2e=""
for f in "$root"/tests/e2e/gpu_mpi_*.pa; do
  case $f in *_fails.pa) ;; *) e2e="$e2e $(basename "$f" .pa)" ;; esac
done
for f in $e2e; do
  build "$f" "$root/tests/e2e/$f.pa" & builds="$builds $f"
done
build transpose_mpi "$root/samples/multi/transpose_mpi.pa" & builds="$builds transpose_mpi"
build fft_mpi "$root/samples/multi/fft_mpi.pa" -lcufft & builds="$builds fft_mpi"
# shellcheck disable=SC2046
(nvcc -O2 -arch=native $(mpicc --showme:compile) "$root/tests/transport/nccl_ref.cu" -o nccl_ref \
  $(mpicc --showme:link) -lnccl >build_nccl_ref.log 2>&1; echo $? >build_nccl_ref.status) &
builds="$builds nccl_ref"
wait
for b in $builds; do result "build $b" "$(cat "build_$b.status" 2>/dev/null || echo 1)" "build_$b.log"; done

# the environments of the transports: NAME|WANT (this copy goes through)|NCCL's own|ENV...
net="NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_IB_DISABLE=1 NCCL_SOCKET_IFNAME=lo"
cases="auto|ipc||
ipc|ipc||PARRAY_TRANSPORT=ipc
host|host||PARRAY_TRANSPORT=host
host_unpacked|host||PARRAY_TRANSPORT=host PARRAY_TEST_UNPACKED=1
host_two_nodes|host||PARRAY_TRANSPORT=host PARRAY_FAKE_NODES=2
nccl_p2p|nccl|via P2P|PARRAY_TRANSPORT=nccl
nccl_shm|nccl|via SHM|PARRAY_TRANSPORT=nccl NCCL_P2P_DISABLE=1
nccl_net|nccl|via NET/Socket|PARRAY_TRANSPORT=nccl $net
two_nodes|nccl|via NET/Socket|PARRAY_FAKE_NODES=2 $net
isolated|nccl||PARRAY_GPU_SHARE=0 ISOLATE=1"
# isolated: each process sees only its own GPU (CUDA_VISIBLE_DEVICES, as
# srun --gpus-per-task=1 sets it): each takes it with no PARRAY_GPU_SHARE
# (the processes see different GPUs), CUDA IPC cannot map the others'
# blocks, so the copies between GPUs must go through NCCL on one node too
cat >isolate.sh <<'SH'
#!/bin/sh
CUDA_VISIBLE_DEVICES=${OMPI_COMM_WORLD_LOCAL_RANK:-0} exec "$@"
SH
chmod +x isolate.sh

# xfer NP N CASE-LINE: runs, checks, leaves the TIMES line in $times
xfer() {
  local np=$1 n=$2 name want nccl envs
  IFS='|' read -r name want nccl envs <<<"$3"
  local log=$work/xfer${np}_${n}_$name.log
  times=""
  if [ "$name" = two_nodes ] && [ "$np" -lt 4 ]; then return; fi
  if [ "$want" = nccl ] && [ "$gpus" -lt "$np" ]; then echo "SKIP xfer np=$np $name: $gpus GPUs"; return; fi
  local share=""
  [ "$gpus" -lt "$np" ] && share="PARRAY_GPU_SHARE=1"
  local wrap=""
  case " $envs " in *" ISOLATE=1 "*) wrap=./isolate.sh ;; esac
  # shellcheck disable=SC2086
  env $envs $share PARRAY_VERBOSE=1 NCCL_DEBUG=INFO timeout 300 "${mpirun_np[@]}" "$np" $wrap "./xfer${np}_$n" </dev/null >"$log" 2>&1
  local st=$? why=""
  [ $st -eq 124 ] && why="timed out"
  [ "$(grep -c ': correct (0 wrong)' "$log")" = 3 ] || { st=1; why="${why:-not every element right}"; }
  grep -q "this copy goes through $want " "$log" || { st=1; why="did not go through $want"; }
  case " $envs " in *" PARRAY_TEST_UNPACKED=1 "*)
    grep -q "goes element by element through the host" "$log" || { st=1; why="did not go element by element"; } ;;
  esac
  # through the host on one node: the node's shared window, not MPI messages
  # (two made-up nodes of 2 processes: the window within each, MPI between)
  if [ "$name" = host ] || { [ "$name" = host_two_nodes ] && [ "$np" -ge 4 ]; }; then
    grep -q "through pinned host memory: the node's shared window" "$log" || { st=1; why="no shared window"; }
  elif [ "$name" = host_two_nodes ]; then
    grep -q "through pinned host memory: MPI messages" "$log" || { st=1; why="not by MPI messages"; }
  fi
  # the timed loop (line 63) runs line 59's kernel: its map is made once, at line 59
  if grep -q ':59: parray: mapped the copy' "$log" && grep -q ':63: parray: mapped the copy' "$log"; then
    st=1; why="line 63 mapped again the copy line 59 had mapped"
  fi
  if [ -n "$nccl" ] && ! grep -q "$nccl" "$log"; then st=1; why="NCCL did not use '$nccl'"; fi
  result "xfer np=$np N=$n $name" $st "$log" "$why"
  times=$(grep '^TIMES' "$log")
}

# ---- correctness: every transport, 2 and 4 processes ----
while IFS= read -r c; do
  for np in 2 4; do xfer $np 1024 "$c"; done
done <<<"$cases"

# ---- the other mpi x cuda programs, through ipc, nccl over sockets, host ----
for t in "ipc|PARRAY_TRANSPORT=ipc" "nccl_net|PARRAY_TRANSPORT=nccl $net" "host|PARRAY_TRANSPORT=host"; do
  IFS='|' read -r tn envs <<<"$t"
  [ "$gpus" -lt 2 ] && [ "$tn" = nccl_net ] && continue
  for f in $e2e transpose_mpi fft_mpi; do
    log=$work/${f}_$tn.log
    # shellcheck disable=SC2086
    env $envs timeout 300 "${mpirun_np[@]}" 2 "./$f" </dev/null >"$log" 2>"$log.err"
    st=$?
    case $f in
      gpu_*) # stdout as run_e2e.sh checks it: equal to the .out, both sorted when the test says "sort"
        if head -n 1 "$root/tests/e2e/$f.pa" | grep -q 'parrayc-test:.* sort'; then
          diff -u <(LC_ALL=C sort "$root/tests/e2e/$f.out") <(LC_ALL=C sort "$log") >"$log.diff" || st=1
        else
          diff -u "$root/tests/e2e/$f.out" "$log" >"$log.diff" || st=1
        fi ;;
      *) grep -q WRONG "$log" && st=1 ;;
    esac
    # a program with blocks #create did not make (cudaMalloc'd, or held by
    # some processes only) cannot be forced through CUDA IPC: the refusal,
    # with its reason, is the right end
    if [ $tn = ipc ] && [ $st != 0 ] && grep -q "PARRAY_TRANSPORT=ipc, but a block of this copy was not made by #create" "$log.err"; then
      echo "PASS ${f}_$tn (refused, as it must: a block not made by #create)"; pass=$((pass + 1)); continue
    fi
    cat "$log.err" >>"$log"
    result "${f}_$tn" $st "$log"
  done
done

# ---- a process that dies or stops: an end with a message, not a hang ----
# ends NAME WANT ENV...: runs xfer on 2 processes under ENV, which must end
# (not time out), not with 0, with WANT in the log
ends() {
  local name=$1 want=$2 log=$work/$1.log start st why=""
  shift 2
  start=$(date +%s)
  env "$@" timeout 120 "${mpirun_np[@]}" 2 ./xfer2_1024 </dev/null >"$log" 2>&1
  st=$?
  if [ $st -eq 124 ]; then why="hung (killed by timeout after 120 s)"; st=1
  elif [ $st -eq 0 ]; then why="exited 0"; st=1
  elif ! grep -q "$want" "$log"; then why="no '$want' in its log"; st=1
  else st=0; fi
  result "$name ($(( $(date +%s) - start )) s)" $st "$log" "$why"
  [ $st -eq 0 ] && grep -E "error|abort|exited|signal" "$log" | head -n 4 | sed 's/^/    /'
}
if [ "$gpus" -ge 2 ]; then
  # in the middle of a copy through NCCL (over NVLink, over sockets)
  ends dies_mid_copy_p2p "process 1 dies in the middle" \
    PARRAY_TRANSPORT=nccl PARRAY_NCCL_TEST_DIE=1 PARRAY_COPY_TIMEOUT=30
  # shellcheck disable=SC2086
  ends dies_mid_copy_net "process 1 dies in the middle" \
    PARRAY_TRANSPORT=nccl PARRAY_NCCL_TEST_DIE=1 PARRAY_COPY_TIMEOUT=30 $net
  # before NCCL's communicator is made
  ends stalls_before_nccl_init "ncclCommInitRank waited 20 s" \
    PARRAY_TRANSPORT=nccl PARRAY_NCCL_TEST_STALL=1 PARRAY_COPY_TIMEOUT=20
fi

# ---- the table: the float transpose's all-to-all at N = TN ----
table=$work/transport.md
{
  echo "# Copies between the GPU blocks of mpi processes, by transport"
  echo
  echo "\`bash tests/gpu_transport.sh\`, $(date -u +%Y-%m-%d), $gpus x $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)."
  echo "tests/transport/xfer.pa at N = $TN (float): the all-to-all that transposes (mean of 5 after the first"
  echo "call), the scatter of rows from process 0's pinned host matrix, the gather back.  NCCL reference:"
  echo "tests/transport/nccl_ref.cu, grouped ncclSend/ncclRecv of the same bytes on the same NCCL transport;"
  echo "for the host transports, every process copying the bytes it sends from its GPU to pinned memory"
  echo "(one cudaMemcpy: the pinned copy bandwidth).  host_unpacked: the element-by-element path (more than"
  echo "64 processes, or blocks of 2^31 elements), forced by PARRAY_TEST_UNPACKED=1."
  echo
  echo "| processes | transport | all-to-all ms | first call ms | GB/s crossing | reference ms | Parray / reference speed | scatter ms | gather ms |"
  echo "|---|---|---|---|---|---|---|---|---|"
} >"$table"
while IFS= read -r c; do
  IFS='|' read -r name want nccl envs <<<"$c"
  [ "$name" = auto ] && continue
  for np in 2 4; do
    [ "$np" -gt "$gpus" ] && continue
    xfer $np "$TN" "$c"
    [ -z "$times" ] && continue
    a=$(sed 's/.*alltoall_ms=\([0-9.]*\).*/\1/' <<<"$times")
    f1=$(sed 's/.*alltoall_first_ms=\([0-9.]*\).*/\1/' <<<"$times")
    sc=$(sed 's/.*scatter_ms=\([0-9.]*\).*/\1/' <<<"$times")
    ga=$(sed 's/.*gather_ms=\([0-9.]*\).*/\1/' <<<"$times")
    ref="" ratio=""
    if { [ "$want" = nccl ] && [ "$name" != isolated ]; } || [ "$want" = host ]; then
      # NCCL's own all-to-all on the same transport; for the host, one
      # cudaMemcpy of the bytes each process sends to pinned memory
      key=NCCL_REF; [ "$want" = host ] && key=PINNED_REF
      # shellcheck disable=SC2086
      ref=$(env $envs timeout 120 "${mpirun_np[@]}" "$np" ./nccl_ref "$TN" 5 </dev/null 2>/dev/null | sed -n "s/^$key.*ms=//p")
      [ -n "$ref" ] && ratio=$(awk -v r="$ref" -v a="$a" 'BEGIN { printf "%.3f", r / a }')
    fi
    gbs=$(awk -v n="$TN" -v p="$np" -v a="$a" 'BEGIN { printf "%.1f", n * n * 4 * (p - 1) / p / (a * 1e-3) / 1e9 }')
    echo "| $np | $name | $a | $f1 | $gbs | ${ref:-—} | ${ratio:-—} | $sc | $ga |" >>"$table"
  done
done <<<"$cases"

# ---- the mpi scatter and gather against the pthd form's (SGEMM sample) ----
{
  echo
  echo "SGEMM sample at N = $SN (samples/multi/sgemm_*.pa), scatter (A to every GPU, B by columns) and gather"
  echo "(C by columns) from pinned host matrices; target: mpi within 1.2x of pthd."
  echo
  echo "| GPUs | form | scatter ms | gather ms | mpi / pthd scatter | mpi / pthd gather |"
  echo "|---|---|---|---|---|---|"
} >>"$table"
for g in 2 4; do
  [ "$g" -gt "$gpus" ] && continue
  declare -A sc=() ga=()
  for form in pthd mpi; do
    log=$work/sgemm${g}_$form.log
    if [ $form = mpi ]; then timeout 300 "${mpirun_np[@]}" "$g" "./sgemm${g}_$form" </dev/null >"$log" 2>&1
    else timeout 300 "./sgemm${g}_$form" </dev/null >"$log" 2>&1; fi
    st=$?
    grep -q "; correct" "$log" || st=1
    result "sgemm $form $g GPUs N=$SN" $st "$log"
    sc[$form]=$(sed -n 's/.*scatter \([0-9.]*\) ms.*/\1/p' "$log")
    ga[$form]=$(sed -n 's/.*gather \([0-9.]*\) ms.*/\1/p' "$log")
  done
  rs=$(awk -v m="${sc[mpi]:-0}" -v p="${sc[pthd]:-0}" 'BEGIN { if (p > 0) printf "%.3f", m / p }')
  rg=$(awk -v m="${ga[mpi]:-0}" -v p="${ga[pthd]:-0}" 'BEGIN { if (p > 0) printf "%.3f", m / p }')
  echo "| $g | pthd | ${sc[pthd]:-—} | ${ga[pthd]:-—} | | |" >>"$table"
  echo "| $g | mpi | ${sc[mpi]:-—} | ${ga[mpi]:-—} | ${rs:-—} | ${rg:-—} |" >>"$table"
done

echo
cat "$table"
echo
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
