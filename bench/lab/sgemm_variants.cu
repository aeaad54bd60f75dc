// sgemm_variants.cu: FP32 SGEMM kernel structures against cuBLAS (CUBLAS_PEDANTIC_MATH),
// one process, interleaved (issue 15 item 1: which structure reaches 1.00 of cuBLAS at
// N = 2048, 4096, 8192, row-major, with column-major within 3 %?).
//
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/lab/sgemm_variants.cu -lcublas -o sv && ./sv [N ...]
//   (or bench/lab/sgemm_variants.sh [OUTDIR]: the same, plus ptxas's report and loop summaries)
//
// N: 2048 4096 8192 (the default; each is a template instance, as k_fast's N is a
// compile-time constant). Square N x N, C = A B, A, B and C all in one layout: row-major,
// or column-major (cuBLAS's own case; row-major is cublasSgemm with A and B swapped).
// Inputs uniform in [-1, 1].
//
// Variants (the twin of samples/perf_sgemm.pa is bench/kernels.cuh's k_fast, included
// here unchanged, once per N; its SASS is the same as in bench.cu's build):
//   fast128      k_fast 128 x 128, 256 threads, 8 x 8 a thread, 16 deep, next tile staged
//                through registers into two shared buffers: the sample at N >= 2048.
//   fast64x128   k_fast, BM = 64, BN = 128 (128 threads, up to 4 blocks an SM).
//   fast128x64   k_fast, BM = 128, BN = 64.
//   fast128sw    k_fast 128 x 128, blocks visited in bands of 16 tile rows (down each
//                column of a band, as samples/perf_tf32.pa does) for L2 reuse: k_fast
//                with SW = 16 (kernels.cuh's block_tile).
//   async128     k_async: 128 x 128 x 16 tiles, 4-stage cp.async pipeline (no register
//                staging, one barrier a tile), 256 threads, 8 x 8 a thread, warps of
//                4 x 8 threads. The operand whose contiguous index is k (A in row-major,
//                B in column-major) is staged [m][k] (k contiguous, rows padded to 20) and a
//                thread reads its 8 rows (m = ty + 16 i) as float4s over 4 consecutive k:
//                8 LDS.128 every 4 k-steps, the other operand [k][n], 2 float4s a k-step.
//                The barrier sits before the last k-step of a tile, so that the next
//                tile's first fragments are read during it (XP = 1).
//   async128w    k_async, cuBLAS's register tile: 128 x 128 x 16, 128 threads, 8 x 16 a
//                thread (6 LDS.128 per 128 FFMA instead of 4 per 64), 4 stages, two
//                blocks an SM (255 registers): with cp.async no warp waits for a load.
//   async64x128  k_async 64 x 128 x 16, 128 threads, 8 x 8, 3 stages, 4 blocks an SM
//                (run 13 saw k_fast 64 x 128 at 0.99 of cuBLAS at N = 8192: barriers over
//                4 warps, not 8).
// Extras, compiled in, run only when SV_ONLY names them (SV_ONLY=all: every one):
//   async128s3   async128 with 3 stages and the barrier at the top of the tile (XP = 0):
//                the plain pipeline.
//   async128k32  async128, 32 deep, 3 stages (half the barriers).
//   async128k8   async128, 8 deep, 6 stages.
//   async128sw, async128wsw, fast64x128sw: with the banded block order (16 tile rows).
//   async128x256w  128 x 256 x 16, 256 threads, 8 x 16, 3 stages, one block an SM.
// In column-major, k_async is the same kernel with the roles of A and B exchanged (its
// body speaks of X, the k-contiguous operand, and Y, the other; C(x, y) is then C^T).
//
// Method: per N, cuBLAS and each variant are first checked (output poisoned with NaN,
// one call, every element against cuBLAS's result: |x - ref| <= 1e-5 N, that is about
// 4e-5 of sum |a||b| = N / 4; NaN fails). Then 3 warm-up calls each, then R rounds;
// each round times, for each layout, cuBLAS and every variant (odd rounds in the
// opposite order), each as REPS back-to-back calls between two CUDA events (REPS = 16 /
// 4 / 1 at N = 2048 / 4096 / 8192, so that a sample is 5 to 20 ms).
// Table: ms = median over the rounds of the time of one call; TFLOP/s from it; ratio to
// cuBLAS = median over the rounds of (cuBLAS's time in that layout and round / the
// variant's): above 1 is faster than cuBLAS; of row-major = the variant's row-major
// time / this layout's (the 3 % rule: >= 0.97); max err = largest |x - cuBLAS's|.
// A second table gives each kernel's threads, registers, static + dynamic shared memory,
// local memory and resident blocks per SM as the driver reports them. A variant that
// fails its check prints WRONG and the program exits 1 after the tables.
//   ./sv                  R = 30 rounds at every N (7 variants: about 25 s of GPU time)
//   SV_ROUNDS=R ./sv      other round counts
//   SV_ONLY=a,b ./sv      only these variants (names as in the table), or all
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>
#include <chrono>
#include <cublas_v2.h>

