// rect_copy_shapes: two block shapes of the runtime's copy kernel for a GPU's
// own rectangle (runtime/pa_cuda.cu, pa_rect_copy) on one GPU, int4 words:
// "row" is the kernel before e63af08 (256 threads along one row a block),
// "rows" the kernel since (a warp or more along the row, the rest of the 256
// threads over rows).  Tall narrow rectangles to wide ones; the mean of 5
// calls after one untimed, by CUDA events; each result compared with the
// source byte for byte (run 41).
//   nvcc -O3 -arch=sm_90 bench/lab/rect_copy_shapes.cu -o rcs && ./rcs
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void must(cudaError_t err, const char *what)
{
  if (err != cudaSuccess) {
    fprintf(stderr, "rect_copy_shapes: %s: %s\n", what, cudaGetErrorString(err));
    exit(1);
  }
}

__global__ void copy_row(char *to, size_t pitch, const char *from, size_t spitch, long long words, long long rows)
{
  for (long long r = blockIdx.y; r < rows; r += gridDim.y)
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < words; i += (long long)gridDim.x * blockDim.x)
      ((int4 *)(to + r * pitch))[i] = ((const int4 *)(from + r * spitch))[i];
}

__global__ void copy_rows(char *to, size_t pitch, const char *from, size_t spitch, long long words, long long rows)
{
  for (long long r = blockIdx.y * (long long)blockDim.y + threadIdx.y; r < rows; r += (long long)gridDim.y * blockDim.y)
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < words; i += (long long)gridDim.x * blockDim.x)
      ((int4 *)(to + r * pitch))[i] = ((const int4 *)(from + r * spitch))[i];
}

static void launch(int shape, char *to, const char *from, size_t pitch, long long words, long long rows)
{
  if (shape == 0) {
    long long x = (words + 1023) / 1024;
    dim3 grid((unsigned)(x > 1024 ? 1024 : x), (unsigned)(rows < 65535 ? rows : 65535));
    copy_row<<<grid, 256>>>(to, pitch, from, pitch, words, rows);
  } else {
    unsigned bx = words >= 256 ? 256 : (unsigned)(words + 31) / 32 * 32, by = 256 / bx;
    long long x = (words + 4 * bx - 1) / (4 * bx), y = (rows + by - 1) / by;
    dim3 grid((unsigned)(x > 1024 ? 1024 : x), (unsigned)(y < 65535 ? y : 65535)), block(bx, by);
    copy_rows<<<grid, block>>>(to, pitch, from, pitch, words, rows);
  }
  must(cudaGetLastError(), "launch");
}

int main(void)
{
  const long long shapes[][3] = {{16, 64, 1 << 20}, {64, 256, 1 << 20}, {256, 1024, 1 << 19}, {1024, 4096, 1 << 17},
                                 {65536, 131072, 8192}}; /* row bytes, pitch, rows: 64 MiB or 1 GiB of pitch each */
  size_t bytes = 1ull << 30;
  char *a, *b;
  must(cudaMalloc(&a, bytes), "cudaMalloc");
  must(cudaMalloc(&b, bytes), "cudaMalloc");
  char *host = (char *)malloc(bytes), *back = (char *)malloc(bytes);
  if (!host || !back) {
    fprintf(stderr, "rect_copy_shapes: no memory for the check\n");
    return 1;
  }
  for (size_t i = 0; i < bytes; i++)
    host[i] = (char)(i * 2654435761u >> 24);
  must(cudaMemcpy(a, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  cudaEvent_t e0, e1;
  must(cudaEventCreate(&e0), "cudaEventCreate");
  must(cudaEventCreate(&e1), "cudaEventCreate");
  int wrong = 0;
  printf("row bytes  pitch   rows     row (ms) rows (ms)  GB/s row / rows\n");
  for (const auto &sh : shapes) {
    long long w = sh[0], pitch = sh[1], rows = sh[2];
    float t[2];
    for (int shape = 0; shape < 2; shape++) {
      must(cudaMemset(b, 0, bytes), "cudaMemset");
      launch(shape, b, a, pitch, w / 16, rows);
      must(cudaEventRecord(e0), "cudaEventRecord");
      for (int rep = 0; rep < 5; rep++)
        launch(shape, b, a, pitch, w / 16, rows);
      must(cudaEventRecord(e1), "cudaEventRecord");
      must(cudaEventSynchronize(e1), "the copy kernel");
      must(cudaEventElapsedTime(&t[shape], e0, e1), "cudaEventElapsedTime");
      t[shape] /= 5;
      must(cudaMemcpy(back, b, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
      for (long long r = 0; r < rows; r++)
        if (memcmp(back + r * pitch, host + r * pitch, w) != 0) {
          printf("WRONG: %s, %lld-byte rows, row %lld\n", shape ? "rows" : "row", w, r);
          wrong = 1;
          break;
        }
    }
    double gb = 2.0 * w * rows / 1e9;
    printf("%-10lld %-7lld %-8lld %-8.3f %-10.3f %.0f / %.0f\n", w, pitch, rows, t[0], t[1], gb / t[0] * 1e3,
           gb / t[1] * 1e3);
  }
  printf("%s\n", wrong ? "WRONG" : "correct");
  return wrong;
}
