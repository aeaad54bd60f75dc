/* kernels.cuh: the hand-written CUDA C side of the benchmark.
 * Every kernel here is the twin of a Parray sample (same algorithm, written the way a
 * CUDA programmer would write it by hand), so that the generated code can be compared
 * with it. N is a compile-time constant, as it is in the samples (bench.cu is built
 * once per N). Matrices are N x N floats. */
#ifndef BENCH_KERNELS_CUH
#define BENCH_KERNELS_CUH

#ifndef N
#error "build with -DN=<matrix order>"
#endif

/* ---------- layouts: the offset functions of the paper's matrix types ----------
 * Each is the offset of logical element (i, j) of an N x N matrix; all have span N*N.
 * row: [N][N]; col: [#X_1][#X_0] over [N][N]; fig18a: [#A_1][[#A_0][#A_2]] over
 * [4][N][N/4] (four column strips); fig18b: [[#A_0][#A_2]][[#A_1][#A_3]] over
 * [2][2][N/2][N/2] (2 x 2 blocks). CONTIG_J / CONTIG_I say whether 4 consecutive
 * elements along j (or i) starting at a multiple of 4 are adjacent in memory: the
 * hand-written analogue of Parray's $cnt$. */
struct LayoutRow {
  static constexpr bool CONTIG_J = true, CONTIG_I = false;
  static constexpr __host__ __device__ __forceinline__ int row(int i) { return i * N; }
  static constexpr __host__ __device__ __forceinline__ int col(int j) { return j; }
  static constexpr __host__ __device__ __forceinline__ int off(int i, int j) { return row(i) + col(j); }
};
struct LayoutCol {
  static constexpr bool CONTIG_J = false, CONTIG_I = true;
  static constexpr __host__ __device__ __forceinline__ int row(int i) { return i; }
  static constexpr __host__ __device__ __forceinline__ int col(int j) { return j * N; }
  static constexpr __host__ __device__ __forceinline__ int off(int i, int j) { return row(i) + col(j); }
};
struct Layout18a {
  static constexpr bool CONTIG_J = true, CONTIG_I = false;
  static constexpr __host__ __device__ __forceinline__ int row(int i) { return i * (N / 4); }
  static constexpr __host__ __device__ __forceinline__ int col(int j) {
    return (j / (N / 4)) * (N * (N / 4)) + j % (N / 4);
  }
  static constexpr __host__ __device__ __forceinline__ int off(int i, int j) { return row(i) + col(j); }
};
struct Layout18b {
  static constexpr bool CONTIG_J = true, CONTIG_I = false;
  static constexpr __host__ __device__ __forceinline__ int row(int i) {
    return (i / (N / 2)) * (2 * (N / 2) * (N / 2)) + (i % (N / 2)) * (N / 2);
  }
  static constexpr __host__ __device__ __forceinline__ int col(int j) {
    return (j / (N / 2)) * ((N / 2) * (N / 2)) + j % (N / 2);
  }
  static constexpr __host__ __device__ __forceinline__ int off(int i, int j) { return row(i) + col(j); }
};

/* write a thread's TM x TN results: (TM/4) x (TN/4) sub-tiles of 4 x 4 whose first
 * elements are (i0 + si * SM, j0 + sj * SN), as float4 along the contiguous index;
 * CLIP: only those inside the matrix (N not a multiple of the tile) */
template <class L, int TM, int TN, int SM, int SN, bool CLIP = false>
__device__ __forceinline__ void store_results(float *c, const float (&acc)[TM][TN], int i0, int j0) {
#pragma unroll
  for (int si = 0; si < TM / 4; si++)
#pragma unroll
    for (int sj = 0; sj < TN / 4; sj++) {
      const int i = i0 + si * SM, j = j0 + sj * SN;
      if (CLIP && (i >= N || j >= N)) continue; /* N % 4 == 0: all four inside or none */
#pragma unroll
      for (int q = 0; q < 4; q++) {
        if (L::CONTIG_J)
          *(float4 *)(c + L::off(i + q, j)) =
              make_float4(acc[si * 4 + q][sj * 4 + 0], acc[si * 4 + q][sj * 4 + 1],
                          acc[si * 4 + q][sj * 4 + 2], acc[si * 4 + q][sj * 4 + 3]);
        else if (L::CONTIG_I)
          *(float4 *)(c + L::off(i, j + q)) =
              make_float4(acc[si * 4 + 0][sj * 4 + q], acc[si * 4 + 1][sj * 4 + q],
                          acc[si * 4 + 2][sj * 4 + q], acc[si * 4 + 3][sj * 4 + q]);
        else
#pragma unroll
          for (int x = 0; x < 4; x++) c[L::off(i + q, j + x)] = acc[si * 4 + q][sj * 4 + x];
      }
    }
}