#define CK(x)                                                                          \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(2);                                                                         \
    }                                                                                  \
  } while (0)

/* ---------- k_fast, exactly as bench.cu builds it, once per N ---------- */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function" /* the header's other launchers */
namespace n2048 {
#define N 2048
#include "../kernels.cuh"
#undef N
#undef BENCH_KERNELS_CUH
} // namespace n2048
namespace n4096 {
#define N 4096
#include "../kernels.cuh"
#undef N
#undef BENCH_KERNELS_CUH
} // namespace n4096
namespace n8192 {
#define N 8192
#include "../kernels.cuh"
#undef N
#undef BENCH_KERNELS_CUH
} // namespace n8192
#undef FAST_TILE
#pragma GCC diagnostic pop
template <int N> struct KF; /* kernels.cuh's layouts at this N */
template <> struct KF<2048> { using Row = n2048::LayoutRow; using Col = n2048::LayoutCol; };
template <> struct KF<4096> { using Row = n4096::LayoutRow; using Col = n4096::LayoutCol; };
template <> struct KF<8192> { using Row = n8192::LayoutRow; using Col = n8192::LayoutCol; };
/* SW: k_fast's blocks in bands of SW tile rows (kernels.cuh's block_tile, which k_async
   below uses too) */
template <int N, class L, int BM, int BN, int SW>
static void launch_kfast(const float *a, const float *b, float *c) {
  if constexpr (N == 2048) n2048::launch_fast<L, 2, 1, 1, 128, 0, BM, BN, SW>(a, b, c);
  else if constexpr (N == 4096) n4096::launch_fast<L, 2, 1, 1, 128, 0, BM, BN, SW>(a, b, c);
  else n8192::launch_fast<L, 2, 1, 1, 128, 0, BM, BN, SW>(a, b, c);
}
template <int N, class L, int BM, int BN, int SW> static const void *kfast_fn() {
  if constexpr (N == 2048) return (const void *)n2048::k_fast<L, 2, 1, 1, 128, 0, BM, BN, SW>;
  else if constexpr (N == 4096) return (const void *)n4096::k_fast<L, 2, 1, 1, 128, 0, BM, BN, SW>;
  else return (const void *)n8192::k_fast<L, 2, 1, 1, 128, 0, BM, BN, SW>;
}
using n2048::block_tile; /* the same in each namespace: it does not use N */

/* ---------- layouts of the new kernels: N a template argument ---------- */
template <int N_> struct Row {
  static constexpr int N = N_;
  static constexpr bool CONTIG_J = true, CONTIG_I = false;
  static constexpr __host__ __device__ __forceinline__ int row(int i) { return i * N; }
  static constexpr __host__ __device__ __forceinline__ int col(int j) { return j; }
  static constexpr __host__ __device__ __forceinline__ int off(int i, int j) { return row(i) + col(j); }
};
template <int N_> struct Col {
  static constexpr int N = N_;
  static constexpr bool CONTIG_J = false, CONTIG_I = true;
  static constexpr __host__ __device__ __forceinline__ int row(int i) { return i; }
  static constexpr __host__ __device__ __forceinline__ int col(int j) { return j * N; }
  static constexpr __host__ __device__ __forceinline__ int off(int i, int j) { return row(i) + col(j); }
};

