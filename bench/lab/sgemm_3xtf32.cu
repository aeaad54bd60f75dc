// sgemm_3xtf32.cu: FP32 SGEMM on TF32 tensor cores by splitting each operand (issue
// 15, item 1; the hand-written twin of samples/perf_sgemm3x.pa). Each operand x is
// hi + lo, hi = x with its 13 low mantissa bits cleared (what the tensor core reads of
// x anyway: it truncates FP32 to TF32), lo = x - hi (exact in FP32, < 2^-10 |x|).
// a b = ahi bhi + ahi blo + alo bhi + alo blo; the last term (< 2^-20 |a b|) is left
// out, the others are three TF32 products: per-product error about 2^-21 of |a b|.
// The kernel is tf32_wgmma_variants.cu's (wgmma, two warpgroups, P k-major with the
// 128-byte swizzle, Q to registers, 32-deep slices, 3 cp.async stages) with, per slice:
// Q's fragments split in registers; group A = (qlo + qhi) x P issued at once; then,
// while it runs, P's low part written by all threads into one more shared buffer;
// group B = qhi x plo.
// wgmma accumulates in FP32 but rounds towards zero (measured: relative error growing
// with N, 1.5e-5 at N = 2048 to 5.8e-5 at 8192, where cuBLAS FP32 has 0.8e-6 to 1.6e-6).
// KC > 0 restarts the accumulators every KC slices and adds them to a second set in
// FP32 registers (round to nearest), as DeepSeek-V3 does for FP8: that needs 64 x 128
// products a warpgroup (BP = 128; 256 leaves no registers for the second set).
// Variants: BP (p-extent of the block tile, 256 or 128), AH (slices in flight: 1, the
// next slice's copies start at the top of a slice; 2, the one after, once the middle
// barrier frees its stage), DB (1: a slice's fragments double-buffered so its groups
// finish during the next slice; 0: every slice waits for its own groups), KC, and STAG
// (the second warpgroup restarts KC/2 slices after the first).
// Every variant is checked against float64 on 4096 sampled elements with bench.cu's
// FP32 limit (relative RMS error 1e-5), and the same error is printed for cuBLAS
// (pedantic FP32, the reference of the timings) and cuBLAS TF32.
//   nvcc -O3 -gencode arch=compute_90a,code=sm_90a -std=c++17 -Xptxas -v bench/lab/sgemm_3xtf32.cu -lcublas -o x3 && ./x3 2048 4096 8192
// Results: bench/results/x3_1_variants.txt (BP 128, KC 1: error 6.1e-7 to 6.5e-7,
// 1.71 to 1.84 of cuBLAS FP32; KC 2: 8.4e-7 to 8.5e-7, 1.90 to 1.97).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>
#include "../sgemm_3xtf32.cuh"

typedef void (*fn_t)(const float *, const float *, float *, int);
struct V { const char *name; fn_t f; };

