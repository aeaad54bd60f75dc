// thin_row_read: how fast a warp reads its row of a W x K row-major float matrix (MNK_THIN's
// pair path, samples/thin.pah), by how each lane loads it: scalar with lane pairs sharing a
// k, 16 bytes a lane, or cp.async copies to shared memory some chunks ahead; with and without
// the other operand's 8 rows (K x 8, row-major) read as the lane pairs do. Each kernel 20
// times back to back, the best of 5; prints us a call and TB/s of the wide operand. Run 113
// (bench/results/run113_gpu.md): the copies ahead looked 13 % faster here and lost in MNK_THIN.
// Session 115 added groups8, the quads' read (8 lanes a row, the other's rows staged), not
// yet run: no GPU was lent.
//   nvcc -O3 -std=c++17 -arch=sm_90a bench/lab/thin_row_read.cu -o trr && ./trr
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

// each warp of a block of 256 threads is one row: its row of A (0 past the last, W)
__device__ __forceinline__ int warp_row() { return blockIdx.x * 8 + threadIdx.x / 32; }
__device__ __forceinline__ const float *row_of(const float *a, int w, int k) {
  return warp_row() < w ? a + (long long)warp_row() * k : 0;
}
// the warp's sums added, to C's element of the row
__device__ __forceinline__ void warp_store(float s, float *c) {
  for (int o = 16; o; o /= 2) s += __shfl_xor_sync(~0u, s, o);
  if (threadIdx.x % 32 == 0) c[warp_row()] = s;
}

// mode 0: scalar, pairs share k (16 k an instruction, 64 B), the other's half 16 B
template <int STEPS, bool OTHER>
__global__ void __launch_bounds__(256, 4) pairs(const float *a, const float *b, float *c, int w, int k) {
  const int lane = threadIdx.x % 32;
  const float *const r = row_of(a, w, k);
  if (!r) return;
  float acc[4] = {};
  const int half = lane % 2;
  #pragma unroll STEPS
  for (int kk = lane / 2; kk < k; kk += 16) {
    const float x = r[kk];
    if (OTHER) {
      const float4 v = *(const float4 *)(b + kk * 8 + 4 * half);
      acc[0] += x * v.x, acc[1] += x * v.y, acc[2] += x * v.z, acc[3] += x * v.w;
    } else
      acc[0] += x;
  }
  float s = acc[0] + acc[1] + acc[2] + acc[3];
  warp_store(s, c);
}
// mode 1: float4 a lane (128 k an instruction, 512 B); the other's 8 rows for its 4 k
template <int STEPS, bool OTHER>
__global__ void __launch_bounds__(256, 4) quads(const float *a, const float *b, float *c, int w, int k) {
  const int lane = threadIdx.x % 32;
  const float *const r = row_of(a, w, k);
  if (!r) return;
  float acc[8] = {};
  #pragma unroll STEPS
  for (int kk = 4 * lane; kk < k; kk += 128) {
    const float4 x = *(const float4 *)(r + kk);
    if (OTHER) {
      const float xs[4] = {x.x, x.y, x.z, x.w};
      #pragma unroll
      for (int j = 0; j < 4; j++) {
        const float4 v0 = *(const float4 *)(b + (kk + j) * 8), v1 = *(const float4 *)(b + (kk + j) * 8 + 4);
        acc[0] += xs[j] * v0.x, acc[1] += xs[j] * v0.y, acc[2] += xs[j] * v0.z, acc[3] += xs[j] * v0.w;
        acc[4] += xs[j] * v1.x, acc[5] += xs[j] * v1.y, acc[6] += xs[j] * v1.z, acc[7] += xs[j] * v1.w;
      }
    } else
      acc[0] += x.x + x.y + x.z + x.w;
  }
  float s = 0;
  for (int i = 0; i < 8; i++) s += acc[i];
  warp_store(s, c);
}
// mode 2: the row copied to shared memory by cp.async (512 B a warp an instruction,
// STAGES chunks of 512 floats ahead), then read as pairs from there
template <int STAGES, bool OTHER, int CH = 512>
__global__ void __launch_bounds__(256, 4) staged(const float *a, const float *b, float *c, int w, int k) {
  extern __shared__ float sm[];
  const int lane = threadIdx.x % 32, wid = threadIdx.x / 32;
  const float *const r = row_of(a, w, k);
  if (!r) return;
  float *st = sm + wid * STAGES * CH;
  const int chunks = k / CH; // k a multiple of CH here
  for (int s = 0; s < STAGES - 1; s++) {
    if (s < chunks)
      for (int i = 0; i < CH / 128; i++)
        __pipeline_memcpy_async(st + s * CH + 128 * i + 4 * lane, r + s * CH + 128 * i + 4 * lane, 16);
    __pipeline_commit();
  }
  float acc[4] = {};
  const int half = lane % 2;
  for (int ch = 0; ch < chunks; ch++) {
    const int nx = ch + STAGES - 1;
    if (nx < chunks)
      for (int i = 0; i < CH / 128; i++)
        __pipeline_memcpy_async(st + (nx % STAGES) * CH + 128 * i + 4 * lane, r + nx * CH + 128 * i + 4 * lane, 16);
    __pipeline_commit();
    __pipeline_wait_prior(STAGES - 1);
    __syncwarp();
    const float *x = st + (ch % STAGES) * CH;
    #pragma unroll 8
    for (int kk = lane / 2; kk < CH; kk += 16) {
      const float xv = x[kk];
      if (OTHER) {
        const float4 v = *(const float4 *)(b + (ch * CH + kk) * 8 + 4 * half);
        acc[0] += xv * v.x, acc[1] += xv * v.y, acc[2] += xv * v.z, acc[3] += xv * v.w;
      } else
        acc[0] += xv;
    }
    __syncwarp();
  }
  float s = acc[0] + acc[1] + acc[2] + acc[3];
  warp_store(s, c);
}

