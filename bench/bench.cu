/* bench.cu: times every SGEMM, copy and transpose variant at one matrix order N
 * (a compile-time constant: bench/run.sh builds this file once per N) against the
 * references measured in the same run: cuBLAS SGEMM (FP32, pedantic math, so no
 * tensor cores) and cudaMemcpy device to device; the TF32 tensor-core variants
 * (perf_tf32) are compared with cuBLAS TF32 (cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32)
 * and checked with a TF32 tolerance.
 *
 * Method (doc/performance.md): fresh random inputs per variant, output poisoned with
 * NaN before every run and checked after (every element written, sampled elements
 * against a float64 product or the exact transpose), warm-up, CUDA events around each
 * call, the median of the repeats. Each repeat of a variant is a round: a call of its
 * reference, then (for generated code) of its hand-written twin, then of the variant,
 * every other round in the reverse order; the ratios compare the medians of those
 * paired calls, so that clock and temperature drift over the run do not favour
 * whoever runs first or last. Every variant is
 * called the way a Parray detour runs: launch, error check, cudaDeviceSynchronize, so
 * generated and hand-written code pay the same per-call cost.
 *
 * Usage: bench_N<n> [CSV]   appends one line per variant to CSV (default stdout only). */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels.cuh"
#ifdef BENCH_EXPERIMENTS
#include "experiments.cuh"
#endif

#define CK(x) ck((x), #x, __FILE__, __LINE__)
static void ck(cudaError_t e, const char *what, const char *file, int line) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, cudaGetErrorString(e));
    exit(2);
  }
}

/* ---------- the generated Parray code (bench/gen.cu includes it, when built) ---------- */
#ifdef WITH_GEN
#include "gen_decls.h"
#endif

/* ---------- references ---------- */
static cublasHandle_t g_blas, g_blas_tf32;
static void launch_cublas(const float *a, const float *b, float *c) {
  /* row-major C = A B is column-major C^T = B^T A^T */
  const float one = 1, zero = 0;
  cublasStatus_t s = cublasSgemm(g_blas, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, b, N, a, N,
                                 &zero, c, N);
  if (s != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "cublasSgemm failed: %d\n", (int)s);
    exit(2);
  }
}
/* the TF32 reference: FP32 in and out, tensor cores with TF32 inputs (its own handle,
   in the default math mode: g_blas is pedantic) */
static void launch_cublas_tf32(const float *a, const float *b, float *c) {
  const float one = 1, zero = 0;
  cublasStatus_t s = cublasGemmEx(g_blas_tf32, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, b,
                                  CUDA_R_32F, N, a, CUDA_R_32F, N, &zero, c, CUDA_R_32F, N,
                                  CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
  if (s != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "cublasGemmEx (TF32) failed: %d\n", (int)s);
    exit(2);
  }
}
static void launch_memcpy(const float *in, const float *, float *out) {
  CK(cudaMemcpy(out, in, (size_t)N * N * sizeof(float), cudaMemcpyDeviceToDevice));
}

/* ---------- variants ---------- */
enum Kind { GEMM, COPY };
enum Lay { ROW, COL, F18A, F18B };
struct Variant {
  const char *name;   /* printed and written to the CSV */
  Kind kind;
  Lay lay;            /* layout of all three matrices (GEMM) or of the input (COPY) */
  bool transpose;     /* COPY: the output is the transpose */
  void (*fn)(const float *, const float *, float *);
  const char *twin;   /* hand-written twin of a generated variant, or NULL */
  bool tf32;          /* GEMM on TF32 tensor cores: against cublas_tf32, TF32 tolerance */
  int need;           /* N must be a multiple of it (0: any N); else not run, saying so */
};
/* The orders a variant takes. The paper's kernels (Fig 13, 21) and the transposes step
   whole tiles; k_fast does not clip k (16-deep tiles, float4s); a blocked layout must
   hold whole slices of k in each block: Fig 18a's strips are N/4 wide, 18b's blocks N/2,
   so 8-deep slices (FFMA) need N % 32 and N % 16, 32-deep ones (wgmma) N % 128 and N % 64.
   The tensor-core samples clip k: row- and column-major take any N. */
