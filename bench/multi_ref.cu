/* multi_ref.cu: the vendor side of the multi-GPU benchmark (bench/multi_gpu.sh),
 * plain CUDA runtime, cuBLAS and cuFFT, no parrayc.  At order n (-DN=..., or the
 * first argument) it times, on the G GPUs it sees (G from CUDA_VISIBLE_DEVICES):
 *   cublas_sgemm_1gpu        cuBLAS SGEMM of the whole n x n product on GPU 0
 *   cublas_cols_<G>gpu       the same product by column blocks of B and C, n/G per
 *                            GPU, all at once, data resident (G = 1: the whole)
 *   cublasxt_sgemm_<G>gpu    cuBLASXt SGEMM from pinned host memory on the G GPUs,
 *                            tuned: the best of cublasXtSetBlockDim 1024, 2048, 4096,
 *                            8192 (each printed as cublasxt_b<dim>_<G>gpu)
 *   p2p_a2a_<G>gpu           the peer-copy all-to-all: cudaMemcpyPeerAsync of the bytes
 *                            of an n x n float matrix by rows that cross between the
 *                            GPUs in a transpose ((G-1)/G of it), as contiguous
 *                            blocks, every ordered pair at once on its own stream
 *   p2p_a2a_f2_<G>gpu        the same for a float2 matrix
 *   cufft_2d_1gpu            cuFFT 2-D C2C forward, n x n, in place, GPU 0
 *   cufftxt_2d_<G>gpu        cuFFT Xt 2-D C2C forward on G >= 2 GPUs, data resident, the
 *                            execution only (the result stays in cuFFT's shuffled
 *                            order: GPU g a slab of the columns)
 *   cufftxt_2d_natural_<G>gpu  the same plus cufftXtMemcpy device to device back to
 *                            natural order
 * (a second argument "fft": the all-to-alls and FFTs only; "sgemm": the two cuBLAS
 * SGEMM rows only, no cuBLASXt)
 * and prints "name,n,ms_median,rate" lines on stdout: rate in TFLOP/s (2 n^3 / t)
 * for SGEMM, GB/s (bytes crossing / t) for p2p, GFLOP/s (5 n^2 log2 n^2 / t) for
 * the FFTs.  With one GPU the peer copy and cuFFT Xt print n/a.  Host matrices
 * are pinned and portable (cuBLASXt's best case).
 *
 * Method: math without TF32 (CUBLAS_PEDANTIC_MATH; NVIDIA_TF32_OVERRIDE=0 for
 * cuBLASXt, which has no math mode), two warm-up calls, then repeats for about
 * 0.5 s (5 to 50), the median (cuBLASXt: 3 repeats per tile size).  Work that
 * stays on GPUs is timed with CUDA events: a start event on the first GPU's
 * stream that the other GPUs' streams wait for, and a stop event after the first
 * stream has waited for the others, so one interval covers every GPU.  cuBLASXt
 * and cuFFT Xt choose their own streams: the host clock around the call and a
 * synchronize of every GPU.  The FFT input is restored before every call (not
 * timed).  Every result is checked: SGEMM at 256 sampled elements against a
 * float64 dot product, the FFTs against cuFFT on one GPU (cuFFT Xt's shuffled
 * result read from its descriptor with cufftXtMemcpy to the host, which returns
 * natural order, and its parts as they lie in two layouts at 2^20 sampled
 * elements; the natural-order descriptor GPU by GPU); a wrong result prints
 * WRONG on stderr and the exit status is 1. */
#include <cublasXt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

#ifndef N
#define N 16384
#endif

#define CK(x) ck_cuda((x), #x, __LINE__)
#define CB(x) ck_blas((x), #x, __LINE__)
#define CF(x) ck_fft((x), #x, __LINE__)
static void ck_cuda(cudaError_t e, const char *what, int line) {
  if (e != cudaSuccess) {
    fprintf(stderr, "multi_ref.cu:%d: %s: %s\n", line, what, cudaGetErrorString(e));
    exit(2);
  }
}
static void ck_blas(cublasStatus_t s, const char *what, int line) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "multi_ref.cu:%d: %s: cuBLAS status %d\n", line, what, (int)s);
    exit(2);
  }
}
static void ck_fft(cufftResult r, const char *what, int line) {
  if (r != CUFFT_SUCCESS) {
    fprintf(stderr, "multi_ref.cu:%d: %s: cuFFT error %d\n", line, what, (int)r);
    exit(2);
  }
}

