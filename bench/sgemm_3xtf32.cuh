// sgemm_3xtf32.cuh: the kernel of lab/sgemm_3xtf32.cu (see there), shared with
// twin_3xtf32.cu, which bench.cu times as the twin of samples/perf_sgemm3x.pa.
// Row-major, n x n with n a multiple of BP and of 128. sm_90a only.
#pragma once
#include "wgmma.cuh"

__device__ __forceinline__ float lo_part(float x) {
  return x - __uint_as_float(__float_as_uint(x) & 0xffffe000u);
}

/* d += a b on the warpgroup's 64 x BP product */
template <int BP>
__device__ __forceinline__ void wgmma_bp(float *d, const unsigned *a, unsigned long long desc) {
  if constexpr (BP == 256)
    wgmma_n256(d, a, desc);
  else
    wgmma_n128(d, a, desc);
}

template <int BP, int AH, int DB, int KC, int STAG>
__global__ void __launch_bounds__(256, 1) k_x3(const float *a, const float *b, float *c, int n) {
  constexpr int BQ = 128, BK = 32, STG = 3, NT = 256, CP = BP * BK / 4 / NT, ND = BP / 2;
  constexpr int PSZ = BP * BK, QW = BQ + 8, QSZ = BK * QW;
  extern __shared__ __align__(1024) float smem[];
  float *ps = smem, *pl = smem + STG * PSZ, *qs = pl + PSZ;
  const int t = threadIdx.x, lane = t % 32, w = (t / 32) % 4, wg = t / 128;
  const int g = lane / 4, tt = lane % 4;
  const int gp = n / BP, gq = n / BQ;
  const int bid = blockIdx.x, band = bid / (16 * gq), first = band * 16;
  const int rows = min(gp - first, 16), at = bid % (16 * gq);
  const int p0 = (first + at % rows) * BP, q0 = (at / rows) * BQ;
  const float *pp[CP], *pq[4];
  int op[CP], oq[4];
#pragma unroll
  for (int i = 0; i < CP; i++) {
    const int ch = t + i * NT, p = ch / 8, kq = ch % 8;
    pp[i] = a + (size_t)(p0 + p) * n + kq * 4;
    op[i] = p * 32 + ((kq ^ (p % 8)) * 4);
  }
#pragma unroll
  for (int i = 0; i < 4; i++) {
    const int ch = t + i * NT, q = (ch % (BQ / 4)) * 4, k = ch / (BQ / 4);
    pq[i] = b + (size_t)k * n + q0 + q;
    oq[i] = k * QW + q;
  }
  const int T = n / BK;
  auto issue = [&](int s) {
    const int buf = s % STG;
#pragma unroll
    for (int i = 0; i < CP; i++) cp16(ps + buf * PSZ + op[i], pp[i] + s * BK);
#pragma unroll
    for (int i = 0; i < 4; i++) cp16(qs + buf * QSZ + oq[i], pq[i] + (size_t)s * BK * n);
  };
  /* d: the tensor cores' accumulators; with KC, every KC slices added to tot in FP32
     (round to nearest) and restarted from 0, since wgmma's own accumulation rounds
     towards zero and its error grows with k */
  float d[ND], tot[KC ? ND : 1];
#pragma unroll
  for (int i = 0; i < ND; i++) d[i] = 0.f;
#pragma unroll
  for (int i = 0; i < (KC ? ND : 1); i++) tot[i] = 0.f;
#pragma unroll
  for (int s = 0; s < AH; s++) {
    if (s < T) issue(s);
    cp_commit();
  }
  const unsigned pbase = (unsigned)__cvta_generic_to_shared(ps);
  const unsigned lbase = (unsigned)__cvta_generic_to_shared(pl);
  const unsigned long long dfix = (1ull << 16) | (64ull << 32) | (1ull << 62);
  const int qrow = wg * 64 + w * 16 + g;
  unsigned h0[4][4], l0[4][4], h1[4][4], l1[4][4];
  auto slice = [&](int s, unsigned (&fh)[4][4], unsigned (&fl)[4][4], unsigned (&oh)[4][4],
                   unsigned (&ol)[4][4]) {
    cp_wait<AH - 1>();
    fence_async_smem();
    __syncthreads();
    const int cur = s % STG;
    if (AH == 1) {
      if (s + 1 < T) issue(s + 1);
      cp_commit();
    }
    const float *qc = qs + cur * QSZ;
#pragma unroll
    for (int kk = 0; kk < 4; kk++) {
      const float x[4] = {qc[(kk * 8 + tt) * QW + qrow], qc[(kk * 8 + tt) * QW + qrow + 8],
                          qc[(kk * 8 + tt + 4) * QW + qrow], qc[(kk * 8 + tt + 4) * QW + qrow + 8]};
#pragma unroll
      for (int i = 0; i < 4; i++) {
        fh[kk][i] = __float_as_uint(x[i]);
        fl[kk][i] = __float_as_uint(lo_part(x[i]));
      }
    }
    wg_fence();
#pragma unroll
    for (int kk = 0; kk < 4; kk++) {
      const unsigned addr = pbase + (cur * PSZ + kk * 8) * 4;
      wgmma_bp<BP>(d, fl[kk], dfix | ((addr & 0x3FFFF) >> 4));
      wgmma_bp<BP>(d, fh[kk], dfix | ((addr & 0x3FFFF) >> 4));
    }
    wg_commit();
    /* the previous slice's group B (and with it everything before) has finished in
       this warpgroup; after the barrier in both: pl and the stage of slice s - 1 are free */
    wg_wait<1>();
    if (DB) {
#pragma unroll
      for (int kk = 0; kk < 4; kk++)
        asm volatile("" ::"r"(oh[kk][0]), "r"(oh[kk][1]), "r"(oh[kk][2]), "r"(oh[kk][3]),
                     "r"(ol[kk][0]), "r"(ol[kk][1]), "r"(ol[kk][2]), "r"(ol[kk][3]));
    }
    __syncthreads();
    if (AH == 2) {
      if (s + 2 < T) issue(s + 2);
      cp_commit();
    }
    {
      const float4 *src = (const float4 *)(ps + cur * PSZ);
      float4 *dst = (float4 *)pl;
#pragma unroll
      for (int i = 0; i < PSZ / 4 / NT; i++) {
        float4 v = src[t + i * NT];
        v.x = lo_part(v.x), v.y = lo_part(v.y), v.z = lo_part(v.z), v.w = lo_part(v.w);
        dst[t + i * NT] = v;
      }
    }
    fence_async_smem();
    __syncthreads();
    wg_fence();
#pragma unroll
    for (int kk = 0; kk < 4; kk++) {
      const unsigned addr = lbase + kk * 8 * 4;
      wgmma_bp<BP>(d, fh[kk], dfix | ((addr & 0x3FFFF) >> 4));
    }
    wg_commit();
    if (KC && (s + 1 + (STAG && wg) * (KC / 2)) % (KC ? KC : 1) == 0) {
      wg_wait<0>();
#pragma unroll
      for (int i = 0; i < ND; i++) tot[i] += d[i], d[i] = 0.f;
    } else if (!DB) {
      wg_wait<0>();
    }
  };
#pragma unroll 1
  for (int s = 0; s < T; s += 2) {
    slice(s, h0, l0, h1, l1);
    slice(s + 1, h1, l1, h0, l0);
  }
  wg_wait<0>();
#pragma unroll
  for (int i = 0; i < ND / 4; i++)
#pragma unroll
    for (int j = 0; j < 4; j++) {
      const int q = q0 + qrow + 8 * (j / 2), p = p0 + 8 * i + 2 * tt + j % 2;
      c[(size_t)p * n + q] = KC ? tot[4 * i + j] + d[4 * i + j] : d[4 * i + j];
    }
}

template <int BP, int AH, int DB, int KC = 0, int STAG = 0>
static void launch(const float *a, const float *b, float *c, int n) {
  const int smem = (3 * BP * 32 + BP * 32 + 3 * 32 * (128 + 8)) * 4;
  static bool once = false;
  if (!once) {
    CK(cudaFuncSetAttribute(k_x3<BP, AH, DB, KC, STAG>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    once = true;
  }
  k_x3<BP, AH, DB, KC, STAG><<<(n / BP) * (n / 128), 256, smem>>>(a, b, c, n);
}
