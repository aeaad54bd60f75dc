// tf32_ws.cu: warp specialisation for the TF32 wgmma SGEMM (issue 53), against the
// samples' kernel (its hand-written twin, tf32_wgmma_variants.cu's bk32_s4_wg2_sw128_w1:
// every warp issues cp.async and runs wgmma) and cuBLAS TF32 in the same run, row-major
// C = A B, M x N x K, rows padded to 32 floats (the twin only at squares of multiples of 256).
//
// The warp-specialised kernel (k_ws): three warpgroups. Warpgroup 0 is the producer: one
// thread loads each 32-deep slice by the tensor copy engine (TMA) into a ring of STG
// stages, A's 256 x 32 tile (P, k-major, 128-byte swizzled: wgmma's B operand through a
// descriptor, as in the samples) and B's 32 x 128 tile (Q) as four 32 x 32 boxes, also
// 128-byte swizzled; a stage's "full" mbarrier counts the bytes in. Warpgroups 1 and 2
// are the consumers: each waits on "full", loads its Q fragments into registers, runs
// four m64n256k8 wgmmas, and once the slice before has finished (wgmma.wait_group 1)
// gives that slice's stage back on its "empty" mbarrier (one arrival a consumer warp).
// The producer gives up registers (setmaxnreg.dec), the consumers take them (.inc).
// Q's rows are permuted so that a warp's fragment loads from the swizzled boxes hit 32
// distinct banks: row (w, h, g) of a warpgroup's 64 is q = 32 (w / 2) + 4 ((g / 4) 4 +
// 2 (w % 2) + h) + g % 4 (its box, the 16-byte chunk, the float), and the stores map
// the accumulators back the same way. PERSIST: a grid of one block a multiprocessor
// walking the tiles (the producer runs on into the next tile while the consumers
// store), else one block a tile. The slices of k are taken two at a time (the
// fragments of one kept live while the other's wgmmas run), an even number: one past K
// is zeros, as any box past the matrix. TMA 0: the producer warpgroup's 128 threads copy
// by cp.async into the same layouts and arrive on "full" when their copies land
// (cp.async.mbarrier.arrive), as a sample could with its edge copies (cp_part).
//
// Every variant is checked on 4096 sampled elements against float64 (1e-2 of sum |a||b|,
// the TF32 bound of perf_tf32.pa), C poisoned before; then timed in alternating rounds,
// medians.
//   nvcc -O3 -gencode arch=compute_90a,code=sm_90a -std=c++17 -Xptxas -v bench/lab/tf32_ws.cu -lcublas -o ws && ./ws 4096 8192 8192x8192x128
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>
#include "../wgmma_ws.cuh"

// the tile of block (or work item) id: bands of 16 P-tiles for L2, as the twin's
__device__ __forceinline__ void tile_of(int id, int gp, int gq, int BP, int BQ, int &p0, int &q0) {
  const int band = id / (16 * gq), first = band * 16;
  const int rows = min(gp - first, 16), at = id % (16 * gq);
  p0 = (first + at % rows) * BP;
  q0 = (at / rows) * BQ;
}

// a product: C (M x N, leading dimension ldc) = A (M x K, lda) B (K x N, ldb), row-major
struct Shape { int M, N, K, lda, ldb, ldc; };