enum { PAPER_N = 256, FAST_N = 16, FAST_18A_N = 32, FAST_18B_N = 16, TC_18A_N = 128, TC_18B_N = 64,
       NAIVE_T_N = 32, TILED_T_N = 64 };
/* why V cannot run at this N, or NULL */
static const char *refusal(const struct Variant &v) {
  static char why[160];
  if (!v.fn)
    return "its sample refuses this N (#error: bench/run.sh printed why)";
  if (v.need > 1 && N % v.need != 0) {
    snprintf(why, sizeof why, "it needs N a multiple of %d", v.need);
    return why;
  }
  return NULL;
}

/* the experiment exp_NAME_row/_fig18a/_fig18b/_col: LAUNCH<layout, the rest> */
#define ON_FOUR_LAYOUTS(name, launch, ...)                                            \
  {"exp_" name "_row", GEMM, ROW, false, launch<LayoutRow, __VA_ARGS__>, NULL},       \
  {"exp_" name "_fig18a", GEMM, F18A, false, launch<Layout18a, __VA_ARGS__>, NULL},   \
  {"exp_" name "_fig18b", GEMM, F18B, false, launch<Layout18b, __VA_ARGS__>, NULL},   \
  {"exp_" name "_col", GEMM, COL, false, launch<LayoutCol, __VA_ARGS__>, NULL},