/* ---------- Fig 13: one thread per element of C ----------
 * The paper's thread array is [N][N] (grid N, block N); a block of N > 1024 threads does
 * not exist, so rows are the grid's y and each row is cut into blocks of 256 threads. */
__global__ void __launch_bounds__(256) k_fig13(const float *a, const float *b, float *c) {
  int i = blockIdx.y, j = blockIdx.x * 256 + threadIdx.x;
  const float *pa = a + i * N;
  const float *pb = b + j;
  float cv = 0;
  for (int k = 0; k < N; k++) cv += pa[k] * pb[k * N];
  c[i * N + j] = cv;
}
static void launch_fig13(const float *a, const float *b, float *c) {
  k_fig13<<<dim3(N / 256, N), 256>>>(a, b, c);
}

/* ---------- Fig 21, translated to CUDA C line by line ----------
 * Block tile 16 x 256 of C, 128 threads (4 x 32), each thread 16 x 2 results in
 * registers; a 16 x 32 slice of A goes to shared memory transposed (s[k][m], rows
 * padded to 17), 4 floats per thread; B is streamed from global memory as float2. */
__global__ void __launch_bounds__(128) k_fig21(const float *a, const float *b, float *c) {
  __shared__ float s[32 * 17];
  float r[16 * 2];
  int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 32 + tx;
#pragma unroll
  for (int i = 0; i < 32; i++) r[i] = 0;
  a += (blockIdx.y * 16 + ty) * N + tx;
  b += blockIdx.x * 256 + 2 * tid;
  c += (blockIdx.y * 16) * N + blockIdx.x * 256 + 2 * tid;
  for (int i = 0; i < N / 32; i++) {
#pragma unroll
    for (int q = 0; q < 4; q++) s[tx * 17 + ty + 4 * q] = a[i * 32 + 4 * q * N];
    __syncthreads();
    for (int m = 0; m < 32; m++) {
      float2 b2 = *(const float2 *)(b + (i * 32 + m) * N);
#pragma unroll
      for (int j = 0; j < 16; j++) {
        r[j * 2 + 0] += b2.x * s[m * 17 + j];
        r[j * 2 + 1] += b2.y * s[m * 17 + j];
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int j = 0; j < 16; j++) {
    c[j * N + 0] = r[j * 2 + 0];
    c[j * N + 1] = r[j * 2 + 1];
  }
}
static void launch_fig21(const float *a, const float *b, float *c) {
  k_fig21<<<dim3(N / 256, N / 16), dim3(32, 4)>>>(a, b, c);
}

/* the block's tile (row my, column nx of the grid of tiles): blocks are numbered
   x fastest and start roughly in that order, so with SW > 0 consecutive blocks go down
   a column of a band of SW tile rows, and those resident together share A's and B's
   slices in L2 (sgemm_variants.cu measures it); SW = 0: row blockIdx.y, column
   blockIdx.x, k_fast as bench.cu runs it */
template <int SW> __device__ __forceinline__ void block_tile(int &my, int &nx) {
  if constexpr (SW == 0) {
    my = blockIdx.y, nx = blockIdx.x;
  } else {
    const int gx = gridDim.x, gy = gridDim.y;
    const int bid = blockIdx.y * gx + blockIdx.x, first = bid / (SW * gx) * SW;
    const int rows = min(gy - first, SW), at = bid % (SW * gx);
    my = first + at % rows, nx = at / rows;
  }
}

/* ---------- the fast SGEMM (the algorithm of samples/perf_sgemm.pa) ----------
 * BM x BN tiles of C (128 x 128 or 64 x 64: FAST_TILE below picks one per N, as the
 * sample does), BM * BN / 64 threads in warps of 4 x 8 (WL = 1; 0: 2 x 16, 128 x 128
 * only), each 8 x 8 results kept as 2 x 2 sub-tiles of 4 x 4 spread BM/2 rows and BN/2
 * columns apart, so that its reads of shared memory are float4 and a warp's touch
 * 64 + 128 bytes. Both tiles sit in shared memory k-major (as[k][m], bs[k][n]), 8 * H
 * deep, in two buffers, A's rows padded by 4 floats, B's by WB - 128 (0, as in the
 * sample). The next tile is staged through registers (QA + QB float4s a thread: one
 * each at 128 x 128), one 8-deep slice at a time: slice h of the next tile is read at
 * the start of slice h of the current one and stored to the other buffer at its end
 * (one barrier per tile). Global reads are float4 along whichever index is contiguous in
 * the layout (the analogue of Parray's $cnt$), so every layout reads whole sectors. The
 * fragments of step k + 1 are read from shared memory before step k's FMAs, across the
 * slices of a tile; the FMAs of odd rows run right to left (ZZ), so that consecutive
 * FMAs share an operand.
 * Global addressing: the offset of the next slice is split into a per-thread part fixed
 * for the whole loop (the row of the tile, the thread's place inside the slice) and a
 * part that depends on the slice only, the same for the whole block (ptxas keeps it in
 * uniform registers): col(k0 + k) = col(k0) + col(k) for k < 8, which holds wherever
 * 8-deep slices do not straddle a block of the layout (all four layouts here). Only the
 * read of the next slice is conditional, and only where A's slices are evenly spaced
 * (elsewhere the last round reads its own tile again); the last tile's stores write a
 * buffer nobody reads (step 20 of doc/performance.md: with the store conditional too,
 * nvcc moved the reads down to the stores).
 * N need not be a multiple of the tile (step 22): the last row (column) of tiles reads
 * row N - 4 (column N - 4) where it runs past the matrix, which costs nothing in the
 * loop, and stores only what lies inside. N must be a multiple of 8 * H (k is not
 * clipped) and of 4 (float4s), and of 32 for Layout18a (its strips of N / 4 columns hold
 * whole 8-deep slices). The knobs are step 21's experiments, BM and BN step 22's. */
template <class L, int H = 2, int WL = 1, int ZZ = 1, int WB = 128, int SP = 0, int BM = 128,
          int BN = 128, int SW = 0>
__global__ void __launch_bounds__(BM * BN / 64, 2) k_fast(const float *a, const float *b, float *c) {
  constexpr int BK = 8 * H, WA = BM + 4, WBR = BN + WB - 128, T = BM * BN / 64;
  constexpr int QA = 128 / BN, QB = 128 / BM; /* float4s of a slice a thread moves */
  static_assert(N % BK == 0 && N % 4 == 0, "k is not clipped: N must be a multiple of 8 H");
  static_assert((BM == 128 || BM == 64) && (BN == 128 || BN == 64) && (WL || T == 256), "");
  __shared__ __align__(16) float as[2][BK * WA];
  __shared__ __align__(16) float bs[2][BK * WBR];
  const int t = threadIdx.x;
  const int ty = WL ? (t / (BN / 2)) * 4 + (t % 32) / 8 : t / 16;
  const int tx = WL ? ((t / 32) % (BN / 64)) * 8 + t % 8 : t % 16;
  int my, nx;
  block_tile<SW>(my, nx);
  const int m0 = my * BM, n0 = nx * BN;
  constexpr bool rowlike = L::CONTIG_J || !L::CONTIG_I;
  /* SP (H = 2, 128 x 128): slice h of the transposed matrix is its rows (columns) 64 h to
     64 h + 63, all 16 k, instead of k 8 h to 8 h + 7: 64 contiguous bytes a row */
  constexpr bool sp = SP && H == 2 && QA == 1 && QB == 1;
  /* float4 q of each slice: (am + q dam, ak + q dak) of A's, (bk + q dbk, bn + q dbn) of B's */
  const int am = rowlike ? (sp ? t / 4 : t / 2) : (t % (BM / 4)) * 4;
  const int ak = rowlike ? (sp ? (t % 4) * 4 : (t % 2) * 4) : t / (BM / 4);
  const int bn = rowlike ? (t % (BN / 4)) * 4 : (sp ? t / 4 : t / 2);
  const int bk = rowlike ? t / (BN / 4) : (sp ? (t % 4) * 4 : (t % 2) * 4);
  constexpr int dam = rowlike ? T / 2 : 0, dak = rowlike ? 0 : BN / 16;
  constexpr int dbn = rowlike ? 0 : T / 2, dbk = rowlike ? BM / 16 : 0;
  /* where slice 1 starts in the tile: 64 rows (columns) down or 8 k further */
  const int ham = sp && rowlike ? 64 : 0, hak = sp && rowlike ? 0 : 8;
  const int hbn = sp && !rowlike ? 64 : 0, hbk = sp && !rowlike ? 0 : 8;
  /* past the last row (column) of the matrix: read row (column) N - 4 instead */
  constexpr bool clip = N % BM != 0 || N % BN != 0;
  auto inside = [](int i) { return clip && i >= N ? N - 4 : i; };
  const float *pa[QA], *pb[QB];
#pragma unroll
  for (int q = 0; q < QA; q++)
    pa[q] = a + L::row(inside(m0 + am + q * dam)) + L::col(ak + q * dak);
#pragma unroll
  for (int q = 0; q < QB; q++)
    pb[q] = b + L::col(inside(n0 + bn + q * dbn)) + L::row(bk + q * dbk);
  const int da = L::row(inside(m0 + am + ham)) - L::row(inside(m0 + am)) + L::col(hak);
  const int db = L::col(inside(n0 + bn + hbn)) - L::col(inside(n0 + bn)) + L::row(hbk);
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) acc[i][j] = 0;
  float4 va[QA], vb[QB];
  auto load = [&](int k, int h) { /* slice h of the tile starting at k */
#pragma unroll
    for (int q = 0; q < QA; q++)
      va[q] = *(const float4 *)(pa[q] + (sp ? L::col(k) + h * da : L::col(k + 8 * h)));
#pragma unroll
    for (int q = 0; q < QB; q++)
      vb[q] = *(const float4 *)(pb[q] + (sp ? L::row(k) + h * db : L::row(k + 8 * h)));
  };
  auto store = [&](float *sa, float *sb, int h) { /* that slice, into tile buffers sa / sb */
    sa += h * (hak * WA + ham);
    sb += h * (hbk * WBR + hbn);
#pragma unroll
    for (int q = 0; q < QA; q++) {
      const int m = am + q * dam, k = ak + q * dak;
      if (rowlike) {
        sa[(k + 0) * WA + m] = va[q].x; sa[(k + 1) * WA + m] = va[q].y;
        sa[(k + 2) * WA + m] = va[q].z; sa[(k + 3) * WA + m] = va[q].w;
      } else {
        *(float4 *)(sa + k * WA + m) = va[q];
      }
    }
#pragma unroll
    for (int q = 0; q < QB; q++) {
      const int n = bn + q * dbn, k = bk + q * dbk;
      if (rowlike) {
        *(float4 *)(sb + k * WBR + n) = vb[q];
      } else {
        sb[(k + 0) * WBR + n] = vb[q].x; sb[(k + 1) * WBR + n] = vb[q].y;
        sb[(k + 2) * WBR + n] = vb[q].z; sb[(k + 3) * WBR + n] = vb[q].w;
      }
    }
  };
#pragma unroll
  for (int h = 0; h < H; h++) {
    load(0, h);
    store(as[0], bs[0], h);
  }
  __syncthreads();
  /* A's slices evenly spaced? (not in Fig 18a and 18b, whose k crosses blocks) */
  constexpr bool even = L::col(N - 8) == (N / 8 - 1) * L::col(8);
  int cur = 0;
  for (int k0 = 0; k0 < N; k0 += BK) {
    const bool more = k0 + BK < N;
    /* the next tile; where A's slices are not evenly spaced, the last round reads this
       tile again (unused) instead of branching: with the branch, the offsets' divisions
       went into it and ptxas moved the reads down to the stores (step 22) */
    const int kn = more || even ? k0 + BK : k0;
    const float *A = as[cur], *B = bs[cur];
    float4 fa[2][2], fb[2][2];
    auto fragments = [&](int k, int u) {
      fa[u][0] = *(const float4 *)(A + k * WA + ty * 4);
      fa[u][1] = *(const float4 *)(A + k * WA + BM / 2 + ty * 4);
      fb[u][0] = *(const float4 *)(B + k * WBR + tx * 4);
      fb[u][1] = *(const float4 *)(B + k * WBR + BN / 2 + tx * 4);
    };
    fragments(0, 0);
#pragma unroll
    for (int h = 0; h < H; h++) {
      if (more || !even) load(kn, h);
#pragma unroll
      for (int k = h * 8; k < h * 8 + 8; k++) {
        const int u = k & 1;
        if (k + 1 < BK) fragments(k + 1, u ^ 1);
        const float av[8] = {fa[u][0].x, fa[u][0].y, fa[u][0].z, fa[u][0].w,
                             fa[u][1].x, fa[u][1].y, fa[u][1].z, fa[u][1].w};
        const float bv[8] = {fb[u][0].x, fb[u][0].y, fb[u][0].z, fb[u][0].w,
                             fb[u][1].x, fb[u][1].y, fb[u][1].z, fb[u][1].w};
#pragma unroll
        for (int i = 0; i < 8; i++)
#pragma unroll
          for (int jj = 0; jj < 8; jj++) {
            const int j = ZZ && (i & 1) ? 7 - jj : jj;
            acc[i][j] += av[i] * bv[j];
          }
      }
      store(as[cur ^ 1], bs[cur ^ 1], h);
    }
    __syncthreads();
    cur ^= 1;
  }
  store_results<L, 8, 8, BM / 2, BN / 2, clip>(c, acc, m0 + ty * 4, n0 + tx * 4);
}
template <class L, int H = 2, int WL = 1, int ZZ = 1, int WB = 128, int SP = 0, int BM = 128,
          int BN = 128, int SW = 0>
static void launch_fast(const float *a, const float *b, float *c) {
  k_fast<L, H, WL, ZZ, WB, SP, BM, BN, SW>
      <<<dim3((N + BN - 1) / BN, (N + BM - 1) / BM), BM * BN / 64>>>(a, b, c);
}
/* the tile of the benchmark's k_fast at this N: the sample's choice (perf_sgemm.pa) */
#define FAST_TILE ((N + 127) / 128 >= 16 ? 128 : 64)
template <class L> static void launch_fast_n(const float *a, const float *b, float *c) {
  if constexpr (N % 16 == 0) /* k_fast's static_assert; bench.cu runs it only there */
    launch_fast<L, 2, 1, 1, 128, 0, FAST_TILE, FAST_TILE>(a, b, c);
}

/* ---------- transposes: out[j][i] = in[i][j] ----------
 * naive: one thread per element, reads coalesced, writes strided by N.
 * tiled: 64 x 64 tiles through shared memory padded to 65 columns, 16 x 16 threads,
 * 4 rows of a float4 each way (the algorithm of samples/perf_transpose.pa). */
__global__ void k_transpose_naive(const float *in, float *out) {
  int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y;
  out[j * N + i] = in[i * N + j];
}
static void launch_transpose_naive(const float *in, const float *, float *out) {
  k_transpose_naive<<<dim3(N / 32, N / 8), dim3(32, 8)>>>(in, out);
}
__global__ void __launch_bounds__(256) k_transpose_tiled(const float *in, float *out) {
  __shared__ float t[64][65];
  int bx = blockIdx.x * 64, by = blockIdx.y * 64, x = threadIdx.x, y = threadIdx.y;
#pragma unroll
  for (int r = 0; r < 64; r += 16) {
    float4 v = *(const float4 *)&in[(by + y + r) * N + bx + 4 * x];
    t[y + r][4 * x] = v.x;
    t[y + r][4 * x + 1] = v.y;
    t[y + r][4 * x + 2] = v.z;
    t[y + r][4 * x + 3] = v.w;
  }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 64; r += 16)
    *(float4 *)&out[(bx + y + r) * N + by + 4 * x] =
        make_float4(t[4 * x][y + r], t[4 * x + 1][y + r], t[4 * x + 2][y + r], t[4 * x + 3][y + r]);
}
static void launch_transpose_tiled(const float *in, const float *, float *out) {
  k_transpose_tiled<<<dim3(N / 64, N / 64), dim3(16, 16)>>>(in, out);
}

#endif /* BENCH_KERNELS_CUH */
