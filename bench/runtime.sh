# shellcheck shell=bash
# bench/runtime.sh, sourced by bench/run.sh and bench/shapes.sh: the runtime for the
# generated code, built on the GPU machine (it has no flex/bison to build parrayc, so no
# installed libparray).
#   runtime_lib ROOT BUILD   ROOT/runtime's C and CUDA sources into BUILD/libparray_cuda_all.a
runtime_lib() {
  (
    cd "$2" && rm -f ./*.o.rt &&
      for c in "$1"/runtime/pa_core*.c; do gcc -O2 -c -I"$1/include" "$c" -o "$(basename "$c").o.rt"; done &&
      for c in "$1"/runtime/pa_cuda*.cu; do nvcc -O2 -arch=sm_90 -c -I"$1/include" "$c" -o "$(basename "$c").o.rt"; done &&
      rm -f libparray_cuda_all.a && ar rcs libparray_cuda_all.a ./*.o.rt
  )
}
