/* a2a_variants.cu: ways of doing the transposing all-to-all of samples/multi
 * (issue 29, item 2), measured side by side on the GPUs it sees (or the first G:
 * second argument), plain CUDA runtime, one host thread.  X is n x n, by rows over
 * G GPUs (block p: rows p*n/G.., n/G x n), Y = X^T distributed the same way:
 *   Y_q[r][p*ng + c] = X_p[c][q*ng + r]   (ng = n/G; r, c < ng)
 * Variants (each checked element by element against that formula):
 *   ref_peer   cudaMemcpyPeerAsync of the crossing bytes as contiguous blocks, every
 *              ordered pair at once on its own stream (no transpose: the yardstick)
 *   pull       each GPU fills its Y block with a 32 x 32 tiled kernel reading the
 *              owners' X blocks over peer access (parrayc's peer kernel until now)
 *   push       each GPU reads its X block in 32 x 32 tiles and writes the owners' Y
 *              blocks over peer access
 *   ce<K>      each GPU transposes, tile by tile, its X block into a packed buffer
 *              (one ng x ng packet per peer, in K row chunks) and sends each chunk with
 *              cudaMemcpy2DAsync on the pair's own stream as soon as it is packed;
 *              its own packet goes straight into its Y block
 * Crossing bytes: n*n*elem*(G-1)/G.  Timed with events: a start event on GPU 0 that
 * every GPU's stream waits for, a stop after GPU 0 has waited for every stream; 3
 * warm-ups, the median of REPS.  Prints "a2a,<variant>,<type>,G,n,ms,GB/s,ratio"
 * (ratio: ref_peer's time over the variant's) and exits 1 on a wrong result.
 *   nvcc -O3 -arch=sm_90 -std=c++17 a2a_variants.cu -o a2a_variants
 *   ./a2a_variants N [G] */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#define CK(x) ck((x), #x, __LINE__)
static void ck(cudaError_t e, const char *what, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "a2a_variants.cu:%d: %s: %s\n", line, what, cudaGetErrorString(e));
        exit(2);
    }
}

enum { MAXG = 8, REPS = 15 };
struct Ptrs {
    void *p[MAXG];
};

template <typename T> __device__ __host__ T val(long long i, long long j);
template <> __device__ __host__ float val<float>(long long i, long long j)
{
    return (float)((i * 40009 + j * 7) % 16777213);
}
template <> __device__ __host__ float2 val<float2>(long long i, long long j)
{
    return make_float2((float)(i % 16777213), (float)(j % 16777213));
}
__device__ bool same(float a, float b) { return a == b; }
__device__ bool same(float2 a, float2 b) { return a.x == b.x && a.y == b.y; }

template <typename T> __global__ void fill(T *x, long long n, long long ng, int p)
{
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < ng * n; e += (long long)gridDim.x * blockDim.x)
        x[e] = val<T>(p * ng + e / n, e % n);
}
template <typename T> __global__ void poison(T *y, long long count)
{
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < count; e += (long long)gridDim.x * blockDim.x)
        y[e] = val<T>(-1, -1);
}
/* Y_q[r][j] must be X[j][q*ng + r] */
template <typename T> __global__ void check(const T *y, long long n, long long ng, int q, unsigned long long *bad)
{
    unsigned long long b = 0;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < ng * n; e += (long long)gridDim.x * blockDim.x)
        b += !same(y[e], val<T>(e % n, q * ng + e / n));
    if (b)
        atomicAdd(bad, b);
}

/* pull, on GPU q: Y_q[r][j] = X_{j/ng}[j%ng][q*ng + r]; tile (r along x reading, j along x writing) */
template <typename T> __global__ void pull(T *y, Ptrs xs, long long n, long long ng, int q)
{
    __shared__ T tile[32][33];
    long long r0 = blockIdx.x * 32LL, j0 = blockIdx.y * 32LL;
    for (int k = threadIdx.y; k < 32; k += 8) {
        long long j = j0 + k, r = r0 + threadIdx.x;
        tile[k][threadIdx.x] = ((const T *)xs.p[j / ng])[(j % ng) * n + q * ng + r];
    }
    __syncthreads();
    for (int k = threadIdx.y; k < 32; k += 8) {
        long long r = r0 + k, j = j0 + threadIdx.x;
        y[r * n + j] = tile[threadIdx.x][k];
    }
}

