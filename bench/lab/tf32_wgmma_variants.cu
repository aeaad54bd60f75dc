// tf32_wgmma_variants.cu: the hand-written prototype of samples/perf_tf32.pa's TF32_CFG 6
// (issue 15 item 5): wgmma m64n256k8 TF32, A from registers, B from shared memory
// through a descriptor, against cuBLAS TF32, row-major, N = 4096 and 8192.  P (the
// operand contiguous along k) is staged k-major for wgmma's B, Q (the other) [k][q]
// and loaded into registers as wgmma's A; each warpgroup computes a 64 x 256 strip of
// C transposed.  Variants: the depth BK, stages STG, the k-major layout without
// swizzle (core matrices of 8 x 16 bytes, LBO/SBO one way or the other: SWAP) or with
// the 128-byte swizzle (SW), and WAITD: 0 waits for each slice's wgmmas before the
// next, 1 lets one slice's run on (its register fragments kept live in fr0/fr1).
// Every variant is checked on 4096 sampled elements against float64 (TF32 bound).
//   nvcc -O3 -gencode arch=compute_90a,code=sm_90a -std=c++17 bench/lab/tf32_wgmma_variants.cu -lcublas -o wv && ./wv 4096 8192
// Results: bench/results/tf32_3_variants.txt (the unswizzled layouts 0.29-0.35 of
// cuBLAS, the swizzled 0.65-0.70, and 0.81-0.84 with WAITD = 1: the sample's kernel).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>
#include "../wgmma.cuh"

