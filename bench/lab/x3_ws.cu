// x3_ws.cu: warp specialisation for the 3xTF32 (FP32-accurate) wgmma SGEMM (issue 53),
// beside the samples' kernel's twin (sgemm_3xtf32.cuh's x3_p128_kc1, as
// samples/perf_sgemm3x.pa's X3_MNK at whole tiles), cuBLAS FP32 and cuBLAS TF32 in the
// same run; row-major, N x N, N a multiple of 128.
//
// The kernel (k_x3ws): a 128 x 128 tile, three warpgroups, a ring of STG stages of 48 KB
// (P's high part as the copy engine brings it, its low part, Q). Warpgroup 0: its thread 0
// loads each 32-deep slice by TMA (as tf32_ws.cu, "full" counting the bytes); its warps 1
// to 3 wait on "full", write P's low part (x minus its TF32 bits: lo_part) beside it in
// the same swizzled places and arrive on "lofull". Warpgroups 1 and 2 wait on both, split
// their Q fragments into high and low parts in registers and run d += Ql Ph + Qh Ph +
// Qh Pl (twelve m64n128k8 a slice); the slice before's stage goes back on "empty" once
// its wgmmas are done. KC: every KC slices the accumulators are waited for and added to
// tot in FP32 (wgmma's own sums truncate; as the sample's KC, 1 there).
// Checked on 4096 sampled elements against float64 (2e-5 of sum |a||b|).
//   nvcc -O3 -gencode arch=compute_90a,code=sm_90a -std=c++17 -Xptxas -v bench/lab/x3_ws.cu -lcublas -o x3ws && ./x3ws 4096 8192
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>
#include "../wgmma_ws.cuh"
#include "../sgemm_3xtf32.cuh"

__device__ __forceinline__ void tile_of(int id, int gp, int gq, int BP, int BQ, int &p0, int &q0) {
  const int band = id / (16 * gq), first = band * 16;
  const int rows = min(gp - first, 16), at = id % (16 * gq);
  p0 = (first + at % rows) * BP;
  q0 = (at / rows) * BQ;
}

