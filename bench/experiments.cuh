/* experiments.cuh: SGEMM kernels tried against k_fast on the way to the fast sample
 * (doc/performance.md, steps 14 to 20), kept so that those runs can be repeated:
 *   BENCH_EXPERIMENTS=1 BENCH_NS="4096 8192" BENCH_ONLY=exp_ bash bench/run.sh OUT
 * None of them is the algorithm of a sample; the benchmark's table leaves them out
 * unless asked. Included by bench.cu after kernels.cuh (layouts, N). */
#ifndef BENCH_EXPERIMENTS_CUH
#define BENCH_EXPERIMENTS_CUH

/* cp.async: global to shared memory without registers (sm_80 and later) */
__device__ __forceinline__ void cp_async(float *dst, const float *src, int bytes16) {
  unsigned d = (unsigned)__cvta_generic_to_shared(dst);
  if (bytes16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(d), "l"(src));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int K> __device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(K));
}

/* ---------- k_fast8: the fast SGEMM of runs 1 to 9 (the sample's algorithm until step 20) ----------
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
__global__ void __launch_bounds__(C::NT, C::MINB) k_fast8(const float *a, const float *b, float *c) {
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
template <class L, class C> static void launch_fast8(const float *a, const float *b, float *c) {
  if (C::G)
    k_fast8<L, C><<<dim3(C::G, N / C::BN, N / C::BM / (C::G ? C::G : 1)), C::NT>>>(a, b, c);
  else
    k_fast8<L, C><<<dim3(N / C::BN, N / C::BM), C::NT>>>(a, b, c);
}

/* ---------- k_fast16: the fast SGEMM, 8 * H deep, with or without F2 ----------
 * k_fast's tile (128 x 128, 8 x 8 results per thread, 256 threads) with tiles of k
 * H * 8 deep: one barrier per H slices of 8. The next tile is still staged through the
 * same 8 registers as in k_fast: its slices are read and stored one at a time, each
 * while a slice of the current tile is multiplied. Both shared tiles have rows padded to
 * 132 floats, so the scalar (transposing) stores of either matrix are conflict-free. */
template <class L, int H, int F2 = 1>
__global__ void __launch_bounds__(256, 2) k_fast16(const float *a, const float *b, float *c) {
  constexpr int BK = 8 * H, W = 132;
  __shared__ __align__(16) float as[2][BK * W];
  __shared__ __align__(16) float bs[2][BK * W];
  const int t = threadIdx.x, tx = t % 16, ty = t / 16;
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  /* which float4 of an 8-deep slice this thread moves (as in the sample) */
  constexpr bool rowlike = L::CONTIG_J || !L::CONTIG_I;
  const int am = rowlike ? t / 2 : (t % 32) * 4, ak = rowlike ? (t % 2) * 4 : t / 32;
  const int bn = rowlike ? (t % 32) * 4 : t / 2, bk = rowlike ? t / 32 : (t % 2) * 4;
  const float *pa = a + L::row(m0 + am), *pb = b + L::col(n0 + bn);
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) acc[i][j] = 0;
  float4 va, vb;
  auto load = [&](int k) { /* the slice of 8 starting at k */
    va = *(const float4 *)(pa + L::col(k + ak));
    vb = *(const float4 *)(pb + L::row(k + bk));
  };
  auto store = [&](float *sa, float *sb) { /* the same slice, at row 0 of sa / sb */
    if (rowlike) {
      sa[(ak + 0) * W + am] = va.x;
      sa[(ak + 1) * W + am] = va.y;
      sa[(ak + 2) * W + am] = va.z;
      sa[(ak + 3) * W + am] = va.w;
      *(float4 *)(sb + bk * W + bn) = vb;
    } else {
      *(float4 *)(sa + ak * W + am) = va;
      sb[(bk + 0) * W + bn] = vb.x;
      sb[(bk + 1) * W + bn] = vb.y;
      sb[(bk + 2) * W + bn] = vb.z;
      sb[(bk + 3) * W + bn] = vb.w;
    }
  };
  /* 8 steps of k on one slice of the current tile; F2: the fragments of step k + 1
     are read from shared memory before step k's FMAs */
  auto multiply = [&](const float *A, const float *B) {
    float4 fa[2][2], fb[2][2];
    auto fragments = [&](int k, int u) {
      fa[u][0] = *(const float4 *)(A + k * W + ty * 4);
      fa[u][1] = *(const float4 *)(A + k * W + 64 + ty * 4);
      fb[u][0] = *(const float4 *)(B + k * W + tx * 4);
      fb[u][1] = *(const float4 *)(B + k * W + 64 + tx * 4);
    };
    fragments(0, 0);
#pragma unroll
    for (int k = 0; k < 8; k++) {
      const int u = F2 ? (k & 1) : 0;
      if (!F2 && k > 0) fragments(k, 0);
      if (F2 && k + 1 < 8) fragments(k + 1, u ^ 1);
      const float av[8] = {fa[u][0].x, fa[u][0].y, fa[u][0].z, fa[u][0].w,
                           fa[u][1].x, fa[u][1].y, fa[u][1].z, fa[u][1].w};
      const float bv[8] = {fb[u][0].x, fb[u][0].y, fb[u][0].z, fb[u][0].w,
                           fb[u][1].x, fb[u][1].y, fb[u][1].z, fb[u][1].w};
#pragma unroll
      for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] += av[i] * bv[j];
    }
  };
