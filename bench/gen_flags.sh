# gen_flags.sh, sourced by bench/run.sh and tests/build_bench.sh (POSIX sh):
#   gen_flags SAMPLE N  prints the nvcc flags of the generated SAMPLE (perf_tf32, ...)
#                       at order N, or fails where the sample refuses N with #error;
#                       bench/gen_decls.h leaves such a sample's rows out at that N.
# perf_tf32 is built as the Hopper kernel (wgmma, sm_90a) unless TF32_CFG says otherwise.
gen_flags() {
  case $1 in
    perf_tf32) [ $(($2 % 128)) -eq 0 ] && echo "-arch=sm_90a -DTF32_CFG=${TF32_CFG:-6}" ;;
    perf_transpose) [ $(($2 % 64)) -eq 0 ] && echo "-arch=sm_90" ;;
    *) echo "-arch=sm_90" ;;
  esac
}
