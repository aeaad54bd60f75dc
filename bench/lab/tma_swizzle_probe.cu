// tma_swizzle_probe.cu: two facts about the copy engine's 128-byte-swizzled boxes that the
// row-class maps of run 72 (issue 53) rested on, measured one H200 at a time:
//   ./tma_swizzle_probe place      a box of 8 x 32 floats loaded to 0, 128, ..., 896 bytes past
//                                  a 1024-byte boundary: is the swizzle the one of the absolute
//                                  shared address, or restarted at the box? (absolute: yes)
//   ./tma_swizzle_probe column X   a box whose first column is X floats into a map based 16
//                                  bytes into an allocation (10 x 1 floats, rows 112 bytes
//                                  apart): X = 0 loads, X = 3 is an illegal instruction
// Build: nvcc -O2 -arch=sm_90a -std=c++17 bench/lab/tma_swizzle_probe.cu -o tma_swizzle_probe
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

/* one box of map at column x, row 0, to OFF bytes past a 1024-byte boundary; the 2 KB there
   copied to out */
__global__ void load_box(const __grid_constant__ CUtensorMap map, int x, int off, int bytes, float *out) {
  extern __shared__ __align__(1024) unsigned char raw[];
  __shared__ __align__(8) unsigned long long bar;
  unsigned char *const base = raw + (1024 - smem(raw) % 1024) % 1024;
  for (int i = threadIdx.x; i < 512; i += blockDim.x)
    ((float *)base)[i] = -1.f;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(smem(&bar)));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(smem(&bar)), "r"(bytes));
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(smem(base + off)), "l"(&map), "r"(x), "r"(0), "r"(smem(&bar)) : "memory");
  }
  asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared.b64 p, [%0], 0;\n @!p bra W;\n}" ::"r"(smem(&bar)));
  for (int i = threadIdx.x; i < 512; i += blockDim.x)
    out[i] = ((float *)base)[i];
}

static int encode(CUtensorMap *m, const float *base, unsigned long long cols, unsigned long long rows,
                  unsigned long long stride, unsigned box_cols, unsigned box_rows) {
  void *f = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess)
    return 0;
  const cuuint64_t dims[2] = {cols, rows}, strides[1] = {stride};
  const cuuint32_t box[2] = {box_cols, box_rows}, es[2] = {1, 1};
  return ((PFN_cuTensorMapEncodeTiled_v12000)f)(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)base, dims, strides,
                                                 box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                                 CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                                 CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

int main(int argc, char **argv) {
  const int place = argc > 1 && !strcmp(argv[1], "place");
  if (argc < 2 || (!place && (strcmp(argv[1], "column") || argc < 3))) {
    fprintf(stderr, "usage: %s place | column X\n", argv[0]);
    return 2;
  }
  float h[256], out[512], *d, *o;
  for (int i = 0; i < 256; i++)
    h[i] = (float)i;
  if (cudaMalloc(&d, 4096) != cudaSuccess || cudaMalloc(&o, sizeof out) != cudaSuccess) {
    fprintf(stderr, "tma_swizzle_probe: no GPU memory\n");
    return 1;
  }
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaFuncSetAttribute(load_box, cudaFuncAttributeMaxDynamicSharedMemorySize, 4096);
  CUtensorMap m;
  if (!place) {
    const int x = atoi(argv[2]);
    if (!encode(&m, d + 4, 10, 1, 112, 32, 8)) {
      printf("column %d: the driver refused the map\n", x);
      return 1;
    }
    load_box<<<1, 128, 4096>>>(m, x, 0, 8 * 32 * 4, o);
    const cudaError_t e = cudaDeviceSynchronize();
    printf("column %d: %s\n", x, e == cudaSuccess ? "loaded" : cudaGetErrorString(e));
    return 0;
  }
  if (!encode(&m, d, 32, 8, 128, 32, 8)) {
    printf("place: the driver refused the map\n");
    return 1;
  }
  for (int off = 0; off < 1024; off += 128) {
    load_box<<<1, 128, 4096>>>(m, 0, off, 8 * 32 * 4, o);
    const cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      printf("offset %4d: %s\n", off, cudaGetErrorString(e));
      return 1;
    }
    cudaMemcpy(out, o, sizeof out, cudaMemcpyDeviceToHost);
    int absolute = 1, restarted = 1;
    for (int i = 0; i < 8; i++)
      for (int c = 0; c < 32; c++) {
        const unsigned a = off + i * 128 + c * 4, rel = i * 128 + c * 4; /* bytes */
        absolute &= out[(a ^ (a >> 7 & 7) << 4) / 4] == h[i * 32 + c];
        restarted &= out[(off + (rel ^ (rel >> 7 & 7) << 4)) / 4] == h[i * 32 + c];
      }
    printf("offset %4d: the absolute address's swizzle %s, restarted at the box %s\n", off, absolute ? "yes" : "no",
           restarted ? "yes" : "no");
  }
  return 0;
}
