// fft_columns_check: samples/multi/fft_columns.h against cuFFT's strided
// plan (the same transform, istride = the pitch) for every power of two
// from 4 to 65536 rows, at widths 1, 17 (not a multiple of the 16 columns
// of a block) and 48, each pitch wider than its width; the columns past the
// width must stay as they were.  Width 17 again with pass 1 run class by
// class (fft_columns_begin over every residue class of rows, the last
// class first, then fft_columns_end).  Exits 1 on any error past the bound.
#include "../../samples/multi/fft_columns.h"
#include <cufft.h>
#include <math.h>
#include <vector>

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

// n x w in a pitch of ld, pass 1 in the given count of classes; returns
// whether the result is within the bound
static bool check(int n, int w, int ld, int classes)
{
  size_t count = (size_t)n * ld, bytes = count * sizeof(float2);
  std::vector<float2> in(count), got(count), want(count);
  srand(n * 131 + w);
  for (size_t i = 0; i < count; i++)
    in[i] = make_float2(rand() / (float)RAND_MAX - 0.5f, rand() / (float)RAND_MAX - 0.5f);
  float2 *a, *b, *c;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMalloc(&c, bytes));
  CHECK(cudaMemcpy(a, in.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, in.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(c, in.data(), bytes, cudaMemcpyHostToDevice));
  if (classes == 1)
    fft_columns(a, b, n, w, ld, 0);
  else {
    for (int r = classes - 1; r >= 0; r--)
      fft_columns_begin(a, n, w, ld, r, classes, 0);
    fft_columns_end(a, b, n, w, ld, 0);
  }
  cufftHandle plan;
  int size[1] = {n};
  if (cufftPlanMany(&plan, 1, size, size, ld, 1, size, ld, 1, CUFFT_C2C, w) != CUFFT_SUCCESS ||
      cufftExecC2C(plan, (cufftComplex *)c, (cufftComplex *)c, CUFFT_FORWARD) != CUFFT_SUCCESS) {
    fprintf(stderr, "cuFFT's plan for %d x %d failed\n", n, w);
    exit(1);
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(got.data(), b, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(want.data(), c, bytes, cudaMemcpyDeviceToHost));
  double err = 0, top = 0;
  int untouched = 1;
  for (int r = 0; r < n; r++)
    for (int j = 0; j < ld; j++) {
      float2 g = got[(size_t)r * ld + j], e = want[(size_t)r * ld + j], x = in[(size_t)r * ld + j];
      if (j >= w) {
        untouched &= g.x == x.x && g.y == x.y;
        continue;
      }
      err = fmax(err, fmax(fabs(g.x - e.x), fabs(g.y - e.y)));
      top = fmax(top, fmax(fabs(e.x), fabs(e.y)));
    }
  bool ok = err <= 1e-6 * top * log2((double)n) && untouched;
  printf("%6d x %2d (pitch %2d, %3d classes): max error %.3g of %.3g%s: %s\n", n, w, ld, classes, err, top,
         untouched ? "" : ", columns past the width changed", ok ? "ok" : "WRONG");
  cufftDestroy(plan);
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  return ok;
}

int main(void)
{
  const int shapes[3][2] = {{1, 2}, {17, 20}, {48, 50}};   // width, pitch
  int bad = 0;
  for (int n = 4; n <= 65536; n *= 2) {
    for (int s = 0; s < 3; s++)
      bad += !check(n, shapes[s][0], shapes[s][1], 1);
    bad += !check(n, 17, 20, fft_columns_classes(n));
  }
  printf("fft_columns: %s\n", bad ? "WRONG" : "all correct");
  return bad != 0;
}