#pragma unroll
  for (int h = 0; h < H; h++) {
    load(h * 8);
    store(as[0] + h * 8 * W, bs[0] + h * 8 * W);
  }
  __syncthreads();
  int cur = 0;
  for (int k0 = 0; k0 < N; k0 += BK) {
    const bool more = k0 + BK < N;
#pragma unroll
    for (int h = 0; h < H; h++) {
      if (more) load(k0 + BK + h * 8);
      multiply(as[cur] + h * 8 * W, bs[cur] + h * 8 * W);
      if (more) store(as[cur ^ 1] + h * 8 * W, bs[cur ^ 1] + h * 8 * W);
    }
    __syncthreads();
    cur ^= 1;
  }
  store_results<L, 8, 8, 64, 64>(c, acc, m0 + ty * 4, n0 + tx * 4);
}
template <class L, int H, int F2 = 1> static void launch_fast16(const float *a, const float *b, float *c) {
  k_fast16<L, H, F2><<<dim3(N / 128, N / 128), 256>>>(a, b, c);
}

/* ---------- experiment: bigger tiles, one block per SM (cuBLAS's shape) ----------
 * BM x BN tile, 16 x 16 threads, each (BM/16) x (BN/16) results as sub-tiles of 4 x 4
 * spread 64 apart; 8-deep slices, two shared buffers, the next slice staged through
 * registers; F2: the fragments of step k + 1 are read before step k's FMAs. */
template <class L, int BM, int BN, int F2>
__global__ void __launch_bounds__(256, 1) k_big(const float *a, const float *b, float *c) {
  constexpr int WA = BM + 4, WB = BN + 4, TM = BM / 16, TN = BN / 16, LA = BM / 128, LB = BN / 128;
  __shared__ __align__(16) float as[2][8 * WA];
  __shared__ __align__(16) float bs[2][8 * WB];
  const int t = threadIdx.x, tx = t % 16, ty = t / 16;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  constexpr bool rowlike = L::CONTIG_J || !L::CONTIG_I;
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) acc[i][j] = 0;
  float4 va[LA], vb[LB];
  auto apos = [&](int p, int &m, int &k) {
    int u = t + 256 * p;
    if (rowlike) { m = u / 2; k = (u % 2) * 4; } else { m = (u % (BM / 4)) * 4; k = u / (BM / 4); }
  };
  auto bpos = [&](int p, int &k, int &n) {
    int u = t + 256 * p;
    if (rowlike) { n = (u % (BN / 4)) * 4; k = u / (BN / 4); } else { n = u / 2; k = (u % 2) * 4; }
  };
  auto load = [&](int k0) {
#pragma unroll
    for (int p = 0; p < LA; p++) { int m, k; apos(p, m, k); va[p] = *(const float4 *)(a + L::row(m0 + m) + L::col(k0 + k)); }
#pragma unroll
    for (int p = 0; p < LB; p++) { int k, n; bpos(p, k, n); vb[p] = *(const float4 *)(b + L::row(k0 + k) + L::col(n0 + n)); }
  };
  auto store = [&](float *sa, float *sb) {
#pragma unroll
    for (int p = 0; p < LA; p++) {
      int m, k; apos(p, m, k);
      if (rowlike) { sa[k * WA + m] = va[p].x; sa[(k + 1) * WA + m] = va[p].y; sa[(k + 2) * WA + m] = va[p].z; sa[(k + 3) * WA + m] = va[p].w; }
      else *(float4 *)(sa + k * WA + m) = va[p];
    }
#pragma unroll
    for (int p = 0; p < LB; p++) {
      int k, n; bpos(p, k, n);
      if (rowlike) *(float4 *)(sb + k * WB + n) = vb[p];
      else { sb[k * WB + n] = vb[p].x; sb[(k + 1) * WB + n] = vb[p].y; sb[(k + 2) * WB + n] = vb[p].z; sb[(k + 3) * WB + n] = vb[p].w; }
    }
  };
  load(0);
  store(as[0], bs[0]);
  __syncthreads();
  int cur = 0;
  for (int k0 = 0; k0 < N; k0 += 8) {
    const bool more = k0 + 8 < N;
    if (more) load(k0 + 8);
    const float *A = as[cur], *B = bs[cur];
    float4 fa[2][TM / 4], fb[2][TN / 4];
#pragma unroll
    for (int s = 0; s < TM / 4; s++) fa[0][s] = *(const float4 *)(A + s * 64 + ty * 4);
#pragma unroll
    for (int s = 0; s < TN / 4; s++) fb[0][s] = *(const float4 *)(B + s * 64 + tx * 4);
#pragma unroll
    for (int k = 0; k < 8; k++) {
      const int u = F2 ? (k & 1) : 0;
      if (!F2 && k > 0) {
#pragma unroll
        for (int s = 0; s < TM / 4; s++) fa[0][s] = *(const float4 *)(A + k * WA + s * 64 + ty * 4);
#pragma unroll
        for (int s = 0; s < TN / 4; s++) fb[0][s] = *(const float4 *)(B + k * WB + s * 64 + tx * 4);
      }
      if (F2 && k + 1 < 8) {
#pragma unroll
        for (int s = 0; s < TM / 4; s++) fa[u ^ 1][s] = *(const float4 *)(A + (k + 1) * WA + s * 64 + ty * 4);
#pragma unroll
        for (int s = 0; s < TN / 4; s++) fb[u ^ 1][s] = *(const float4 *)(B + (k + 1) * WB + s * 64 + tx * 4);
      }
#pragma unroll
      for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) {
          const float4 &x = fa[u][i / 4], &y = fb[u][j / 4];
          float ai = (i % 4 == 0) ? x.x : (i % 4 == 1) ? x.y : (i % 4 == 2) ? x.z : x.w;
          float bj = (j % 4 == 0) ? y.x : (j % 4 == 1) ? y.y : (j % 4 == 2) ? y.z : y.w;
          acc[i][j] += ai * bj;
        }
    }
    if (more) store(as[cur ^ 1], bs[cur ^ 1]);
    __syncthreads();
    cur ^= 1;
  }
  store_results<L, TM, TN, 64, 64>(c, acc, m0 + ty * 4, n0 + tx * 4);
}
template <class L, int BM, int BN, int F2> static void launch_big(const float *a, const float *b, float *c) {
  k_big<L, BM, BN, F2><<<dim3(N / BN, N / BM), 256>>>(a, b, c);
}