/* ---------- k_async: a cp.async pipeline, no register staging ---------- */
__device__ __forceinline__ void cp_async16(unsigned s, const float *gmem) { /* s: shared address */
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int K> __device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(K) : "memory");
}
__device__ __forceinline__ float part(const float4 &v, int q) {
  return q == 0 ? v.x : q == 1 ? v.y : q == 2 ? v.z : v.w;
}

/* Operands by their contiguous index: X is the one whose contiguous index is k (A in
 * row-major, B in column-major), Y the other (its contiguous index is its own m or n).
 * In the linear layouts X(x, k) is at x N + k, Y(k, y) at k N + y and C's element for
 * (x, y) at x N + y, in both layouts; the kernel takes those offsets from L all the same.
 * Block tile BX x BY of (x, y), BK deep. Threads: PX = BX / 8 along x, each with 8 values
 * x = px + PX i; PY = BY / TW along y, each with TW values in TW / 4 float4s,
 * y = 4 py + (BY / (TW / 4)) g + 0..3; warps of 4 (px) x 8 (py) threads, as k_fast's.
 * Shared, per stage: sX[BX][BK + 4] (k contiguous: the row stride 4 times odd puts the 4
 * rows a warp reads in 4 different groups of banks) and sY[BK][BY]. A thread reads 8
 * float4s of sX for 4 k-steps (row i's next one right after the last FFMA of row i that
 * uses it) and TW / 4 float4s of sY a k-step (one step ahead; ptxas in fact places each
 * shared load some 40 instructions before its first use). S stages, one barrier a tile:
 * tile kt + S - 1 is issued right after the barrier of tile kt (its stage was read in tile
 * kt - 1, before the barrier). The barrier opens tile kt (XP = 0) or comes before its
 * last k-step (XP = 1), so that tile kt + 1's first fragments are read during that step.
 * Only row- and column-major (the pointers advance by a constant a tile), N a multiple of
 * the tile. Every 16-byte chunk is one cp.async.cg (L2 only). */