static const Variant variants[] = {
    {"cublas_sgemm", GEMM, ROW, false, launch_cublas, NULL},
    {"cublas_tf32", GEMM, ROW, false, launch_cublas_tf32, NULL, true},
    {"cuda_fig13", GEMM, ROW, false, launch_fig13, NULL, false, PAPER_N},
    {"cuda_fig21", GEMM, ROW, false, launch_fig21, NULL, false, PAPER_N},
    /* the fast SGEMM: 128 x 128 x 16 tiles (64 x 64 up to N = 1920), 8 x 8 per thread,
       2 blocks per multiprocessor (the other configurations tried: doc/performance.md,
       steps 2 to 8 and 22, their runs in git show ed1779f:bench/results/) */
    {"cuda_fast_row", GEMM, ROW, false, launch_fast_n<LayoutRow>, NULL, false, FAST_N},
    {"cuda_fast_fig18a", GEMM, F18A, false, launch_fast_n<Layout18a>, NULL, false, FAST_18A_N},
    {"cuda_fast_fig18b", GEMM, F18B, false, launch_fast_n<Layout18b>, NULL, false, FAST_18B_N},
    {"cuda_fast_col", GEMM, COL, false, launch_fast_n<LayoutCol>, NULL, false, FAST_N},
#ifdef WITH_GEN
    GEN_VARIANTS_GEMM
#endif
#if defined(BENCH_EXPERIMENTS) || defined(BENCH_TILES)
    /* step 22: k_fast with each block tile, whatever N */
    ON_FOUR_LAYOUTS("t64x64", launch_fast, 2, 1, 1, 128, 0, 64, 64)
    ON_FOUR_LAYOUTS("t128x64", launch_fast, 2, 1, 1, 128, 0, 128, 64)
    ON_FOUR_LAYOUTS("t64x128", launch_fast, 2, 1, 1, 128, 0, 64, 128)
    ON_FOUR_LAYOUTS("t128x128", launch_fast, 2, 1, 1, 128, 0, 128, 128)
#endif
#ifdef BENCH_EXPERIMENTS
    /* doc/performance.md, steps 14 to 18 (step 20 below) */
    {"exp_async8s4_row", GEMM, ROW, false, launch_async<LayoutRow, AsyncCfg<8, 4> >, NULL},
    {"exp_async16s2_row", GEMM, ROW, false, launch_async<LayoutRow, AsyncCfg<16, 2> >, NULL},
    {"exp_pipe4_row", GEMM, ROW, false, launch_pipe<LayoutRow, 4>, NULL},
    {"exp_pipe4_fig18b", GEMM, F18B, false, launch_pipe<Layout18b, 4>, NULL},
    {"exp_big256x128_row", GEMM, ROW, false, launch_big<LayoutRow, 256, 128, 0>, NULL},
    {"exp_big256x128f2_row", GEMM, ROW, false, launch_big<LayoutRow, 256, 128, 1>, NULL},
    {"exp_f2_row", GEMM, ROW, false, launch_big<LayoutRow, 128, 128, 1>, NULL},
    {"exp_f2_fig18a", GEMM, F18A, false, launch_big<Layout18a, 128, 128, 1>, NULL},
    {"exp_f2_fig18b", GEMM, F18B, false, launch_big<Layout18b, 128, 128, 1>, NULL},
    {"exp_f2_col", GEMM, COL, false, launch_big<LayoutCol, 128, 128, 1>, NULL},
    {"exp_k16_row", GEMM, ROW, false, launch_fast16<LayoutRow, 2, 0>, NULL},
    {"exp_k16_fig18a", GEMM, F18A, false, launch_fast16<Layout18a, 2, 0>, NULL},
    {"exp_k16_fig18b", GEMM, F18B, false, launch_fast16<Layout18b, 2, 0>, NULL},
    {"exp_k16_col", GEMM, COL, false, launch_fast16<LayoutCol, 2, 0>, NULL},
    {"exp_group8_fig18b", GEMM, F18B, false, launch_fast8<Layout18b, Cfg<128, 128, 8, 8, 8, 2, 8> >, NULL},
    /* step 20: k_fast20's knobs (WB, PF, UNC, F2, MINB), k_fast8 (runs 1 to 9), k_f2h */
    ON_FOUR_LAYOUTS("fast8", launch_fast8, Cfg<128, 128, 8, 8, 8, 2>)
    ON_FOUR_LAYOUTS("unc0", launch_fast20, 128, 0, 0)
    ON_FOUR_LAYOUTS("unc1", launch_fast20, 128, 0, 1)
    ON_FOUR_LAYOUTS("pf1", launch_fast20, 128, 1, 0)
    ON_FOUR_LAYOUTS("minb1", launch_fast20, 128, 0, 2, 1, 1)
    ON_FOUR_LAYOUTS("wb132", launch_fast20, 132)
    ON_FOUR_LAYOUTS("f1", launch_fast20, 128, 0, 2, 0)
    ON_FOUR_LAYOUTS("async", launch_f2h, 1, 0)
    ON_FOUR_LAYOUTS("vol", launch_f2h, 0, 1)
    /* step 21: k_fast's knobs (H, WL, ZZ, WB); k_fast itself is deep2wz */
    ON_FOUR_LAYOUTS("deep1", launch_fast, 1, 0, 0)
    ON_FOUR_LAYOUTS("deep2", launch_fast, 2, 0, 0)
    ON_FOUR_LAYOUTS("deep1w", launch_fast, 1, 1, 0)
    ON_FOUR_LAYOUTS("deep2w", launch_fast, 2, 1, 0)
    ON_FOUR_LAYOUTS("deep2z", launch_fast, 2, 0, 1)
    ON_FOUR_LAYOUTS("deep2b", launch_fast, 2, 0, 0, 132)
    ON_FOUR_LAYOUTS("deep1z", launch_fast, 1, 0, 1)
    ON_FOUR_LAYOUTS("deep1wz", launch_fast, 1, 1, 1)
    ON_FOUR_LAYOUTS("split", launch_fast, 2, 1, 1, 128, 1)
    ON_FOUR_LAYOUTS("wide1", launch_wide, 1)
    ON_FOUR_LAYOUTS("wide2", launch_wide, 2)
    ON_FOUR_LAYOUTS("wide2n", launch_wide, 2, 0)
#endif
    {"memcpy_d2d", COPY, ROW, false, launch_memcpy, NULL},
    {"cuda_transpose_naive", COPY, ROW, true, launch_transpose_naive, NULL, false, NAIVE_T_N},
    {"cuda_transpose_tiled", COPY, ROW, true, launch_transpose_tiled, NULL, false, TILED_T_N},
#ifdef WITH_GEN
    GEN_VARIANTS_COPY
#endif
};