// mode 3, MNK_THIN's quads (samples/thin.pah's thin_quad_sum): 8 lanes a row, 4 rows a warp,
// float4 a lane (128 B a row an instruction); the other's 8 rows of 448 k at a time staged
// in shared memory 16 bytes further every 4 k (mnk_thin_quad_at), so that the warp's 4 rows
// share each address and its 8 lanes reach 8 banks; k in PARTS parts (blockIdx.y), the
// rows' sums added to C by atomics (C zeroed first). STAGED 0: the other's rows from
// global memory (L1) in place of the stage
template <int PARTS, bool STAGED>
__global__ void __launch_bounds__(256, 4) groups8(const float *a, const float *b, float *c, int w, int k) {
  constexpr int KC = 448;
  __shared__ __align__(16) float stage[4096];
  const int t = threadIdx.x, lane = t % 8, row = blockIdx.x * 32 + t / 8;
  const int span = (k + PARTS - 1) / PARTS, k0 = blockIdx.y * span, k1 = min(k, k0 + span);
  const float *const r = a + (long long)min(row, w - 1) * k;
  float acc[8] = {};
  for (int kc = k0; kc < k1; kc += KC) {
    const int n = min(KC, k1 - kc);
    if (STAGED) {
      __syncthreads();
      for (int i0 = t; i0 < 2 * n; i0 += 1024) {
        float4 v[4];
        #pragma unroll
        for (int u = 0; u < 4; u++)
          if (i0 + 256 * u < 2 * n)
            v[u] = *(const float4 *)(b + (long long)(kc + (i0 + 256 * u) / 2) * 8 + 4 * ((i0 + 256 * u) % 2));
        #pragma unroll
        for (int u = 0; u < 4; u++) {
          const int i = i0 + 256 * u, kk = i / 2;
          if (i < 2 * n)
            *(float4 *)(stage + kk * 8 + kk / 4 * 4 + 4 * (i % 2)) = v[u];
        }
      }
      __syncthreads();
    }
    #pragma unroll 4
    for (int kk = 4 * lane; kk + 4 <= n; kk += 32) {
      const float4 x = *(const float4 *)(r + kc + kk);
      const float xs[4] = {x.x, x.y, x.z, x.w};
      #pragma unroll
      for (int j = 0; j < 4; j++) {
        const float *const y = STAGED ? stage + (kk + j) * 8 + (kk + j) / 4 * 4 : b + (long long)(kc + kk + j) * 8;
        const float4 v0 = *(const float4 *)y, v1 = *(const float4 *)(y + 4);
        acc[0] += xs[j] * v0.x, acc[1] += xs[j] * v0.y, acc[2] += xs[j] * v0.z, acc[3] += xs[j] * v0.w;
        acc[4] += xs[j] * v1.x, acc[5] += xs[j] * v1.y, acc[6] += xs[j] * v1.z, acc[7] += xs[j] * v1.w;
      }
    }
  }
  float s = 0;
  for (int i = 0; i < 8; i++) s += acc[i];
  for (int o = 4; o; o /= 2) s += __shfl_xor_sync(~0u, s, o);
  if (lane == 0 && row < w) atomicAdd(c + row, s);
}