/* ---------- experiment: k_f2u (UNC 2) with the untransposed tile copied by cp.async ----------
 * ASYNC: the matrix whose tile keeps its orientation in shared memory (B where rows
 * are contiguous, A where columns are) goes there by 16-byte cp.async, so only the
 * other one is staged through registers (4 instead of 8). VOL: the global loads and
 * the first fragment reads are volatile PTX, which ptxas keeps in program order, so the
 * global loads stay at the top of the loop. */
__device__ __forceinline__ float4 ld_volatile_global(const float *p) {
  float4 v;
  asm volatile("ld.volatile.global.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
  return v;
}
__device__ __forceinline__ float4 ld_volatile_shared(const float *p) {
  float4 v;
  unsigned s = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ld.volatile.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(s));
  return v;
}
template <class L, int ASYNC, int VOL>
__global__ void __launch_bounds__(256, 2) k_f2h(const float *a, const float *b, float *c) {
  constexpr int WA = 132, WB = 132;
  __shared__ __align__(16) float as[2][8 * WA];
  __shared__ __align__(16) float bs[2][8 * WB];
  const int t = threadIdx.x, tx = t % 16, ty = t / 16;
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  constexpr bool rowlike = L::CONTIG_J || !L::CONTIG_I;
  const int am = rowlike ? t / 2 : (t % 32) * 4, ak = rowlike ? (t % 2) * 4 : t / 32;
  const int bn = rowlike ? (t % 32) * 4 : t / 2, bk = rowlike ? t / 32 : (t % 2) * 4;
  const float *pa = a + L::row(m0 + am) + L::col(ak), *pb = b + L::col(n0 + bn) + L::row(bk);
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) acc[i][j] = 0;
  float4 va, vb;
  auto gload = [&](const float *p) { return VOL ? ld_volatile_global(p) : *(const float4 *)p; };
  auto load = [&](int k1, int nxt) { /* the slice at k1: to registers, or on its way to buffer nxt */
    if (ASYNC && rowlike) cp_async(bs[nxt] + bk * WB + bn, pb + L::row(k1), 1);
    else vb = gload(pb + L::row(k1));
    if (ASYNC && !rowlike) cp_async(as[nxt] + ak * WA + am, pa + L::col(k1), 1);
    else va = gload(pa + L::col(k1));
    if (ASYNC) cp_async_commit();
  };
  auto store = [&](int nxt) {
    float *sa = as[nxt], *sb = bs[nxt];
    if (rowlike) {
      sa[(ak + 0) * WA + am] = va.x; sa[(ak + 1) * WA + am] = va.y;
      sa[(ak + 2) * WA + am] = va.z; sa[(ak + 3) * WA + am] = va.w;
      if (!ASYNC) *(float4 *)(sb + bk * WB + bn) = vb;
    } else {
      if (!ASYNC) *(float4 *)(sa + ak * WA + am) = va;
      sb[(bk + 0) * WB + bn] = vb.x; sb[(bk + 1) * WB + bn] = vb.y;
      sb[(bk + 2) * WB + bn] = vb.z; sb[(bk + 3) * WB + bn] = vb.w;
    }
    if (ASYNC) cp_async_wait<0>();
  };
  load(0, 0);
  store(0);
  __syncthreads();
  int cur = 0;
  for (int k0 = 0; k0 < N; k0 += 8) {
    if (k0 + 8 < N) load(k0 + 8, cur ^ 1);
    const float *A = as[cur], *B = bs[cur];
    float4 fa[2][2], fb[2][2];
    auto fragments = [&](int k, int u) {
      const bool v = VOL && k == 0;
      fa[u][0] = v ? ld_volatile_shared(A + ty * 4) : *(const float4 *)(A + k * WA + ty * 4);
      fa[u][1] = v ? ld_volatile_shared(A + 64 + ty * 4) : *(const float4 *)(A + k * WA + 64 + ty * 4);
      fb[u][0] = v ? ld_volatile_shared(B + tx * 4) : *(const float4 *)(B + k * WB + tx * 4);
      fb[u][1] = v ? ld_volatile_shared(B + 64 + tx * 4) : *(const float4 *)(B + k * WB + 64 + tx * 4);
    };
    fragments(0, 0);
#pragma unroll
    for (int k = 0; k < 8; k++) {
      const int u = k & 1;
      if (k + 1 < 8) fragments(k + 1, u ^ 1);
      const float av[8] = {fa[u][0].x, fa[u][0].y, fa[u][0].z, fa[u][0].w,
                           fa[u][1].x, fa[u][1].y, fa[u][1].z, fa[u][1].w};
      const float bv[8] = {fb[u][0].x, fb[u][0].y, fb[u][0].z, fb[u][0].w,
                           fb[u][1].x, fb[u][1].y, fb[u][1].z, fb[u][1].w};
#pragma unroll
      for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] += av[i] * bv[j];
    }
    store(cur ^ 1); /* unconditional: after the last slice it rewrites a buffer no one reads */
    __syncthreads();
    cur ^= 1;
  }
  store_results<L, 8, 8, 64, 64>(c, acc, m0 + ty * 4, n0 + tx * 4);
}
template <class L, int ASYNC, int VOL> static void launch_f2h(const float *a, const float *b, float *c) {
  k_f2h<L, ASYNC, VOL><<<dim3(N / 128, N / 128), 256>>>(a, b, c);
}

