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
  static __host__ __device__ __forceinline__ int row(int i) { return i * N; }
  static __host__ __device__ __forceinline__ int col(int j) { return j; }
  static __host__ __device__ __forceinline__ int off(int i, int j) { return row(i) + col(j); }
};
struct LayoutCol {
  static constexpr bool CONTIG_J = false, CONTIG_I = true;
  static __host__ __device__ __forceinline__ int row(int i) { return i; }
  static __host__ __device__ __forceinline__ int col(int j) { return j * N; }
  static __host__ __device__ __forceinline__ int off(int i, int j) { return row(i) + col(j); }
};
struct Layout18a {
  static constexpr bool CONTIG_J = true, CONTIG_I = false;
  static __host__ __device__ __forceinline__ int row(int i) { return i * (N / 4); }
  static __host__ __device__ __forceinline__ int col(int j) {
    return (j / (N / 4)) * (N * (N / 4)) + j % (N / 4);
  }
  static __host__ __device__ __forceinline__ int off(int i, int j) { return row(i) + col(j); }
};
struct Layout18b {
  static constexpr bool CONTIG_J = true, CONTIG_I = false;
  static __host__ __device__ __forceinline__ int row(int i) {
    return (i / (N / 2)) * (2 * (N / 2) * (N / 2)) + (i % (N / 2)) * (N / 2);
  }
  static __host__ __device__ __forceinline__ int col(int j) {
    return (j / (N / 2)) * ((N / 2) * (N / 2)) + j % (N / 2);
  }
  static __host__ __device__ __forceinline__ int off(int i, int j) { return row(i) + col(j); }
};

/* write a thread's TM x TN results: (TM/4) x (TN/4) sub-tiles of 4 x 4 whose first
 * elements are (i0 + si * SM, j0 + sj * SN), as float4 along the contiguous index */