typedef void (*kern)(const float *, const float *, float *, int, int);
static double timeit(kern f, size_t smem, int parts, const float *a, const float *b, float *c, int w, int k) {
  if (smem) CK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0), cudaEventCreate(&e1);
  const dim3 blocks = parts ? dim3((w + 31) / 32, parts) : dim3((w + 7) / 8);
  for (int i = 0; i < 3; i++) f<<<blocks, 256, smem>>>(a, b, c, w, k);
  CK(cudaGetLastError());
  float best = 1e30f;
  for (int r = 0; r < 5; r++) {
    cudaEventRecord(e0);
    for (int i = 0; i < 20; i++) f<<<blocks, 256, smem>>>(a, b, c, w, k);
    cudaEventRecord(e1);
    CK(cudaEventSynchronize(e1));
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    if (ms < best) best = ms;
  }
  return best / 20 * 1000;
}
int main() {
  const int shapes[][2] = {{4096, 4096}, {2048, 2048}, {1024, 4096}, {8192, 8192}, {16384, 2048}};
  float *a, *b, *c;
  CK(cudaMalloc(&a, 8192LL * 8192 * 4 + 4096));
  CK(cudaMalloc(&b, 8192 * 8 * 4));
  CK(cudaMalloc(&c, 16384 * 4));
  CK(cudaMemset(a, 0, 8192LL * 8192 * 4));
  CK(cudaMemset(b, 0, 8192 * 8 * 4));
  printf("%-12s %-26s %8s %8s\n", "W x K", "read", "us", "TB/s");
  for (auto &s : shapes) {
    const int w = s[0], k = s[1];
    struct { const char *name; kern f; size_t smem; int parts; } ks[] = {
      {"pairs scalar, 4 steps", pairs<4, false>, 0}, {"pairs scalar, 8 steps", pairs<8, false>, 0},
      {"pairs +other, 8 steps", pairs<8, true>, 0},
      {"float4, 2 steps", quads<2, false>, 0}, {"float4, 4 steps", quads<4, false>, 0},
      {"float4 +other8, 2 steps", quads<2, true>, 0},
      {"cp.async 3 stages", staged<3, false>, 8 * 3 * 2048}, {"cp.async 3 +other", staged<3, true>, 8 * 3 * 2048},
      {"cp.async 4 +other", staged<4, true>, 8 * 4 * 2048}, {"cp.async 6 +other", staged<6, true>, 8 * 6 * 2048},
      {"cp.async 4x128 +other", staged<4, true, 128>, 8 * 4 * 512}, {"cp.async 8x128 +other", staged<8, true, 128>, 8 * 8 * 512},
      {"cp.async 4x256 +other", staged<4, true, 256>, 8 * 4 * 1024},
      {"groups of 8, staged, 4 parts", groups8<4, true>, 0, 4}, {"groups of 8, L1, 4 parts", groups8<4, false>, 0, 4},
      {"groups of 8, staged, 8 parts", groups8<8, true>, 0, 8},
    };
    for (auto &kk : ks) {
      const double us = timeit(kk.f, kk.smem, kk.parts, a, b, c, w, k);
      printf("%5dx%-6d %-26s %8.1f %8.2f\n", w, k, kk.name, us, (double)w * k * 4 / us / 1e6);
    }
  }
  return 0;
}
