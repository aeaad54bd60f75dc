// fft_columns_speed: samples/multi/fft_columns.h (the FFT sample's column
// FFTs) against cuFFT's row FFTs of the same data on one GPU, the FFT
// sample's per-GPU slabs at 16384 and 32768 on 2 and 4 GPUs (run 34).  Best
// of 7 after one untimed call, each by CUDA events; the bandwidth counts
// both passes' reads and writes.  Correctness: tests/multi/fft_columns_check.cu.
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/lab/fft_columns_speed.cu -lcufft -o fcs && ./fcs
#include "../../samples/multi/fft_columns.h"
#include <cufft.h>
#include <math.h>

static void must(bool ok, const char *what)
{
  if (!ok) {
    fprintf(stderr, "fft_columns_speed: %s failed\n", what);
    exit(1);
  }
}

static void speed(int n, int w)
{
  size_t bytes = sizeof(float2) * (size_t)n * w;
  float2 *a, *b;
  must(cudaMalloc(&a, bytes) == cudaSuccess && cudaMalloc(&b, bytes) == cudaSuccess, "cudaMalloc");
  must(cudaMemset(a, 0, bytes) == cudaSuccess, "cudaMemset");
  cufftHandle rows;
  must(cufftPlan1d(&rows, n, CUFFT_C2C, w) == CUFFT_SUCCESS, "cufftPlan1d");
  cudaEvent_t e0, e1, e2;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventCreate(&e2);
  float cols = 1e9f, row = 1e9f;
  for (int rep = 0; rep < 8; rep++) {
    cudaEventRecord(e0);
    fft_columns(a, b, n, w, w, 0);
    cudaEventRecord(e1);
    must(cufftExecC2C(rows, (cufftComplex *)a, (cufftComplex *)a, CUFFT_FORWARD) == CUFFT_SUCCESS, "cufftExecC2C");
    cudaEventRecord(e2);
    must(cudaEventSynchronize(e2) == cudaSuccess, "the runs");
    float t0, t1;
    cudaEventElapsedTime(&t0, e0, e1);
    cudaEventElapsedTime(&t1, e1, e2);
    if (rep > 0) {
      cols = fminf(cols, t0);
      row = fminf(row, t1);
    }
  }
  printf("| %d x %d | %.3f | %.0f | %.3f | %.2f |\n", n, w, cols, 4.0 * bytes / cols / 1e6, row, cols / row);
  cufftDestroy(rows);
  cudaFree(a);
  cudaFree(b);
}

int main(void)
{
  printf("| n x w (column FFTs of n points) | fft_columns ms | GB/s | cuFFT's w row FFTs of n points, ms | ratio |\n");
  printf("|---|---|---|---|---|\n");
  speed(16384, 8192);
  speed(16384, 4096);
  speed(32768, 16384);
  speed(32768, 8192);
  return 0;
}