/* ---------- experiment: cp.async of whole float4s only, S stages ----------
 * Each matrix's tile goes to shared memory in the orientation it has in global memory
 * (16-byte cp.async, nothing transposed): the matrix whose k is contiguous is stored
 * rows-of-k ([128][8 + 4]) and its fragments are read 4 k at a time; the other is
 * k-major ([8][128 + 4]) and read one k at a time. Column-major mirrors row-major,
 * with the roles of tx and ty swapped so that a warp's fragment reads stay broadcast
 * or contiguous. */
template <class L, int S>
__global__ void __launch_bounds__(256, 2) k_pipe(const float *a, const float *b, float *c) {
  constexpr bool rowlike = L::CONTIG_J || !L::CONTIG_I;
  constexpr int WK = 12, WM = 132;            /* rows-of-k tile, k-major tile */
  constexpr int SA = rowlike ? 128 * WK : 8 * WM, SB = rowlike ? 8 * WM : 128 * WK;
  __shared__ __align__(16) float as[S * SA];
  __shared__ __align__(16) float bs[S * SB];
  const int t = threadIdx.x;
  const int tx = rowlike ? t % 16 : t / 16, ty = rowlike ? t / 16 : t % 16;
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  /* the float4 of each slice this thread copies */
  const int am = rowlike ? t / 2 : (t % 32) * 4, ak = rowlike ? (t % 2) * 4 : t / 32;
  const int bn = rowlike ? (t % 32) * 4 : t / 2, bk = rowlike ? t / 32 : (t % 2) * 4;
  const int sa_off = rowlike ? am * WK + ak : ak * WM + am;
  const int sb_off = rowlike ? bk * WM + bn : bn * WK + bk;
  const float *pa = a + L::row(m0 + am), *pb = b + L::col(n0 + bn);
  auto issue = [&](int k0, int st) {
    cp_async(as + st * SA + sa_off, pa + L::col(k0 + ak), 1);
    cp_async(bs + st * SB + sb_off, pb + L::row(k0 + bk), 1);
    cp_async_commit();
  };
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) acc[i][j] = 0;
#pragma unroll
  for (int st = 0; st < S - 1; st++) issue(st * 8, st);
  constexpr int T = N / 8;
  for (int kt = 0; kt < T; kt++) {
    cp_async_wait<S - 2>();
    __syncthreads();
    if (kt + S - 1 < T) issue((kt + S - 1) * 8, (kt + S - 1) % S);
    else cp_async_commit();
    const float *A = as + (kt % S) * SA, *B = bs + (kt % S) * SB;
#pragma unroll
    for (int kk = 0; kk < 8; kk += 4) {
      float4 f[8]; /* the rows-of-k matrix: 8 rows (or columns) x 4 k */
#pragma unroll
      for (int i = 0; i < 8; i++)
        f[i] = rowlike ? *(const float4 *)(A + ((i / 4) * 64 + ty * 4 + i % 4) * WK + kk)
                       : *(const float4 *)(B + ((i / 4) * 64 + tx * 4 + i % 4) * WK + kk);
#pragma unroll
      for (int q = 0; q < 4; q++) {
        const float *K = rowlike ? B : A;
        const int x = rowlike ? tx : ty;
        float4 g0 = *(const float4 *)(K + (kk + q) * WM + x * 4);
        float4 g1 = *(const float4 *)(K + (kk + q) * WM + 64 + x * 4);
        const float gv[8] = {g0.x, g0.y, g0.z, g0.w, g1.x, g1.y, g1.z, g1.w};
#pragma unroll
        for (int i = 0; i < 8; i++) {
          const float fi = q == 0 ? f[i].x : q == 1 ? f[i].y : q == 2 ? f[i].z : f[i].w;
#pragma unroll
          for (int j = 0; j < 8; j++) {
            if (rowlike) acc[i][j] += fi * gv[j];
            else acc[j][i] += gv[j] * fi;
          }
        }
      }
    }
  }
  store_results<L, 8, 8, 64, 64>(c, acc, m0 + ty * 4, n0 + tx * 4);
}
template <class L, int S> static void launch_pipe(const float *a, const float *b, float *c) {
  k_pipe<L, S><<<dim3(N / 128, N / 128), 256>>>(a, b, c);
}