/* ---------- device helpers: random fill, poison, checks ---------- */
__device__ __forceinline__ unsigned hash32(unsigned x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
__global__ void k_fill(float *x, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    x[i] = (float)(hash32((unsigned)i * 2654435761u ^ hash32(seed)) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}
__global__ void k_count_nan(const float *x, size_t n, unsigned long long *bad) {
  unsigned long long mine = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    mine += !isfinite(x[i]);
  if (mine) atomicAdd(bad, mine);
}
__device__ int lay_off(int lay, int i, int j) {
  switch (lay) {
  case COL: return LayoutCol::off(i, j);
  case F18A: return Layout18a::off(i, j);
  case F18B: return Layout18b::off(i, j);
  default: return LayoutRow::off(i, j);
  }
}
/* sampled check of a product: err[s] = got - float64 dot product, ref[s] = that product */
__global__ void k_gemm_sample(const float *a, const float *b, const float *c, int lay,
                              const int *is, const int *js, int ns, double *got, double *ref) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= ns) return;
  int i = is[s], j = js[s];
  double sum = 0;
  for (int k = 0; k < N; k++) sum += (double)a[lay_off(lay, i, k)] * b[lay_off(lay, k, j)];
  got[s] = c[lay_off(lay, i, j)];
  ref[s] = sum;
}
/* full check of a copy or transpose: counts wrong elements */
__global__ void k_copy_check(const float *in, const float *out, int transpose,
                             unsigned long long *bad) {
  unsigned long long mine = 0;
  for (size_t x = blockIdx.x * (size_t)blockDim.x + threadIdx.x; x < (size_t)N * N;
       x += (size_t)gridDim.x * blockDim.x) {
    int i = (int)(x / N), j = (int)(x % N);
    float want = in[(size_t)i * N + j];
    float got = transpose ? out[(size_t)j * N + i] : out[(size_t)i * N + j];
    mine += got != want;
  }
  if (mine) atomicAdd(bad, mine);
}

static const int NS = 1024; /* sampled elements per GEMM check */
static int *d_is, *d_js;
static double *d_got, *d_ref;
static unsigned long long *d_bad;

static unsigned long long count_nan(const float *x) {
  CK(cudaMemset(d_bad, 0, sizeof *d_bad));
  k_count_nan<<<1024, 256>>>(x, (size_t)N * N, d_bad);
  CK(cudaGetLastError());
  unsigned long long h;
  CK(cudaMemcpy(&h, d_bad, sizeof h, cudaMemcpyDeviceToHost));
  return h;
}