template <int STG, int PERSIST, int KC>
__global__ void __launch_bounds__(384, 1)
    k_x3ws(const __grid_constant__ CUtensorMap tp, const __grid_constant__ CUtensorMap tq, float *c, int N) {
  constexpr int BK = 32, BP = 128, BQ = 128, PREG = 40, CREG = 232;
  constexpr int PSZ = BP * BK, QSZ = BK * BQ, STAGE_BYTES = (PSZ + QSZ) * 4;
  static_assert(128 * PREG + 256 * CREG <= 384 * 168, "setmaxnreg: more registers than the launch has");
  extern __shared__ unsigned char smem_raw[];
  float *ps = (float *)(((size_t)smem_raw + 1023) & ~(size_t)1023);
  float *pl = ps + STG * PSZ, *qs = pl + STG * PSZ;
  unsigned long long *full = (unsigned long long *)(qs + STG * QSZ), *lofull = full + STG, *empty = lofull + STG;
  const int t = threadIdx.x, wg = t / 128;
  const int gp = N / BP, gq = N / BQ, tiles = gp * gq, T = N / BK;
  const int first = blockIdx.x, step = PERSIST ? gridDim.x : tiles;
  if (t == 0) {
    for (int s = 0; s < STG; s++) {
      mbar_init(&full[s], 1);
      mbar_init(&lofull[s], 96);
      mbar_init(&empty[s], 8);
    }
    fence_mbar_init();
  }
  __syncthreads();
  if (wg == 0) {
    regs_dec<PREG>();
    int it = 0;
    if (t == 0) {
      for (int id = first; id < tiles; id += step) {
        int p0, q0;
        tile_of(id, gp, gq, BP, BQ, p0, q0);
        for (int s = 0; s < T; s++, it++) {
          const int st = it % STG, use = it / STG;
          if (use > 0) mbar_wait(&empty[st], (use - 1) & 1);
          mbar_expect(&full[st], STAGE_BYTES);
          tma_2d(ps + st * PSZ, &tp, s * BK, p0, &full[st]);
#pragma unroll
          for (int j = 0; j < 4; j++) tma_2d(qs + st * QSZ + j * 1024, &tq, q0 + 32 * j, s * BK, &full[st]);
        }
      }
    } else if (t >= 32) {
      const int u = t - 32;  // 96 threads
      for (int id = first; id < tiles; id += step)
        for (int s = 0; s < T; s++, it++) {
          const int st = it % STG;
          mbar_wait(&full[st], (it / STG) & 1);
          const float4 *src = (const float4 *)(ps + st * PSZ);
          float4 *dst = (float4 *)(pl + st * PSZ);
#pragma unroll
          for (int i = 0; i < (PSZ / 4 + 95) / 96; i++) {
            const int e = u + 96 * i;
            if (e < PSZ / 4) {
              float4 v = src[e];
              v.x = lo_part(v.x), v.y = lo_part(v.y), v.z = lo_part(v.z), v.w = lo_part(v.w);
              dst[e] = v;
            }
          }
          fence_async_smem();  // wgmma reads it through the async proxy
          mbar_arrive(&lofull[st]);
        }
    }
  } else {
    regs_inc<CREG>();
    const int ct = t - 128, lane = ct % 32, w = (ct / 32) % 4, cw = ct / 128;
    const int g = lane / 4, tt = lane % 4;
    const int box = 2 * cw + w / 2;
    const int qb0 = ((g / 4) * 4 + 2 * (w % 2)) * 4 + g % 4, qb1 = qb0 + 4;
    const unsigned pbase = smem_addr(ps), lbase = smem_addr(pl);
    auto qoff = [](int k, int qb) { return k * 32 + (((qb / 4) ^ (k % 8)) * 4) + qb % 4; };
    int it = 0;
    for (int id = first; id < tiles; id += step) {
      int p0, q0;
      tile_of(id, gp, gq, BP, BQ, p0, q0);
      float d[64], tot[64];
#pragma unroll
      for (int i = 0; i < 64; i++) d[i] = 0.f, tot[i] = 0.f;
      unsigned h0[4][4], l0[4][4], h1[4][4], l1[4][4];
      auto slice = [&](int s, unsigned (&fh)[4][4], unsigned (&fl)[4][4], unsigned (&oh)[4][4], unsigned (&ol)[4][4]) {
        const int st = it % STG, ph = (it / STG) & 1;
        mbar_wait(&full[st], ph);
        mbar_wait(&lofull[st], ph);
        const float *qc = qs + st * QSZ + box * 1024;
#pragma unroll
        for (int kk = 0; kk < 4; kk++) {
          const float x[4] = {qc[qoff(kk * 8 + tt, qb0)], qc[qoff(kk * 8 + tt, qb1)], qc[qoff(kk * 8 + tt + 4, qb0)],
                              qc[qoff(kk * 8 + tt + 4, qb1)]};
#pragma unroll
          for (int i = 0; i < 4; i++) fh[kk][i] = __float_as_uint(x[i]), fl[kk][i] = __float_as_uint(lo_part(x[i]));
        }
        wg_fence();
#pragma unroll
        for (int kk = 0; kk < 4; kk++) {
          const unsigned long long dh = sw128_desc(pbase + (st * PSZ + kk * 8) * 4, 1024);
          const unsigned long long dl = sw128_desc(lbase + (st * PSZ + kk * 8) * 4, 1024);
          wgmma_n128(d, fl[kk], dh);
          wgmma_n128(d, fh[kk], dh);
          wgmma_n128(d, fh[kk], dl);
        }
        wg_commit();
        wg_wait<1>();
#pragma unroll
        for (int kk = 0; kk < 4; kk++)
          asm volatile("" ::"r"(oh[kk][0]), "r"(oh[kk][1]), "r"(oh[kk][2]), "r"(oh[kk][3]), "r"(ol[kk][0]),
                       "r"(ol[kk][1]), "r"(ol[kk][2]), "r"(ol[kk][3]));
        if (s > 0 && lane == 0) mbar_arrive(&empty[(it + STG - 1) % STG]);
        if (KC && (s + 1) % (KC ? KC : 1) == 0) {
          wg_wait<0>();
#pragma unroll
          for (int i = 0; i < 64; i++) tot[i] += d[i], d[i] = 0.f;
        }
        it++;
      };
#pragma unroll 1
      for (int s = 0; s < T; s += 2) {
        slice(s, h0, l0, h1, l1);
        slice(s + 1, h1, l1, h0, l0);
      }
      wg_wait<0>();
      if (lane == 0) mbar_arrive(&empty[(it + STG - 1) % STG]);
#pragma unroll
      for (int i = 0; i < 16; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) {
          const int q = q0 + box * 32 + (j / 2 ? qb1 : qb0), p = p0 + 8 * i + 2 * tt + j % 2;
          c[(size_t)p * N + q] = tot[4 * i + j] + d[4 * i + j];
        }
    }
  }
}

template <int STG, int PERSIST, int KC>
static void launch_x3ws(const CUtensorMap &tp, const CUtensorMap &tq, const float *, const float *, float *c, int N) {
  const int smem = STG * (2 * 128 * 32 + 32 * 128) * 4 + 1024 + 3 * STG * 8;
  static bool once = false;
  if (!once) { CK(cudaFuncSetAttribute(k_x3ws<STG, PERSIST, KC>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem)); once = true; }
  int dev, sms;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const int tiles = (N / 128) * (N / 128);
  k_x3ws<STG, PERSIST, KC><<<PERSIST ? std::min(tiles, sms) : tiles, 384, smem>>>(tp, tq, c, N);
}
static void launch_twin(const CUtensorMap &, const CUtensorMap &, const float *a, const float *b, float *c, int N) {
  launch<128, 1, 1, 1>(a, b, c, N);  // sgemm_3xtf32.cuh: the sample's x3_p128_kc1
}