/* ---------- the fast SGEMM with asynchronous copies (cp.async) ----------
 * Same tile shape and thread mapping as k_fast (128 x 128 tile, 8 x 8 results per thread
 * as 2 x 2 sub-tiles of 4 x 4), but global memory goes straight to shared memory with
 * cp.async (no staging registers, no separate shared stores) in S stages, so a tile is
 * read S - 1 tiles ahead of its use. An index that is contiguous in the layout is copied
 * 16 bytes at a time into the k-major tile; the other matrix of a row-major product is
 * copied 4 bytes at a time, transposed on the way. Both tiles' rows are padded to
 * BM + 4 = 132 floats so that those 4-byte copies do not collide in a bank. */
template <int BK_, int S_, int MINB_ = 2, int F2_ = 0> struct AsyncCfg {
  static constexpr int BM = 128, BN = 128, BK = BK_, TM = 8, TN = 8, S = S_, MINB = MINB_;
  static constexpr int F2 = F2_; /* 1: fragments of step k + 1 read before step k's FMAs */
  static constexpr int TX = BN / TN, TY = BM / TM, NT = TX * TY, W = BM + 4;
  static constexpr int STAGE = BK * W; /* floats of one matrix's tile in one stage */
};
template <class L, class C>
__device__ __forceinline__ void async_tiles(const float *a, const float *b, int m0, int n0,
                                            int k0, float *as, float *bs) {
  constexpr int BM = C::BM, BN = C::BN, BK = C::BK, W = C::W, NT = C::NT;
  const int t = threadIdx.x;
  if (L::CONTIG_I) { /* A's rows are contiguous: 16 bytes along m */
#pragma unroll
    for (int p = 0; p < BM * BK / 4 / NT; p++) {
      int u = t + p * NT, m = (u % (BM / 4)) * 4, k = u / (BM / 4);
      cp_async(as + k * W + m, a + L::row(m0 + m) + L::col(k0 + k), 1);
    }
  } else { /* 4 bytes at a time, consecutive threads along k */
#pragma unroll
    for (int p = 0; p < BM * BK / NT; p++) {
      int u = t + p * NT, k = u % BK, m = u / BK;
      cp_async(as + k * W + m, a + L::row(m0 + m) + L::col(k0 + k), 0);
    }
  }
  if (L::CONTIG_J) {
#pragma unroll
    for (int p = 0; p < BN * BK / 4 / NT; p++) {
      int u = t + p * NT, n = (u % (BN / 4)) * 4, k = u / (BN / 4);
      cp_async(bs + k * W + n, b + L::row(k0 + k) + L::col(n0 + n), 1);
    }
  } else {
#pragma unroll
    for (int p = 0; p < BN * BK / NT; p++) {
      int u = t + p * NT, k = u % BK, n = u / BK;
      cp_async(bs + k * W + n, b + L::row(k0 + k) + L::col(n0 + n), 0);
    }
  }
  cp_async_commit();
}
template <class L, class C>
__global__ void __launch_bounds__(C::NT, C::MINB) k_async(const float *a, const float *b, float *c) {
  constexpr int BM = C::BM, BN = C::BN, BK = C::BK, TM = C::TM, TN = C::TN, W = C::W, S = C::S;
  constexpr int T = N / BK;
  __shared__ __align__(16) float as[S * C::STAGE];
  __shared__ __align__(16) float bs[S * C::STAGE];
  const int tx = threadIdx.x % C::TX, ty = threadIdx.x / C::TX;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) acc[i][j] = 0;