// ---- the samples' kernel (twin): BK 32, 4 stages, two warpgroups, sw128, one slice's wgmmas in flight
__global__ void __launch_bounds__(256, 1) k_base(const float *a, const float *b, float *c, int N) {
  constexpr int BK = 32, STG = 4, BP = 256, BQ = 128, NT = 256;
  constexpr int PSZ = BP * BK, QW = BQ + 8, QSZ = BK * QW;
  extern __shared__ __align__(1024) float smem[];
  float *ps = smem, *qs = smem + STG * PSZ;
  const int t = threadIdx.x, lane = t % 32, w = (t / 32) % 4, wg = t / 128;
  const int g = lane / 4, tt = lane % 4;
  int p0, q0;
  tile_of(blockIdx.x, N / BP, N / BQ, BP, BQ, p0, q0);
  constexpr int QP = BP * BK / 4 / NT, QQ = BQ * BK / 4 / NT;
  const float *pp[QP], *pq[QQ];
  int op[QP], oq[QQ];
#pragma unroll
  for (int i = 0; i < QP; i++) {
    const int ch = t + i * NT, p = ch / 8, kq = ch % 8;
    pp[i] = a + (size_t)(p0 + p) * N + kq * 4;
    op[i] = p * 32 + ((kq ^ (p % 8)) * 4);
  }
#pragma unroll
  for (int i = 0; i < QQ; i++) {
    const int ch = t + i * NT, q = (ch % (BQ / 4)) * 4, k = ch / (BQ / 4);
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
  constexpr int AHEAD = STG - 2;
#pragma unroll
  for (int s = 0; s < AHEAD; s++) {
    if (s < T) issue(s, s);
    cp_commit();
  }
  const unsigned pbase = smem_addr(ps);
  const int qrow = wg * 64 + w * 16 + g;
  unsigned fr0[4][4], fr1[4][4];
  auto slice = [&](int s, unsigned (&fr)[4][4], unsigned (&fo)[4][4]) {
    cp_wait<AHEAD - 1>();
    __syncthreads();
    const int ld = s + AHEAD, cur = s % STG;
    if (ld < T) issue(ld, ld % STG);
    cp_commit();
    const float *qc = qs + cur * QSZ;
#pragma unroll
    for (int kk = 0; kk < 4; kk++) {
      fr[kk][0] = __float_as_uint(qc[(kk * 8 + tt) * QW + qrow]);
      fr[kk][1] = __float_as_uint(qc[(kk * 8 + tt) * QW + qrow + 8]);
      fr[kk][2] = __float_as_uint(qc[(kk * 8 + tt + 4) * QW + qrow]);
      fr[kk][3] = __float_as_uint(qc[(kk * 8 + tt + 4) * QW + qrow + 8]);
    }
    wg_fence();
#pragma unroll
    for (int kk = 0; kk < 4; kk++)
      wgmma_n256(d, fr[kk], sw128_desc(pbase + (cur * PSZ + kk * 8) * 4, 1024));
    wg_commit();
    wg_wait<1>();
#pragma unroll
    for (int kk = 0; kk < 4; kk++) asm volatile("" ::"r"(fo[kk][0]), "r"(fo[kk][1]), "r"(fo[kk][2]), "r"(fo[kk][3]));
  };
#pragma unroll 1
  for (int s = 0; s < T; s += 2) {
    slice(s, fr0, fr1);
    slice(s + 1, fr1, fr0);
  }
  wg_wait<0>();
#pragma unroll
  for (int i = 0; i < 32; i++)
#pragma unroll
    for (int j = 0; j < 4; j++) {
      const int q = q0 + qrow + 8 * (j / 2), p = p0 + 8 * i + 2 * tt + j % 2;
      c[(size_t)p * N + q] = d[4 * i + j];
    }
}
static void launch_base(const CUtensorMap &, const CUtensorMap &, const float *a, const float *b, float *c, Shape sh) {
  const int N = sh.N;
  const int smem = (4 * 256 * 32 + 4 * 32 * 136) * 4;
  static bool once = false;
  if (!once) { CK(cudaFuncSetAttribute(k_base, cudaFuncAttributeMaxDynamicSharedMemorySize, smem)); once = true; }
  k_base<<<(N / 256) * (N / 128), 256, smem>>>(a, b, c, N);
}

// ---- warp-specialised: producer warpgroup (TMA) + two consumer warpgroups
template <int STG, int PERSIST, int PREG, int CREG, int TMA>
__global__ void __launch_bounds__(384, 1)
    k_ws(const __grid_constant__ CUtensorMap tp, const __grid_constant__ CUtensorMap tq, const float *a, const float *b,
         float *c, Shape sh) {
  constexpr int BK = 32, BP = 256, BQ = 128;
  constexpr int PSZ = BP * BK, QSZ = BK * BQ, STAGE_BYTES = (PSZ + QSZ) * 4;
  static_assert(!PREG || 128 * PREG + 256 * CREG <= 384 * 168, "setmaxnreg: more registers than the launch has");
  extern __shared__ unsigned char smem_raw[];
  float *ps = (float *)(((size_t)smem_raw + 1023) & ~(size_t)1023);  // swizzled tiles start on 1024 B
  float *qs = ps + STG * PSZ;
  unsigned long long *full = (unsigned long long *)(qs + STG * QSZ), *empty = full + STG;
  const int t = threadIdx.x, wg = t / 128;
  // any M, N, K: the copy engine fills a box past the matrix with zeros, the stores stop at the edge
  const int gp = (sh.M + BP - 1) / BP, gq = (sh.N + BQ - 1) / BQ, tiles = gp * gq;
  // slices of 32 k, an even number (the consumers take two at a time; one past K is zeros)
  const int T = (sh.K + 2 * BK - 1) / (2 * BK) * 2;
  const int first = blockIdx.x, step = PERSIST ? gridDim.x : tiles;
  if (t == 0) {
    for (int s = 0; s < STG; s++) {
      mbar_init(&full[s], TMA ? 1 : 128);  // TMA: the producer thread; else each producer thread
      mbar_init(&empty[s], 8);  // one arrival a consumer warp
    }
    fence_mbar_init();
  }
  __syncthreads();
  if (wg == 0) {
    if (PREG) regs_dec<PREG>();  // PREG 0: no setmaxnreg
    if (TMA && t == 0) {
      int it = 0;
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
    } else if (!TMA) {
      // all 128 producer threads copy by cp.async into the same swizzled layouts
      int it = 0;
      for (int id = first; id < tiles; id += step) {
        int p0, q0;
        tile_of(id, gp, gq, BP, BQ, p0, q0);
        for (int s = 0; s < T; s++, it++) {
          const int st = it % STG, use = it / STG;
          if (use > 0) mbar_wait(&empty[st], (use - 1) & 1);
          float *pst = ps + st * PSZ, *qst = qs + st * QSZ;
#pragma unroll 4
          for (int i = 0; i < 16; i++) {  // P: 256 rows x 8 chunks
            const int ch = t + 128 * i, p = ch / 8, kq = ch % 8;
            cp16(pst + p * 32 + ((kq ^ (p % 8)) * 4), a + (size_t)(p0 + p) * sh.lda + s * BK + kq * 4);
          }
#pragma unroll 4
          for (int i = 0; i < 8; i++) {  // Q: 32 k x 32 chunks, in four boxes of 8 chunks
            const int ch = t + 128 * i, k = ch / 32, qc = ch % 32;
            cp16(qst + (qc / 8) * 1024 + k * 32 + (((qc % 8) ^ (k % 8)) * 4), b + (size_t)(s * BK + k) * sh.ldb + q0 + qc * 4);
          }
          cp_arrive(&full[st]);
        }
      }
    }
  } else {
    if (PREG) regs_inc<CREG>();
    const int ct = t - 128, lane = ct % 32, w = (ct / 32) % 4, cw = ct / 128;
    const int g = lane / 4, tt = lane % 4;
    // this thread's two fragment rows (h = 0, 1) inside Q's boxes: box, then q in it
    const int box = 2 * cw + w / 2;
    const int qb0 = ((g / 4) * 4 + 2 * (w % 2)) * 4 + g % 4, qb1 = qb0 + 4;
    const unsigned pbase = smem_addr(ps);
    // float offset of (k, qb) in a 128-byte-swizzled 32 x 32 box
    auto qoff = [](int k, int qb) { return k * 32 + (((qb / 4) ^ (k % 8)) * 4) + qb % 4; };
    int it = 0;
    for (int id = first; id < tiles; id += step) {
      int p0, q0;
      tile_of(id, gp, gq, BP, BQ, p0, q0);
      float d[128];
#pragma unroll
      for (int i = 0; i < 128; i++) d[i] = 0.f;
      unsigned fr0[4][4], fr1[4][4];
      auto slice = [&](int s, unsigned (&fr)[4][4], unsigned (&fo)[4][4]) {
        const int st = it % STG;
        mbar_wait(&full[st], (it / STG) & 1);
        const float *qc = qs + st * QSZ + box * 1024;
#pragma unroll
        for (int kk = 0; kk < 4; kk++) {
          fr[kk][0] = __float_as_uint(qc[qoff(kk * 8 + tt, qb0)]);
          fr[kk][1] = __float_as_uint(qc[qoff(kk * 8 + tt, qb1)]);
          fr[kk][2] = __float_as_uint(qc[qoff(kk * 8 + tt + 4, qb0)]);
          fr[kk][3] = __float_as_uint(qc[qoff(kk * 8 + tt + 4, qb1)]);
        }
        wg_fence();
#pragma unroll
        for (int kk = 0; kk < 4; kk++)
          wgmma_n256(d, fr[kk], sw128_desc(pbase + (st * PSZ + kk * 8) * 4, 1024));
        wg_commit();
        wg_wait<1>();
#pragma unroll
        for (int kk = 0; kk < 4; kk++) asm volatile("" ::"r"(fo[kk][0]), "r"(fo[kk][1]), "r"(fo[kk][2]), "r"(fo[kk][3]));
        // the slice before this one has finished: its stage goes back to the producer
        if (s > 0 && lane == 0) mbar_arrive(&empty[(it + STG - 1) % STG]);
        it++;
      };
#pragma unroll 1
      for (int s = 0; s < T; s += 2) {
        slice(s, fr0, fr1);
        slice(s + 1, fr1, fr0);
      }
      wg_wait<0>();
      if (lane == 0) mbar_arrive(&empty[(it + STG - 1) % STG]);
      // accumulator register 4i + j: row m = 16 w + 8 (j / 2) + g, p = 8 i + 2 tt + j % 2
#pragma unroll
      for (int i = 0; i < 32; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) {
          const int q = q0 + box * 32 + (j / 2 ? qb1 : qb0), p = p0 + 8 * i + 2 * tt + j % 2;
          if (p < sh.M && q < sh.N) c[(size_t)p * sh.ldc + q] = d[4 * i + j];
        }
    }
  }
}
static int sm_count() {
  int dev, n;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev));
  return n;
}
// setmaxnreg.inc waits until the registers are free: the 384 x 168 of the launch must
// hold 128 PREG + 256 CREG, or the consumers wait for ever
template <int STG, int PERSIST, int PREG = 40, int CREG = 232, int TMA = 1>
static void launch_ws(const CUtensorMap &tp, const CUtensorMap &tq, const float *a, const float *b, float *c, Shape sh) {
  const int smem = STG * (256 * 32 + 32 * 128) * 4 + 1024 + 2 * STG * 8;
  static bool once = false;
  if (!once) { CK(cudaFuncSetAttribute(k_ws<STG, PERSIST, PREG, CREG, TMA>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem)); once = true; }
  const int tiles = ((sh.M + 255) / 256) * ((sh.N + 127) / 128);
  static const int sms = sm_count();
  k_ws<STG, PERSIST, PREG, CREG, TMA><<<PERSIST ? std::min(tiles, sms) : tiles, 384, smem>>>(tp, tq, a, b, c, sh);
}

