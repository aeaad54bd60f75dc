// bench/lab/tf32_layouts.cu (issue 53, run 49): the time of perf_tf32's four layouts
// (or perf_sgemm3x's, -DPFX=perf_sgemm3x) at order N against cuBLAS TF32, in one process:
// each call timed alone between two events (so the host's work before a launch counts),
// the median of 30 after 3 warm-up calls; cuBLAS TF32 first and last, the ratios against
// the first. MNK_WS=0 in the environment (a -DMNK_TUNE build) keeps the old kernel.
// Built off the GPU (nvcc 13 here), run there:
//   parrayc --arch=sm_90a -DTF32_CFG=6 samples/perf_tf32.pa -o tf32.cu
//   nvcc -O3 -std=c++17 -arch=sm_90a -Iinclude -DTF32_CFG=6 -DMNK_TUNE -DN=4096 \
//     -Dmain=pa_main_tf32 -c tf32.cu -o tf32.o
//   nvcc -O3 -std=c++17 -arch=sm_90a -DN=4096 bench/lab/tf32_layouts.cu tf32.o \
//     LIBPARRAY_CUDA.a -o t32_4096 -lcublas      (bench/runtime.sh's runtime_lib builds it)
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#ifndef PFX
#define PFX perf_tf32
#endif
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
void CAT(PFX, _row)(float *, float *, float *);
void CAT(PFX, _fig18a)(float *, float *, float *);
void CAT(PFX, _fig18b)(float *, float *, float *);
void CAT(PFX, _col)(float *, float *, float *);
static cublasHandle_t h;
static void cublas_tf32(float *a, float *b, float *c) {
  const float one = 1, zero = 0;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, b, N, a, N, &zero, c, N);
}
static double time_ms(void (*f)(float *, float *, float *), float *a, float *b, float *c) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0), cudaEventCreate(&e1);
  for (int i = 0; i < 3; i++) f(a, b, c);
  std::vector<float> ms;
  for (int i = 0; i < 30; i++) {
    cudaEventRecord(e0);
    f(a, b, c);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float m;
    cudaEventElapsedTime(&m, e0, e1);
    ms.push_back(m);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}
int main() {
  cublasCreate(&h);
  cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
  float *a, *b, *c;
  const size_t n = (size_t)N * N;
  cudaMalloc(&a, n * 4), cudaMalloc(&b, n * 4), cudaMalloc(&c, n * 4);
  std::vector<float> hv(n);
  for (size_t i = 0; i < n; i++) hv[i] = (float)((i * 7919) % 1000) / 1000.0f - 0.5f;
  cudaMemcpy(a, hv.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hv.data(), n * 4, cudaMemcpyHostToDevice);
  struct { const char *name; void (*f)(float *, float *, float *); } v[] = {
      {"cublas_tf32", cublas_tf32}, {"row", CAT(PFX, _row)}, {"fig18a", CAT(PFX, _fig18a)},
      {"fig18b", CAT(PFX, _fig18b)}, {"col", CAT(PFX, _col)}, {"cublas_tf32", cublas_tf32}};
  const double flop = 2.0 * N * N * (double)N;
  double ref = 0;
  for (auto &x : v) {
    const double ms = time_ms(x.f, a, b, c);
    const double tf = flop / ms / 1e9;
    if (!ref) ref = tf;
    printf("N=%d MNK_WS=%s %-12s %8.4f ms %7.1f TFLOP/s %.3f of cuBLAS TF32\n", N,
           getenv("MNK_WS") ? getenv("MNK_WS") : "-", x.name, ms, tf, tf / ref);
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
  return 0;
}
