// wgmma.cuh: what the hand-written Hopper prototypes (lab/tf32_wgmma_variants.cu,
// lab/sgemm_3xtf32.cu, twin_3xtf32.cu) share: a CUDA error check, and the samples' own
// cp.async and wgmma helpers (samples/hopper.pah: wgmma_n256 / wgmma_n128, TF32 with A
// from registers and B through a shared-memory descriptor), so that the twins run the
// same instructions as the generated kernels. sm_90a only.
#pragma once
#include <cstdio>
#include <cstdlib>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)
#include "../samples/hopper.pah"