// BP = 256 (wgmma N), BQ = 64 * WG (wgmma M per warpgroup), BK deep, STG stages.
// SWAP: LBO/SBO roles swapped (core matrices adjacent in k 128 B apart => LBO = 128 unless SWAP)
template <int BK, int STG, int WG, int SWAP, int WAITD, int SW = 0>
__global__ void __launch_bounds__(128 * WG, 1) k_wg(const float *a, const float *b, float *c, int N) {
  constexpr int BP = 256, BQ = 64 * WG, NT = 128 * WG;
  constexpr int PSZ = BP * BK, QW = BQ + 8, QSZ = BK * QW;
  extern __shared__ __align__(1024) float smem[];
  float *ps = smem, *qs = smem + STG * PSZ;
  const int t = threadIdx.x, lane = t % 32, w = (t / 32) % 4, wg = t / 128;
  const int g = lane / 4, tt = lane % 4;
  // element (p, k) of a P stage: core matrices of 8 p x 4 k (128 B)
  // no SWAP: k-adjacent cores 128 B apart (LBO), p-adjacent BK/4*128 B (SBO)
  // SWAP:    p-adjacent cores 128 B apart, k-adjacent BP/8*128 B
  constexpr int LBOe = SWAP ? (BP / 8) * 32 : 32, SBOe = SWAP ? 32 : (BK / 4) * 32;
  auto poff = [&](int p, int k) {
    if (SW) return p * 32 + ((((k / 4) ^ (p % 8)) * 4) | (k % 4));  // 128 B swizzle: rows of 32 k, chunk ^= row % 8
    return (p / 8) * SBOe + (p % 8) * 4 + (k / 4) * LBOe + (k % 4);
  };
  static_assert(!SW || BK == 32, "128 B swizzle: rows of 32 k");
  // block tile, bands of 16 tile rows (p) for L2
  const int gp = N / BP, gq = N / BQ;
  const int bid = blockIdx.x, band = bid / (16 * gq), first = band * 16;
  const int rows = min(gp - first, 16), at = bid % (16 * gq);
  const int p0 = (first + at % rows) * BP, q0 = (at / rows) * BQ;
  constexpr int QP = BP * BK / 4 / NT, QQ = BQ * BK / 4 / NT;
  const float *pp[QP], *pq[QQ];
  int op[QP], oq[QQ];
#pragma unroll
  for (int i = 0; i < QP; i++) {
    const int ch = t + i * NT;  // p % 8 fastest, then k quads, then p / 8
    const int p = SW ? ch / 8 : (ch / (8 * (BK / 4))) * 8 + ch % 8, kq = SW ? ch % 8 : (ch / 8) % (BK / 4);
    pp[i] = a + (size_t)(p0 + p) * N + kq * 4;
    op[i] = poff(p, kq * 4);
  }
#pragma unroll
  for (int i = 0; i < QQ; i++) {
    const int ch = t + i * NT;
    const int q = (ch % (BQ / 4)) * 4, k = ch / (BQ / 4);
    pq[i] = b + (size_t)k * N + q0 + q;
    oq[i] = k * QW + q;
  }
  const int T = N / BK;
  auto issue = [&](int s, int buf) {
#pragma unroll
    for (int i = 0; i < QP; i++) cp16(ps + buf * PSZ + op[i], pp[i] + s * BK);
#pragma unroll
    for (int i = 0; i < QQ; i++) cp16(qs + buf * QSZ + oq[i], pq[i] + (size_t)s * BK * N);
  };
  float d[128];
#pragma unroll
  for (int i = 0; i < 128; i++) d[i] = 0.f;
  constexpr int AHEAD = STG - 1 - WAITD;  // slices in flight
#pragma unroll
  for (int s = 0; s < AHEAD; s++) {
    if (s < T) issue(s, s);
    cp_commit();
  }
  const unsigned pbase = (unsigned)__cvta_generic_to_shared(ps);
  const unsigned long long dfix = SW ? (1ull << 16) | (64ull << 32) | (1ull << 62)
                                     : ((unsigned long long)((LBOe * 4) >> 4) << 16) |
                                           ((unsigned long long)((SBOe * 4) >> 4) << 32);
  const int qrow = wg * 64 + w * 16 + g;
  unsigned fr0[BK / 8][4], fr1[BK / 8][4];
  // one slice: its fragments in fr; with WAITD, the previous slice's wgmmas (fragments
  // in fo) are waited for only after this slice's are issued, so fo is kept live till then
  auto slice = [&](int s, unsigned (&fr)[BK / 8][4], unsigned (&fo)[BK / 8][4]) {
    cp_wait<AHEAD - 1>();
    __syncthreads();
    const int ld = s + AHEAD, cur = s % STG;
    if (ld < T) issue(ld, ld % STG);
    cp_commit();
    const float *qc = qs + cur * QSZ;
#pragma unroll
    for (int kk = 0; kk < BK / 8; kk++) {
      fr[kk][0] = __float_as_uint(qc[(kk * 8 + tt) * QW + qrow]);
      fr[kk][1] = __float_as_uint(qc[(kk * 8 + tt) * QW + qrow + 8]);
      fr[kk][2] = __float_as_uint(qc[(kk * 8 + tt + 4) * QW + qrow]);
      fr[kk][3] = __float_as_uint(qc[(kk * 8 + tt + 4) * QW + qrow + 8]);
    }
    wg_fence();
#pragma unroll
    for (int kk = 0; kk < BK / 8; kk++) {
      const unsigned addr = pbase + (cur * PSZ + (SW ? kk * 8 : poff(0, kk * 8))) * 4;
      wgmma_n256(d, fr[kk], dfix | ((addr & 0x3FFFF) >> 4));
    }
    wg_commit();
    if (WAITD) {
      wg_wait<1>();
#pragma unroll
      for (int kk = 0; kk < BK / 8; kk++) asm volatile("" ::"r"(fo[kk][0]), "r"(fo[kk][1]), "r"(fo[kk][2]), "r"(fo[kk][3]));
    } else {
      wg_wait<0>();
    }
  };
#pragma unroll 1
  for (int s = 0; s < T; s += 2) {
    slice(s, fr0, fr1);
    slice(s + 1, fr1, fr0);
  }
  wg_wait<0>();
  // D[q][p]: register 4i + j: q = 16 w + g + 8 (j / 2), p = 8 i + 2 tt + j % 2 -> C[p][q] (row-major, p = m)
#pragma unroll
  for (int i = 0; i < 32; i++)
#pragma unroll
    for (int j = 0; j < 4; j++) {
      const int q = q0 + qrow + 8 * (j / 2), p = p0 + 8 * i + 2 * tt + j % 2;
      c[(size_t)p * N + q] = d[4 * i + j];
    }
}

template <int BK, int STG, int WG, int SWAP, int WAITD, int SW = 0>
static void launch(const float *a, const float *b, float *c, int N) {
  constexpr int BP = 256, BQ = 64 * WG;
  const int smem = (STG * BP * BK + STG * BK * (BQ + 8)) * 4;
  static bool once = false;
  if (!once) { CK(cudaFuncSetAttribute(k_wg<BK, STG, WG, SWAP, WAITD, SW>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem)); once = true; }
  k_wg<BK, STG, WG, SWAP, WAITD, SW><<<(N / BP) * (N / BQ), 128 * WG, smem>>>(a, b, c, N);
}

typedef void (*fn_t)(const float *, const float *, float *, int);
struct V { const char *name; fn_t f; };

