// tma_swizzle_probe.cu: two facts about the copy engine's 128-byte-swizzled boxes that the
// row-class maps of run 72 (issue 53) rested on, measured one H200 at a time:
//   ./tma_swizzle_probe place      a box of 8 x 32 floats loaded to 0, 128, ..., 896 bytes past
//                                  a 1024-byte boundary: is the swizzle the one of the absolute
//                                  shared address, or restarted at the box? (absolute: yes)
//   ./tma_swizzle_probe column X   a box whose first column is X floats into a map based 16
//                                  bytes into an allocation (10 x 1 floats, rows 112 bytes
//                                  apart): X = 0 loads, X = 3 is an illegal instruction
// Build: nvcc -O2 -arch=sm_90a -std=c++17 bench/lab/tma_swizzle_probe.cu -o tma_swizzle_probe
#include <cstring>
#include "../wgmma.cuh" /* CK; samples/hopper.pah: smem_addr, mbar_*, tma_2d, tmap_2d */

/* one box of map at column x, row 0, to OFF bytes past a 1024-byte boundary; the 2 KB there
   copied to out */
__global__ void load_box(const __grid_constant__ CUtensorMap map, int x, int off, int bytes, float *out) {
  extern __shared__ __align__(1024) unsigned char raw[];
  __shared__ __align__(8) unsigned long long bar;
  unsigned char *const base = raw + (1024 - smem_addr(raw) % 1024) % 1024;
  for (int i = threadIdx.x; i < 512; i += blockDim.x)
    ((float *)base)[i] = -1.f;
  if (threadIdx.x == 0) {
    mbar_init(&bar, 1);
    fence_mbar_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbar_expect(&bar, bytes);
    tma_2d(base + off, &map, x, 0, &bar);
  }
  mbar_wait(&bar, 0);
  for (int i = threadIdx.x; i < 512; i += blockDim.x)
    out[i] = ((float *)base)[i];
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
  CK(cudaMalloc(&d, 4096));
  CK(cudaMalloc(&o, sizeof out));
  CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  CK(cudaFuncSetAttribute(load_box, cudaFuncAttributeMaxDynamicSharedMemorySize, 4096));
  CUtensorMap m;
  if (!place) {
    const int x = atoi(argv[2]);
    if (!tmap_2d(&m, d + 4, 1, 10, 28, 8, 32)) { /* 1 x 10 floats, rows 28 apart, boxes 8 x 32 */
      printf("column %d: the driver refused the map\n", x);
      return 1;
    }
    load_box<<<1, 128, 4096>>>(m, x, 0, 8 * 32 * 4, o);
    const cudaError_t e = cudaDeviceSynchronize();
    printf("column %d: %s\n", x, e == cudaSuccess ? "loaded" : cudaGetErrorString(e));
    return 0;
  }
  if (!tmap_2d(&m, d, 8, 32, 32, 8, 32)) { /* 8 x 32 floats, boxes 8 x 32 */
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
    CK(cudaMemcpy(out, o, sizeof out, cudaMemcpyDeviceToHost));
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
