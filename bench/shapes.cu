/* shapes.cu: SGEMM of any shape, C (M x N) = A (M x K) B (K x N) row-major, timed for
 * the shapes a user has (squares, skinny products, odd sizes) beside cuBLAS in the same
 * run: samples/perf_shapes.pa's TF32 kernel (shapes_tf32) against cuBLAS TF32
 * (cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32), its FP32-accurate kernel (shapes_x3)
 * against cuBLAS FP32 (pedantic: no tensor cores) and cuBLAS TF32 / 3, each with the
 * tight leading dimensions (lda = K, ldb = ldc = N: odd where the sizes are) and with the
 * storage padded to a multiple of 32 floats (the data where it was), the way a Parray
 * type says it and a BLAS may be told it too (cuBLAS is timed both ways).
 *
 * Method (doc/performance.md): random inputs, C poisoned with NaN before each variant's
 * first call and 64 sampled elements checked after it against a float64 product
 * (relative to sum |a||b|: 1e-2 for TF32, 2e-5 for the FP32-accurate forms, 1e-5 for
 * cuBLAS FP32); a warm-up call; then rounds, each calling every variant once (each
 * round in another order), a call timed by CUDA events around the launch and a
 * cudaDeviceSynchronize, as a Parray detour runs; the median of the rounds. Roofline:
 * the fraction of min(peak, intensity x memory bandwidth) a variant reaches, the peak
 * of its precision (TF32 tensor cores, FP32 cores, and TF32 / 3 for the 3xTF32 form).
 *
 * Usage: shapes [FILE.csv] [MxNxK ...]   (default shapes below); one CSV line a variant
 * and shape. Exit status 1 when a check fails. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

int shapes_tf32(int M, int N, int K, int lda, int ldb, int ldc, float *a, float *b, float *c);
int shapes_x3(int M, int N, int K, int lda, int ldb, int ldc, float *a, float *b, float *c);

#define CK(x) ck((x), #x, __LINE__)
static void ck(cudaError_t e, const char *what, int line) {
  if (e != cudaSuccess) {
    fprintf(stderr, "shapes.cu:%d: %s: %s\n", line, what, cudaGetErrorString(e));
    exit(2);
  }
}

struct Shape {
  int m, n, k, lda, ldb, ldc; /* the leading dimensions of this variant's storage */
};
static cublasHandle_t g_fp32, g_tf32;

static void blas(cublasHandle_t h, cublasComputeType_t type, const Shape &s, const float *a, const float *b,
                 float *c) {
  /* row-major C = A B is column-major C^T = B^T A^T */
  const float one = 1, zero = 0;
  cublasStatus_t st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one, b, CUDA_R_32F, s.ldb, a,
                                   CUDA_R_32F, s.lda, &zero, c, CUDA_R_32F, s.ldc, type, CUBLAS_GEMM_DEFAULT);
  if (st != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "cublasGemmEx failed: %d\n", (int)st);
    exit(2);
  }
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
}

enum Ref { R_NONE, R_FP32, R_TF32 };
struct Variant {
  const char *name;
  int padded;      /* storage with leading dimensions rounded up to 32 */
  int kind;        /* 0 cuBLAS FP32, 1 cuBLAS TF32, 2 parray TF32, 3 parray 3xTF32 */
  double tol;      /* of sum |a||b| */
  Ref ref;         /* the reference its ratio is against */
};
static const Variant variants[] = {
    {"cublas_fp32", 0, 0, 1e-5, R_NONE},
    {"cublas_tf32", 0, 1, 1e-2, R_NONE},
    {"cublas_tf32_pad", 1, 1, 1e-2, R_TF32},
    {"parray_tf32", 0, 2, 1e-2, R_TF32},
    {"parray_tf32_pad", 1, 2, 1e-2, R_TF32},
    {"parray_x3", 0, 3, 2e-5, R_FP32},
    {"parray_x3_pad", 1, 3, 2e-5, R_FP32},
};
enum { NV = sizeof variants / sizeof variants[0] };

static void call(const Variant &v, const Shape &s, float *a, float *b, float *c) {
  switch (v.kind) {
  case 0: blas(g_fp32, CUBLAS_COMPUTE_32F_PEDANTIC, s, a, b, c); break;
  case 1: blas(g_tf32, CUBLAS_COMPUTE_32F_FAST_TF32, s, a, b, c); break;
  case 2:
    if (shapes_tf32(s.m, s.n, s.k, s.lda, s.ldb, s.ldc, a, b, c)) exit(2);
    break;
  default:
    if (shapes_x3(s.m, s.n, s.k, s.lda, s.ldb, s.ldc, a, b, c)) exit(2);
  }
}

/* a matrix rows x cols in storage of leading dimension ld, on the GPU, from the host's
   tight copy h (the padding NaN: read, it would show) */
