/* tune_mnk.cu (issue 53, session 44): the tile width along P and the parts of k of
 * tf32.pah's TF32_MNK, forced through the environment of perf_shapes.pa built with
 * -DMNK_TUNE (MNK_PT: 256 or 128; MNK_SPLITS: the parts), timed beside cuBLAS TF32 on padded storage
 * (leading dimensions rounded up to 32), and shapes_x3 with forced parts.  Each
 * configuration's first result checked at 64 sampled elements against float64.
 *   nvcc -O3 -std=c++17 -arch=sm_90a -DMNK_TUNE -Dmain=pa_main_perf_shapes -c perf_shapes.cu
 *   nvcc -O3 -std=c++17 -arch=sm_90a tune_mnk.cu perf_shapes.o libparray_cuda.a -lcublas
 *   tune_mnk [MxNxK ...] */
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

static cublasHandle_t h;
struct Cfg {
  const char *pt, *splits; /* environment values; NULL: unset (the sample's own choice) */
  int x3;
};

static int run(const Cfg &g, int M, int N, int K, int lda, int ldb, int ldc, float *a, float *b, float *c) {
  if (g.x3 < 0) {
    const float one = 1, zero = 0;
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, b, CUDA_R_32F, ldb, a, CUDA_R_32F, lda, &zero, c,
                 CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
    return cudaDeviceSynchronize() != cudaSuccess;
  }
  if (g.pt) setenv("MNK_PT", g.pt, 1); else unsetenv("MNK_PT");
  if (g.splits) setenv("MNK_SPLITS", g.splits, 1); else unsetenv("MNK_SPLITS");
  return g.x3 ? shapes_x3(M, N, K, lda, ldb, ldc, a, b, c) : shapes_tf32(M, N, K, lda, ldb, ldc, a, b, c);
}

int main(int argc, char **argv) {
  std::vector<std::vector<int>> shapes;
  for (int i = 1; i < argc; i++) {
    int m, n, k;
    if (sscanf(argv[i], "%dx%dx%d", &m, &n, &k) == 3) shapes.push_back({m, n, k});
  }
  cublasCreate(&h);
  const Cfg cfgs[] = {{"cublas", 0, -1}, {0, 0, 0},       {"256", "1", 0}, {"256", "2", 0}, {"256", "3", 0},
                      {"256", "4", 0},   {"128", "1", 0}, {"128", "2", 0}, {"128", "3", 0}, {"128", "4", 0},
                      {0, 0, 1},         {0, "1", 1},     {0, "2", 1},     {0, "3", 1}};
  const int NC = sizeof cfgs / sizeof cfgs[0];
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  int bad = 0;
  for (auto &sh : shapes) {
    const int M = sh[0], N = sh[1], K = sh[2];
    const int lda = (K + 31) / 32 * 32, ldb = (N + 31) / 32 * 32, ldc = ldb;
    std::vector<float> ha((size_t)M * lda, 0.f), hb((size_t)K * ldb, 0.f);
    srand(7);
    for (int i = 0; i < M; i++) for (int k = 0; k < K; k++) ha[(size_t)i * lda + k] = rand() / (float)RAND_MAX * 2 - 1;
    for (int k = 0; k < K; k++) for (int j = 0; j < N; j++) hb[(size_t)k * ldb + j] = rand() / (float)RAND_MAX * 2 - 1;
    float *a, *b, *c;
    cudaMalloc(&a, ha.size() * 4);
    cudaMalloc(&b, hb.size() * 4);
    cudaMalloc(&c, (size_t)M * ldc * 4);
    cudaMemcpy(a, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice);
    enum { NS = 64 };
    int si[NS], sj[NS];
    double want[NS], mag[NS];
    for (int q = 0; q < NS; q++) {
      si[q] = q == 0 ? 0 : q == 1 ? M - 1 : rand() % M;
      sj[q] = q == 0 ? 0 : q == 1 ? N - 1 : rand() % N;
      double s = 0, m = 0;
      for (int k = 0; k < K; k++) {
        const double p = (double)ha[(size_t)si[q] * lda + k] * hb[(size_t)k * ldb + sj[q]];
        s += p, m += fabs(p);
      }
      want[q] = s, mag[q] = m > 0 ? m : 1;
    }
    const double flop = 2.0 * M * N * K;
    printf("\n%d x %d x %d (padded)\n", M, N, K);
    double ref = 0;
    for (int ci = 0; ci < NC; ci++) {
      const Cfg &g = cfgs[ci];
      cudaMemset(c, 0xff, (size_t)M * ldc * 4);
      if (run(g, M, N, K, lda, ldb, ldc, a, b, c)) { printf("  launch failed\n"); bad++; continue; }
      double err = 0;
      for (int q = 0; q < NS; q++) {
        float got;
        cudaMemcpy(&got, c + (size_t)si[q] * ldc + sj[q], 4, cudaMemcpyDeviceToHost);
        const double e = fabs(got - want[q]) / mag[q];
        if (!(e <= err)) err = e;
      }
      const double tol = g.x3 == 1 ? 2e-5 : 1e-2;
      bad += !(err <= tol);
      std::vector<float> ms;
      float tot = 0;
      while ((ms.size() < 200 && tot < 60) || ms.size() < 7) {
        cudaEventRecord(e0);
        run(g, M, N, K, lda, ldb, ldc, a, b, c);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float t;
        cudaEventElapsedTime(&t, e0, e1);
        ms.push_back(t), tot += t;
      }
      std::sort(ms.begin(), ms.end());
      const double med = ms[ms.size() / 2];
      if (ci == 0) ref = med;
      printf("  %-7s pt %-4s splits %-4s %8.4f ms %7.1f TFLOP/s  %5.3f of cuBLAS TF32%s  err %.1e%s\n",
             g.x3 < 0 ? "cublas" : g.x3 ? "x3" : "tf32", g.pt && g.x3 >= 0 ? g.pt : "-",
             g.splits ? g.splits : "auto", med, flop / med / 1e9, ref / med, g.x3 == 1 ? " (x3: x3)" : "", err,
             err <= tol ? "" : " WRONG");
    }
    cudaFree(a), cudaFree(b), cudaFree(c);
  }
  printf("\ntune_mnk: %s\n", bad ? "a check FAILED" : "every check passed");
  return bad != 0;
}