template <class L, int BX, int BY, int BK, int S, int TW, int MINB, int XP, int SW = 0>
__global__ void __launch_bounds__(BX * BY / (8 * TW), MINB)
    k_async(const float *a, const float *b, float *c) {
  constexpr int N = L::N, T = BX * BY / (8 * TW), PX = BX / 8, PY = BY / TW, GY = TW / 4;
  constexpr int DY = BY / GY, WX = BK + 4, SXF = BX * WX, STF = SXF + BK * BY;
  constexpr int CX = BX * BK / 4 / T, CY = BY * BK / 4 / T; /* 16-byte chunks a thread copies */
  constexpr bool rowlike = L::CONTIG_J;
  static_assert(L::CONTIG_J != L::CONTIG_I, "k_async: row- or column-major only");
  static_assert(N % BX == 0 && N % BY == 0 && N % BK == 0, "k_async: N a multiple of the tile");
  static_assert(PX * PY == T && PY % 8 == 0 && PX % 4 == 0 && BK % 4 == 0 && S >= 2, "");
  static_assert(CX * T * 4 == BX * BK && CY * T * 4 == BY * BK, "k_async: whole chunks a thread");
  extern __shared__ __align__(16) float smem[];
  /* offsets through the layout: X(x, k), Y(k, y), C(x, y); a step of k moves X by DXK, Y by DYK */
  auto offx = [](int x, int k) { return rowlike ? L::off(x, k) : L::off(k, x); };
  auto offy = [](int k, int y) { return rowlike ? L::off(k, y) : L::off(y, k); };
  auto offc = [](int x, int y) { return rowlike ? L::off(x, y) : L::off(y, x); };
  constexpr int DXK = rowlike ? L::col(1) : L::row(1), DYK = rowlike ? L::row(1) : L::col(1);
  const float *X = rowlike ? a : b, *Y = rowlike ? b : a;
  const int t = threadIdx.x, lane = t % 32, w = t / 32;
  const int py = (w % (PY / 8)) * 8 + lane % 8, px = (w / (PY / 8)) * 4 + lane / 8;
  int bx, by; /* tile indices along x (grid's y) and y (grid's x) */
  block_tile<SW>(bx, by);
  const int x0 = bx * BX, y0 = by * BY;
  /* X's slice: thread t copies row t / 2 + (T / 2) r, k chunks t % 2 + 2 j (r < RX, j <
     JX): a warp's chunks fill whole 32-byte sectors in each instruction and a thread's
     chunks of a row lie 32 bytes apart (immediate offsets). Y's: row t / (BY / 4) +
     (T / (BY / 4)) q, columns (t % (BY / 4)) * 4: 512 contiguous bytes a warp. One
     pointer each, advanced a tile at a time */
  constexpr int JX = BK / 8, RX = CX / JX;
  static_assert(BK % 8 == 0 && RX * JX == CX && RX * (T / 2) * JX * 2 * 4 == BX * BK, "");
  const int xr = t / 2, xk = t % 2 * 4, yk = t / (BY / 4), yc = t % (BY / 4) * 4;
  const float *gx = X + offx(x0 + xr, xk), *gy = Y + offy(yk, y0 + yc);
  const unsigned s0 = (unsigned)__cvta_generic_to_shared(smem);
  const unsigned sx = s0 + (xr * WX + xk) * 4, sy = s0 + (SXF + yk * BY + yc) * 4;
  auto issue = [&](int so) { /* the tile at gx, gy into the stage at so floats; then on */
#pragma unroll
    for (int r = 0; r < RX; r++)
#pragma unroll
      for (int j = 0; j < JX; j++)
        cp_async16(sx + (so + r * (T / 2) * WX + 8 * j) * 4, gx + offx(r * (T / 2), 8 * j) - offx(0, 0));
#pragma unroll
    for (int q = 0; q < CY; q++)
      cp_async16(sy + (so + q * (T / (BY / 4)) * BY) * 4, gy + offy(q * (T / (BY / 4)), 0) - offy(0, 0));
    gx += BK * DXK, gy += BK * DYK;
  };
  constexpr int KT = N / BK;
#pragma unroll
  for (int s = 0; s < S - 1; s++) {
    if (s < KT) issue(s * STF);
    cp_async_commit();
  }
  float acc[8][TW];
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < TW; j++) acc[i][j] = 0;
  /* fx: row i's float4 of 4 k-steps; fy[u]: this k-step's (u = k & 1) and the next one's */
  float4 fx[8], fy[2][GY];
  const float *cx = smem + px * WX, *cy = smem + SXF + 4 * py; /* this thread's, in stage 0 */
  auto readx = [&](int so, int i, int k) { return *(const float4 *)(cx + so + i * PX * WX + k); };
  auto ready = [&](int so, int g, int k) { return *(const float4 *)(cy + so + k * BY + g * DY); };
  auto first = [&](int so) { /* the fragments of k = 0 */
#pragma unroll
    for (int i = 0; i < 8; i++) fx[i] = readx(so, i, 0);
#pragma unroll
    for (int g = 0; g < GY; g++) fy[0][g] = ready(so, g, 0);
  };
  /* XP = 0: wait, barrier, issue, first fragments at the top of each tile.
     XP = 1: the same before the last k-step of the tile, so that the next tile's first
     fragments are read during it (tile kt + 1 must have landed then: S - 3 groups may
     be pending, S >= 3) */
  static_assert(!XP || S >= 3, "k_async: XP needs 3 stages or more");
  /* stages as offsets in floats: the one read in this round, the next, the one written */
  auto next = [](int so) { return so == (S - 1) * STF ? 0 : so + STF; };
  int rs = 0, ws = (S - 1) * STF;
  if (XP) {
    cp_async_wait<S - 2>();
    __syncthreads();
    first(0);
  }
  for (int kt = 0; kt < KT; kt++) {
    if (!XP) {
      cp_async_wait<S - 2>(); /* this thread's part of tile kt has landed */
      __syncthreads();        /* everyone's has, and everyone is done with stage ws */
      if (kt + S - 1 < KT) issue(ws);
      cp_async_commit();
      first(rs);
    }
    const int nrs = next(rs);
#pragma unroll
    for (int k4 = 0; k4 < BK; k4 += 4)
#pragma unroll
      for (int kq = 0; kq < 4; kq++) {
        const int k = k4 + kq, u = k & 1;
        const bool last = k + 1 == BK;
        if (XP && last) {
          cp_async_wait<S - 3>(); /* tile kt + 1 has landed */
          __syncthreads();        /* everyone's, and stage ws (tile kt - 1's) is free */
          if (kt + S - 1 < KT) issue(ws);
          cp_async_commit();
        }
        if (!last)
#pragma unroll
          for (int g = 0; g < GY; g++) fy[u ^ 1][g] = ready(rs, g, k + 1);
        else if (XP)
#pragma unroll
          for (int g = 0; g < GY; g++) fy[u ^ 1][g] = ready(nrs, g, 0);
        float yv[TW];
#pragma unroll
        for (int g = 0; g < GY; g++) {
          yv[4 * g + 0] = fy[u][g].x, yv[4 * g + 1] = fy[u][g].y;
          yv[4 * g + 2] = fy[u][g].z, yv[4 * g + 3] = fy[u][g].w;
        }
#pragma unroll
        for (int i = 0; i < 8; i++) {
          const float xv = part(fx[i], kq);
#pragma unroll
          for (int jj = 0; jj < TW; jj++) {
            const int j = (i & 1) ? TW - 1 - jj : jj; /* serpentine: consecutive FFMAs share y */
            acc[i][j] += xv * yv[j];
          }
          /* row i's next float4, as soon as its last use is issued */
          if (kq == 3 && !last) fx[i] = readx(rs, i, k + 1);
          else if (kq == 3 && XP) fx[i] = readx(nrs, i, 0);
        }
      }
    rs = nrs;
    ws = next(ws);
  }
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int g = 0; g < GY; g++) {
      const int x = x0 + px + i * PX, y = y0 + 4 * py + g * DY;
      *(float4 *)(c + offc(x, y)) =
          make_float4(acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2], acc[i][4 * g + 3]);
    }
}
template <class L, int BX, int BY, int BK, int S, int TW, int MINB, int XP, int SW>
constexpr size_t async_smem() {
  return (size_t)S * (BX * (BK + 4) + BK * BY) * sizeof(float);
}
/* BM x BN of C: the tile along x is BM in row-major (x = m), BN in column-major (x = n) */
template <class L, int BM, int BN, int BK, int S, int TW, int MINB, int XP, int SW>
static void launch_async(const float *a, const float *b, float *c) {
  constexpr int N = L::N, BX = L::CONTIG_J ? BM : BN, BY = L::CONTIG_J ? BN : BM;
  auto k = k_async<L, BX, BY, BK, S, TW, MINB, XP, SW>;
  constexpr size_t smem = async_smem<L, BX, BY, BK, S, TW, MINB, XP, SW>();
  static bool ready = false;
  if (!ready) {
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,
                            cudaSharedmemCarveoutMaxShared));
    ready = true;
  }
  k<<<dim3(N / BY, N / BX), BX * BY / (8 * TW), smem>>>(a, b, c);
}
template <class L, int BM, int BN, int BK, int S, int TW, int MINB, int XP, int SW>
static const void *async_fn(size_t *smem) {
  constexpr int BX = L::CONTIG_J ? BM : BN, BY = L::CONTIG_J ? BN : BM;
  *smem = async_smem<L, BX, BY, BK, S, TW, MINB, XP, SW>();
  return (const void *)k_async<L, BX, BY, BK, S, TW, MINB, XP, SW>;
}

