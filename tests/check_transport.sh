#!/bin/sh
# check_transport.sh NVCC RUNTIME_LIB_DIR INCLUDE_DIR WORK NCCL(0/1): the
# transport pa_gpu_transport picks for each setting of PARRAY_TRANSPORT, on
# one node and on nodes made up by PARRAY_FAKE_NODES; the errors when the
# forced one cannot work.  No GPU needed (tests/transport/choice.cu).
set -u
nvcc=$1 lib=$2 inc=$3 work=$4 nccl=$5
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work" && cd "$work" || exit 1
mpicc=${MPICC:-mpicc}
# shellcheck disable=SC2046
"$nvcc" -arch=sm_90 -I"$inc" $($mpicc --showme:compile) "$here/transport/choice.cu" -o choice \
  -L"$lib" -lparray_mpi -lparray_cuda -lparray $($mpicc --showme:link) || exit 1
pass=0 fail=0
# expect NAME WANT-STDOUT WANT-IN-STDERR (or -) ENV... -- NP USABLE
expect() {
  name=$1 want=$2 err=$3
  shift 3
  envs=""
  while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
  shift
  # shellcheck disable=SC2086
  got=$(env $envs timeout 60 mpirun --oversubscribe -np "$1" ./choice "$2" 2>stderr.txt)
  ok=1
  [ "$got" = "$want" ] || ok=0
  [ "$err" = - ] || grep -qF -- "$err" stderr.txt || ok=0
  if [ $ok = 1 ]; then pass=$((pass + 1)); echo "PASS $name"
  else fail=$((fail + 1)); echo "FAIL $name: got '$got', want '$want'"; cat stderr.txt; fi
}
if [ "$nccl" = 1 ]; then far=nccl; else far=host; fi
expect one_node "copy ipc rows ipc again ipc" - -- 2 1
expect not_create "copy $far rows host again $far" - -- 2 0
expect two_nodes "copy $far rows host again $far" - PARRAY_FAKE_NODES=2 -- 4 1
expect force_host "copy host rows host again host" - PARRAY_TRANSPORT=host -- 2 1
expect no_ipc_old "copy host rows host again host" - PARRAY_NO_IPC=1 -- 2 1
expect verbose "copy ipc rows ipc again ipc" "transport between process 0 (" PARRAY_VERBOSE=1 -- 2 1
expect verbose_copy "copy ipc rows ipc again ipc" "t.pa:10: parray: this copy goes through ipc (one node)" \
  PARRAY_VERBOSE=1 -- 3 1
expect ipc_far "" "t.pa:10: error: PARRAY_TRANSPORT=ipc, but process 0 (on " \
  PARRAY_TRANSPORT=ipc PARRAY_FAKE_NODES=2 -- 2 1
expect ipc_not_create "" "t.pa:10: error: PARRAY_TRANSPORT=ipc, but a block of this copy was not made by #create" \
  PARRAY_TRANSPORT=ipc -- 2 0
expect bad_value "" "t.pa:10: error: PARRAY_TRANSPORT=tcp: expected ipc, nccl, host or auto" \
  PARRAY_TRANSPORT=tcp -- 2 1
if [ "$nccl" = 1 ]; then
  expect force_nccl "copy nccl rows host again nccl" "this copy goes through nccl (PARRAY_TRANSPORT=nccl)" \
    PARRAY_TRANSPORT=nccl PARRAY_VERBOSE=1 -- 2 1
else
  expect nccl_not_built "" "t.pa:10: error: PARRAY_TRANSPORT=nccl, but this parrayc was built without NCCL" \
    PARRAY_TRANSPORT=nccl -- 2 1
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
