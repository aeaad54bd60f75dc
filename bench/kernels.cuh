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
 * Block tile BM x BN, BK deep; (BM/TM) x (BN/TN) threads, each TM x TN results kept as
 * (TM/4) x (TN/4) sub-tiles of 4 x 4 spread BM/(TM/4) rows and BN/(TN/4) columns apart,
 * so that its reads of shared memory are float4 and a warp's are conflict-free.
 * Shared memory holds both tiles k-major (As[k][m], Bs[k][n]) in two buffers: the next
 * tile is loaded into registers while the current one is multiplied, then stored to
 * the other buffer (one barrier per tile). Global loads are float4 along whichever
 * index is contiguous in the layout, so every layout reads whole sectors; the layout's
 * offset is row part + column part, as every Parray offset of a 2-D type is. */
template <int BM_, int BN_, int BK_, int TM_, int TN_, int MINB_, int G_ = 0> struct Cfg {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_, MINB = MINB_;
  static constexpr int G = G_; /* > 0: blocks run in groups of G row tiles (L2 reuse) */
  static constexpr int TX = BN / TN, TY = BM / TM, NT = TX * TY;
  static constexpr int LA = BM * BK / 4 / NT; /* float4 loads of A per thread per tile */
  static constexpr int LB = BN * BK / 4 / NT;
  static constexpr int W = BM + 4, WB = BN; /* As rows padded (conflict-free stores); Bs not,
                                              as in the sample (doc/performance.md, step 15) */
  static_assert(LA >= 1 && LB >= 1 && LA * NT * 4 == BM * BK && LB * NT * 4 == BN * BK, "");
};

/* where thread t's p-th float4 of a tile lies: (m, k) in A's tile, (k, n) in B's */
template <class L, class C> __device__ __forceinline__ void pos_a(int p, int &m, int &k) {
  int t = threadIdx.x + p * C::NT;
  if (L::CONTIG_I) { m = (t % (C::BM / 4)) * 4; k = t / (C::BM / 4); }
  else { k = (t % (C::BK / 4)) * 4; m = t / (C::BK / 4); }
}
template <class L, class C> __device__ __forceinline__ void pos_b(int p, int &k, int &n) {
  int t = threadIdx.x + p * C::NT;
  if (L::CONTIG_J) { n = (t % (C::BN / 4)) * 4; k = t / (C::BN / 4); }
  else { k = (t % (C::BK / 4)) * 4; n = t / (C::BK / 4); }
}
template <class L, class C>
__device__ __forceinline__ void load_a(const float *a, int m0, int k0, float4 *ra) {
#pragma unroll
  for (int p = 0; p < C::LA; p++) {
    int m, k;
    pos_a<L, C>(p, m, k);
    ra[p] = *(const float4 *)(a + L::row(m0 + m) + L::col(k0 + k));
  }
}
template <class L, class C>
__device__ __forceinline__ void load_b(const float *b, int k0, int n0, float4 *rb) {
#pragma unroll
  for (int p = 0; p < C::LB; p++) {
    int k, n;
    pos_b<L, C>(p, k, n);
    rb[p] = *(const float4 *)(b + L::row(k0 + k) + L::col(n0 + n));
  }
}
template <class L, class C> __device__ __forceinline__ void store_a(float *as, const float4 *ra) {
#pragma unroll
  for (int p = 0; p < C::LA; p++) {
    int m, k;
    pos_a<L, C>(p, m, k);
    if (L::CONTIG_I) {
      *(float4 *)(as + k * C::W + m) = ra[p];
    } else {
      as[(k + 0) * C::W + m] = ra[p].x;
      as[(k + 1) * C::W + m] = ra[p].y;
      as[(k + 2) * C::W + m] = ra[p].z;
      as[(k + 3) * C::W + m] = ra[p].w;
    }
  }
}
template <class L, class C> __device__ __forceinline__ void store_b(float *bs, const float4 *rb) {
#pragma unroll
  for (int p = 0; p < C::LB; p++) {
    int k, n;
    pos_b<L, C>(p, k, n);
    if (L::CONTIG_J) {
      *(float4 *)(bs + k * C::WB + n) = rb[p];
    } else {
      bs[(k + 0) * C::WB + n] = rb[p].x;
      bs[(k + 1) * C::WB + n] = rb[p].y;
      bs[(k + 2) * C::WB + n] = rb[p].z;
      bs[(k + 3) * C::WB + n] = rb[p].w;
    }
  }
}

template <class L, class C>
__global__ void __launch_bounds__(C::NT, C::MINB) k_fast(const float *a, const float *b, float *c) {
  constexpr int BM = C::BM, BN = C::BN, BK = C::BK, TM = C::TM, TN = C::TN, W = C::W;
  __shared__ __align__(16) float as[2][BK * W];
  __shared__ __align__(16) float bs[2][BK * C::WB];
  int tx = threadIdx.x % C::TX, ty = threadIdx.x / C::TX;
  int m0 = (C::G ? blockIdx.z * C::G + blockIdx.x : blockIdx.y) * BM;
  int n0 = (C::G ? blockIdx.y : blockIdx.x) * BN;
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) acc[i][j] = 0;
  float4 ra[C::LA], rb[C::LB];
  load_a<L, C>(a, m0, 0, ra);
  load_b<L, C>(b, 0, n0, rb);
  store_a<L, C>(as[0], ra);
  store_b<L, C>(bs[0], rb);
  __syncthreads();
  int buf = 0;
  for (int k0 = 0; k0 < N; k0 += BK) {
    bool more = k0 + BK < N;
    if (more) {
      load_a<L, C>(a, m0, k0 + BK, ra);
      load_b<L, C>(b, k0 + BK, n0, rb);
    }
    const float *A = as[buf], *B = bs[buf];
#pragma unroll
    for (int k = 0; k < BK; k++) {
      float av[TM], bv[TN];
#pragma unroll
      for (int s = 0; s < TM / 4; s++) {
        float4 v = *(const float4 *)(A + k * W + s * (BM / (TM / 4)) + ty * 4);
        av[s * 4 + 0] = v.x; av[s * 4 + 1] = v.y; av[s * 4 + 2] = v.z; av[s * 4 + 3] = v.w;
      }
#pragma unroll
      for (int s = 0; s < TN / 4; s++) {
        float4 v = *(const float4 *)(B + k * C::WB + s * (BN / (TN / 4)) + tx * 4);
        bv[s * 4 + 0] = v.x; bv[s * 4 + 1] = v.y; bv[s * 4 + 2] = v.z; bv[s * 4 + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j] += av[i] * bv[j];
    }
    if (more) {
      store_a<L, C>(as[buf ^ 1], ra);
      store_b<L, C>(bs[buf ^ 1], rb);
    }
    __syncthreads();
    buf ^= 1;
  }
  store_results<L, TM, TN, BM / (TM / 4), BN / (TN / 4)>(c, acc, m0 + ty * 4, n0 + tx * 4);
}
template <class L, class C> static void launch_fast(const float *a, const float *b, float *c) {
  if (C::G)
    k_fast<L, C><<<dim3(C::G, N / C::BN, N / C::BM / (C::G ? C::G : 1)), C::NT>>>(a, b, c);
  else
    k_fast<L, C><<<dim3(N / C::BN, N / C::BM), C::NT>>>(a, b, c);
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