/* ---------- the harness ---------- */
using Launch = void (*)(const float *, const float *, float *);
struct Kernel {
  Launch launch;
  const void *fn; /* for the attributes table; null for cuBLAS */
  int threads;
  size_t dsmem;
};
struct Variant {
  const char *name;
  bool extra; /* not in the default set */
  Kernel k[2]; /* row-major, column-major */
};
static const char *const LAYOUT[2] = {"row", "col"};

static cublasHandle_t g_blas;
template <int N, bool COL> static void launch_cublas(const float *a, const float *b, float *c) {
  const float one = 1, zero = 0;
  /* column-major C = A B is cuBLAS's own case; row-major C = A B is column-major C^T = B^T A^T */
  cublasStatus_t s = COL ? cublasSgemm(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, a, N, b, N, &zero, c, N)
                         : cublasSgemm(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, b, N, a, N, &zero, c, N);
  if (s != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "cublasSgemm failed: %d\n", (int)s);
    exit(2);
  }
}

template <int N, int BM, int BN, int BK, int S, int TW, int MINB, int XP, int SW>
static Variant async_variant(const char *name, bool extra) {
  Variant v{name, extra, {}};
  size_t sr, sc;
  const void *fr = async_fn<Row<N>, BM, BN, BK, S, TW, MINB, XP, SW>(&sr);
  const void *fc = async_fn<Col<N>, BM, BN, BK, S, TW, MINB, XP, SW>(&sc);
  v.k[0] = {launch_async<Row<N>, BM, BN, BK, S, TW, MINB, XP, SW>, fr, BM * BN / (8 * TW), sr};
  v.k[1] = {launch_async<Col<N>, BM, BN, BK, S, TW, MINB, XP, SW>, fc, BM * BN / (8 * TW), sc};
  return v;
}
template <int N, int BM, int BN, int SW = 0> static Variant fast_variant(const char *name, bool extra = false) {
  using KR = typename KF<N>::Row;
  using KC = typename KF<N>::Col;
  return {name,
          extra,
          {{launch_kfast<N, KR, BM, BN, SW>, kfast_fn<N, KR, BM, BN, SW>(), BM * BN / 64, 0},
           {launch_kfast<N, KC, BM, BN, SW>, kfast_fn<N, KC, BM, BN, SW>(), BM * BN / 64, 0}}};
}
/* the first is the reference; extras run only when SV_ONLY names them */
template <int N> static std::vector<Variant> variants() {
  return {
      {"cublas", false, {{launch_cublas<N, false>, nullptr, 0, 0}, {launch_cublas<N, true>, nullptr, 0, 0}}},
      fast_variant<N, 128, 128>("fast128"),
      fast_variant<N, 64, 128>("fast64x128"),
      fast_variant<N, 128, 64>("fast128x64"),
      fast_variant<N, 128, 128, 16>("fast128sw"),
      /*                BM,  BN, BK, S, TW, MINB, XP, SW */
      async_variant<N, 128, 128, 16, 4, 8, 2, 1, 0>("async128", false),
      async_variant<N, 128, 128, 16, 4, 16, 2, 1, 0>("async128w", false),
      async_variant<N, 64, 128, 16, 3, 8, 4, 1, 0>("async64x128", false),
      async_variant<N, 128, 128, 16, 3, 8, 2, 0, 0>("async128s3", true),
      async_variant<N, 128, 128, 32, 3, 8, 2, 1, 0>("async128k32", true),
      async_variant<N, 128, 128, 16, 4, 8, 2, 1, 16>("async128sw", true),
      async_variant<N, 128, 128, 16, 4, 16, 2, 1, 16>("async128wsw", true),
      fast_variant<N, 64, 128, 16>("fast64x128sw", true),
      async_variant<N, 128, 256, 16, 3, 16, 1, 1, 0>("async128x256w", true),
      async_variant<N, 128, 128, 8, 6, 8, 2, 1, 0>("async128k8", true),
  };
}

