// transpose_variants.cu: transpose kernels against cudaMemcpy device to device
// at N = 4096 and 8192 (issue 15 item 3: which tile shape reaches 0.95 of the
// device copy?).  Each variant is checked element by element and timed as the
// median of 30 calls after 3 warm-up calls (CUDA events); prints a table.
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/lab/transpose_variants.cu -o tv && ./tv
// Run 15 (bench/results/run15_transpose_variants.md) chose the 64 x 64 tile:
// float4 for samples/perf_transpose.pa and its twin, scalar for #copy.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void __launch_bounds__(256) t0(const float *in, float *out, int N) {  // twin: 32x32, 32x8
  __shared__ float t[32][33];
  int bx = blockIdx.x * 32, by = blockIdx.y * 32, x = threadIdx.x, y = threadIdx.y;
#pragma unroll
  for (int r = 0; r < 32; r += 8) t[y + r][x] = in[(size_t)(by + y + r) * N + bx + x];
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 32; r += 8) out[(size_t)(bx + y + r) * N + by + x] = t[x][y + r];
}
__global__ void __launch_bounds__(256) t_cs(const float *in, float *out, int N) {  // twin + streaming hints
  __shared__ float t[32][33];
  int bx = blockIdx.x * 32, by = blockIdx.y * 32, x = threadIdx.x, y = threadIdx.y;
#pragma unroll
  for (int r = 0; r < 32; r += 8) t[y + r][x] = __ldcs(&in[(size_t)(by + y + r) * N + bx + x]);
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 32; r += 8) __stcs(&out[(size_t)(bx + y + r) * N + by + x], t[x][y + r]);
}
template <int TPB>  // TPB tiles per block, down the columns
__global__ void __launch_bounds__(256) t_multi(const float *in, float *out, int N) {
  __shared__ float t[2][32][33];
  int bx = blockIdx.x * 32, x = threadIdx.x, y = threadIdx.y;
  for (int q = 0; q < TPB; q++) {
    int by = (blockIdx.y * TPB + q) * 32;
    float (*s)[33] = t[q & 1];
#pragma unroll
    for (int r = 0; r < 32; r += 8) s[y + r][x] = in[(size_t)(by + y + r) * N + bx + x];
    __syncthreads();
#pragma unroll
    for (int r = 0; r < 32; r += 8) out[(size_t)(bx + y + r) * N + by + x] = s[x][y + r];
  }
}
__global__ void __launch_bounds__(512) t_32x16(const float *in, float *out, int N) {  // 32x32, 32x16 threads
  __shared__ float t[32][33];
  int bx = blockIdx.x * 32, by = blockIdx.y * 32, x = threadIdx.x, y = threadIdx.y;
#pragma unroll
  for (int r = 0; r < 32; r += 16) t[y + r][x] = in[(size_t)(by + y + r) * N + bx + x];
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 32; r += 16) out[(size_t)(bx + y + r) * N + by + x] = t[x][y + r];
}
__global__ void __launch_bounds__(256) t_64(const float *in, float *out, int N) {  // 64x64 tile, 32x8 threads, scalar
  __shared__ float t[64][65];
  int bx = blockIdx.x * 64, by = blockIdx.y * 64, x = threadIdx.x, y = threadIdx.y;
#pragma unroll
  for (int r = 0; r < 64; r += 8)
#pragma unroll
    for (int c = 0; c < 64; c += 32) t[y + r][x + c] = in[(size_t)(by + y + r) * N + bx + x + c];
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 64; r += 8)
#pragma unroll
    for (int c = 0; c < 64; c += 32) out[(size_t)(bx + y + r) * N + by + x + c] = t[x + c][y + r];
}
__global__ void __launch_bounds__(256) t_64v2(const float *in, float *out, int N) {  // 64x64, float2 both ways
  __shared__ float t[64][65];
  int bx = blockIdx.x * 64, by = blockIdx.y * 64, x = threadIdx.x, y = threadIdx.y;
#pragma unroll
  for (int r = 0; r < 64; r += 8) {
    float2 v = *(const float2 *)&in[(size_t)(by + y + r) * N + bx + 2 * x];
    t[y + r][2 * x] = v.x; t[y + r][2 * x + 1] = v.y;
  }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 64; r += 8)
    *(float2 *)&out[(size_t)(bx + y + r) * N + by + 2 * x] = make_float2(t[2 * x][y + r], t[2 * x + 1][y + r]);
}
__global__ void __launch_bounds__(256) t_64v4(const float *in, float *out, int N) {  // 64x64, float4 both ways, 16x16 threads
  __shared__ float t[64][65];
  int bx = blockIdx.x * 64, by = blockIdx.y * 64, x = threadIdx.x % 16, y = threadIdx.x / 16;
#pragma unroll
  for (int r = 0; r < 64; r += 16) {
    float4 v = *(const float4 *)&in[(size_t)(by + y + r) * N + bx + 4 * x];
    t[y + r][4 * x] = v.x; t[y + r][4 * x + 1] = v.y; t[y + r][4 * x + 2] = v.z; t[y + r][4 * x + 3] = v.w;
  }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 64; r += 16)
    *(float4 *)&out[(size_t)(bx + y + r) * N + by + 4 * x] =
        make_float4(t[4 * x][y + r], t[4 * x + 1][y + r], t[4 * x + 2][y + r], t[4 * x + 3][y + r]);
}
__global__ void __launch_bounds__(256) t_32v4(const float *in, float *out, int N) {  // 32x32 float4, 8 x 32 threads, a row each
  __shared__ float t[32][33];
  int bx = blockIdx.x * 32, by = blockIdx.y * 32, x = threadIdx.x % 8, y = threadIdx.x / 8;
  float4 v = *(const float4 *)&in[(size_t)(by + y) * N + bx + 4 * x];
  t[y][4 * x] = v.x; t[y][4 * x + 1] = v.y; t[y][4 * x + 2] = v.z; t[y][4 * x + 3] = v.w;
  __syncthreads();
  *(float4 *)&out[(size_t)(bx + y) * N + by + 4 * x] =
      make_float4(t[4 * x][y], t[4 * x + 1][y], t[4 * x + 2][y], t[4 * x + 3][y]);
}
__global__ void copy4(const float4 *in, float4 *out, size_t n4) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) out[i] = in[i];
}