static float *upload(const std::vector<float> &h, int rows, int cols, int ld) {
  std::vector<float> p((size_t)rows * ld, NAN);
  for (int i = 0; i < rows; i++) memcpy(&p[(size_t)i * ld], &h[(size_t)i * cols], cols * sizeof(float));
  float *d;
  CK(cudaMalloc(&d, p.size() * sizeof(float)));
  CK(cudaMemcpy(d, p.data(), p.size() * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

static double peak_of(int kind, double tf32, double fp32) {
  return kind == 0 ? fp32 : kind == 3 ? tf32 / 3 : tf32;
}

int main(int argc, char **argv) {
  const size_t l1 = argc > 1 ? strlen(argv[1]) : 0;
  FILE *csv = l1 > 4 && strcmp(argv[1] + l1 - 4, ".csv") == 0 ? fopen(argv[1], "a") : NULL;
  std::vector<Shape> shapes;
  for (int i = csv ? 2 : 1; i < argc; i++) {
    Shape s = {};
    if (sscanf(argv[i], "%dx%dx%d", &s.m, &s.n, &s.k) != 3 || s.m <= 0 || s.n <= 0 || s.k <= 0) {
      fprintf(stderr, "shapes: '%s' is not MxNxK with positive sizes\n", argv[i]);
      return 2;
    }
    shapes.push_back(s);
  }
  if (shapes.empty()) {
    static const int def[][3] = {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096},
                                 {8192, 8192, 8192}, {1000, 1000, 1000}, {3000, 3000, 3000},
                                 {5000, 5000, 5000}, {8192, 8192, 128},  {128, 8192, 8192},
                                 {8192, 128, 8192},  {1000, 3000, 777},  {12345, 6789, 4321},
                                 {2047, 2049, 2051}, {777, 777, 777}};
    for (auto &d : def) shapes.push_back({d[0], d[1], d[2], 0, 0, 0});
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0, mem_khz = 0, bus = 0;
  CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  CK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
  CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0));
  /* Hopper's tensor cores: 1024 TF32 FMAs a clock a multiprocessor (dense), the FP32
     cores 128; the datasheets' peaks (494.7 and 66.9 TFLOP/s on an H100 or H200 SXM)
     take 1830 and 1980 MHz; here the clock the GPU reports */
  const double sms = prop.multiProcessorCount, ghz = clock_khz / 1e6;
  const double tf32_peak = sms * 2048 * ghz / 1e3, fp32_peak = sms * 256 * ghz / 1e3; /* TFLOP/s */
  const double bw = 2.0 * mem_khz * 1e3 * (bus / 8) / 1e12;                           /* TB/s */
  printf("%s: %d multiprocessors at %.0f MHz, peaks %.1f TFLOP/s TF32, %.1f FP32; memory %.2f TB/s\n",
         prop.name, prop.multiProcessorCount, clock_khz / 1e3, tf32_peak, fp32_peak, bw);
  if (prop.major != 9) {
    fprintf(stderr, "shapes: the kernels are Hopper's (sm_90a); this GPU is sm_%d%d\n", prop.major, prop.minor);
    return 2;
  }
  if (cublasCreate(&g_fp32) != CUBLAS_STATUS_SUCCESS || cublasCreate(&g_tf32) != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "shapes: cublasCreate failed\n");
    return 2;
  }
  cublasSetMathMode(g_fp32, CUBLAS_PEDANTIC_MATH);
  if (csv && ftell(csv) == 0)
    fprintf(csv, "variant,M,N,K,lda,ldb,ldc,ms_median,ms_min,tflops,ratio,reference,roofline,relerr,status\n");
  int failed = 0;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (const Shape &sh : shapes) {
    const int M = sh.m, N = sh.n, K = sh.k;
    const double flop = 2.0 * M * N * K;
    const double bytes = 4.0 * ((double)M * K + (double)K * N + (double)M * N);
    std::vector<float> ha((size_t)M * K), hb((size_t)K * N);
    srand(41);
    for (auto &x : ha) x = rand() / (float)RAND_MAX * 2 - 1;
    for (auto &x : hb) x = rand() / (float)RAND_MAX * 2 - 1;
    Shape tight = {M, N, K, K, N, N}, pad = {M, N, K, (K + 31) / 32 * 32, (N + 31) / 32 * 32, (N + 31) / 32 * 32};
    float *a[2] = {upload(ha, M, K, tight.lda), upload(ha, M, K, pad.lda)};
    float *b[2] = {upload(hb, K, N, tight.ldb), upload(hb, K, N, pad.ldb)};
    float *c[2];
    CK(cudaMalloc(&c[0], (size_t)M * tight.ldc * sizeof(float)));
    CK(cudaMalloc(&c[1], (size_t)M * pad.ldc * sizeof(float)));
    /* the sampled elements' float64 values and sum |a||b| */
    enum { NS = 64 };
    int si[NS], sj[NS];
    double want[NS], mag[NS];
    for (int q = 0; q < NS; q++) {
      si[q] = q == 0 ? 0 : q == 1 ? M - 1 : rand() % M;
      sj[q] = q == 0 ? 0 : q == 1 ? N - 1 : rand() % N;
      double s = 0, m = 0;
      for (int k = 0; k < K; k++) {
        const double p = (double)ha[(size_t)si[q] * K + k] * hb[(size_t)k * N + sj[q]];
        s += p, m += fabs(p);
      }
      want[q] = s, mag[q] = m > 0 ? m : 1;
    }
    double err[NV];
    int ok[NV];
    for (int v = 0; v < NV; v++) {
      const Shape &s = variants[v].padded ? pad : tight;
      const int p = variants[v].padded;
      CK(cudaMemset(c[p], 0xff, (size_t)M * s.ldc * sizeof(float))); /* NaN */
      call(variants[v], s, a[p], b[p], c[p]);
      err[v] = 0;
      for (int q = 0; q < NS; q++) {
        float got;
        CK(cudaMemcpy(&got, c[p] + (size_t)si[q] * s.ldc + sj[q], sizeof got, cudaMemcpyDeviceToHost));
        const double e = fabs(got - want[q]) / mag[q];
        if (!(e <= err[v])) err[v] = e;
      }
      ok[v] = err[v] <= variants[v].tol;
      failed += !ok[v];
    }
    /* rounds: about 0.2 s of each variant's calls, 5 at least, 51 at most */
    const double est_ms = flop / (0.5 * tf32_peak * 1e12) * 1e3 + 0.02;
    const int rounds = std::max(5, std::min(51, (int)(200 / (est_ms * 3))));
    /* each round calls the variants in another order, a stride through them from another
       start, so that no variant always follows the same one: a call's clock depends on the
       power drawn just before it (run 69: at 16384^3 the GPU sits at its power limit, and
       cuBLAS TF32, always next to cuBLAS FP32's slower, cooler calls, ran 11 % faster than
       the same kernel on the padded storage) */
    std::vector<int> strides;
    for (int s = 1; s < NV || strides.empty(); s++) {
      int x = s, y = NV;
      while (y) x %= y, std::swap(x, y);
      if (x == 1) strides.push_back(s);
    }
    std::vector<float> ms[NV];
    for (int r = 0; r < rounds; r++)
      for (int i = 0; i < NV; i++) {
        const int stride = strides[r % strides.size()];
        const int v = (r + i * stride) % NV, p = variants[v].padded;
        CK(cudaEventRecord(e0));
        call(variants[v], p ? pad : tight, a[p], b[p], c[p]);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float t;
        CK(cudaEventElapsedTime(&t, e0, e1));
        ms[v].push_back(t);
      }
    double med[NV], mn[NV];
    for (int v = 0; v < NV; v++) {
      std::sort(ms[v].begin(), ms[v].end());
      med[v] = ms[v][ms[v].size() / 2], mn[v] = ms[v][0];
    }
    printf("\n%d x %d x %d (tight lda %d, ldb %d, ldc %d; padded %d, %d, %d), %d rounds\n", M, N, K, tight.lda,
           tight.ldb, tight.ldc, pad.lda, pad.ldb, pad.ldc, rounds);
    printf("  %-16s %9s %9s %8s %-26s %9s %9s\n", "variant", "ms", "TFLOP/s", "ratio", "against", "roofline",
           "error");
    for (int v = 0; v < NV; v++) {
      const Variant &V = variants[v];
      const Shape &s = V.padded ? pad : tight;
      const double rate = flop / (med[v] * 1e-3) / 1e12;
      const double bound = std::min(peak_of(V.kind, tf32_peak, fp32_peak), flop / bytes * bw);
      /* the 3xTF32 forms: against cuBLAS FP32 (the same accuracy); their ratio to
         cuBLAS TF32 / 3 is printed beside it */
      const double ref = V.ref == R_FP32 ? med[0] : V.ref == R_TF32 ? med[1] : med[v];
      char against[64] = "";
      if (V.ref == R_FP32)
        snprintf(against, sizeof against, "cublas_fp32 (TF32/3: %.2f)", 3 * med[1] / med[v]);
      else if (V.ref == R_TF32)
        snprintf(against, sizeof against, "cublas_tf32");
      printf("  %-16s %9.3f %9.1f %8.3f %-26s %9.2f %9.2g %s\n", V.name, med[v], rate, ref / med[v], against,
             rate / bound, err[v], ok[v] ? "" : "WRONG");
      if (csv)
        fprintf(csv, "%s,%d,%d,%d,%d,%d,%d,%.4f,%.4f,%.2f,%.4f,%s,%.3f,%.2e,%s\n", V.name, M, N, K, s.lda, s.ldb,
                s.ldc, med[v], mn[v], rate, ref / med[v],
                V.ref == R_FP32 ? "cublas_fp32" : V.ref == R_TF32 ? "cublas_tf32" : "", rate / bound, err[v],
                ok[v] ? "ok" : "WRONG");
    }
    for (int p = 0; p < 2; p++) cudaFree(a[p]), cudaFree(b[p]), cudaFree(c[p]);
  }
  if (csv) fclose(csv);
  printf("\nshapes: %s\n", failed ? "a check FAILED" : "every check passed");
  return failed != 0;
}