static __device__ unsigned hash32(unsigned x) {
  x ^= x >> 16, x *= 0x7feb352dU, x ^= x >> 15, x *= 0x846ca68bU, x ^= x >> 16;
  return x;
}
__global__ void k_fill(float *x, size_t n, unsigned seed) { /* uniform in [-1, 1) */
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    x[i] = (float)(hash32((unsigned)i * 2654435761u ^ hash32(seed)) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}
/* elements outside |x - ref| <= tol (NaN included) and the largest |x - ref| (as bits:
   non-negative floats order as their bits) */
__global__ void k_check(const float *x, const float *ref, size_t n, float tol, unsigned long long *bad,
                        unsigned *maxerr) {
  unsigned long long mine = 0;
  float worst = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const float d = fabsf(x[i] - ref[i]);
    if (!(d <= tol)) mine++;
    if (d > worst) worst = d;
  }
  if (mine) atomicAdd(bad, mine);
  atomicMax(maxerr, __float_as_uint(worst));
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* SV_ONLY: comma-separated variant names, or "all"; unset: the default set. cuBLAS always */
static bool selected(const Variant &v) {
  const char *only = getenv("SV_ONLY");
  if (!strcmp(v.name, "cublas")) return true;
  if (!only) return !v.extra;
  if (!strcmp(only, "all")) return true;
  const std::string list = std::string(",") + only + ",", name = std::string(",") + v.name + ",";
  return list.find(name) != std::string::npos;
}

struct Row_ {
  std::string name;
  int layout, n;
  double ms, ratio, err;
  long long bad;
};

/* check and time every variant at this N; appends to rows, returns the count of wrong ones */
template <int N> static int run_n(int rounds, std::vector<Row_> &rows, FILE *attr) {
  std::vector<Variant> all = variants<N>(), vs;
  for (const Variant &v : all)
    if (selected(v)) vs.push_back(v);
  const size_t n2 = (size_t)N * N, bytes = n2 * sizeof(float);
  float *a, *b, *c, *ref[2];
  unsigned long long *d_bad;
  unsigned *d_max;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMalloc(&c, bytes));
  CK(cudaMalloc(&ref[0], bytes));
  CK(cudaMalloc(&ref[1], bytes));
  CK(cudaMalloc(&d_bad, sizeof *d_bad));
  CK(cudaMalloc(&d_max, sizeof *d_max));
  k_fill<<<1024, 256>>>(a, n2, 2u * N + 1);
  k_fill<<<1024, 256>>>(b, n2, 2u * N + 2);
  CK(cudaGetLastError());
  for (int l = 0; l < 2; l++) vs[0].k[l].launch(a, b, ref[l]);
  CK(cudaDeviceSynchronize());
  const float tol = 1e-5f * N;
  const int nv = (int)vs.size();
  std::vector<long long> bad(2 * nv);
  std::vector<double> err(2 * nv);
  for (int v = 0; v < nv; v++)
    for (int l = 0; l < 2; l++) {
      CK(cudaMemset(c, 0xff, bytes)); /* NaN */
      vs[v].k[l].launch(a, b, c);
      CK(cudaGetLastError());
      CK(cudaMemset(d_bad, 0, sizeof *d_bad));
      CK(cudaMemset(d_max, 0, sizeof *d_max));
      k_check<<<1024, 256>>>(c, ref[l], n2, tol, d_bad, d_max);
      unsigned long long hb;
      unsigned hm;
      CK(cudaMemcpy(&hb, d_bad, sizeof hb, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(&hm, d_max, sizeof hm, cudaMemcpyDeviceToHost));
      float fm;
      memcpy(&fm, &hm, sizeof fm);
      bad[v * 2 + l] = (long long)hb, err[v * 2 + l] = fm;
      printf("checked N = %d %s %s: max err %.1e%s\n", N, vs[v].name, LAYOUT[l], fm, hb ? " WRONG" : "");
      fflush(stdout);
      if (attr && vs[v].k[l].fn) {
        cudaFuncAttributes fa;
        int blocks = 0;
        CK(cudaFuncGetAttributes(&fa, vs[v].k[l].fn));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, vs[v].k[l].fn, vs[v].k[l].threads,
                                                         vs[v].k[l].dsmem));
        fprintf(attr, "| %s | %s | %d | %d | %d | %zu + %zu | %zu | %d |\n", vs[v].name, LAYOUT[l], N,
                vs[v].k[l].threads, fa.numRegs, fa.sharedSizeBytes, vs[v].k[l].dsmem, fa.localSizeBytes,
                blocks);
      }
    }
  /* warm-up, then the rounds */
  const int reps = N <= 2048 ? 16 : N <= 4096 ? 4 : 1;
  for (int w = 0; w < 3; w++)
    for (int l = 0; l < 2; l++)
      for (int v = 0; v < nv; v++) vs[v].k[l].launch(a, b, c);
  CK(cudaDeviceSynchronize());
  std::vector<cudaEvent_t> ev(2 * nv * 2);
  for (cudaEvent_t &e : ev) CK(cudaEventCreate(&e));
  std::vector<std::vector<double>> t(2 * nv), ratio(2 * nv);
  for (int r = 0; r < rounds; r++) {
    /* odd rounds run backwards, so that no variant always follows the same one */
    for (int q = 0; q < 2 * nv; q++) {
      const int i = r % 2 ? 2 * nv - 1 - q : q, v = i / 2, l = i % 2;
      CK(cudaEventRecord(ev[2 * i]));
      for (int rep = 0; rep < reps; rep++) vs[v].k[l].launch(a, b, c);
      CK(cudaEventRecord(ev[2 * i + 1]));
    }
    CK(cudaDeviceSynchronize());
    CK(cudaGetLastError());
    for (int i = 0; i < 2 * nv; i++) {
      float ms;
      CK(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
      t[i].push_back(ms / reps);
    }
    for (int i = 0; i < 2 * nv; i++) ratio[i].push_back(t[i % 2].back() / t[i].back());
  }
  int wrong = 0;
  for (int l = 0; l < 2; l++)
    for (int v = 0; v < nv; v++) {
      const int i = v * 2 + l;
      rows.push_back({vs[v].name, l, N, median(t[i]), median(ratio[i]), err[i], bad[i]});
      wrong += bad[i] != 0;
    }
  for (cudaEvent_t &e : ev) CK(cudaEventDestroy(e));
  cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(ref[0]), cudaFree(ref[1]), cudaFree(d_bad), cudaFree(d_max);
  return wrong;
}

