/* parray_cuda.h: the CUDA part of the Parray runtime: GPU selection, device
 * and pinned memory, checked CUDA calls and kernel launches.  Included by the
 * .cu files parrayc writes for programs that use cuda thread arrays, dmem or
 * smem; compiled by nvcc and linked with libparray_cuda.a. */
#ifndef PA_PARRAY_CUDA_H
#define PA_PARRAY_CUDA_H

#include "parray.h"

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Selects GPU dev and creates its context.  Without a usable GPU (no device,
 * no driver, dev out of range) prints one line,
 * "parray: error: no CUDA GPU available: <CUDA error>", and exits 1. */
void pa_cuda_init(int dev, const char *file, int line);

/* Before a pthd or omp detour whose body does GPU work: one GPU per thread
 * (SPEC 6.5), so fewer GPUs than nthreads is an error naming the array,
 * unless PARRAY_GPU_SHARE=1 lets threads share them. */
void pa_cuda_gpus_for(long long nthreads, const char *type, const char *file, int line);
/* In thread k of such a detour: GPU k mod G of the G visible GPUs
 * becomes the thread's (INIT_GPU in the body overrides it). */
void pa_cuda_bind(long long k, const char *file, int line);

/* The number of GPUs this process sees; 0 (with *why the reason) for none. */
int pa_cuda_gpu_count(const char **why);
/* Which GPUs this process sees, as one number (a hash of their UUIDs; 0
 * when it cannot tell): processes with equal numbers share those GPUs,
 * processes with different ones (srun --gpus-per-task=1, a
 * CUDA_VISIBLE_DEVICES per process) do not. */
unsigned long long pa_cuda_visible_set(void);

/* A distributed #copy whose GPU side moves through host memory: stage_out
 * copies `bytes` of the block at dev (NULL: nothing to copy) into pinned
 * host memory and returns it; stage_in copies host back to dev (NULL:
 * none) and gives host back.  The pinned buffers are kept for later
 * copies (up to 4, each used for requests of half its size or more). */
void *pa_cuda_stage_out(const void *dev, pa_size_t bytes, const char *file, int line);
void pa_cuda_stage_in(void *dev, void *host, pa_size_t bytes, const char *file, int line);

/* The blocks of a distributed dmem type, one per thread of a pthd or omp
 * detour, as a kernel parameter. */
#define PA_CUDA_MAX_BLOCKS 64
typedef struct pa_cuda_blocks {
    const void *p[PA_CUDA_MAX_BLOCKS];
} pa_cuda_blocks;
/* The GPU memory at a and b (either may be host memory or NULL), for a
 * #copy kernel on this thread's GPU in a pthd, omp or mpi body: peer
 * access enabled (once per pair) to the GPU holding it where that is
 * another; a GPU that cannot reach it is an error naming both. */
void pa_cuda_peer_reach(const void *a, const void *b, const char *file, int line);
/* The n blocks of table (pa_team_share's), for a kernel on this thread's
 * GPU that reads them all: enables peer access to each other GPU holding
 * one; a GPU that cannot reach another's memory, or more than
 * PA_CUDA_MAX_BLOCKS blocks, is an error naming the GPUs. */
pa_cuda_blocks pa_cuda_team_blocks(const void *const *table, long long n, const char *file, int line);

/* A block of distributed dmem, exported to the other processes of a node
 * (an mpi all-to-all between GPUs): usable is 0 when p is not inside a
 * block #create made, and the copy then goes through the host. */
typedef struct pa_cuda_ipc {
    cudaIpcMemHandle_t handle;
    pa_size_t offset;
    int usable;
    unsigned long long freed; /* how many exported blocks the exporter has freed so far */
    unsigned long long gpus;  /* the GPUs the exporter sees (pa_cuda_visible_set) */
    int device;               /* the exporter's GPU, numbered as it sees them */
} pa_cuda_ipc;
pa_cuda_ipc pa_cuda_ipc_export(const void *p, const char *file, int line);
/* every one of the n exports usable, made by processes that see the same
 * GPUs (one that does not see the exporter's GPU cannot map its block),
 * n <= PA_CUDA_MAX_BLOCKS, and PARRAY_NO_IPC=1 not set (it sends the copy
 * through the host) */
int pa_cuda_ipc_usable(const pa_cuda_ipc *all, long long n);
/* The blocks of all n processes, process me's being mine: the others'
 * mapped into this process (cudaIpcOpenMemHandle).  A mapping is kept for
 * the next copy between the same blocks (a loop of copies maps once); it
 * is unmapped when its exporter has freed an exported block since (seen at
 * the next copy with that process), or when PA_CUDA_IPC_KEPT newer ones
 * push it out.  Process 0 also maps blocks on the GPUs that hold them
 * (pa_cuda_ipc_rows): with 4 processes and three distributed arrays
 * that is 18 mappings, and at 16 the SGEMM sample's scatter remapped at
 * every copy (2.3x the pthd form's time). */
#define PA_CUDA_IPC_KEPT 64
pa_cuda_blocks pa_cuda_ipc_open(const pa_cuda_ipc *all, long long n, long long me, const void *mine,
                                const char *file, int line);