int main(int argc, char **argv) {
  std::vector<int> Ns;
  for (int i = 1; i < argc; i++) Ns.push_back(atoi(argv[i]));
  if (Ns.empty()) Ns = {4096, 8192};
  V vs[] = {
      {"bk32_s4_wg2", launch<32, 4, 2, 0, 0>},
      {"bk32_s4_wg2_swap", launch<32, 4, 2, 1, 0>},
      {"bk32_s4_wg2_sw128", launch<32, 4, 2, 0, 0, 1>},
      {"bk32_s3_wg2_sw128", launch<32, 3, 2, 0, 0, 1>},
      {"bk16_s6_wg2", launch<16, 6, 2, 0, 0>},
      {"bk32_s4_wg2_sw128_w1", launch<32, 4, 2, 0, 1, 1>},
      {"bk16_s6_wg2_w1", launch<16, 6, 2, 0, 1>},
  };
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
  int bad_all = 0;
  for (int N : Ns) {
    size_t nn = (size_t)N * N;
    std::vector<float> ha(nn), hb(nn), hc(nn), hr(nn);
    srand(7);
    for (auto &x : ha) x = rand() / (float)RAND_MAX * 2 - 1;
    for (auto &x : hb) x = rand() / (float)RAND_MAX * 2 - 1;
    float *a, *b, *c, *r;
    CK(cudaMalloc(&a, nn * 4)); CK(cudaMalloc(&b, nn * 4)); CK(cudaMalloc(&c, nn * 4)); CK(cudaMalloc(&r, nn * 4));
    CK(cudaMemcpy(a, ha.data(), nn * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, hb.data(), nn * 4, cudaMemcpyHostToDevice));
    const float one = 1, zero = 0;
    // row-major C = A B is column-major C^T = B^T A^T
    auto blas = [&]() { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, b, N, a, N, &zero, r, N); };
    blas();
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hr.data(), r, nn * 4, cudaMemcpyDeviceToHost));
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto time = [&](auto fn) {
      cudaEventRecord(e0); fn(); cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1); return ms;
    };
    const int nv = sizeof vs / sizeof vs[0];
    std::vector<int> ok(nv, 1);
    for (int v = 0; v < nv; v++) {
      CK(cudaMemset(c, 0xff, nn * 4));
      vs[v].f(a, b, c, N);
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("%s N=%d: %s\n", vs[v].name, N, cudaGetErrorString(e)); return 2; }
      CK(cudaMemcpy(hc.data(), c, nn * 4, cudaMemcpyDeviceToHost));
      // sampled check against float64, TF32 bound: 1e-2 of sum |a||b| (as perf_tf32.pa), and vs cuBLAS
      int wrong = 0; double worst = 0;
      for (int s = 0; s < 4096; s++) {
        int i = (s * 7919) % N, j = (s * 104729 + s / 3) % N;
        double sum = 0, mag = 0;
        for (int k = 0; k < N; k++) { double x = (double)ha[(size_t)i * N + k] * hb[(size_t)k * N + j]; sum += x; mag += fabs(x); }
        double e2 = fabs(hc[(size_t)i * N + j] - sum) / mag;
        if (!(e2 <= 1e-2)) wrong++;
        if (e2 > worst || e2 != e2) worst = e2;
      }
      ok[v] = wrong == 0;
      bad_all += wrong != 0;
      printf("%-20s N=%5d check: %s (worst %.2g of sum|a||b|)\n", vs[v].name, N, wrong ? "WRONG" : "ok", worst);
    }
    const int R = N >= 8192 ? 10 : 30;
    std::vector<std::vector<float>> tm(nv + 1);
    for (int w = 0; w < 3; w++) { blas(); for (int v = 0; v < nv; v++) vs[v].f(a, b, c, N); }
    for (int rr = 0; rr < R; rr++) {
      tm[nv].push_back(time(blas));
      for (int v = 0; v < nv; v++) tm[v].push_back(time([&] { vs[v].f(a, b, c, N); }));
    }
    auto med = [](std::vector<float> x) { std::sort(x.begin(), x.end()); return x[x.size() / 2]; };
    double tb = med(tm[nv]), fl = 2.0 * N * N * (double)N;
    printf("N=%d cublas_tf32 %.3f ms %.1f TF/s\n", N, tb, fl / tb / 1e9);
    for (int v = 0; v < nv; v++) {
      double tv = med(tm[v]);
      printf("N=%d %-20s %.3f ms %.1f TF/s ratio %.3f %s\n", N, vs[v].name, tv, fl / tv / 1e9, tb / tv, ok[v] ? "" : "WRONG");
    }
    cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(r);
  }
  return bad_all ? 1 : 0;
}