int main(int argc, char **argv) {
  std::vector<int> ns;
  for (int i = 1; i < argc; i++) ns.push_back(atoi(argv[i]));
  if (ns.empty()) ns = {2048, 4096, 8192};
  const int rounds = getenv("SV_ROUNDS") ? std::max(1, atoi(getenv("SV_ROUNDS"))) : 30;
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  printf("%s, %d SMs; R = %d rounds\n", p.name, p.multiProcessorCount, rounds);
  if (cublasCreate(&g_blas) != CUBLAS_STATUS_SUCCESS ||
      cublasSetMathMode(g_blas, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "cuBLAS setup failed\n");
    return 2;
  }
  std::vector<Row_> rows;
  int wrong = 0;
  char *abuf = nullptr;
  size_t alen = 0;
  FILE *attr = open_memstream(&abuf, &alen);
  for (int n : ns) {
    const auto t0 = std::chrono::steady_clock::now();
    if (n == 2048) wrong += run_n<2048>(rounds, rows, attr);
    else if (n == 4096) wrong += run_n<4096>(rounds, rows, attr);
    else if (n == 8192) wrong += run_n<8192>(rounds, rows, attr);
    else fprintf(stderr, "N = %d not built (2048, 4096, 8192)\n", n);
    printf("N = %d: %.1f s\n", n, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    fflush(stdout);
  }
  fclose(attr);
  printf("\n| variant | layout | N | ms | TFLOP/s | ratio to cuBLAS | of row-major | max err | check |\n"
         "|---|---|---|---|---|---|---|---|---|\n");
  for (const Row_ &r : rows) {
    double of_row = 1; /* the same variant's row-major time over this one's */
    for (const Row_ &o : rows)
      if (o.name == r.name && o.n == r.n && o.layout == 0) of_row = o.ms / r.ms;
    printf("| %s | %s | %d | %.4f | %.2f | %.3f | %.3f | %.1e | %s |\n", r.name.c_str(), LAYOUT[r.layout], r.n,
           r.ms, 2.0 * r.n * r.n * (double)r.n / (r.ms * 1e-3) / 1e12, r.ratio, of_row, r.err,
           r.bad ? "WRONG" : "ok");
  }
  printf("\n| variant | layout | N | threads | registers | smem static + dynamic | local bytes | blocks/SM |\n"
         "|---|---|---|---|---|---|---|---|\n%s",
         abuf ? abuf : "");
  free(abuf);
  cublasDestroy(g_blas);
  if (wrong) printf("\n%d variant(s) WRONG\n", wrong);
  return wrong != 0;
}
