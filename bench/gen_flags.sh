# gen_flags.sh, sourced by bench/run.sh and tests/build_bench.sh (POSIX sh):
#   gen_flags SAMPLE N  prints the nvcc flags of the generated SAMPLE (perf_tf32, ...)
#                       at order N, or fails where the sample refuses N with #error;
#                       bench/gen_decls.h leaves such a sample's rows out at that N.
#   twin_flags TWIN N   the same for bench/TWIN.cu, a hand-written twin that bench.cu
#                       (built for sm_90) cannot hold: built apart and linked in.
# perf_tf32 is built as the Hopper kernel (wgmma, sm_90a) unless TF32_CFG says otherwise.
gen_flags() {
  case $1 in
    perf_tf32) [ $(($2 % 128)) -eq 0 ] && echo "-arch=sm_90a -DTF32_CFG=${TF32_CFG:-6}" ;;
    perf_sgemm3x) [ $(($2 % 128)) -eq 0 ] && echo "-arch=sm_90a" ;;
    perf_transpose) [ $(($2 % 64)) -eq 0 ] && echo "-arch=sm_90" ;;
    perf_shapes) return 1 ;; # bench/shapes.sh's, not bench.cu's
    *) echo "-arch=sm_90" ;;
  esac
}
twin_flags() {
  case $1 in
    # its asm is not guarded by __CUDA_ARCH_FEAT_SM90_ALL: no compute_90 pass
    twin_3xtf32) [ $(($2 % 128)) -eq 0 ] && echo "-gencode arch=compute_90a,code=sm_90a" ;;
    *) return 1 ;;
  esac
}