static void row(const char *name, long n, double ms, double rate) {
  if (ms > 0)
    printf("%s,%ld,%.4g,%.4g\n", name, n, ms, rate);
  else
    printf("%s,%ld,n/a,n/a\n", name, n);
  fflush(stdout);
}

/* ---------- timing ---------- */

/* prep (not timed), then one call of the work; returns its milliseconds */
typedef std::function<double()> Once;

static double median_of(const Once &once) {
  once();
  double first = once();
  int reps = std::min(50, std::max(5, (int)(500 / std::max(first, 1e-3))));
  std::vector<double> t;
  for (int r = 0; r < reps; r++)
    t.push_back(once());
  std::sort(t.begin(), t.end());
  return reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
}

struct Lane { /* a GPU and the stream its part of the work goes to */
  int dev;
  cudaStream_t s;
};

static std::vector<Lane> lanes_on(const std::vector<int> &devs) {
  std::vector<Lane> l;
  for (int d : devs) {
    CK(cudaSetDevice(d));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    l.push_back({d, s});
  }
  return l;
}

/* events: start on lane 0, which every other lane waits for; stop on lane 0 after it
 * has waited for every other lane.  work enqueues on the lanes' streams. */
static Once on_events(const std::vector<Lane> &lanes, std::function<void()> prep,
                      std::function<void()> work) {
  struct Ev {
    cudaEvent_t start, stop;
    std::vector<cudaEvent_t> join;
  };
  Ev *ev = new Ev; /* lives as long as the program: a benchmark's few events */
  CK(cudaSetDevice(lanes[0].dev));
  CK(cudaEventCreate(&ev->start));
  CK(cudaEventCreate(&ev->stop));
  for (const Lane &l : lanes) {
    cudaEvent_t e;
    CK(cudaSetDevice(l.dev));
    CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    ev->join.push_back(e);
  }
  return [=]() {
    for (const Lane &l : lanes) {
      CK(cudaSetDevice(l.dev));
      CK(cudaDeviceSynchronize());
    }
    if (prep)
      prep();
    for (const Lane &l : lanes) {
      CK(cudaSetDevice(l.dev));
      CK(cudaDeviceSynchronize());
    }
    CK(cudaSetDevice(lanes[0].dev));
    CK(cudaEventRecord(ev->start, lanes[0].s));
    for (size_t i = 1; i < lanes.size(); i++)
      CK(cudaStreamWaitEvent(lanes[i].s, ev->start, 0));
    work();
    for (size_t i = 1; i < lanes.size(); i++) {
      CK(cudaSetDevice(lanes[i].dev));
      CK(cudaEventRecord(ev->join[i], lanes[i].s));
      CK(cudaStreamWaitEvent(lanes[0].s, ev->join[i], 0));
    }
    CK(cudaSetDevice(lanes[0].dev));
    CK(cudaEventRecord(ev->stop, lanes[0].s));
    CK(cudaEventSynchronize(ev->stop));
    float ms;
    CK(cudaEventElapsedTime(&ms, ev->start, ev->stop));
    return (double)ms;
  };
}

static void sync_all(const std::vector<int> &devs) {
  for (int d : devs) {
    CK(cudaSetDevice(d));
    CK(cudaDeviceSynchronize());
  }
}

/* the host clock around work and a synchronize of every GPU in devs */
static Once on_host_clock(const std::vector<int> &devs, std::function<void()> prep,
                          std::function<void()> work) {
  return [=]() {
    sync_all(devs);
    if (prep)
      prep();
    sync_all(devs);
    auto t0 = std::chrono::steady_clock::now();
    work();
    sync_all(devs);
    auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::milli>(t1 - t0).count();
  };
}

/* ---------- data and checks ---------- */

__global__ void k_fill(float *x, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count;
       i += (size_t)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)i * 2654435761u ^ (unsigned)(i >> 32) * 40503u ^ seed * 2246822519u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    x[i] = (float)(h >> 8) * (2.0f / 16777216.0f) - 1.0f; /* [-1, 1) */
  }
}