#pragma unroll
  for (int s = 0; s < S - 1; s++)
    async_tiles<L, C>(a, b, m0, n0, s * BK, as + s * C::STAGE, bs + s * C::STAGE);
  for (int kt = 0; kt < T; kt++) {
    cp_async_wait<S - 2>(); /* this thread's copies of tile kt have landed */
    __syncthreads();              /* everyone's have; and tile kt - 1 is no longer read */
    const int next = kt + S - 1;
    if (next < T)
      async_tiles<L, C>(a, b, m0, n0, next * BK, as + (next % S) * C::STAGE,
                        bs + (next % S) * C::STAGE);
    else
      cp_async_commit(); /* an empty group keeps the count of groups per tile */
    const float *A = as + (kt % S) * C::STAGE, *B = bs + (kt % S) * C::STAGE;
    if (C::F2) {
      float4 fa[2][2], fb[2][2];
      fa[0][0] = *(const float4 *)(A + ty * 4);
      fa[0][1] = *(const float4 *)(A + 64 + ty * 4);
      fb[0][0] = *(const float4 *)(B + tx * 4);
      fb[0][1] = *(const float4 *)(B + 64 + tx * 4);
#pragma unroll
      for (int k = 0; k < BK; k++) {
        const int u = k & 1;
        if (k + 1 < BK) {
          fa[u ^ 1][0] = *(const float4 *)(A + (k + 1) * W + ty * 4);
          fa[u ^ 1][1] = *(const float4 *)(A + (k + 1) * W + 64 + ty * 4);
          fb[u ^ 1][0] = *(const float4 *)(B + (k + 1) * W + tx * 4);
          fb[u ^ 1][1] = *(const float4 *)(B + (k + 1) * W + 64 + tx * 4);
        }
        const float av[8] = {fa[u][0].x, fa[u][0].y, fa[u][0].z, fa[u][0].w,
                             fa[u][1].x, fa[u][1].y, fa[u][1].z, fa[u][1].w};
        const float bv[8] = {fb[u][0].x, fb[u][0].y, fb[u][0].z, fb[u][0].w,
                             fb[u][1].x, fb[u][1].y, fb[u][1].z, fb[u][1].w};
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
          for (int j = 0; j < TN; j++) acc[i][j] += av[i] * bv[j];
      }
      continue;
    }
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
        float4 v = *(const float4 *)(B + k * W + s * (BN / (TN / 4)) + tx * 4);
        bv[s * 4 + 0] = v.x; bv[s * 4 + 1] = v.y; bv[s * 4 + 2] = v.z; bv[s * 4 + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j] += av[i] * bv[j];
    }
  }
  store_results<L, TM, TN, 64, 64>(c, acc, m0 + ty * 4, n0 + tx * 4);
}
template <class L, class C> static void launch_async(const float *a, const float *b, float *c) {
  k_async<L, C><<<dim3(N / C::BN, N / C::BM), C::NT>>>(a, b, c);
}

/* ---------- k_wide: 8 x 16 results per thread, 128 threads, two blocks per SM ----------
 * The register tile of cuBLAS's kernel (128 results per thread, 8 warps per SM) on a
 * 128 x 128 block tile: 4 warps of 4 x 8 threads; a thread's rows are ty * 4 + {0..3}
 * and 64 + ty * 4 + {0..3}, its columns tx * 4 + 32 * q + {0..3}. Otherwise k_fast:
 * tiles of k 8 * H deep, each 8-deep slice of the next tile read into registers (two
 * float4 per matrix and thread) at the start of the current tile's matching slice and
 * stored at its end, fragments one step ahead, serpentine FMAs (ZZ). */
