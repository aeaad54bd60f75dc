// 1-D FFTs down the columns of a slab in GPU memory: fft_columns(a, b, n,
// w, ld, stream) transforms each of the w columns of the n x w matrix a (row
// pitch ld elements, n a power of two from 4 to 65536) forward, unscaled, as
// cuFFT does, and leaves the result in b (same shape and pitch); a is
// overwritten.  cuFFT's strided plans do this 3.6-4.5 times slower than its
// row FFTs (bench/results/run33_fft_columns.md); here the batch runs along
// the row, so every load and store is a run of a row's 16 columns.
//
// Four steps (n = n1 * n2): pass 1 takes the n1-point FFTs over the rows
// n2' + n2 * j (j < n1) and multiplies by W_n^(n2' k1), in place; pass 2 takes
// the n2-point FFTs over the rows n2 * k1 + j (j < n2) into the rows
// k1 + n1 * k2 of b.  Each pass reads and writes the slab once.  Pass 1
// can also run a residue class of rows at a time (fft_columns_begin, then
// fft_columns_end): rows that cross between GPUs class by class are
// transformed while the next class crosses.  Inside a
// block the same split again (L = RA * RB): RA-point FFTs in registers,
// twiddles, a turn through shared memory, RB-point FFTs in registers.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define FFTC_TILE 16                            // columns of one block: 128 bytes of a row (32: slower)

__host__ __device__ constexpr int fftc_rev(int i, int r)    // i's bits reversed, r a power of two
{
  return r == 1 ? 0 : (i & 1) * (r / 2) + fftc_rev(i >> 1, r / 2);
}

__device__ __forceinline__ float2 fftc_mul(float2 a, float2 b)
{
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__device__ __forceinline__ float2 fftc_w16(int k)           // W_16^k = exp(-2 pi i k / 16)
{
  const float c[16] = {1.0f, 0.923879533f, 0.707106781f, 0.382683432f, 0.0f, -0.382683432f,
                       -0.707106781f, -0.923879533f, -1.0f, -0.923879533f, -0.707106781f,
                       -0.382683432f, 0.0f, 0.382683432f, 0.707106781f, 0.923879533f};
  return make_float2(c[k & 15], -c[(k + 12) & 15]);          // sin x = cos(x - pi/2)
}

__device__ __forceinline__ float2 fftc_w(int e, int n)      // W_n^e, e < n, n a power of two
{
  float s, c;
  sincospif(-2.0f * e / n, &s, &c);                          // exact argument: n is a power of two
  return make_float2(c, s);
}

__host__ __device__ constexpr int fftc_log2(int r)
{
  return r <= 1 ? 0 : 1 + fftc_log2(r / 2);
}

// R <= 16 values in order, in registers: every loop has a constant count,
// so that it unrolls and v stays in registers
template <int R> __device__ __forceinline__ void fftc_dft(float2 *v)
{
  float2 t[R];
#pragma unroll
  for (int i = 0; i < R; i++)
    t[i] = v[fftc_rev(i, R)];
#pragma unroll
  for (int stage = 0; stage < fftc_log2(R); stage++) {
    const int half = 1 << stage;
#pragma unroll
    for (int f = 0; f < R / 2; f++) {                          // butterfly f of R / 2
      int j = f % half, i = f / half * 2 * half + j;
      float2 a = t[i], b = fftc_mul(t[i + half], fftc_w16(j * (16 / (2 * half))));
      t[i] = make_float2(a.x + b.x, a.y + b.y);
      t[i + half] = make_float2(a.x - b.x, a.y - b.y);
    }
  }
#pragma unroll
  for (int i = 0; i < R; i++)
    v[i] = t[i];
}

// One pass: block (x, b) transforms columns x*16.. over the L = RA*RB rows
// y*in_b + j*in_j into the rows y*out_b + k*out_k, times W_n^(y*k) if twist,
// where y = y0 + b*y_step (the blocks of one residue class, or all of them).
// A thread's twiddles are products of one sincospif's (kept to memory's pace;
// a sincospif each would not be).
template <int RA, int RB>
__global__ void __launch_bounds__(FFTC_TILE *(RA > RB ? RA : RB))
fftc_pass(const float2 *in, float2 *out, int w, long ld, int n, int y0, int y_step, int in_b,
          int in_j, int out_b, int out_k, bool twist)
{
  const int L = RA * RB;
  __shared__ float2 turn[RB][RA][FFTC_TILE];
  int col = blockIdx.x * FFTC_TILE + threadIdx.x, y = y0 + y_step * (int)blockIdx.y;
  bool live = col < w;
  for (int nb = threadIdx.y; nb < RB; nb += blockDim.y) {
    float2 v[RA];
#pragma unroll
    for (int na = 0; na < RA; na++)
      v[na] = live ? in[(long)(y * in_b + (RB * na + nb) * in_j) * ld + col] : make_float2(0, 0);
    fftc_dft<RA>(v);
    float2 tw = make_float2(1, 0), step = fftc_w(nb, L);        // W_L^(nb ka), ka by ka
#pragma unroll
    for (int ka = 0; ka < RA; ka++) {
      turn[nb][ka][threadIdx.x] = fftc_mul(v[ka], tw);
      tw = fftc_mul(tw, step);
    }
  }
  __syncthreads();
  for (int ka = threadIdx.y; ka < RA; ka += blockDim.y) {
    float2 u[RB];
#pragma unroll
    for (int nb = 0; nb < RB; nb++)
      u[nb] = turn[nb][ka][threadIdx.x];
    fftc_dft<RB>(u);
    float2 tw = make_float2(1, 0), step = make_float2(1, 0);    // W_n^(y k), kb by kb
    if (twist) {
      tw = fftc_w(y * ka, n);
      step = fftc_w(y * RA, n);
    }
#pragma unroll
    for (int kb = 0; kb < RB; kb++) {
      int k = ka + RA * kb;
      if (live)
        out[(long)(y * out_b + k * out_k) * ld + col] = fftc_mul(u[kb], tw);
      tw = fftc_mul(tw, step);
    }
  }
}

// the rows and columns one pass covers, and how it reads and writes them
struct fftc_span {
  int w;                                        // columns
  long ld;                                      // the row pitch
  int n, y0, y_step, blocks_y;                  // the FFT's length; the values of y
  int in_b, in_j, out_b, out_k;                 // rows, as fftc_pass says
  bool twist;
};

template <int RA, int RB>
static void fftc_launch(const float2 *in, float2 *out, const fftc_span &p, cudaStream_t s)
{
  dim3 grid((p.w + FFTC_TILE - 1) / FFTC_TILE, p.blocks_y), block(FFTC_TILE, RA > RB ? RA : RB);
  fftc_pass<RA, RB><<<grid, block, 0, s>>>(in, out, p.w, p.ld, p.n, p.y0, p.y_step, p.in_b, p.in_j,
                                           p.out_b, p.out_k, p.twist);
}

// one pass of 2^e-point FFTs (e = 1 .. 8), RA = 2^ceil(e/2), RB = 2^floor(e/2)
static void fftc_pass_of(int e, const float2 *in, float2 *out, const fftc_span &p, cudaStream_t s)
{
  switch (e) {
  case 1: fftc_launch<2, 1>(in, out, p, s); break;
  case 2: fftc_launch<2, 2>(in, out, p, s); break;
  case 3: fftc_launch<4, 2>(in, out, p, s); break;
  case 4: fftc_launch<4, 4>(in, out, p, s); break;
  case 5: fftc_launch<8, 4>(in, out, p, s); break;
  case 6: fftc_launch<8, 8>(in, out, p, s); break;
  case 7: fftc_launch<16, 8>(in, out, p, s); break;
  default: fftc_launch<16, 16>(in, out, p, s); break;
  }
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    fprintf(stderr, "fft_columns: %s\n", cudaGetErrorString(err));
    exit(1);
  }
}