/* random floats in [-1, 1), made on GPU 0 and copied to the pinned host buffer h */
static float *random_on_gpu0(float *h, size_t count, unsigned seed) {
  float *d;
  CK(cudaSetDevice(0));
  CK(cudaMalloc(&d, count * sizeof(float)));
  k_fill<<<1024, 256>>>(d, count, seed);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, count * sizeof(float), cudaMemcpyDeviceToHost));
  return d;
}

static float *copy_to(int dev, const float *h, size_t count) {
  float *d;
  CK(cudaSetDevice(dev));
  CK(cudaMalloc(&d, count * sizeof(float)));
  CK(cudaMemcpy(d, h, count * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

/* C = A B (column-major, n x n) at 256 sampled elements, the corners among them,
 * against a float64 dot product: within 1e-5 of the sum of |a_ik b_kj| */
static bool sgemm_right(const char *name, long n, const float *a, const float *b, const float *c) {
  int wrong = 0;
  for (int s = 0; s < 256; s++) {
    long i = s < 4 ? (s & 1) * (n - 1) : (s * 7919L) % n;
    long j = s < 4 ? (s >> 1) * (n - 1) : (s * 104729L + s / 7) % n;
    double want = 0, mag = 0;
    for (long k = 0; k < n; k++) {
      double p = (double)a[i + k * n] * b[k + j * n];
      want += p;
      mag += fabs(p);
    }
    double got = c[i + j * n];
    if (!(fabs(got - want) <= 1e-5 * mag + 1e-6) && wrong++ < 3)
      fprintf(stderr, "%s: C[%ld][%ld] = %g, want %g\n", name, i, j, got, want);
  }
  if (wrong)
    fprintf(stderr, "%s: WRONG (%d of 256 sampled elements)\n", name, wrong);
  return !wrong;
}

/* every element of got against want: within 1e-4 of want's largest magnitude */
static bool fft_right(const char *name, size_t count, const float2 *got, const float2 *want) {
  double err = 0, top = 0;
  for (size_t i = 0; i < count; i++) {
    err = fmax(err, fmax(fabs(got[i].x - want[i].x), fabs(got[i].y - want[i].y)));
    top = fmax(top, fmax(fabs(want[i].x), fabs(want[i].y)));
  }
  bool ok = err <= 1e-4 * top;
  if (!ok)
    fprintf(stderr, "%s: WRONG (max error %.3g of %.3g)\n", name, err, top);
  return ok;
}

/* ---------- SGEMM: one GPU, column blocks, cuBLASXt ---------- */

static bool bench_sgemm(long n, const std::vector<int> &devs, bool with_xt) {
  size_t nn = (size_t)n * n;
  double flop = 2.0 * n * n * n;
  float *ha, *hb, *hc;
  CK(cudaHostAlloc(&ha, nn * sizeof(float), cudaHostAllocPortable));
  CK(cudaHostAlloc(&hb, nn * sizeof(float), cudaHostAllocPortable));
  CK(cudaHostAlloc(&hc, nn * sizeof(float), cudaHostAllocPortable));
  float *da = random_on_gpu0(ha, nn, 1), *db = random_on_gpu0(hb, nn, 2), *dc;
  CK(cudaMalloc(&dc, nn * sizeof(float)));
  const float one = 1, zero = 0;
  bool ok = true;

  /* (a) the whole product on GPU 0 */
  std::vector<Lane> l0 = lanes_on({0});
  cublasHandle_t h0;
  CK(cudaSetDevice(0));
  CB(cublasCreate(&h0));
  CB(cublasSetMathMode(h0, CUBLAS_PEDANTIC_MATH));
  CB(cublasSetStream(h0, l0[0].s));
  double t = median_of(on_events(l0, nullptr, [&] {
    CB(cublasSgemm(h0, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, da, n, db, n, &zero, dc, n));
  }));
  row("cublas_sgemm_1gpu", n, t, flop / t / 1e9);
  CK(cudaMemcpy(hc, dc, nn * sizeof(float), cudaMemcpyDeviceToHost));
  ok &= sgemm_right("cublas_sgemm_1gpu", n, ha, hb, hc);
  CB(cublasDestroy(h0));
  CK(cudaFree(da));
  CK(cudaFree(db));
  CK(cudaFree(dc));

  /* (b) C's column blocks, block k (n/G columns) on GPU k: each GPU holds all of A
   * and its columns of B and C */
  int g = (int)devs.size();
  long w = n / g;
  size_t part = (size_t)n * w;
  std::vector<Lane> lh;
  std::vector<cublasHandle_t> hh;
  std::vector<float *> a2, b2, c2;
  for (int k = 0; k < g; k++) {
    lh.push_back(lanes_on({devs[k]})[0]);
    cublasHandle_t h;
    CK(cudaSetDevice(devs[k]));
    CB(cublasCreate(&h));
    CB(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
    CB(cublasSetStream(h, lh[k].s));
    hh.push_back(h);
    a2.push_back(copy_to(devs[k], ha, nn));
    b2.push_back(copy_to(devs[k], hb + k * part, part));
    float *c;
    CK(cudaMalloc(&c, part * sizeof(float)));
    c2.push_back(c);
  }
  t = median_of(on_events(lh, nullptr, [&] {
    for (int k = 0; k < g; k++) {
      CK(cudaSetDevice(devs[k]));
      CB(cublasSgemm(hh[k], CUBLAS_OP_N, CUBLAS_OP_N, n, w, n, &one, a2[k], n, b2[k], n, &zero, c2[k], n));
    }
  }));
  char cols[64];
  snprintf(cols, sizeof cols, "cublas_cols_%dgpu", g);
  row(cols, n, t, flop / t / 1e9);
  memset(hc, 0, nn * sizeof(float));
  for (int k = 0; k < g; k++) {
    CK(cudaSetDevice(devs[k]));
    CK(cudaMemcpy(hc + k * part, c2[k], part * sizeof(float), cudaMemcpyDeviceToHost));
    CB(cublasDestroy(hh[k]));
    CK(cudaFree(a2[k]));
    CK(cudaFree(b2[k]));
    CK(cudaFree(c2[k]));
  }
  ok &= sgemm_right(cols, n, ha, hb, hc);
  if (!with_xt) {
    CK(cudaFreeHost(ha));
    CK(cudaFreeHost(hb));
    CK(cudaFreeHost(hc));
    return ok;
  }

  /* (c) cuBLASXt from pinned host memory on the GPUs, tuned as a user would: the best
   * of its tile sizes 1024 .. 8192 (its default tiles were 5x slower at n = 16384) */
  cublasXtHandle_t xt;
  CB(cublasXtCreate(&xt));
  std::vector<int> ids(devs);
  CB(cublasXtDeviceSelect(xt, (int)ids.size(), ids.data()));
  double best = 0;
  int best_dim = 0;
  for (int dim = 1024; dim <= 8192 && dim <= n; dim *= 2) {
    CB(cublasXtSetBlockDim(xt, dim));
    memset(hc, 0, nn * sizeof(float));
    auto once = on_host_clock(devs, nullptr, [&] {
      CB(cublasXtSgemm(xt, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, ha, n, hb, n, &zero, hc, n));
    });
    std::vector<double> ts;
    once(); /* warm-up */
    for (int r = 0; r < 3; r++)
      ts.push_back(once());
    std::sort(ts.begin(), ts.end());
    char name[64];
    snprintf(name, sizeof name, "cublasxt_b%d_%dgpu", dim, g);
    row(name, n, ts[1], flop / ts[1] / 1e9);
    ok &= sgemm_right(name, n, ha, hb, hc);
    if (best == 0 || ts[1] < best) {
      best = ts[1];
      best_dim = dim;
    }
  }
  char xname[64];
  snprintf(xname, sizeof xname, "cublasxt_sgemm_%dgpu", g);
  row(xname, n, best, flop / best / 1e9);
  fprintf(stderr, "%s: the best tile size is %d\n", xname, best_dim);
  CB(cublasXtDestroy(xt));
  CK(cudaFreeHost(ha));
  CK(cudaFreeHost(hb));
  CK(cudaFreeHost(hc));
  return ok;
}

/* ---------- the peer-copy all-to-all ---------- */

/* What a transpose of an n x n matrix of elem bytes, by rows over the G GPUs, moves
 * between them: GPU p sends GPU q an (n/G) x (n/G) block, for every p != q, as one
 * contiguous cudaMemcpyPeerAsync on the pair's own stream, all at once.  Rate: the
 * bytes crossing, n*n*elem*(G-1)/G, over the time. */
static void bench_p2p(long n, const std::vector<int> &devs, size_t elem, const char *what) {
  int g = (int)devs.size();
  char name[64];
  snprintf(name, sizeof name, "p2p_a2a%s_%dgpu", what, g);
  if (g < 2) {
    row(name, n, 0, 0);
    return;
  }
  size_t blk = (size_t)(n / g) * (n / g) * elem;
  std::vector<void *> src(g), dst(g);
  std::vector<std::vector<cudaStream_t>> st(g, std::vector<cudaStream_t>(g));
  std::vector<std::vector<cudaEvent_t>> ev(g, std::vector<cudaEvent_t>(g));
  for (int p = 0; p < g; p++) {
    CK(cudaSetDevice(devs[p]));
    for (int q = 0; q < g; q++) {
      if (q == p)
        continue;
      int can = 0;
      CK(cudaDeviceCanAccessPeer(&can, devs[p], devs[q]));
      if (can) {
        cudaError_t e = cudaDeviceEnablePeerAccess(devs[q], 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled)
          (void)cudaGetLastError();
        else
          CK(e);
      } else {
        fprintf(stderr, "%s: GPU %d cannot access GPU %d: the copies go through the host\n", name, devs[p], devs[q]);
      }
      CK(cudaStreamCreateWithFlags(&st[p][q], cudaStreamNonBlocking));
      CK(cudaEventCreateWithFlags(&ev[p][q], cudaEventDisableTiming));
    }
    CK(cudaMalloc(&src[p], blk * g));
    CK(cudaMalloc(&dst[p], blk * g));
    CK(cudaMemset(src[p], p + 1, blk * g));
  }
  std::vector<Lane> l = lanes_on(devs);
  double t = median_of(on_events(l, nullptr, [&] {
    for (int p = 0; p < g; p++) {
      CK(cudaSetDevice(devs[p]));
      for (int d = 1; d < g; d++) { /* fork from the lane, copy, join back */
        int q = (p + d) % g;
        CK(cudaEventRecord(ev[p][q], l[p].s));
        CK(cudaStreamWaitEvent(st[p][q], ev[p][q], 0));
        CK(cudaMemcpyPeerAsync((char *)dst[q] + p * blk, devs[q], (char *)src[p] + q * blk, devs[p], blk,
                               st[p][q]));
        CK(cudaEventRecord(ev[p][q], st[p][q]));
        CK(cudaStreamWaitEvent(l[p].s, ev[p][q], 0));
      }
    }
  }));
  row(name, n, t, (double)blk * g * (g - 1) / t / 1e6);
  for (int p = 0; p < g; p++) {
    CK(cudaSetDevice(devs[p]));
    CK(cudaFree(src[p]));
    CK(cudaFree(dst[p]));
  }
}

/* ---------- 2-D FFT: cuFFT on one GPU, cuFFT Xt on G ---------- */

static bool bench_fft(long n, const std::vector<int> &devs) {
  size_t nn = (size_t)n * n;
  double flop = 5.0 * nn * log2((double)nn);
  float2 *hx, *href, *hgot;
  CK(cudaHostAlloc(&hx, nn * sizeof(float2), cudaHostAllocPortable));
  href = (float2 *)malloc(nn * sizeof(float2));
  hgot = (float2 *)malloc(nn * sizeof(float2));
  if (!href || !hgot) {
    fprintf(stderr, "multi_ref: out of host memory\n");
    exit(2);
  }
  float *din = random_on_gpu0((float *)hx, 2 * nn, 3);
  float2 *dx;
  CK(cudaMalloc(&dx, nn * sizeof(float2)));
  bool ok = true;

  /* (e) cuFFT 2-D on GPU 0, in place as in the sample; the input restored each call */
  std::vector<Lane> l0 = lanes_on({0});
  cufftHandle one;
  CF(cufftPlan2d(&one, n, n, CUFFT_C2C));
  CF(cufftSetStream(one, l0[0].s));
  /* a copy between device buffers returns before it ends, and the plan's stream does not
     wait for the legacy stream: done before the transform starts */
  auto restore = [&] {
    CK(cudaMemcpy(dx, din, nn * sizeof(float2), cudaMemcpyDeviceToDevice));
    CK(cudaDeviceSynchronize());
  };
  double t = median_of(on_events(l0, restore, [&] {
    CF(cufftExecC2C(one, (cufftComplex *)dx, (cufftComplex *)dx, CUFFT_FORWARD));
  }));
  row("cufft_2d_1gpu", n, t, flop / t / 1e6);
  restore();
  CF(cufftExecC2C(one, (cufftComplex *)dx, (cufftComplex *)dx, CUFFT_FORWARD));
  CK(cudaStreamSynchronize(l0[0].s));
  CK(cudaMemcpy(href, dx, nn * sizeof(float2), cudaMemcpyDeviceToHost));
  CF(cufftDestroy(one));
  CK(cudaFree(dx));
  CK(cudaFree(din));
  int g = (int)devs.size();
  char xname[64], nname[64];
  snprintf(xname, sizeof xname, "cufftxt_2d_%dgpu", g);
  snprintf(nname, sizeof nname, "cufftxt_2d_natural_%dgpu", g);
  if (g < 2) {
    row(xname, n, 0, 0);
    row(nname, n, 0, 0);
    CK(cudaFreeHost(hx));
    free(href);
    free(hgot);
    return ok;
  }

  /* (f) cuFFT Xt on the G GPUs, data resident; each GPU's part restored each call */
  cufftHandle xt;
  CF(cufftCreate(&xt));
  std::vector<int> gpus(devs);
  CF(cufftXtSetGPUs(xt, g, gpus.data()));
  std::vector<size_t> work(g);
  CF(cufftMakePlan2d(xt, n, n, CUFFT_C2C, work.data()));
  cudaLibXtDesc *d, *nat;
  CF(cufftXtMalloc(xt, &d, CUFFT_XT_FORMAT_INPLACE));
  CF(cufftXtMalloc(xt, &nat, CUFFT_XT_FORMAT_INPLACE));
  CF(cufftXtMemcpy(xt, d, hx, CUFFT_COPY_HOST_TO_DEVICE));
  sync_all(devs); /* before the parts are saved: the copy may still run on cuFFT's streams */
  cudaXtDesc *parts = d->descriptor;
  std::vector<void *> saved(parts->nGPUs);
  for (int k = 0; k < parts->nGPUs; k++) {
    CK(cudaSetDevice(parts->GPUs[k]));
    CK(cudaMalloc(&saved[k], parts->size[k]));
    CK(cudaMemcpy(saved[k], parts->data[k], parts->size[k], cudaMemcpyDeviceToDevice));
  }
  auto restore_xt = [&] {
    d->subFormat = CUFFT_XT_FORMAT_INPLACE; /* the execution leaves it shuffled */
    for (int k = 0; k < parts->nGPUs; k++) {
      CK(cudaSetDevice(parts->GPUs[k]));
      CK(cudaMemcpy(parts->data[k], saved[k], parts->size[k], cudaMemcpyDeviceToDevice));
    }
    sync_all(devs); /* a copy between device buffers returns before it ends */
  };
  t = median_of(on_host_clock(devs, restore_xt, [&] { CF(cufftXtExecDescriptorC2C(xt, d, d, CUFFT_FORWARD)); }));
  row(xname, n, t, flop / t / 1e6);
  restore_xt();
  CF(cufftXtExecDescriptorC2C(xt, d, d, CUFFT_FORWARD));
  sync_all(devs);
  /* the result, read three ways: cufftXtMemcpy to the host (natural order, as
     documented), and each GPU's part as it lies: a slab of F's columns, rows of
     n/G elements ("cols"), or the same slab transposed ("cols^T") */
  bool xt_ok = false;
  {
    std::vector<float2> raw(nn);
    size_t at = 0;
    std::vector<size_t> start(parts->nGPUs);
    for (int k = 0; k < parts->nGPUs; k++) {
      CK(cudaSetDevice(parts->GPUs[k]));
      start[k] = at / sizeof(float2);
      CK(cudaMemcpy((char *)raw.data() + at, parts->data[k], parts->size[k], cudaMemcpyDeviceToHost));
      at += parts->size[k];
    }
    long w = n / g;
    double top = 0, ec = 0, et = 0;
    /* the layouts at 2^20 sampled elements (every one at n = 32768 took minutes) */
    long every = (long)(nn >> 20) > 1 ? (long)(nn >> 20) : 1;
    for (long s = 0; s < (long)nn; s += every) {
      long i = s / n, j = (s * 7919 + s / n) % n;
      float2 want = href[i * n + j];
      float2 c = raw[start[j / w] + i * w + j % w], tr = raw[start[j / w] + (j % w) * n + i];
      top = fmax(top, fmax(fabs(want.x), fabs(want.y)));
      ec = fmax(ec, fmax(fabs(c.x - want.x), fabs(c.y - want.y)));
      et = fmax(et, fmax(fabs(tr.x - want.x), fabs(tr.y - want.y)));
    }
    CF(cufftXtMemcpy(xt, hgot, d, CUFFT_COPY_DEVICE_TO_HOST));
    double eh = 0;
    for (size_t i = 0; i < nn; i++)
      eh = fmax(eh, fmax(fabs(hgot[i].x - href[i].x), fabs(hgot[i].y - href[i].y)));
    fprintf(stderr, "%s: result against cuFFT on one GPU, max error of %.3g: cufftXtMemcpy to host %.3g; "
            "parts as column slabs %.3g; parts as transposed column slabs %.3g\n", xname, top, eh, ec, et);
    xt_ok = eh <= 1e-4 * top || ec <= 1e-4 * top || et <= 1e-4 * top;
    if (!xt_ok)
      fprintf(stderr, "%s: WRONG in every layout read\n", xname);
  }
  ok &= xt_ok;

  /* the same, then back to natural order on the GPUs */
  restore_xt();
  CF(cufftXtExecDescriptorC2C(xt, d, d, CUFFT_FORWARD));
  sync_all(devs);
  cufftResult r = cufftXtMemcpy(xt, nat, d, CUFFT_COPY_DEVICE_TO_DEVICE);
  if (r != CUFFT_SUCCESS) {
    fprintf(stderr, "cufftXtMemcpy device to device (shuffled to natural): cuFFT error %d\n", (int)r);
    row(nname, n, 0, 0);
  } else {
    t = median_of(on_host_clock(devs, restore_xt, [&] {
      CF(cufftXtExecDescriptorC2C(xt, d, d, CUFFT_FORWARD));
      CF(cufftXtMemcpy(xt, nat, d, CUFFT_COPY_DEVICE_TO_DEVICE));
    }));
    row(nname, n, t, flop / t / 1e6);
    CF(cufftXtMemcpy(xt, hgot, nat, CUFFT_COPY_DEVICE_TO_HOST));
    ok &= fft_right(nname, nn, hgot, href);
  }
  for (int k = 0; k < parts->nGPUs; k++) {
    CK(cudaSetDevice(parts->GPUs[k]));
    CK(cudaFree(saved[k]));
  }
  CF(cufftXtFree(d));
  CF(cufftXtFree(nat));
  CF(cufftDestroy(xt));
  CK(cudaFreeHost(hx));
  free(href);
  free(hgot);
  return ok;
}

int main(int argc, char **argv) {
  setenv("NVIDIA_TF32_OVERRIDE", "0", 1); /* before any CUDA library starts: no TF32 */
  long n = argc > 1 ? atol(argv[1]) : N;
  int count = 0;
  CK(cudaGetDeviceCount(&count));
  if (n < 256 || n % 256 || n % count) {
    fprintf(stderr, "usage: %s [N [fft|sgemm]]   (N a multiple of 256 and of the GPUs' count, default %d)\n", argv[0], N);
    return 2;
  }
  std::vector<int> devs;
  for (int k = 0; k < count; k++)
    devs.push_back(k);
  const char *only = argc > 2 ? argv[2] : "";
  if (*only && strcmp(only, "fft") && strcmp(only, "sgemm")) {
    fprintf(stderr, "%s: the second argument is fft or sgemm, not %s\n", argv[0], only);
    return 2;
  }
  printf("name,N,ms_median,rate\n");
  bool ok = !strcmp(only, "fft") || bench_sgemm(n, devs, !*only);
  if (!strcmp(only, "sgemm"))
    return ok ? 0 : 1;
  bench_p2p(n, devs, sizeof(float), "");
  bench_p2p(n, devs, sizeof(float2), "_f2");
  ok &= bench_fft(n, devs);
  return ok ? 0 : 1;
}