/* A transposing all-to-all in packets (parrayc's CopyPlan.packets): thread
 * or process me of n sends every GPU q one rectangle, rows x width
 * elements of elem bytes, that lands at element base of q's block, pitch
 * elements a row.  A local kernel packs each rectangle, in chunks of rows,
 * into a buffer of this GPU (the rectangle for this GPU itself straight
 * into its block), and a pitched cudaMemcpy2DAsync on a stream of the pair
 * sends each chunk as soon as it is packed, the pairs at once:
 *   pa_cuda_packets k = pa_cuda_packets_begin(n, me, rows, width, pitch, base, elem, ...);
 *   (the blocks: pa_cuda_team_blocks or pa_cuda_ipc_open)
 *   for (int s = 0; s < k.steps; s++) {
 *     pa_cuda_step st = pa_cuda_packets_step(&k, &blocks, s);
 *     pack kernel on k.stream over rows st.lo .. st.hi of the rectangle for st.q into
 *     st.out, st.pitch elements a row;
 *     pa_cuda_packets_sent(&k, s, ...);
 *   }
 *   pa_cuda_packets_end(&k, kernel name, ...);   (everything sent has landed)
 * begin waits for this GPU's default stream first (the blocks are then
 * ready to read and to overwrite once every thread or process has met:
 * the caller's barrier or collective).  The buffers, streams and events are
 * kept for the next copy; pa_cuda_packets_reserve makes them ahead. */
typedef struct pa_cuda_step {
    int q;              /* the destination GPU's thread or process */
    long long lo, hi;   /* the rows of its rectangle */
    void *out;          /* where they are packed */
    long long pitch;    /* elements a row there */
} pa_cuda_step;
typedef struct pa_cuda_packets {
    long long n, me, rows, width, pitch, base;
    pa_size_t elem;
    int chunks, steps;
    cudaStream_t stream; /* the packing kernels' */
    void *state;         /* the runtime's (buffers, streams, events) */
    char *to[PA_CUDA_MAX_BLOCKS];
} pa_cuda_packets;
pa_cuda_packets pa_cuda_packets_begin(long long n, long long me, long long rows, long long width, long long pitch,
                                      long long base, pa_size_t elem, const char *file, int line);
pa_cuda_step pa_cuda_packets_step(pa_cuda_packets *k, const pa_cuda_blocks *b, int s);
void pa_cuda_packets_sent(pa_cuda_packets *k, int s, const char *file, int line);
void pa_cuda_packets_end(pa_cuda_packets *k, const char *kernel, const char *file, int line);
/* The same where the copy does not transpose (CopyPlan.pk_direct): GPU q's
 * rectangle is already one in this GPU's block src, rows rows spitch
 * elements apart from element q * sstride, so the copy engines move it from
 * there (all pairs at once, each on its own stream), no packing; returns
 * when every rectangle of this GPU has landed.  pa_cuda_packets_ready comes
 * first, before the barrier or collective that opens the blocks (as
 * pa_cuda_packets_begin does for packets): this GPU's default stream done
 * with them, the blocks ready to read and to overwrite. */
void pa_cuda_packets_ready(const char *file, int line);
void pa_cuda_packets_direct(long long n, long long me, long long rows, long long width, long long pitch,
                            long long base, pa_size_t elem, const pa_cuda_blocks *b, const void *src, long long spitch,
                            long long sstride, const char *file, int line);
/* Makes ahead, for thread or process me of n on this GPU, what a packet
 * all-to-all of a block of `bytes` needs (called where such a block is
 * created: the first copy then costs what the next does), the kernels of
 * pa_cuda_preload loaded on this GPU among them; with peers,
 * enables peer access from this GPU to the GPUs of threads 0..n-1. */
void pa_cuda_packets_reserve(long long n, long long me, pa_size_t bytes, int peers, const char *file, int line);
/* A kernel that pa_cuda_packets_reserve loads on its GPU (CUDA loads a
 * kernel at its first launch otherwise); called before main, no CUDA call. */
void pa_cuda_preload(const void *kernel);

/* A scatter (to_blocks) or gather of rows between host memory and the
 * blocks of n processes, by process me (an mpi scatter, gather or broadcast
 * on one node; all: the blocks' exports, me's block mine): block q's rows
 * start at element xbase of it, lpitch elements apart, and host's at
 * element q * step (step 0: every block the same rows), pitch apart;
 * rows x width elements of elem bytes each.  The copies to the n GPUs run
 * at once, each by the GPU that holds the block where this process can map
 * it there (its own copy engine and PCIe link: 2 GPUs, 19.6 ms for 1 GiB
 * into each against 38.8 ms through one GPU), else by this process's GPU;
 * the mappings are kept as pa_cuda_ipc_open's, and block q + 1 is mapped
 * while block q's copy runs. */
void pa_cuda_ipc_rows(int to_blocks, void *host, long long rows, long long width, long long pitch, long long step,
                      const pa_cuda_ipc *all, long long n, long long me, const void *mine, long long xbase,
                      long long lpitch, pa_size_t elem, const char *file, int line);