template <class L, int TM, int TN, int SM, int SN>
__device__ __forceinline__ void store_results(float *c, const float (&acc)[TM][TN], int i0, int j0) {
#pragma unroll
  for (int si = 0; si < TM / 4; si++)
#pragma unroll
    for (int sj = 0; sj < TN / 4; sj++) {
      const int i = i0 + si * SM, j = j0 + sj * SN;
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

/* ---------- the fast SGEMM (the algorithm of samples/perf_sgemm.pa) ----------
 * 128 x 128 tiles of C, 256 threads in warps of 4 x 8 (WL = 1; 0: 2 x 16), each 8 x 8
 * results kept as 2 x 2 sub-tiles of 4 x 4 spread 64 rows and 64 columns apart, so that
 * its reads of shared memory are float4 and a warp's touch 64 + 128 bytes. Both tiles
 * sit in shared memory k-major (as[k][m], bs[k][n]), 8 * H deep, in two buffers, A's
 * rows padded to 132 floats, B's WB = 128 (as in the sample). The next tile is staged
 * through 8 registers, one 8-deep slice at a time: slice h of the next tile is read at
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
 * read of the next slice is conditional; the last tile's stores write a buffer nobody
 * reads (step 20 of doc/performance.md: with the store conditional too, nvcc moved the
 * reads down to the stores). The knobs are step 21's experiments. */
template <class L, int H = 2, int WL = 1, int ZZ = 1, int WB = 128, int SP = 0>
__global__ void __launch_bounds__(256, 2) k_fast(const float *a, const float *b, float *c) {
  constexpr int BK = 8 * H, WA = 132;
  __shared__ __align__(16) float as[2][BK * WA];
  __shared__ __align__(16) float bs[2][BK * WB];
  const int t = threadIdx.x;
  const int ty = WL ? (t / 64) * 4 + (t % 32) / 8 : t / 16;
  const int tx = WL ? ((t / 32) % 2) * 8 + t % 8 : t % 16;
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  constexpr bool rowlike = L::CONTIG_J || !L::CONTIG_I;
  /* SP (H = 2): slice h of the transposed matrix is its rows (columns) 64 h to 64 h + 63,
     all 16 k, instead of k 8 h to 8 h + 7: 64 contiguous bytes a row instead of 32 */
  constexpr bool sp = SP && H == 2;
  const int am = rowlike ? (sp ? t / 4 : t / 2) : (t % 32) * 4;
  const int ak = rowlike ? (sp ? (t % 4) * 4 : (t % 2) * 4) : t / 32;
  const int bn = rowlike ? (t % 32) * 4 : (sp ? t / 4 : t / 2);
  const int bk = rowlike ? t / 32 : (sp ? (t % 4) * 4 : (t % 2) * 4);
  /* where slice 1 starts in the tile: 64 rows (columns) down or 8 k further */
  const int ham = sp && rowlike ? 64 : 0, hak = sp && rowlike ? 0 : 8;
  const int hbn = sp && !rowlike ? 64 : 0, hbk = sp && !rowlike ? 0 : 8;
  const float *pa = a + L::row(m0 + am) + L::col(ak), *pb = b + L::col(n0 + bn) + L::row(bk);
  const int da = L::row(m0 + am + ham) - L::row(m0 + am) + L::col(hak);
  const int db = L::col(n0 + bn + hbn) - L::col(n0 + bn) + L::row(hbk);
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) acc[i][j] = 0;
  float4 va, vb;
  auto load = [&](int k, int h) { /* slice h of the tile starting at k */
    va = *(const float4 *)(pa + L::col(k) + h * da);
    vb = *(const float4 *)(pb + L::row(k) + h * db);
  };
  auto store = [&](float *sa, float *sb, int h) { /* that slice, into tile buffers sa / sb */
    sa += h * (hak * WA + ham);
    sb += h * (hbk * WB + hbn);
    if (rowlike) {
      sa[(ak + 0) * WA + am] = va.x; sa[(ak + 1) * WA + am] = va.y;
      sa[(ak + 2) * WA + am] = va.z; sa[(ak + 3) * WA + am] = va.w;
      *(float4 *)(sb + bk * WB + bn) = vb;
    } else {
      *(float4 *)(sa + ak * WA + am) = va;
      sb[(bk + 0) * WB + bn] = vb.x; sb[(bk + 1) * WB + bn] = vb.y;
      sb[(bk + 2) * WB + bn] = vb.z; sb[(bk + 3) * WB + bn] = vb.w;
    }
  };
#pragma unroll
  for (int h = 0; h < H; h++) {
    load(0, h);
    store(as[0], bs[0], h);
  }
  __syncthreads();
  int cur = 0;
  for (int k0 = 0; k0 < N; k0 += BK) {
    const bool more = k0 + BK < N;
    const float *A = as[cur], *B = bs[cur];
    float4 fa[2][2], fb[2][2];
    auto fragments = [&](int k, int u) {
      fa[u][0] = *(const float4 *)(A + k * WA + ty * 4);
      fa[u][1] = *(const float4 *)(A + k * WA + 64 + ty * 4);
      fb[u][0] = *(const float4 *)(B + k * WB + tx * 4);
      fb[u][1] = *(const float4 *)(B + k * WB + 64 + tx * 4);
    };
    fragments(0, 0);
#pragma unroll
    for (int h = 0; h < H; h++) {
      if (more) load(k0 + BK, h);
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
  store_results<L, 8, 8, 64, 64>(c, acc, m0 + ty * 4, n0 + tx * 4);
}
template <class L, int H = 2, int WL = 1, int ZZ = 1, int WB = 128, int SP = 0>
static void launch_fast(const float *a, const float *b, float *c) {
  k_fast<L, H, WL, ZZ, WB, SP><<<dim3(N / 128, N / 128), 256>>>(a, b, c);
}


/* ---------- transposes: out[j][i] = in[i][j] ----------
 * naive: one thread per element, reads coalesced, writes strided by N.
 * tiled: 32 x 32 tiles through shared memory padded to 33 columns, 32 x 8 threads,
 * 4 elements each (the algorithm of samples/perf_transpose.pa). */
__global__ void k_transpose_naive(const float *in, float *out) {
  int j = blockIdx.x * 32 + threadIdx.x, i = blockIdx.y * 8 + threadIdx.y;
  out[j * N + i] = in[i * N + j];
}
static void launch_transpose_naive(const float *in, const float *, float *out) {
  k_transpose_naive<<<dim3(N / 32, N / 8), dim3(32, 8)>>>(in, out);
}
__global__ void __launch_bounds__(256) k_transpose_tiled(const float *in, float *out) {
  __shared__ float t[32][33];
  int bx = blockIdx.x * 32, by = blockIdx.y * 32, x = threadIdx.x, y = threadIdx.y;
#pragma unroll
  for (int r = 0; r < 32; r += 8) t[y + r][x] = in[(by + y + r) * N + bx + x];
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 32; r += 8) out[(bx + y + r) * N + by + x] = t[x][y + r];
}
static void launch_transpose_tiled(const float *in, const float *, float *out) {
  k_transpose_tiled<<<dim3(N / 32, N / 32), dim3(32, 8)>>>(in, out);
}

#endif /* BENCH_KERNELS_CUH */
