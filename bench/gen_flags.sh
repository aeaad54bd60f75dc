# gen_flags.sh, sourced by bench/run.sh and tests/build_bench.sh (POSIX sh):
#   gen_flags SAMPLE     prints the nvcc flags of the generated SAMPLE (perf_tf32, ...),
#                        or fails for a sample bench.cu does not take (perf_shapes)
#   twin_flags TWIN      the same for bench/TWIN.cu, a hand-written twin that bench.cu
#                        (built for sm_90) cannot hold: built apart and linked in
#   gen_object NVCC SRC OBJ N FLAGS...
#                        compiles SRC at order N into OBJ; where the source refuses N in
#                        its own #error (perf_sgemm.pa: N % 32), prints that message and
#                        returns 2, leaving OBJ unbuilt; any other failure returns 1.
#                        The orders each sample takes are the sample's own rule:
#                        bench.cu learns which were built from -DGEN_BUILT_<name>.
#   gen_objects NVCC GEN BENCH OUT N GENFLAGS FLAGS...
#                        every generated GEN/*.cu bench.cu takes and every twin
#                        BENCH/twin_*.cu at order N into OUT (gen_object; GENFLAGS for
#                        the generated ones, FLAGS for all): gen_objs, the objects built,
#                        and gen_built, their -DGEN_BUILT_<name>s; returns 1 on a failure
# perf_tf32 is built as the Hopper kernel (wgmma, sm_90a) unless TF32_CFG says otherwise.
gen_flags() {
  case $1 in
    perf_tf32) echo "-arch=sm_90a -DTF32_CFG=${TF32_CFG:-6}" ;;
    perf_sgemm3x) echo "-arch=sm_90a" ;;
    perf_shapes) return 1 ;; # bench/shapes.sh's, not bench.cu's
    *) echo "-arch=sm_90" ;;
  esac
}
twin_flags() {
  case $1 in
    # its asm is not guarded by __CUDA_ARCH_FEAT_SM90_ALL: no compute_90 pass
    twin_3xtf32) echo "-gencode arch=compute_90a,code=sm_90a" ;;
    *) return 1 ;;
  esac
}
gen_object() {
  _nvcc=$1 _src=$2 _obj=$3 _n=$4
  shift 4
  _log=$_obj.log _rc=0
  "$_nvcc" "$@" -DN="$_n" -c "$_src" -o "$_obj" > "$_log" 2>&1 || _rc=1
  if [ $_rc = 1 ] && grep -q "error: #error" "$_log"; then
    echo "$(basename "$_src" .cu) at N = $_n: not built: $(grep -m1 "error: #error" "$_log" | sed 's/.*error: #error //')"
    _rc=2
  else
    cat "$_log"
  fi
  rm -f "$_log"
  return $_rc
}
gen_objects() {
  _nv=$1 _gd=$2 _bd=$3 _od=$4 _on=$5 _gf=$6
  shift 6
  gen_objs= gen_built=
  for _f in "$_gd"/*.cu "$_bd"/twin_*.cu; do
    _b=$(basename "$_f" .cu)
    case $_b in
      twin_*) _x=$(twin_flags "$_b") || continue ;;
      *) _x=$(gen_flags "$_b") || continue
         _x="$_x $_gf -Dmain=pa_main_${_b}_N$_on" ;;
    esac
    _r=0
    # shellcheck disable=SC2086
    gen_object "$_nv" "$_f" "$_od/${_b}_N$_on.o" "$_on" "$@" $_x || _r=$?
    case $_r in
      0) gen_objs="$gen_objs $_od/${_b}_N$_on.o" gen_built="$gen_built -DGEN_BUILT_$_b" ;;
      2) ;;
      *) return 1 ;;
    esac
  done
}
