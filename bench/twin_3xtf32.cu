// twin_3xtf32.cu: the hand-written twin of samples/perf_sgemm3x.pa (row-major), for
// bench.cu, which is built for sm_90 and cannot hold wgmma: built apart with
// -arch=sm_90a -DN=... (gen_flags.sh's twin_flags) and linked in where N % 128 == 0.
// The kernel is sgemm_3xtf32.cu's variant x3_p128_kc1, the one the sample writes.
#include "sgemm_3xtf32.cuh"

#if N % 128 != 0
#error "twin_3xtf32: N must be a multiple of 128 (its 128 x 128 tiles are not clipped)"
#endif

void cuda_sgemm3x_row(const float *a, const float *b, float *c) {
  launch<128, 1, 1, 1>(a, b, c, N);
}