typedef void (*fn_t)(const CUtensorMap &, const CUtensorMap &, const float *, const float *, float *, Shape);
// any: runs on any shape (TMA); else square, N a multiple of 256 (the twin), or M, N, K
// multiples of 256, 128, 64 (the cp.async producer, which has no edge code)
struct V { const char *name; fn_t f; int any; };

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);  // a hang keeps what was printed
  // shapes: N (a square) or MxNxK; the storage's rows padded to 32 floats (tight where
  // the sizes are multiples of 32), cuBLAS given the same
  std::vector<Shape> shapes;
  auto pad = [](int n) { return (n + 31) / 32 * 32; };
  for (int i = 1; i < argc; i++) {
    int m, n, k;
    if (sscanf(argv[i], "%dx%dx%d", &m, &n, &k) != 3) m = n = k = atoi(argv[i]);
    shapes.push_back({m, n, k, pad(k), pad(n), pad(n)});
  }
  if (shapes.empty()) shapes = {{4096, 4096, 4096, 4096, 4096, 4096}, {8192, 8192, 8192, 8192, 8192, 8192}};
  V vs[] = {
      {"base_twin", launch_base, 0},
      {"ws_s4", launch_ws<4, 0>, 1},
      {"ws_s4_persist", launch_ws<4, 1>, 1},
      {"ws_s3_persist", launch_ws<3, 1>, 1},
      {"ws_cpasync_s4", launch_ws<4, 0, 88, 208, 0>, 2},
  };
  cublasHandle_t h;
  cublasCreate(&h);
  cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
  int bad_all = 0;
  printf("tf32_ws: M x N x K (rows padded to 32 floats), variant, check, ms, TFLOP/s, ratio to cuBLAS TF32\n");
  printf("| M x N x K | variant | ms | TFLOP/s | of cuBLAS TF32 | check |\n|---|---|---|---|---|---|\n");
  for (const Shape sh : shapes) {
    const int M = sh.M, N = sh.N, K = sh.K;
    char name[64];
    snprintf(name, sizeof name, "%d x %d x %d", M, N, K);
    const size_t na = (size_t)M * sh.lda, nb = (size_t)K * sh.ldb, nc = (size_t)M * sh.ldc;
    std::vector<float> ha(na), hb(nb), hc(nc);
    srand(7 + M + N + K);
    for (auto &x : ha) x = rand() / (float)RAND_MAX * 2 - 1;
    for (auto &x : hb) x = rand() / (float)RAND_MAX * 2 - 1;
    float *a, *b, *c, *r;
    CK(cudaMalloc(&a, na * 4)); CK(cudaMalloc(&b, nb * 4)); CK(cudaMalloc(&c, nc * 4)); CK(cudaMalloc(&r, nc * 4));
    CK(cudaMemcpy(a, ha.data(), na * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, hb.data(), nb * 4, cudaMemcpyHostToDevice));
    // P = A (M x K, rows along k), boxes 256 p x 32 k; Q = B (K x N, [k][q]), boxes 32 k x 32 q
    const CUtensorMap tp = tmap_or_exit(a, M, K, sh.lda, 256, 32), tq = tmap_or_exit(b, K, N, sh.ldb, 32, 32);
    const float one = 1, zero = 0;
    // row-major C = A B is column-major C^T = B^T A^T
    auto blas = [&]() { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, b, sh.ldb, a, sh.lda, &zero, r, sh.ldc); };
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto time = [&](auto fn) {
      cudaEventRecord(e0); fn(); cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1); return ms;
    };
    const int nv = sizeof vs / sizeof vs[0];
    auto runs = [&](int v) {
      if (v == nv || vs[v].any == 1) return true;
      if (vs[v].any == 0) return M == N && N == K && N % 256 == 0;
      return M % 256 == 0 && N % 128 == 0 && K % 64 == 0;
    };
    std::vector<int> ok(nv + 1, 1);
    for (int v = 0; v <= nv; v++) {
      if (!runs(v)) continue;
      CK(cudaMemset(v < nv ? c : r, 0xff, nc * 4));
      if (v < nv) vs[v].f(tp, tq, a, b, c, sh); else blas();
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("%s %s: %s\n", v < nv ? vs[v].name : "cublas", name, cudaGetErrorString(e)); return 2; }
      CK(cudaMemcpy(hc.data(), v < nv ? c : r, nc * 4, cudaMemcpyDeviceToHost));
      int wrong = 0; double worst = 0;
      for (int s = 0; s < 4096; s++) {
        // the corners first (edges), then spread samples
        int i = s < 4 ? (s & 1) * (M - 1) : (int)(((long long)s * 7919) % M);
        int j = s < 4 ? (s >> 1) * (N - 1) : (int)(((long long)s * 104729 + s / 3) % N);
        double sum = 0, mag = 0;
        for (int k = 0; k < K; k++) { double x = (double)ha[(size_t)i * sh.lda + k] * hb[(size_t)k * sh.ldb + j]; sum += x; mag += fabs(x); }
        double e2 = fabs(hc[(size_t)i * sh.ldc + j] - sum) / mag;
        if (!(e2 <= 1e-2)) wrong++;
        if (e2 > worst || e2 != e2) worst = e2;
      }
      ok[v] = wrong == 0;
      bad_all += wrong != 0;
      if (wrong) printf("%s %s: WRONG at %d of 4096 samples (worst %.2g of sum|a||b|)\n", v < nv ? vs[v].name : "cublas_tf32", name, wrong, worst);
    }
    const double fl = 2.0 * M * N * (double)K;
    const int R = fl > 5e11 ? 15 : 41;
    std::vector<std::vector<float>> tm(nv + 1);
    for (int w = 0; w < 3; w++) { blas(); for (int v = 0; v < nv; v++) if (runs(v)) vs[v].f(tp, tq, a, b, c, sh); }
    for (int rr = 0; rr < R; rr++) {
      tm[nv].push_back(time(blas));
      for (int v = 0; v < nv; v++) if (runs(v)) tm[v].push_back(time([&] { vs[v].f(tp, tq, a, b, c, sh); }));
    }
    CK(cudaGetLastError());
    auto med = [](std::vector<float> x) { std::sort(x.begin(), x.end()); return x[x.size() / 2]; };
    double tb = med(tm[nv]);
    printf("| %s | cublas_tf32 | %.3f | %.1f | 1.000 | %s |\n", name, tb, fl / tb / 1e9, ok[nv] ? "ok" : "WRONG");
    for (int v = 0; v < nv; v++) {
      if (!runs(v)) continue;
      double tv = med(tm[v]);
      printf("| %s | %s | %.3f | %.1f | %.3f | %s |\n", name, vs[v].name, tv, fl / tv / 1e9, tb / tv, ok[v] ? "ok" : "WRONG");
    }
    cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(r);
  }
  return bad_all ? 1 : 0;
}