// n = 2^e: exits with a message unless n, w and ld make a slab fft_columns takes
static int fftc_exponent(int n, int w, long ld)
{
  int e = 0;
  while (e < 17 && (1 << e) < n)
    e++;
  if ((1 << e) != n || e < 2 || e > 16) {
    fprintf(stderr, "fft_columns: %d rows: not a power of two from 4 to 65536\n", n);
    exit(1);
  }
  if (w < 1 || ld < w) {
    fprintf(stderr, "fft_columns: %d columns in a pitch of %ld: not 1 or more within the pitch\n", w, ld);
    exit(1);
  }
  return e;
}

// The largest count of classes fft_columns_begin takes for n rows: n2.
static int fft_columns_classes(int n)
{
  return 1 << (fftc_exponent(n, 1, 1) / 2);
}

// Pass 1 over the rows r, r + R, r + 2R, ... of a alone (residue class r of
// R, R a power of two dividing fft_columns_classes(n)): it reads and writes
// no other row, so it can run as soon as those rows have arrived.  After all
// R classes, fft_columns_end finishes the transform.
static void fft_columns_begin(float2 *a, int n, int w, long ld, int r, int classes, cudaStream_t s)
{
  int e = fftc_exponent(n, w, ld), e1 = (e + 1) / 2, n2 = 1 << (e / 2);
  if (classes < 1 || n2 % classes != 0 || r < 0 || r >= classes) {
    fprintf(stderr, "fft_columns_begin: class %d of %d: the count must divide %d\n", r, classes, n2);
    exit(1);
  }
  fftc_span p = {w, ld, n, r, classes, n2 / classes, 1, n2, 1, n2, true};   // rows y + n2*j, in place
  fftc_pass_of(e1, a, a, p, s);
}

// Pass 2: a (every class through pass 1) into b.
static void fft_columns_end(const float2 *a, float2 *b, int n, int w, long ld, cudaStream_t s)
{
  int e = fftc_exponent(n, w, ld), e1 = (e + 1) / 2, e2 = e / 2;
  fftc_span p = {w, ld, n, 0, 1, 1 << e1, 1 << e2, 1, 1, 1 << e1, false};   // rows n2*k1 + j into k1 + n1*k2
  fftc_pass_of(e2, a, b, p, s);
}

static void fft_columns(float2 *a, float2 *b, int n, int w, long ld, cudaStream_t s)
{
  fft_columns_begin(a, n, w, ld, 0, 1, s);
  fft_columns_end(a, b, n, w, ld, s);
}