int main(int argc, char **argv) {
  std::vector<int> Ns;
  for (int i = 1; i < argc; i++) Ns.push_back(atoi(argv[i]));
  if (Ns.empty()) Ns = {2048, 4096, 8192};
  V vs[] = {
      {"x3_p256", launch<256, 1, 1>},
      {"x3_p128", launch<128, 1, 1>},
      {"x3_p128_kc1", launch<128, 1, 1, 1>},
      {"x3_p128_kc2", launch<128, 1, 1, 2>},
      {"x3_p128_kc4", launch<128, 1, 1, 4>},
      {"x3_p128_kc8", launch<128, 1, 1, 8>},
      {"x3_p128_kc4_stag", launch<128, 1, 1, 4, 1>},
      {"x3_p128_kc8_stag", launch<128, 1, 1, 8, 1>},
  };
  const int nv = sizeof vs / sizeof vs[0];
  cublasHandle_t h, h32;
  if (cublasCreate(&h) || cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH) || cublasCreate(&h32) ||
      cublasSetMathMode(h32, CUBLAS_TF32_TENSOR_OP_MATH)) {
    printf("cuBLAS setup failed\n");
    return 2;
  }
  int bad_all = 0;
  for (int N : Ns) {
    if (N % 256) {
      printf("N=%d: not a multiple of 256, skipped\n", N);
      continue;
    }
    size_t nn = (size_t)N * N;
    std::vector<float> ha(nn), hb(nn), hc(nn);
    srand(7);
    for (auto &x : ha) x = rand() / (float)RAND_MAX * 2 - 1;
    for (auto &x : hb) x = rand() / (float)RAND_MAX * 2 - 1;
    float *a, *b, *c;
    CK(cudaMalloc(&a, nn * 4)); CK(cudaMalloc(&b, nn * 4)); CK(cudaMalloc(&c, nn * 4));
    CK(cudaMemcpy(a, ha.data(), nn * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, hb.data(), nn * 4, cudaMemcpyHostToDevice));
    const float one = 1, zero = 0;
    /* row-major C = A B is column-major C^T = B^T A^T */
    auto blas = [&](cublasHandle_t hh) {
      return [=, &one, &zero]() { cublasSgemm(hh, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, b, N, a, N, &zero, c, N); };
    };
    /* the sampled elements in float64, once */
    const int NS = 4096;
    std::vector<int> is(NS), js(NS);
    std::vector<double> ref(NS);
    for (int s = 0; s < NS; s++) {
      is[s] = s < 4 ? (s & 1) * (N - 1) : (int)(((long long)s * 7919) % N);
      js[s] = s < 4 ? (s >> 1) * (N - 1) : (int)(((long long)s * 104729 + s / 3) % N);
      double sum = 0;
      for (int k = 0; k < N; k++) sum += (double)ha[(size_t)is[s] * N + k] * hb[(size_t)k * N + js[s]];
      ref[s] = sum;
    }
    /* relative RMS error over the samples (bench.cu's measure) */
    auto error = [&](auto fn) {
      CK(cudaMemset(c, 0xff, nn * 4));
      fn();
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(hc.data(), c, nn * 4, cudaMemcpyDeviceToHost));
      double num = 0, den = 0;
      for (int s = 0; s < NS; s++) {
        const double e = hc[(size_t)is[s] * N + js[s]] - ref[s];
        num += e * e, den += ref[s] * ref[s];
      }
      return sqrt(num / den);
    };
    printf("N=%d error cublas_sgemm %.3g\n", N, error(blas(h)));
    printf("N=%d error cublas_tf32 %.3g\n", N, error(blas(h32)));
    std::vector<int> ok(nv);
    for (int v = 0; v < nv; v++) {
      const double e = error([&] { vs[v].f(a, b, c, N); });
      ok[v] = e < 1e-5;
      bad_all += !ok[v];
      printf("N=%d error %-12s %.3g %s\n", N, vs[v].name, e, ok[v] ? "ok" : "WRONG (limit 1e-5)");
    }
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto time = [&](auto fn) {
      cudaEventRecord(e0); fn(); cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1); return ms;
    };
    const int R = N >= 8192 ? 10 : 30;
    std::vector<std::vector<float>> tm(nv + 2);
    for (int w = 0; w < 3; w++) { blas(h)(); for (int v = 0; v < nv; v++) vs[v].f(a, b, c, N); }
    for (int rr = 0; rr < R; rr++) {
      /* every other round in the reverse order */
      std::vector<int> order;
      for (int v = 0; v < nv + 2; v++) order.push_back(v);
      if (rr % 2) std::reverse(order.begin(), order.end());
      for (int v : order)
        tm[v].push_back(v == nv ? time(blas(h)) : v == nv + 1 ? time(blas(h32)) : time([&] { vs[v].f(a, b, c, N); }));
    }
    CK(cudaGetLastError());
    auto med = [](std::vector<float> x) { std::sort(x.begin(), x.end()); return x[x.size() / 2]; };
    const double tb = med(tm[nv]), fl = 2.0 * N * N * (double)N;
    printf("| N | variant | ms | TFLOP/s | of cuBLAS FP32 |\n|---|---|---|---|---|\n");
    printf("| %d | cublas_sgemm | %.3f | %.1f | 1.000 |\n", N, tb, fl / tb / 1e9);
    printf("| %d | cublas_tf32 | %.3f | %.1f | %.3f |\n", N, med(tm[nv + 1]), fl / med(tm[nv + 1]) / 1e9, tb / med(tm[nv + 1]));
    for (int v = 0; v < nv; v++) {
      const double tv = med(tm[v]);
      printf("| %d | %s | %.3f | %.1f | %.3f%s |\n", N, vs[v].name, tv, fl / tv / 1e9, tb / tv, ok[v] ? "" : " WRONG");
    }
    cudaFree(a); cudaFree(b); cudaFree(c);
  }
  return bad_all ? 1 : 0;
}