__global__ void check(const float *in, const float *out, int N, unsigned long long *bad) {
  for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < (size_t)N * N; e += (size_t)gridDim.x * blockDim.x) {
    size_t i = e / N, j = e % N;
    if (out[j * N + i] != in[e]) atomicAdd(bad, 1ULL);
  }
}

int main() {
  int ns[] = {4096, 8192};
  printf("| N | variant | ms | GB/s | of memcpy |\n|---|---|---|---|---|\n");
  for (int N : ns) {
    size_t bytes = (size_t)N * N * 4;
    float *a, *b; unsigned long long *bad;
    CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes)); CK(cudaMalloc(&bad, 8));
    std::vector<float> h((size_t)N * N);
    for (size_t i = 0; i < h.size(); i++) h[i] = (float)(i % 1000003);
    CK(cudaMemcpy(a, h.data(), bytes, cudaMemcpyHostToDevice));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    auto time = [&](auto fn) {
      for (int w = 0; w < 3; w++) fn();
      std::vector<float> ts;
      for (int r = 0; r < 30; r++) { cudaEventRecord(e0); fn(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); ts.push_back(ms); }
      std::sort(ts.begin(), ts.end()); CK(cudaGetLastError()); return ts[ts.size() / 2];
    };
    float mc = time([&] { cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice); });
    auto row = [&](const char *name, float ms, bool tr) {
      unsigned long long hb = 0;
      if (tr) { CK(cudaMemset(bad, 0, 8)); check<<<1024, 256>>>(a, b, N, bad); CK(cudaMemcpy(&hb, bad, 8, cudaMemcpyDeviceToHost)); }
      printf("| %d | %s | %.4f | %.1f | %.3f%s |\n", N, name, ms, 2.0 * bytes / ms / 1e6, mc / ms, hb ? " WRONG" : "");
    };
    row("memcpy_d2d", mc, false);
    row("copy_float4", time([&] { copy4<<<132 * 8, 256>>>((const float4 *)a, (float4 *)b, bytes / 16); }), false);
    dim3 g32(N / 32, N / 32), g64(N / 64, N / 64);
    row("t0 32x32 (twin)", time([&] { t0<<<g32, dim3(32, 8)>>>(a, b, N); }), true);
    row("t_cs streaming", time([&] { t_cs<<<g32, dim3(32, 8)>>>(a, b, N); }), true);
    row("t_multi<2>", time([&] { t_multi<2><<<dim3(N / 32, N / 64), dim3(32, 8)>>>(a, b, N); }), true);
    row("t_multi<4>", time([&] { t_multi<4><<<dim3(N / 32, N / 128), dim3(32, 8)>>>(a, b, N); }), true);
    row("t_32x16", time([&] { t_32x16<<<g32, dim3(32, 16)>>>(a, b, N); }), true);
    row("t_64 scalar", time([&] { t_64<<<g64, dim3(32, 8)>>>(a, b, N); }), true);
    row("t_64v2 float2", time([&] { t_64v2<<<g64, dim3(32, 8)>>>(a, b, N); }), true);
    row("t_64v4 float4", time([&] { t_64v4<<<g64, 256>>>(a, b, N); }), true);
    row("t_32v4 float4", time([&] { t_32v4<<<g32, 256>>>(a, b, N); }), true);
    cudaFree(a); cudaFree(b); cudaFree(bad);
  }
  return 0;
}