template <class L, int H, int ZZ = 1>
__global__ void __launch_bounds__(128, 2) k_wide(const float *a, const float *b, float *c) {
  constexpr int BK = 8 * H, WA = 132, WB = 128;
  __shared__ __align__(16) float as[2][BK * WA];
  __shared__ __align__(16) float bs[2][BK * WB];
  const int t = threadIdx.x;
  const int ty = (t / 32) * 4 + (t % 32) / 8, tx = t % 8;
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  constexpr bool rowlike = L::CONTIG_J || !L::CONTIG_I;
  /* a slice is 128 x 8 of A and 8 x 128 of B: two float4 of each per thread, the
     second 4 further along k (rowlike A, B of column-major) or 4 rows down */
  const int am = rowlike ? t : (t % 32) * 4, ak = rowlike ? 0 : t / 32;
  const int bn = rowlike ? (t % 32) * 4 : t, bk = rowlike ? t / 32 : 0;
  const float *pa = a + L::row(m0 + am) + L::col(ak), *pb = b + L::col(n0 + bn) + L::row(bk);
  const int da = L::col(4), db = L::row(4); /* 4 further along k */
  float acc[8][16];
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < 16; j++) acc[i][j] = 0;
  float4 va0, va1, vb0, vb1;
  auto load = [&](int k) { /* the slice of 8 starting at k (a multiple of 8) */
    va0 = *(const float4 *)(pa + L::col(k));
    va1 = *(const float4 *)(pa + L::col(k) + da);
    vb0 = *(const float4 *)(pb + L::row(k));
    vb1 = *(const float4 *)(pb + L::row(k) + db);
  };
  auto store = [&](float *sa, float *sb) { /* that slice, at row 0 of sa / sb */
    if (rowlike) {
      sa[0 * WA + am] = va0.x; sa[1 * WA + am] = va0.y; sa[2 * WA + am] = va0.z; sa[3 * WA + am] = va0.w;
      sa[4 * WA + am] = va1.x; sa[5 * WA + am] = va1.y; sa[6 * WA + am] = va1.z; sa[7 * WA + am] = va1.w;
      *(float4 *)(sb + bk * WB + bn) = vb0;
      *(float4 *)(sb + (bk + 4) * WB + bn) = vb1;
    } else {
      *(float4 *)(sa + ak * WA + am) = va0;
      *(float4 *)(sa + (ak + 4) * WA + am) = va1;
      sb[0 * WB + bn] = vb0.x; sb[1 * WB + bn] = vb0.y; sb[2 * WB + bn] = vb0.z; sb[3 * WB + bn] = vb0.w;
      sb[4 * WB + bn] = vb1.x; sb[5 * WB + bn] = vb1.y; sb[6 * WB + bn] = vb1.z; sb[7 * WB + bn] = vb1.w;
    }
  };
#pragma unroll
  for (int h = 0; h < H; h++) {
    load(h * 8);
    store(as[0] + h * 8 * WA, bs[0] + h * 8 * WB);
  }
  __syncthreads();
  int cur = 0;
  for (int k0 = 0; k0 < N; k0 += BK) {
    const bool more = k0 + BK < N;
    const float *A = as[cur], *B = bs[cur];
    float4 fa[2][2], fb[2][4];
    auto fragments = [&](int k, int u) {
      fa[u][0] = *(const float4 *)(A + k * WA + ty * 4);
      fa[u][1] = *(const float4 *)(A + k * WA + 64 + ty * 4);
#pragma unroll
      for (int q = 0; q < 4; q++) fb[u][q] = *(const float4 *)(B + k * WB + 32 * q + tx * 4);
    };
    fragments(0, 0);
#pragma unroll
    for (int h = 0; h < H; h++) {
      if (more) load(k0 + BK + h * 8);
#pragma unroll
      for (int k = h * 8; k < h * 8 + 8; k++) {
        const int u = k & 1;
        if (k + 1 < BK) fragments(k + 1, u ^ 1);
        const float av[8] = {fa[u][0].x, fa[u][0].y, fa[u][0].z, fa[u][0].w,
                             fa[u][1].x, fa[u][1].y, fa[u][1].z, fa[u][1].w};
        float bv[16];
#pragma unroll
        for (int q = 0; q < 4; q++) {
          bv[4 * q] = fb[u][q].x; bv[4 * q + 1] = fb[u][q].y;
          bv[4 * q + 2] = fb[u][q].z; bv[4 * q + 3] = fb[u][q].w;
        }
#pragma unroll
        for (int i = 0; i < 8; i++)
#pragma unroll
          for (int jj = 0; jj < 16; jj++) {
            const int j = ZZ && (i & 1) ? 15 - jj : jj;
            acc[i][j] += av[i] * bv[j];
          }
      }
      store(as[cur ^ 1] + h * 8 * WA, bs[cur ^ 1] + h * 8 * WB);
    }
    __syncthreads();
    cur ^= 1;
  }
  store_results<L, 8, 16, 64, 32>(c, acc, m0 + ty * 4, n0 + tx * 4);
}
template <class L, int H, int ZZ = 1> static void launch_wide(const float *a, const float *b, float *c) {
  k_wide<L, H, ZZ><<<dim3(N / 128, N / 128), 128>>>(a, b, c);
}