/* Maps the blocks of the n processes but me on the GPUs that hold them, as
 * pa_cuda_ipc_rows does at its first copy: process 0's, at the #create of
 * distributed dmem, so that its first scatter or gather costs what the
 * later ones do. */
void pa_cuda_ipc_on_owners(const pa_cuda_ipc *all, long long n, long long me, const char *file, int line);

/* Allocates count elements of elem_size bytes in PA_DMEM (cudaMalloc) or
 * PA_PINNED (cudaMallocHost) memory; count == 0 allowed.  On failure prints
 * "FILE:LINE: error: cannot allocate N elements (B bytes) of type T in dmem
 * memory: <CUDA error>" and exits 1. */
void *pa_cuda_alloc(pa_mem mem, pa_size_t count, pa_size_t elem_size, const char *type,
                    const char *file, int line);
/* Frees memory from pa_cuda_alloc (PA_DMEM: cudaFree, PA_PINNED: cudaFreeHost,
 * PA_PAGED: free); NULL is allowed.  Failures are reported like pa_cuda_check's. */
void pa_cuda_free(pa_mem mem, void *p, const char *file, int line);

/* This thread's scratch memory on the current GPU, at least bytes, kept for
 * its later calls (valid until the next call on this GPU, which may move
 * it) and freed when the thread ends; NULL where it cannot be had (the
 * caller takes another way).  For temporary copies a kernel needs. */
void *pa_cuda_scratch(pa_size_t bytes);

/* This thread's counters on the current GPU, at least count of them, zero
 * when first had; kernels that use them leave them at zero, so the next
 * call finds them so (valid as pa_cuda_scratch's memory is, and kept apart
 * from it); NULL where they cannot be had.  For kernels whose blocks count
 * their arrivals (issue 53: the parts of a split k, added by the last). */
unsigned *pa_cuda_counters(pa_size_t count);

/* Unless err is cudaSuccess: "FILE:LINE: error: CALL failed: <CUDA error>", exit 1. */
void pa_cuda_check(cudaError_t err, const char *call, const char *file, int line);

/* After a kernel launch: checks the launch (cudaGetLastError) and waits for
 * the kernel (cudaDeviceSynchronize: work on the program's own streams
 * too); on failure
 * "FILE:LINE: error: kernel KERNEL failed: <CUDA error>", exit 1. */
void pa_cuda_check_launch(const char *kernel, const char *file, int line);

/* After the launch of a copy kernel that stands in for a device-to-device
 * cudaMemcpy2D (a #copy of pitched rows on one GPU): checks the launch only,
 * and, as that copy, does not wait; later kernels and copies are ordered
 * after it, and a fault in it is reported by the next wait. Same message. */
void pa_cuda_check_queued(const char *kernel, const char *file, int line);

/* Before launching kernel (its name: name) with bytes of dynamic shared
 * memory a block, above the 48 KB every GPU gives: opts the kernel in
 * (cudaFuncSetAttribute, once per kernel and GPU); more than the current
 * GPU allows is "FILE:LINE: error: kernel NAME needs B bytes of shared
 * memory a block; GPU D allows at most L (...)", exit 1. */
void pa_cuda_smem_optin(const void *kernel, pa_size_t bytes, const char *name, const char *file, int line);

#ifdef __cplusplus
}
#endif

/* INIT_GPU(dev): select and initialise GPU dev (Fig 11 of the paper). */
#define INIT_GPU(dev) pa_cuda_init((dev), __FILE__, __LINE__)

/* PA_CUDA_CHECK(call): a checked CUDA runtime call in user code. */
#define PA_CUDA_CHECK(call) pa_cuda_check((call), #call, __FILE__, __LINE__)

#ifdef __CUDACC__
#include <stdio.h>

/* A #copy that each thread of a kernel runs, between types whose extents
 * only the kernel knows: on a mismatch the first thread to see it prints
 * "FILE:LINE: error: #copy extent mismatch: ..." (device printf: on
 * stdout, when the launch check synchronises) and every such thread traps,
 * so that the launch check reports the kernel failed.  A check that holds
 * costs one comparison; the failing path is out of line. */
static __device__ int pa_cuda_copy_failed;

static __device__ __noinline__ void pa_cuda_copy_extent_fail(long long src, long long dst, const char *file, int line)
{
    if (atomicExch(&pa_cuda_copy_failed, 1) == 0)
        printf("%s:%d: error: #copy extent mismatch: source has %lld elements, destination %lld "
               "(block %d, thread %d)\n", file, line, src, dst, (int)(blockIdx.x + gridDim.x * (blockIdx.y +
               gridDim.y * blockIdx.z)), (int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)));
    __trap();
}

static __device__ __forceinline__ void pa_cuda_kernel_copy_extent(long long src, long long dst, const char *file,
                                                                  int line)
{
    if (src != dst)
        pa_cuda_copy_extent_fail(src, dst, file, line);
}
#endif

#endif /* PA_PARRAY_CUDA_H */
