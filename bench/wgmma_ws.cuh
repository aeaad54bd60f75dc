// wgmma_ws.cuh: what a warp-specialised Hopper kernel needs beyond wgmma.cuh (issue 53,
// lab/tf32_ws.cu): shared-memory barriers (mbarrier) that count arrivals and the bytes
// a bulk copy brings, the tensor copy engine (TMA, cp.async.bulk.tensor 2-D, completing
// on an mbarrier), and setmaxnreg (one warpgroup gives registers back, another takes
// them). sm_90a only; lab code, not yet the samples'.
#pragma once
#include <cuda.h>
#include <cudaTypedefs.h>
#include "wgmma.cuh"

__device__ __forceinline__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
/* a barrier of COUNT arrivals a phase; visible to the copy engine after fence_mbar_init */
__device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(count));
}
__device__ __forceinline__ void fence_mbar_init(void) {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned long long *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_addr(bar)) : "memory");
}
/* one arrival that also says BYTES more will come by bulk copies before the phase ends */
__device__ __forceinline__ void mbar_expect(unsigned long long *bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(bytes)
               : "memory");
}
/* wait until the phase of parity PARITY has completed */
__device__ __forceinline__ void mbar_wait(unsigned long long *bar, unsigned parity) {
  const unsigned a = smem_addr(bar);
  unsigned done;
  do {
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(a), "r"(parity)
                 : "memory");
  } while (!done);
}
/* the box of tensor map TM at (c0, c1) (c0 the contiguous index) to dst, counted on bar */
__device__ __forceinline__ void tma_2d(void *dst, const CUtensorMap *tm, int c0, int c1, unsigned long long *bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
               ::"r"(smem_addr(dst)), "l"(tm), "r"(c0), "r"(c1), "r"(smem_addr(bar))
               : "memory");
}
/* one arrival on bar once this thread's cp.async copies issued so far have landed (not
   counted in advance: bar's count includes it) */
__device__ __forceinline__ void cp_arrive(unsigned long long *bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(smem_addr(bar)) : "memory");
}
template <int R> __device__ __forceinline__ void regs_dec(void) {
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(R));
#endif
}
template <int R> __device__ __forceinline__ void regs_inc(void) {
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(R));
#endif
}
/* host: the tensor map of a row-major float matrix ROWS x COLS (leading dimension LD
   floats, a multiple of 4) read in boxes of BOX_ROWS x BOX_COLS, 128-byte swizzled
   (BOX_COLS = 32), reads past the matrix filled with zeros */
static inline CUtensorMap tmap_2d(const float *base, long long rows, long long cols, long long ld, int box_rows,
                                  int box_cols) {
  static PFN_cuTensorMapEncodeTiled_v12000 encode;
  if (!encode) {
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000, cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess) { printf("no cuTensorMapEncodeTiled\n"); exit(1); }
  }
  CUtensorMap tm;
  cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, strides[1] = {(cuuint64_t)ld * 4};
  cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows}, es[2] = {1, 1};
  CUresult r = encode(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)base, dims, strides, box, es,
                      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) { printf("cuTensorMapEncodeTiled: %d\n", (int)r); exit(1); }
  return tm;
}