typedef void (*fn_t)(const CUtensorMap &, const CUtensorMap &, const float *, const float *, float *, int);
struct V { const char *name; fn_t f; };

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  std::vector<int> Ns;
  for (int i = 1; i < argc; i++) Ns.push_back(atoi(argv[i]));
  if (Ns.empty()) Ns = {4096, 8192};
  V vs[] = {
      {"x3_twin_kc1", launch_twin},
      {"x3ws_kc1", launch_x3ws<4, 0, 1>},
      {"x3ws_kc2", launch_x3ws<4, 0, 2>},
      {"x3ws_kc2_persist", launch_x3ws<4, 1, 2>},
      {"x3ws_kc4", launch_x3ws<4, 0, 4>},
  };
  cublasHandle_t h;
  cublasCreate(&h);
  int bad_all = 0;
  printf("x3_ws: N, variant, ms, TFLOP/s, of cuBLAS FP32, of cuBLAS TF32 / 3, check (2e-5 of sum|a||b|)\n");
  printf("| N | variant | ms | TFLOP/s | of cuBLAS FP32 | of cuBLAS TF32 / 3 | worst error | check |\n|---|---|---|---|---|---|---|---|\n");
  for (int N : Ns) {
    if (N % 128) { printf("N = %d: not a multiple of 128\n", N); continue; }
    size_t nn = (size_t)N * N;
    std::vector<float> ha(nn), hb(nn), hc(nn);
    srand(11 + N);
    for (auto &x : ha) x = rand() / (float)RAND_MAX * 2 - 1;
    for (auto &x : hb) x = rand() / (float)RAND_MAX * 2 - 1;
    float *a, *b, *c;
    CK(cudaMalloc(&a, nn * 4)); CK(cudaMalloc(&b, nn * 4)); CK(cudaMalloc(&c, nn * 4));
    CK(cudaMemcpy(a, ha.data(), nn * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, hb.data(), nn * 4, cudaMemcpyHostToDevice));
    const CUtensorMap tp = tmap_or_exit(a, N, N, N, 128, 32), tq = tmap_or_exit(b, N, N, N, 32, 32);
    const float one = 1, zero = 0;
    auto fp32 = [&]() {
      cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
      cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, b, N, a, N, &zero, c, N);
    };
    auto tf32 = [&]() {
      cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
      cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, b, N, a, N, &zero, c, N);
    };
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto time = [&](auto fn) {
      cudaEventRecord(e0); fn(); cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1); return ms;
    };
    const int nv = sizeof vs / sizeof vs[0];
    std::vector<int> ok(nv + 2, 1);
    std::vector<double> worst(nv + 2, 0);
    for (int v = 0; v < nv + 2; v++) {
      CK(cudaMemset(c, 0xff, nn * 4));
      if (v < nv) vs[v].f(tp, tq, a, b, c, N); else if (v == nv) fp32(); else tf32();
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("variant %d N=%d: %s\n", v, N, cudaGetErrorString(e)); return 2; }
      CK(cudaMemcpy(hc.data(), c, nn * 4, cudaMemcpyDeviceToHost));
      int wrong = 0;
      for (int s = 0; s < 4096; s++) {
        int i = (s * 7919) % N, j = (s * 104729 + s / 3) % N;
        double sum = 0, mag = 0;
        for (int k = 0; k < N; k++) { double x = (double)ha[(size_t)i * N + k] * hb[(size_t)k * N + j]; sum += x; mag += fabs(x); }
        double e2 = fabs(hc[(size_t)i * N + j] - sum) / mag;
        if (!(e2 <= 2e-5)) wrong++;
        if (e2 > worst[v] || e2 != e2) worst[v] = e2;
      }
      ok[v] = wrong == 0;
      if (v < nv) bad_all += wrong != 0;
    }
    const int R = N >= 8192 ? 9 : 25;
    std::vector<std::vector<float>> tm(nv + 2);
    for (int w = 0; w < 2; w++) { fp32(); tf32(); for (int v = 0; v < nv; v++) vs[v].f(tp, tq, a, b, c, N); }
    for (int rr = 0; rr < R; rr++) {
      tm[nv].push_back(time(fp32));
      tm[nv + 1].push_back(time(tf32));
      for (int v = 0; v < nv; v++) tm[v].push_back(time([&] { vs[v].f(tp, tq, a, b, c, N); }));
    }
    CK(cudaGetLastError());
    auto med = [](std::vector<float> x) { std::sort(x.begin(), x.end()); return x[x.size() / 2]; };
    const double t32 = med(tm[nv]), ttf = med(tm[nv + 1]), fl = 2.0 * N * N * (double)N;
    const char *names[2] = {"cublas_fp32", "cublas_tf32"};
    for (int v = 0; v < nv + 2; v++) {
      const double tv = med(tm[v]);
      printf("| %d | %s | %.3f | %.1f | %.3f | %.3f | %.2g | %s |\n", N, v < nv ? vs[v].name : names[v - nv], tv,
             fl / tv / 1e9, t32 / tv, ttf * 3 / tv, worst[v], ok[v] ? "ok" : "over 2e-5");
    }
    cudaFree(a); cudaFree(b); cudaFree(c);
  }
  return bad_all ? 1 : 0;
}