/* Returns a description of what is wrong, or NULL. */
static const char *check(const Variant &v, const float *a, const float *b, const float *c,
                         unsigned seed, double *relerr) {
  static char msg[200];
  *relerr = 0;
  unsigned long long nan = count_nan(c);
  if (nan) {
    snprintf(msg, sizeof msg, "%llu elements not written (still NaN)", nan);
    return msg;
  }
  if (v.kind == COPY) {
    CK(cudaMemset(d_bad, 0, sizeof *d_bad));
    k_copy_check<<<1024, 256>>>(a, c, v.transpose, d_bad);
    CK(cudaGetLastError());
    unsigned long long h;
    CK(cudaMemcpy(&h, d_bad, sizeof h, cudaMemcpyDeviceToHost));
    if (h) {
      snprintf(msg, sizeof msg, "%llu elements wrong", h);
      return msg;
    }
    return NULL;
  }
  std::vector<int> is(NS), js(NS);
  srand(seed);
  for (int s = 0; s < NS; s++) {
    /* the corners and edges first: that is where indexing goes wrong */
    is[s] = s < 4 ? (s & 1) * (N - 1) : rand() % N;
    js[s] = s < 4 ? (s >> 1) * (N - 1) : rand() % N;
  }
  CK(cudaMemcpy(d_is, is.data(), NS * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_js, js.data(), NS * sizeof(int), cudaMemcpyHostToDevice));
  k_gemm_sample<<<NS / 128, 128>>>(a, b, c, v.lay, d_is, d_js, NS, d_got, d_ref);
  CK(cudaGetLastError());
  std::vector<double> got(NS), ref(NS);
  CK(cudaMemcpy(got.data(), d_got, NS * sizeof(double), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(ref.data(), d_ref, NS * sizeof(double), cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  for (int s = 0; s < NS; s++) {
    num += (got[s] - ref[s]) * (got[s] - ref[s]);
    den += ref[s] * ref[s];
  }
  *relerr = sqrt(num / den);
  /* TF32 keeps 10 bits of mantissa: products off by up to 2^-10 (rounded) or 2^-9
     (truncated) of |a||b|, about 1e-3 of the norm on these random inputs */
  const double limit = v.tf32 ? 1e-2 : 1e-5;
  if (!(*relerr < limit)) {
    snprintf(msg, sizeof msg, "relative error %.3g against float64 (limit %g)", *relerr, limit);
    return msg;
  }
  return NULL;
}

static bool is_reference(const Variant &v) {
  return !strcmp(v.name, "cublas_sgemm") || !strcmp(v.name, "cublas_tf32") ||
         !strcmp(v.name, "memcpy_d2d");
}

/* BENCH_ONLY: comma-separated substrings of variant names; the references always run */
static bool selected(const char *name, const char *only) {
  if (!only || !strcmp(name, "cublas_sgemm") || !strcmp(name, "cublas_tf32") ||
      !strcmp(name, "memcpy_d2d"))
    return true;
  std::string list(only);
  for (size_t at = 0; at <= list.size();) {
    size_t end = list.find(',', at);
    if (end == std::string::npos) end = list.size();
    std::string part = list.substr(at, end - at);
    if (!part.empty() && strstr(name, part.c_str())) return true;
    at = end + 1;
  }
  return false;
}

static void call(const Variant &v, const float *a, const float *b, float *c) {
  v.fn(a, b, c);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
}

/* one call on an output poisoned with NaN, timed with CUDA events (ms) */
static float timed_call(const Variant &v, const float *a, const float *b, float *c, size_t bytes,
                        cudaEvent_t e0, cudaEvent_t e1) {
  CK(cudaMemset(c, 0xff, bytes));
  CK(cudaEventRecord(e0));
  call(v, a, b, c);
  CK(cudaEventRecord(e1));
  CK(cudaEventSynchronize(e1));
  float ms;
  CK(cudaEventElapsedTime(&ms, e0, e1));
  return ms;
}

int main(int argc, char **argv) {
  const char *csv = argc > 1 ? argv[1] : NULL;
  const char *only = getenv("BENCH_ONLY");
  size_t n2 = (size_t)N * N, bytes = n2 * sizeof(float);
  float *a, *b, *c;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMalloc(&c, bytes));
  CK(cudaMalloc(&d_is, NS * sizeof(int)));
  CK(cudaMalloc(&d_js, NS * sizeof(int)));
  CK(cudaMalloc(&d_got, NS * sizeof(double)));
  CK(cudaMalloc(&d_ref, NS * sizeof(double)));
  CK(cudaMalloc(&d_bad, sizeof *d_bad));
  if (cublasCreate(&g_blas) != CUBLAS_STATUS_SUCCESS ||
      cublasSetMathMode(g_blas, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS ||
      cublasCreate(&g_blas_tf32) != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "cuBLAS setup failed\n");
    return 2;
  }
#ifdef WITH_GEN
  gen_init();
#endif
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  FILE *out = csv ? fopen(csv, "a") : NULL;
  double ref_rate[3] = {0, 0, 0}; /* cuBLAS, memcpy, cuBLAS TF32: the references' own runs */
  int failures = 0;
  unsigned seed = 12345u + N;
  for (const Variant &v : variants) {
    if (!selected(v.name, only)) continue;
    seed++;
    if (const char *why = refusal(v)) {
      printf("%-26s N=%5d  not run: %s\n", v.name, N, why);
      if (out) fprintf(out, "%s,%d,,,,,,,,not run,,,\n", v.name, N);
      continue;
    }
    k_fill<<<1024, 256>>>(a, n2, seed * 2);
    k_fill<<<1024, 256>>>(b, n2, seed * 2 + 1);
    CK(cudaGetLastError());
    /* warm-up (also estimates the time of one call), then a check */
    double est = 0;
    for (int w = 0; w < 2; w++)
      est = timed_call(v, a, b, c, bytes, e0, e1);
    double err;
    const char *bad = check(v, a, b, c, seed, &err);
    /* repeats: enough for about 0.4 s of work, between 5 and 50. Each repeat of a
       variant other than the references is preceded by a call of its reference, so
       that the ratio compares calls made under the same clocks and temperature (a
       reference timed only once, first, on a cool GPU, flatters itself) */
    int reps = std::max(5, std::min(50, (int)(400.0 / std::max(est, 1e-3))));
    const Variant *ref = &variants[0];
    for (const Variant &r : variants)
      if (r.kind == v.kind && r.tf32 == v.tf32 && is_reference(r)) ref = &r;
    const int slot = v.tf32 ? 2 : v.kind; /* which ref_rate */
    const bool paired = !is_reference(v);
    const Variant *twin_v = NULL; /* a generated variant's twin joins the rounds too */
    for (const Variant &r : variants)
      if (v.twin && !strcmp(r.name, v.twin) && !refusal(r)) twin_v = &r;
    std::vector<float> t, tref, ttwin;
    for (int r = 0; r < reps && !bad; r++) {
      /* odd rounds run backwards: no one always runs last, on the warmest GPU; the
         variant's own call ends the last round, so the check below sees its output */
      bool back = r % 2 == 1 && r + 1 < reps;
      if (back) t.push_back(timed_call(v, a, b, c, bytes, e0, e1));
      if (paired && !back) tref.push_back(timed_call(*ref, a, b, c, bytes, e0, e1));
      if (twin_v) ttwin.push_back(timed_call(*twin_v, a, b, c, bytes, e0, e1));
      if (paired && back) tref.push_back(timed_call(*ref, a, b, c, bytes, e0, e1));
      if (!back) t.push_back(timed_call(v, a, b, c, bytes, e0, e1));
    }
    if (!bad) bad = check(v, a, b, c, seed + 1000, &err);
    if (bad) {
      printf("%-26s N=%5d  FAILED: %s\n", v.name, N, bad);
      if (out) fprintf(out, "%s,%d,,,,,,,,FAIL,,,\n", v.name, N);
      failures++;
      continue;
    }
    std::sort(t.begin(), t.end());
    double med = t[t.size() / 2], lo = t.front(), hi = t.back();
    double rate = v.kind == GEMM ? 2.0 * N * N * (double)N / (med * 1e-3) / 1e12
                                 : 2.0 * bytes / (med * 1e-3) / 1e9;
    if (!paired) ref_rate[slot] = rate;
    double ref_now = ref_rate[slot]; /* the paired calls' rate, else the first run's */
    if (paired) {
      std::sort(tref.begin(), tref.end());
      double rmed = tref[tref.size() / 2];
      ref_now = v.kind == GEMM ? 2.0 * N * N * (double)N / (rmed * 1e-3) / 1e12
                               : 2.0 * bytes / (rmed * 1e-3) / 1e9;
    }
    double ratio = rate / ref_now;
    double twin = 0; /* rate of the hand-written twin in the same rounds */
    if (twin_v && !ttwin.empty()) {
      std::sort(ttwin.begin(), ttwin.end());
      double tmed = ttwin[ttwin.size() / 2];
      twin = v.kind == GEMM ? 2.0 * N * N * (double)N / (tmed * 1e-3) / 1e12
                            : 2.0 * bytes / (tmed * 1e-3) / 1e9;
    }
    printf("%-26s N=%5d  %9.4f ms (min %.4f max %.4f, %2d reps)  %8.2f %s  %5.3f of %s  err %.1e",
           v.name, N, med, lo, hi, (int)t.size(), rate, v.kind == GEMM ? "TFLOP/s" : "GB/s  ",
           ratio, v.kind == COPY ? "memcpy" : v.tf32 ? "cuBLAS TF32" : "cuBLAS", err);
    if (paired)
      printf("  (%s %.2f in the paired calls)",
             v.kind == COPY ? "memcpy" : v.tf32 ? "cuBLAS TF32" : "cuBLAS", ref_now);
    if (twin > 0) printf("  %5.3f of %s", rate / twin, v.twin);
    printf("\n");
    if (out)
      fprintf(out, "%s,%d,%s,%.5f,%.5f,%.5f,%.3f,%.4f,%.2e,ok,%s,%.4f,%.3f\n", v.name, N,
              v.kind == GEMM ? "TFLOP/s" : "GB/s", med, lo, hi, rate, ratio, err,
              v.twin ? v.twin : "", twin > 0 ? rate / twin : 0.0, ref_now);
    fflush(stdout);
  }
  if (out) fclose(out);
  cublasDestroy(g_blas);
  cublasDestroy(g_blas_tf32);
  return failures != 0;
}