/* pull of the elements owned by o only (the others' tiles return at once) */
template <typename T> __global__ void pull_only(T *y, Ptrs xs, long long n, long long ng, int q, int o)
{
    __shared__ T tile[32][33];
    long long r0 = blockIdx.x * 32LL, j0 = blockIdx.y * 32LL;
    for (int k = threadIdx.y; k < 32; k += 8) {
        long long j = j0 + k, r = r0 + threadIdx.x;
        if (j / ng == o)
            tile[k][threadIdx.x] = ((const T *)xs.p[j / ng])[(j % ng) * n + q * ng + r];
    }
    __syncthreads();
    for (int k = threadIdx.y; k < 32; k += 8) {
        long long r = r0 + k, j = j0 + threadIdx.x;
        if (j / ng == o)
            y[r * n + j] = tile[threadIdx.x][k];
    }
}

/* push, on GPU p: Y_{j/ng}[j%ng][p*ng + i] = X_p[i][j] */
template <typename T> __global__ void push(const T *x, Ptrs ys, long long n, long long ng, int p)
{
    __shared__ T tile[32][33];
    long long i0 = blockIdx.x * 32LL, j0 = blockIdx.y * 32LL;
    for (int k = threadIdx.y; k < 32; k += 8) {
        long long i = i0 + k, j = j0 + threadIdx.x;
        tile[k][threadIdx.x] = x[i * n + j];
    }
    __syncthreads();
    for (int k = threadIdx.y; k < 32; k += 8) {
        long long j = j0 + k, i = i0 + threadIdx.x;
        ((T *)ys.p[j / ng])[(j % ng) * n + p * ng + i] = tile[threadIdx.x][k];
    }
}

/* pack, on GPU p, rows [r0, r0 + rows) of the packet for q: out[r][c] = X_p[c][q*ng + r]
 * (out pitched by opitch: the packet (ng x ng) or, for q = p, Y_p at column p*ng) */
template <typename T> __global__ void pack(const T *x, T *out, long long opitch, long long n, long long ng, int q,
                                           long long r0)
{
    __shared__ T tile[32][33];
    long long rb = r0 + blockIdx.x * 32LL, cb = blockIdx.y * 32LL;
    for (int k = threadIdx.y; k < 32; k += 8) {
        long long c = cb + k, r = rb + threadIdx.x;
        tile[k][threadIdx.x] = x[c * n + q * ng + r];
    }
    __syncthreads();
    for (int k = threadIdx.y; k < 32; k += 8) {
        long long r = rb + k, c = cb + threadIdx.x;
        out[r * opitch + c] = tile[threadIdx.x][k];
    }
}

struct Gpu {
    void *x, *y, *stage, *stage2;
    cudaStream_t main, to[MAXG];
    cudaEvent_t done[MAXG], packed[MAXG][64];
};

