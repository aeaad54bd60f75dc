/* tf32-dev/h.cu: times perf_tf32 (included, TF32_CFG and N from -D) against cuBLAS
   TF32 on the four layouts, after checking every element against cuBLAS FP32
   (pedantic) with the sample's bound: |c - ref| <= 1e-2 sum_k |a_ik||b_kj|. */
#include <cublas_v2.h>
#define main pa_sample_main
#include "perf_tf32.cu"
#undef main
#include <algorithm>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

__device__ long long off(int lay, long long i, long long j) {
  const long long n = N, h = N / 2, q = N / 4;
  switch (lay) {
  case 0: return i * n + j;
  case 1: return (j / q) * n * q + i * q + j % q;
  case 2: return (((i / h) * 2 + j / h) * h + i % h) * h + j % h;
  default: return j * n + i;
  }
}
__global__ void to_lay(const float *src, float *dst, int lay) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < (long long)N * N) dst[off(lay, t / N, t % N)] = src[t];
}
__global__ void check(const float *c, const float *ref, const float *scale, int lay, unsigned long long *bad, float *worst) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= (long long)N * N) return;
  float got = c[off(lay, t / N, t % N)];
  float e = fabsf(got - ref[t]) / scale[t];
  if (!(e <= 1e-2f)) atomicAdd(bad, 1ULL);
  else atomicMax((int *)worst, __float_as_int(e));
}
__global__ void absv(const float *x, float *y) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < (long long)N * N) y[t] = fabsf(x[t]);
}
__global__ void fill(float *x, unsigned seed) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  unsigned s = (unsigned)t * 2654435761u ^ seed * 40503u;
  s ^= s >> 13; s *= 0x5bd1e995u; s ^= s >> 15;
  if (t < (long long)N * N) x[t] = (s & 0xffffff) / 8388608.0f - 1.0f;
}
__global__ void poison(float *x) {
  long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t < (long long)N * N) x[t] = __int_as_float(0x7fc00000);
}

static cublasHandle_t tf, fp;
static void gemm(cublasHandle_t h, cublasComputeType_t ct, const float *a, const float *b, float *c) {
  const float one = 1, zero = 0;
  if (cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, b, CUDA_R_32F, N, a, CUDA_R_32F, N, &zero, c,
                   CUDA_R_32F, N, ct, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) { printf("cublas failed\n"); exit(2); }
}
typedef void (*Fn)(float *, float *, float *);
int main() {
  const size_t n2 = (size_t)N * N, bytes = n2 * 4;
  const int G = (int)((n2 + 255) / 256);
  float *a, *b, *ref, *scale, *la, *lb, *lc, *aa, *ab, *worst;
  unsigned long long *bad;
  CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes)); CK(cudaMalloc(&ref, bytes)); CK(cudaMalloc(&scale, bytes));
  CK(cudaMalloc(&la, bytes)); CK(cudaMalloc(&lb, bytes)); CK(cudaMalloc(&lc, bytes));
  CK(cudaMalloc(&aa, bytes)); CK(cudaMalloc(&ab, bytes)); CK(cudaMalloc(&bad, 8)); CK(cudaMalloc(&worst, 4));
  cublasCreate(&tf); cublasCreate(&fp); cublasSetMathMode(fp, CUBLAS_PEDANTIC_MATH);
  fill<<<G, 256>>>(a, 1); fill<<<G, 256>>>(b, 2);
  absv<<<G, 256>>>(a, aa); absv<<<G, 256>>>(b, ab);
  gemm(fp, CUBLAS_COMPUTE_32F_PEDANTIC, a, b, ref);
  gemm(fp, CUBLAS_COMPUTE_32F_PEDANTIC, aa, ab, scale);
  CK(cudaDeviceSynchronize());
  Fn fns[4] = {perf_tf32_row, perf_tf32_fig18a, perf_tf32_fig18b, perf_tf32_col};
  const char *names[4] = {"row", "fig18a", "fig18b", "col"};
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  const double flop = 2.0 * N * N * (double)N;
  const int R = N >= 8192 ? 9 : 21;
  for (int l = 0; l < 4; l++) {
    to_lay<<<G, 256>>>(a, la, l); to_lay<<<G, 256>>>(b, lb, l); poison<<<G, 256>>>(lc);
    CK(cudaMemset(bad, 0, 8)); CK(cudaMemset(worst, 0, 4));
    fns[l](la, lb, lc);
    check<<<G, 256>>>(lc, ref, scale, l, bad, worst);
    unsigned long long nbad; float w;
    CK(cudaMemcpy(&nbad, bad, 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&w, worst, 4, cudaMemcpyDeviceToHost));
    std::vector<float> tb, tp;
    for (int r = -2; r < R; r++) {
      float t[2];
      for (int k = 0; k < 2; k++) {
        int which = (r & 1) ? 1 - k : k;
        cudaEventRecord(e0);
        if (which == 0) { gemm(tf, CUBLAS_COMPUTE_32F_FAST_TF32, a, b, lc); CK(cudaDeviceSynchronize()); }
        else fns[l](la, lb, lc);
        cudaEventRecord(e1); cudaEventSynchronize(e1);
        cudaEventElapsedTime(&t[which], e0, e1);
      }
      if (r >= 0) { tb.push_back(t[0]); tp.push_back(t[1]); }
    }
    std::sort(tb.begin(), tb.end()); std::sort(tp.begin(), tp.end());
    float mb = tb[R / 2], mp = tp[R / 2];
    printf("cfg %d N %5d %-7s %s (%llu wrong, worst %.2g) cublas_tf32 %.3f ms %.1f TF/s | parray %.3f ms %.1f TF/s | ratio %.3f\n",
           TF32_CFG, N, names[l], nbad ? "WRONG" : "ok", nbad, w, mb, flop / mb / 1e9, mp, flop / mp / 1e9, mb / mp);
  }
  return 0;
}