/* ---------- k_fast20: the fast SGEMM of runs 10 and 11 (step 20), 8 deep ----------
 * 128 x 128 tiles of C, 256 threads (16 x 16), each 8 x 8 results kept as 2 x 2
 * sub-tiles of 4 x 4 spread 64 rows and 64 columns apart, so that its reads of shared
 * memory are float4 and a warp's are conflict-free. Both tiles sit in shared memory
 * k-major (as[k][m], bs[k][n]), 8 deep, in two buffers, A's rows padded to 132 floats, B's
 * WB = 128 (as in the sample; padding both is step 15's and 20's experiment):
 * the next slice is read into registers while the current one is multiplied, then
 * stored to the other buffer (one barrier per slice). Global reads are float4 along
 * whichever index is contiguous in the layout (the analogue of Parray's $cnt$), so
 * every layout reads whole sectors. Within the multiply, the fragments of step k + 1
 * are read from shared memory before step k's FMAs (F2).
 * Global addressing: the offset of the next slice is split into a per-thread part fixed
 * for the whole loop (the row of the tile, the thread's place inside the slice) and a
 * part that depends on the slice only, the same for the whole block (ptxas keeps it in
 * uniform registers): col(k0 + k) = col(k0) + col(k) for k < 8, which holds wherever
 * 8-deep slices do not straddle a block of the layout (all four layouts here).
 * The knobs are the experiments of doc/performance.md, step 20; the defaults are the
 * sample's algorithm of step 20 (k_fast is step 21's). PF: prefetch the next slice to L1 (1) or L2 (2) first. UNC: 0,
 * both the read and the store of the next slice sit under `if (more)`; nvcc then merges
 * the two conditional blocks, which moves the global reads to the end of the loop, just
 * before their stores, where their latency is not hidden (Fig 18a and 18b). 1: neither
 * is conditional (the last round re-reads the last slice). 2: only the read is (the
 * last round stores a slice nobody reads). MINB: __launch_bounds__'s blocks per SM. */
template <class L, int WB = 128, int PF = 0, int UNC = 2, int F2 = 1, int MINB = 2>
__global__ void __launch_bounds__(256, MINB) k_fast20(const float *a, const float *b, float *c) {
  constexpr int WA = 132;
  __shared__ __align__(16) float as[2][8 * WA];
  __shared__ __align__(16) float bs[2][8 * WB];
  const int t = threadIdx.x, tx = t % 16, ty = t / 16;
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  /* which float4 of a slice this thread moves: 4 along k where rows are contiguous (and
     where nothing is), else 4 along the rows */
  constexpr bool rowlike = L::CONTIG_J || !L::CONTIG_I;
  const int am = rowlike ? t / 2 : (t % 32) * 4, ak = rowlike ? (t % 2) * 4 : t / 32;
  const int bn = rowlike ? (t % 32) * 4 : t / 2, bk = rowlike ? t / 32 : (t % 2) * 4;
  const float *pa = a + L::row(m0 + am) + L::col(ak), *pb = b + L::col(n0 + bn) + L::row(bk);
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) acc[i][j] = 0;
  float4 va = *(const float4 *)pa, vb = *(const float4 *)pb; /* the first slice */
  auto store = [&](float *sa, float *sb) { /* the slice in va, vb, at row 0 of sa / sb */
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
  store(as[0], bs[0]);
  __syncthreads();
  int cur = 0;
  for (int k0 = 0; k0 < N; k0 += 8) {
    const bool more = k0 + 8 < N;
    const int k1 = UNC == 1 ? (more ? k0 + 8 : k0) : k0 + 8;
    if (UNC == 1 || more) {
      if (PF == 1) {
        asm volatile("prefetch.global.L1 [%0];" ::"l"(pa + L::col(k1)));
        asm volatile("prefetch.global.L1 [%0];" ::"l"(pb + L::row(k1)));
      }
      if (PF == 2) {
        asm volatile("prefetch.global.L2 [%0];" ::"l"(pa + L::col(k1)));
        asm volatile("prefetch.global.L2 [%0];" ::"l"(pb + L::row(k1)));
      }
      va = *(const float4 *)(pa + L::col(k1));
      vb = *(const float4 *)(pb + L::row(k1));
    }
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
    for (int k = 0; k < 8; k++) {
      const int u = F2 ? (k & 1) : 0;
      if (!F2 && k > 0) fragments(k, 0);
      if (F2 && k + 1 < 8) fragments(k + 1, u ^ 1);
      const float av[8] = {fa[u][0].x, fa[u][0].y, fa[u][0].z, fa[u][0].w,
                           fa[u][1].x, fa[u][1].y, fa[u][1].z, fa[u][1].w};
      const float bv[8] = {fb[u][0].x, fb[u][0].y, fb[u][0].z, fb[u][0].w,
                           fb[u][1].x, fb[u][1].y, fb[u][1].z, fb[u][1].w};
#pragma unroll
      for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] += av[i] * bv[j];
    }
    if (UNC || more) store(as[cur ^ 1], bs[cur ^ 1]);
    __syncthreads();
    cur ^= 1;
  }
  store_results<L, 8, 8, 64, 64>(c, acc, m0 + ty * 4, n0 + tx * 4);
}
template <class L, int WB = 128, int PF = 0, int UNC = 2, int F2 = 1, int MINB = 2>
static void launch_fast20(const float *a, const float *b, float *c) {
  k_fast20<L, WB, PF, UNC, F2, MINB><<<dim3(N / 128, N / 128), 256>>>(a, b, c);
}

#endif /* BENCH_EXPERIMENTS_CUH */