template <typename T> static int run(long long n, int g, const char *tname)
{
    long long ng = n / g;
    size_t block = (size_t)ng * n * sizeof(T);
    std::vector<Gpu> G(g);
    Ptrs xs = {}, ys = {};
    for (int p = 0; p < g; p++) {
        CK(cudaSetDevice(p));
        CK(cudaMalloc(&G[p].x, block));
        CK(cudaMalloc(&G[p].y, block));
        CK(cudaMalloc(&G[p].stage, block));
        CK(cudaMalloc(&G[p].stage2, block * g));
        CK(cudaStreamCreateWithFlags(&G[p].main, cudaStreamNonBlocking));
        for (int q = 0; q < g; q++) {
            CK(cudaStreamCreateWithFlags(&G[p].to[q], cudaStreamNonBlocking));
            CK(cudaEventCreateWithFlags(&G[p].done[q], cudaEventDisableTiming));
            for (int k = 0; k < 64; k++)
                CK(cudaEventCreateWithFlags(&G[p].packed[q][k], cudaEventDisableTiming));
        }
        xs.p[p] = G[p].x;
        ys.p[p] = G[p].y;
        fill<T><<<1024, 256, 0, G[p].main>>>((T *)G[p].x, n, ng, p);
        CK(cudaGetLastError());
        for (int q = 0; q < g; q++) {
            int can = 0;
            if (q == p)
                continue;
            CK(cudaDeviceCanAccessPeer(&can, p, q));
            if (!can) {
                fprintf(stderr, "GPU %d cannot access GPU %d\n", p, q);
                return 2;
            }
            cudaError_t e = cudaDeviceEnablePeerAccess(q, 0);
            if (e == cudaErrorPeerAccessAlreadyEnabled)
                cudaGetLastError();
            else
                CK(e);
        }
    }
    for (int p = 0; p < g; p++) {
        CK(cudaSetDevice(p));
        CK(cudaDeviceSynchronize());
    }
    double crossing = (double)n * n * sizeof(T) * (g - 1) / g;
    dim3 tb(32, 8);
    /* each variant: issue one all-to-all on every GPU, every stream it uses after
       G[p].main (which waited for the start), and everything joined into G[p].main */
    auto join = [&](int p, int q) { /* G[p].main waits for G[p].to[q] */
        CK(cudaEventRecord(G[p].done[q], G[p].to[q]));
        CK(cudaStreamWaitEvent(G[p].main, G[p].done[q], 0));
    };
    auto fork = [&](int p, int q) {
        CK(cudaEventRecord(G[p].done[q], G[p].main));
        CK(cudaStreamWaitEvent(G[p].to[q], G[p].done[q], 0));
    };
    std::vector<std::pair<std::string, std::function<void(int)>>> vs;
    vs.push_back({"ref_peer", [&](int p) {
                      for (int d = 1; d < g; d++) {
                          int q = (p + d) % g;
                          fork(p, q);
                          size_t bytes = (size_t)ng * ng * sizeof(T);
                          CK(cudaMemcpyPeerAsync((char *)G[q].y + p * bytes, q, (char *)G[p].x + q * bytes, p, bytes,
                                                 G[p].to[q]));
                          join(p, q);
                      }
                  }});
    vs.push_back({"pull", [&](int p) {
                      pull<T><<<dim3(ng / 32, n / 32), tb, 0, G[p].main>>>((T *)G[p].y, xs, n, ng, p);
                      CK(cudaGetLastError());
                  }});
    vs.push_back({"push", [&](int p) {
                      push<T><<<dim3(ng / 32, n / 32), tb, 0, G[p].main>>>((const T *)G[p].x, ys, n, ng, p);
                      CK(cudaGetLastError());
                  }});
    for (int K : {1, 2, 4, 8, 16}) {
        if (ng % (32 * K))
            continue;
        vs.push_back({"ce" + std::to_string(K), [&, K](int p) {
                          long long rows = ng / K;
                          for (int d = 1; d < g; d++)
                              fork(p, (p + d) % g); /* the copy streams start after the start */
                          for (int k = 0; k < K; k++)
                              for (int d = 1; d < g; d++) {
                                  int q = (p + d) % g;
                                  T *pk = (T *)G[p].stage + (size_t)q * ng * ng;
                                  pack<T><<<dim3(rows / 32, ng / 32), tb, 0, G[p].main>>>((const T *)G[p].x, pk, ng, n,
                                                                                          ng, q, k * rows);
                                  CK(cudaGetLastError());
                                  CK(cudaEventRecord(G[p].packed[q][k], G[p].main));
                                  CK(cudaStreamWaitEvent(G[p].to[q], G[p].packed[q][k], 0));
                                  CK(cudaMemcpy2DAsync((T *)G[q].y + k * rows * n + p * ng, n * sizeof(T),
                                                       pk + k * rows * ng, ng * sizeof(T), ng * sizeof(T), rows,
                                                       cudaMemcpyDeviceToDevice, G[p].to[q]));
                              }
                          pack<T><<<dim3(ng / 32, ng / 32), tb, 0, G[p].main>>>((const T *)G[p].x, (T *)G[p].y + p * ng,
                                                                              n, n, ng, p, 0);
                          CK(cudaGetLastError());
                          for (int d = 1; d < g; d++)
                              join(p, (p + d) % g);
                      }});
    }
    /* rx: GPU q copies, for every other p, the region of X_p that it needs (columns
       q*ng.., ng rows, pitch n) into a buffer on q of X_p's layout, with the copy engine
       (cudaMemcpy2DAsync on q's stream for p), then the pull kernel per owner p reads
       locally: its own part first, each other part once its region has arrived
       (parrayc's way since issue 29) */
    vs.push_back({"rx", [&](int q) {
                      Ptrs loc = {};
                      for (int d = 0; d < g; d++) {
                          int p = (q + d) % g;
                          if (p == q) {
                              loc.p[p] = G[q].x;
                              continue;
                          }
                          T *st = (T *)G[q].stage2 + (size_t)p * ng * n;
                          loc.p[p] = st;
                          fork(q, p);
                          CK(cudaMemcpy2DAsync(st + q * ng, n * sizeof(T), (const T *)G[p].x + q * ng, n * sizeof(T),
                                               ng * sizeof(T), ng, cudaMemcpyDefault, G[q].to[p]));
                      }
                      for (int d = 0; d < g; d++) {
                          int p = (q + d) % g;
                          if (p != q)
                              join(q, p);
                          pull_only<T><<<dim3(ng / 32, n / 32), tb, 0, G[q].main>>>((T *)G[q].y, loc, n, ng, q, p);
                          CK(cudaGetLastError());
                      }
                  }});
    unsigned long long *bad;
    CK(cudaSetDevice(0));
    CK(cudaMallocManaged(&bad, sizeof *bad));
    double ref_ms = 0;
    int wrong = 0;
    for (auto &v : vs) {
        std::vector<cudaEvent_t> ev(2 * (REPS + 3));
        CK(cudaSetDevice(0));
        for (auto &e : ev)
            CK(cudaEventCreate(&e));
        for (int p = 0; p < g; p++) {
            CK(cudaSetDevice(p));
            poison<T><<<1024, 256, 0, G[p].main>>>((T *)G[p].y, ng * n);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
        }
        for (int rep = 0; rep < REPS + 3; rep++) {
            CK(cudaSetDevice(0));
            CK(cudaEventRecord(ev[2 * rep], G[0].main));
            for (int p = 0; p < g; p++) {
                CK(cudaSetDevice(p));
                CK(cudaStreamWaitEvent(G[p].main, ev[2 * rep], 0));
                v.second(p);
            }
            for (int p = 1; p < g; p++) {
                CK(cudaSetDevice(p));
                CK(cudaEventRecord(G[p].done[p], G[p].main));
                CK(cudaSetDevice(0));
                CK(cudaStreamWaitEvent(G[0].main, G[p].done[p], 0));
            }
            CK(cudaSetDevice(0));
            CK(cudaEventRecord(ev[2 * rep + 1], G[0].main));
            if (rep == 0 && v.first != "ref_peer") { /* check the first call (every element was poisoned) */
                CK(cudaEventSynchronize(ev[1]));
                unsigned long long total = 0;
                for (int q = 0; q < g; q++) {
                    CK(cudaSetDevice(q));
                    *bad = 0;
                    check<T><<<1024, 256>>>((const T *)G[q].y, n, ng, q, bad);
                    CK(cudaGetLastError());
                    CK(cudaDeviceSynchronize());
                    total += *bad;
                }
                if (total) {
                    fprintf(stderr, "%s %s G=%d: %llu wrong elements\n", v.first.c_str(), tname, g, total);
                    wrong = 1;
                }
            }
        }
        CK(cudaSetDevice(0));
        CK(cudaEventSynchronize(ev.back()));
        std::vector<float> ms;
        for (int rep = 3; rep < REPS + 3; rep++) {
            float t;
            CK(cudaEventElapsedTime(&t, ev[2 * rep], ev[2 * rep + 1]));
            ms.push_back(t);
        }
        std::sort(ms.begin(), ms.end());
        double med = ms[ms.size() / 2];
        if (v.first == "ref_peer")
            ref_ms = med;
        printf("a2a,%s,%s,%d,%lld,%.4f,%.1f,%.3f,spread %.4f-%.4f\n", v.first.c_str(), tname, g, n, med,
               crossing / med / 1e6, ref_ms / med, ms.front(), ms.back());
        fflush(stdout);
        for (auto &e : ev)
            CK(cudaEventDestroy(e));
    }
    for (int p = 0; p < g; p++) {
        CK(cudaSetDevice(p));
        CK(cudaDeviceSynchronize());
        CK(cudaFree(G[p].x));
        CK(cudaFree(G[p].y));
        CK(cudaFree(G[p].stage));
        CK(cudaFree(G[p].stage2));
    }
    return wrong;
}

int main(int argc, char **argv)
{
    long long n = argc > 1 ? atoll(argv[1]) : 16384;
    int count = 0;
    CK(cudaGetDeviceCount(&count));
    int g = argc > 2 ? atoi(argv[2]) : count;
    if (g < 2 || g > count || g > MAXG || n % (32 * g)) {
        fprintf(stderr, "usage: a2a_variants N [G]: 2 <= G <= %d GPUs, N a multiple of 32 G\n", count);
        return 2;
    }
    int wrong = run<float>(n, g, "float");
    wrong |= run<float2>(n, g, "float2");
    return wrong;
}
