/* pa_cuda.cu: the CUDA part of the Parray runtime (see parray_cuda.h).
 * Every CUDA call is checked; a failure names the call, the .pa place and
 * CUDA's own message, and ends the program with status 1. */
#include "parray_cuda.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" void pa_cuda_init(int dev, const char *file, int line)
{
    (void)file;
    (void)line;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count == 0)
        err = cudaErrorNoDevice;
    if (err == cudaSuccess && (dev < 0 || dev >= count)) {
        fflush(stdout);
        fprintf(stderr, "parray: error: no CUDA GPU available: GPU %d requested, %d present\n", dev,
                count);
        exit(1);
    }
    if (err == cudaSuccess)
        err = cudaSetDevice(dev);
    if (err == cudaSuccess)
        err = cudaFree(0); /* creates the context now, not in the first timed call */
    if (err != cudaSuccess) {
        fflush(stdout);
        fprintf(stderr, "parray: error: no CUDA GPU available: %s\n", cudaGetErrorString(err));
        exit(1);
    }
}

extern "C" void pa_cuda_gpus_for(long long nthreads, const char *type, const char *file, int line)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count == 0)
        err = cudaErrorNoDevice;
    if (err != cudaSuccess)
        pa_fail(file, line, "'%s' has threads with GPU work, but no CUDA GPU is available: %s", type,
                cudaGetErrorString(err));
    const char *share = getenv("PARRAY_GPU_SHARE");
    if (nthreads > count && !(share && *share && *share != '0'))
        pa_fail(file, line, "'%s' has %lld threads with GPU work, but %d GPU%s visible: one GPU per thread "
                "(set PARRAY_GPU_SHARE=1 to let threads share GPUs, thread k on GPU k mod %d)", type,
                nthreads, count, count == 1 ? " is" : "s are", count);
}

extern "C" int pa_cuda_gpu_count(const char **why)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count == 0)
        err = cudaErrorNoDevice;
    if (err != cudaSuccess) {
        cudaGetLastError();
        *why = cudaGetErrorString(err);
        return 0;
    }
    *why = NULL;
    return count;
}

extern "C" unsigned long long pa_cuda_visible_set(void)
{
    /* FNV-1a over the UUIDs of the GPUs this process sees, in its order;
     * once (they do not change while it runs) */
    static unsigned long long known; /* threads may ask at once: the same value */
    unsigned long long seen = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (seen)
        return seen;
    unsigned long long h = 14695981039346656037ull;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    for (int d = 0; d < count; d++) {
        cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) {
            cudaGetLastError();
            return 0;
        }
        for (size_t i = 0; i < sizeof prop.uuid.bytes; i++)
            h = (h ^ (unsigned char)prop.uuid.bytes[i]) * 1099511628211ull;
    }
    __atomic_store_n(&known, h, __ATOMIC_RELAXED);
    return h;
}

extern "C" void pa_cuda_bind(long long k, const char *file, int line)
{
    int count = 1;
    pa_cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount", file, line);
    pa_cuda_check(cudaSetDevice((int)(k % count)), "cudaSetDevice", file, line);
}

/* The dmem blocks pa_cuda_alloc made, so that an interior pointer can be
 * exported to another process (cudaIpcGetMemHandle takes a block's base). */
typedef struct Block {
    char *base;
    size_t bytes;
    bool exported;             /* its IPC handle went to other processes */
    cudaIpcMemHandle_t handle; /* that handle (made once: each call costs) */
} Block;

static struct {
    pthread_mutex_t mu;
    Block *b;
    size_t n, cap;
    unsigned long long freed; /* exported blocks freed so far */
} blocks = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, 0};

static void blocks_add(void *p, size_t bytes)
{
    pthread_mutex_lock(&blocks.mu);
    if (blocks.n == blocks.cap) {
        size_t cap = blocks.cap ? 2 * blocks.cap : 16;
        void *b = realloc(blocks.b, cap * sizeof *blocks.b);
        if (b) {
            blocks.b = (Block *)b;
            blocks.cap = cap;
        }
    }
    if (blocks.n < blocks.cap)
        blocks.b[blocks.n++] = {(char *)p, bytes, false, {}};
    pthread_mutex_unlock(&blocks.mu);
}

static void blocks_remove(void *p)
{
    pthread_mutex_lock(&blocks.mu);
    for (size_t i = 0; i < blocks.n; i++)
        if (blocks.b[i].base == p) {
            blocks.freed += blocks.b[i].exported; /* the importers' mappings of it are stale */
            blocks.b[i] = blocks.b[--blocks.n];
            break;
        }
    pthread_mutex_unlock(&blocks.mu);
}

/* the export of the block holding p (x->usable 0: p is in none) */
static void blocks_export(const void *p, pa_cuda_ipc *x, const char *file, int line)
{
    const char *c = (const char *)p;
    pthread_mutex_lock(&blocks.mu);
    for (size_t i = 0; i < blocks.n; i++) {
        Block *b = &blocks.b[i];
        if (c < b->base || c >= b->base + b->bytes)
            continue;
        cudaError_t err = cudaSuccess;
        if (!b->exported)
            err = cudaIpcGetMemHandle(&b->handle, b->base);
        if (err != cudaSuccess) {
            pthread_mutex_unlock(&blocks.mu);
            pa_cuda_check(err, "cudaIpcGetMemHandle", file, line);
        }
        b->exported = true;
        x->handle = b->handle;
        x->offset = (size_t)(c - b->base);
        x->usable = 1;
        break;
    }
    x->freed = blocks.freed;
    pthread_mutex_unlock(&blocks.mu);
}

extern "C" void *pa_cuda_alloc(pa_mem mem, size_t count, size_t elem_size, const char *type,
                               const char *file, int line)
{
    const char *tname = type ? type : "?";
    if (mem == PA_PAGED)
        return pa_alloc_host(mem, count, elem_size, type, file, line);
    if (mem != PA_DMEM && mem != PA_PINNED)
        pa_fail(file, line, "cannot allocate %zu elements of type %s in %s memory: "
                "it is not allocated by the host", count, tname, pa_mem_name(mem));
    size_t n = count ? count : 1, size = elem_size ? elem_size : 1;
    if (n > SIZE_MAX / size)
        pa_fail(file, line, "cannot allocate %zu elements (more than %zu bytes) of type %s in %s "
                "memory: the size overflows", count, (size_t)SIZE_MAX, tname, pa_mem_name(mem));
    void *p = NULL;
    cudaError_t err = mem == PA_DMEM ? cudaMalloc(&p, n * size) : cudaMallocHost(&p, n * size);
    if (err != cudaSuccess) {
        cudaGetLastError(); /* allocation errors are not sticky: clear it */
        pa_fail(file, line, "cannot allocate %zu elements (%zu bytes) of type %s in %s memory: %s",
                count, count * elem_size, tname, pa_mem_name(mem), cudaGetErrorString(err));
    }
    if (mem == PA_DMEM)
        blocks_add(p, n * size);
    return p;
}

extern "C" void pa_cuda_free(pa_mem mem, void *p, const char *file, int line)
{
    if (!p)
        return;
    if (mem == PA_DMEM) {
        blocks_remove(p);
        pa_cuda_check(cudaFree(p), "cudaFree", file, line);
    }
    else if (mem == PA_PINNED)
        pa_cuda_check(cudaFreeHost(p), "cudaFreeHost", file, line);
    else
        pa_destroy_host(mem, p, NULL, file, line);
}

/* ---- a thread's scratch memory on each GPU ---- */

/* this thread's scratch blocks on GPU d (SCRATCH_GPUS at most), one of each
 * kind, freed when the thread ends (a pthread key's destructor): a kernel's
 * temporary copies and partial results (issue 53: an odd leading dimension
 * repacked for the copy engine, the parts of a split k) and its counters
 * cost one cudaMalloc a thread and size, not one a call, and two threads
 * sharing a GPU never share one */
enum { SCRATCH_GPUS = 64 };
enum { SCRATCH_PLAIN, SCRATCH_COUNTERS, SCRATCH_KINDS };
typedef struct Scratch {
    void *p[SCRATCH_KINDS][SCRATCH_GPUS];
    size_t bytes[SCRATCH_KINDS][SCRATCH_GPUS];
} Scratch;
static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_free(void *arg)
{
    Scratch *s = (Scratch *)arg;
    int was = -1;
    for (int k = 0; k < SCRATCH_KINDS; k++)
        for (int d = 0; d < SCRATCH_GPUS; d++)
            if (s->p[k][d]) {
                if (was < 0 && cudaGetDevice(&was) != cudaSuccess)
                    was = 0;
                if (cudaSetDevice(d) == cudaSuccess)
                    cudaFree(s->p[k][d]);
            }
    if (was >= 0)
        cudaSetDevice(was);
    cudaGetLastError();
    free(s);
}

static void scratch_key_make(void)
{
    pthread_key_create(&scratch_key, scratch_free);
}

/* this thread's memory of one kind on the current GPU, at least bytes;
 * counters are zeroed when allocated */
static void *scratch_get(int kind, size_t bytes)
{
    int d = 0;
    if (cudaGetDevice(&d) != cudaSuccess || d < 0 || d >= SCRATCH_GPUS) {
        cudaGetLastError();
        return NULL;
    }
    pthread_once(&scratch_once, scratch_key_make);
    Scratch *s = (Scratch *)pthread_getspecific(scratch_key);
    if (!s) {
        s = (Scratch *)calloc(1, sizeof *s);
        if (!s || pthread_setspecific(scratch_key, s) != 0) {
            free(s);
            return NULL;
        }
    }
    if (s->p[kind][d] && s->bytes[kind][d] >= bytes)
        return s->p[kind][d];
    const size_t want = pa_scratch_grown(s->bytes[kind][d], bytes);
    if (s->p[kind][d]) {
        cudaFree(s->p[kind][d]); /* waits for the kernels that used it */
        s->p[kind][d] = NULL;
        s->bytes[kind][d] = 0;
    }
    void *p = NULL;
    if (cudaMalloc(&p, want) != cudaSuccess ||
        (kind == SCRATCH_COUNTERS && cudaMemset(p, 0, want) != cudaSuccess)) {
        cudaFree(p);
        cudaGetLastError(); /* not sticky: the caller takes another way */
        return NULL;
    }
    s->p[kind][d] = p;
    s->bytes[kind][d] = want;
    return p;
}

extern "C" void *pa_cuda_scratch(size_t bytes)
{
    return scratch_get(SCRATCH_PLAIN, bytes);
}

extern "C" unsigned *pa_cuda_counters(size_t count)
{
    return (unsigned *)scratch_get(SCRATCH_COUNTERS, count * sizeof(unsigned));
}

extern "C" void pa_cuda_check(cudaError_t err, const char *call, const char *file, int line)
{
    if (err != cudaSuccess)
        pa_fail(file, line, "%s failed: %s", call, cudaGetErrorString(err));
}

/* the launch's error, or with wait the kernel's (the whole device:
 * cudaStreamSynchronize(0) would let work on a program's own streams run on,
 * but two threads sharing a GPU then hang under compute-sanitizer's
 * racecheck: gpu_pthd_dmem, session 25) */
static void check_kernel(const char *kernel, const char *file, int line, bool wait)
{
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess && wait)
        err = cudaDeviceSynchronize();
    if (err != cudaSuccess)
        pa_fail(file, line, "kernel %s failed: %s", kernel, cudaGetErrorString(err));
}

extern "C" void pa_cuda_check_launch(const char *kernel, const char *file, int line)
{
    check_kernel(kernel, file, line, true);
}

extern "C" void pa_cuda_check_queued(const char *kernel, const char *file, int line)
{
    check_kernel(kernel, file, line, false);
}

/* ---- shared memory beyond 48 KB ---- */

/* the kernels that have opted in, on which GPU, with how many bytes: a
 * kernel asks once per GPU (and again for more) */
enum { OPTIN_MAX = 64 };
static struct {
    const void *kernel;
    int dev;
    size_t bytes;
} optins[OPTIN_MAX];
static int noptins;
static pthread_mutex_t optin_lock = PTHREAD_MUTEX_INITIALIZER;

static bool optin_known(const void *kernel, int dev, size_t bytes)
{
    for (int i = 0; i < noptins; i++)
        if (optins[i].kernel == kernel && optins[i].dev == dev && optins[i].bytes >= bytes)
            return true;
    return false;
}

extern "C" void pa_cuda_smem_optin(const void *kernel, size_t bytes, const char *name, const char *file, int line)
{
    if (bytes <= 48 * 1024)
        return; /* every GPU gives a block that much without asking */
    int dev = 0, limit = 0;
    pa_cuda_check(cudaGetDevice(&dev), "cudaGetDevice", file, line);
    pthread_mutex_lock(&optin_lock);
    bool known = optin_known(kernel, dev, bytes);
    pthread_mutex_unlock(&optin_lock);
    if (known)
        return;
    pa_cuda_check(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev),
                  "cudaDeviceGetAttribute", file, line);
    if (bytes > (size_t)limit)
        pa_fail(file, line, "kernel %s needs %zu bytes of shared memory a block; GPU %d allows at most %d "
                "(cudaDevAttrMaxSharedMemoryPerBlockOptin)", name, bytes, dev, limit);
    pa_cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes),
                  "cudaFuncSetAttribute", file, line);
    pthread_mutex_lock(&optin_lock);
    if (noptins < OPTIN_MAX && !optin_known(kernel, dev, bytes))
        optins[noptins++] = {kernel, dev, bytes};
    pthread_mutex_unlock(&optin_lock);
}

/* ---- staging of GPU blocks through host memory ---- */

/* Pinned staging buffers are kept for the next copy: pinning costs about as
 * much as the copy (cudaMallocHost of a large buffer), and a loop of copies
 * through the host (an mpi all-to-all across nodes without NCCL) would pay
 * it every time.  STAGE_KEPT buffers wait; a request takes the smallest
 * that fits and is at most twice as large. */
enum { STAGE_KEPT = 4, STAGE_LENT = 64 };
static struct {
    pthread_mutex_t mu;
    void *kept[STAGE_KEPT];
    size_t kept_bytes[STAGE_KEPT];
    void *lent[STAGE_LENT];
    size_t lent_bytes[STAGE_LENT];
} stage = {PTHREAD_MUTEX_INITIALIZER, {}, {}, {}, {}};

static void *stage_get(size_t bytes, const char *file, int line)
{
    size_t want = bytes ? bytes : 1;
    void *h = NULL;
    size_t got = 0;
    pthread_mutex_lock(&stage.mu);
    int best = -1;
    for (int i = 0; i < STAGE_KEPT; i++)
        if (stage.kept[i] && stage.kept_bytes[i] >= want && stage.kept_bytes[i] / 2 <= want &&
            (best < 0 || stage.kept_bytes[i] < stage.kept_bytes[best]))
            best = i;
    if (best >= 0) {
        h = stage.kept[best];
        got = stage.kept_bytes[best];
        stage.kept[best] = NULL;
    }
    pthread_mutex_unlock(&stage.mu);
    if (!h) {
        h = pa_cuda_alloc(PA_PINNED, want, 1, "staging", file, line);
        got = want;
    }
    pthread_mutex_lock(&stage.mu);
    for (int i = 0; i < STAGE_LENT; i++)
        if (!stage.lent[i]) {
            stage.lent[i] = h;
            stage.lent_bytes[i] = got;
            break;
        }
    pthread_mutex_unlock(&stage.mu);
    return h;
}

static void stage_put(void *h, const char *file, int line)
{
    size_t bytes = 0;
    int known = 0;
    pthread_mutex_lock(&stage.mu);
    for (int i = 0; i < STAGE_LENT && !known; i++)
        if (stage.lent[i] == h) {
            bytes = stage.lent_bytes[i];
            stage.lent[i] = NULL;
            known = 1;
        }
    if (known) /* into a free slot, else in place of the smallest kept (freed instead) */
        for (int i = 0; i < STAGE_KEPT && h; i++)
            if (!stage.kept[i] || stage.kept_bytes[i] < bytes) {
                void *old = stage.kept[i];
                stage.kept[i] = h;
                stage.kept_bytes[i] = bytes;
                h = old;
                break;
            }
    pthread_mutex_unlock(&stage.mu);
    if (h)
        pa_cuda_free(PA_PINNED, h, file, line);
}

extern "C" void *pa_cuda_stage_out(const void *dev, size_t bytes, const char *file, int line)
{
    void *h = stage_get(bytes, file, line);
    if (dev && bytes)
        pa_cuda_check(cudaMemcpy(h, dev, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy (staging)", file, line);
    else if (bytes)
        memset(h, 0, bytes); /* a block the copy writes whole (hostc_written_whole) */
    return h;
}

extern "C" void pa_cuda_stage_in(void *dev, void *host, size_t bytes, const char *file, int line)
{
    if (dev && bytes)
        pa_cuda_check(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (staging)", file, line);
    stage_put(host, file, line);
}

/* ---- blocks of distributed dmem on several GPUs ---- */

/* Peer access from GPU `me` to GPU `peer`, enabled once per pair and process: enabling it
   again fails with cudaErrorPeerAccessAlreadyEnabled, harmless but an API error that
   compute-sanitizer reports (first seen on two H200s), so the pairs already enabled are
   remembered, under a lock since the threads of a team copy at once. */
#define PA_PEER_GPUS 64
static struct {
    pthread_mutex_t mu;
    unsigned char on[PA_PEER_GPUS][PA_PEER_GPUS];
} peers = {PTHREAD_MUTEX_INITIALIZER, {{0}}};

static void peer_enable(int me, int peer, const char *file, int line)
{
    const int known = me < PA_PEER_GPUS && peer < PA_PEER_GPUS;
    pthread_mutex_lock(&peers.mu);
    if (!known || !peers.on[me][peer]) {
        cudaError_t err = cudaDeviceEnablePeerAccess(peer, 0);
        if (err == cudaErrorPeerAccessAlreadyEnabled)
            cudaGetLastError(); /* enabled outside parray's copies: fine, and not sticky */
        else if (err != cudaSuccess) {
            pthread_mutex_unlock(&peers.mu);
            pa_cuda_check(err, "cudaDeviceEnablePeerAccess", file, line);
        }
        if (known)
            peers.on[me][peer] = 1;
    }
    pthread_mutex_unlock(&peers.mu);
}

/* Memory at p, for a kernel on this thread's GPU: peer access to the GPU
   that holds it when that is another (a #copy kernel in a pthd, omp or mpi
   body between one GPU's array and another's); a GPU that cannot reach it
   is an error naming both. */
static void reach(const void *p, int me, const char *file, int line)
{
    if (!p)
        return;
    cudaPointerAttributes a;
    pa_cuda_check(cudaPointerGetAttributes(&a, p), "cudaPointerGetAttributes", file, line);
    if (a.type != cudaMemoryTypeDevice || a.device == me)
        return;
    int can = 0;
    pa_cuda_check(cudaDeviceCanAccessPeer(&can, me, a.device), "cudaDeviceCanAccessPeer", file, line);
    if (!can)
        pa_fail(file, line, "a #copy on GPU %d reaches memory on GPU %d, which it cannot access (no peer "
                "access between them): copy through host memory instead", me, a.device);
    peer_enable(me, a.device, file, line);
}

extern "C" void pa_cuda_peer_reach(const void *a, const void *b, const char *file, int line)
{
    int me = 0;
    pa_cuda_check(cudaGetDevice(&me), "cudaGetDevice", file, line);
    reach(a, me, file, line);
    reach(b, me, file, line);
}

extern "C" pa_cuda_blocks pa_cuda_team_blocks(const void *const *table, long long n, const char *file, int line)
{
    pa_cuda_blocks b;
    memset(&b, 0, sizeof b);
    if (n > PA_CUDA_MAX_BLOCKS)
        pa_fail(file, line, "a #copy between GPUs over %lld threads: at most %d are supported", n,
                PA_CUDA_MAX_BLOCKS);
    int me = 0;
    pa_cuda_check(cudaGetDevice(&me), "cudaGetDevice", file, line);
    for (long long i = 0; i < n; i++) {
        b.p[i] = table[i];
        cudaPointerAttributes a;
        pa_cuda_check(cudaPointerGetAttributes(&a, table[i]), "cudaPointerGetAttributes", file, line);
        if (a.type != cudaMemoryTypeDevice || a.device == me)
            continue;
        int can = 0;
        pa_cuda_check(cudaDeviceCanAccessPeer(&can, me, a.device), "cudaDeviceCanAccessPeer", file, line);
        if (!can)
            pa_fail(file, line, "thread %lld's block of a distributed #copy is on GPU %d, which GPU %d cannot "
                    "read (no peer access between them): distributed dmem needs GPUs with peer-to-peer "
                    "access (NVLink or PCIe P2P)", i, a.device, me);
        peer_enable(me, a.device, file, line);
    }
    return b;
}

/* ---- blocks of distributed dmem in other processes of the node ---- */

extern "C" pa_cuda_ipc pa_cuda_ipc_export(const void *p, const char *file, int line)
{
    pa_cuda_ipc x;
    memset(&x, 0, sizeof x);
    blocks_export(p, &x, file, line); /* not in a #create block: unusable, the copy goes through the host */
    x.gpus = pa_cuda_visible_set();
    pa_cuda_check(cudaGetDevice(&x.device), "cudaGetDevice", file, line);
    return x;
}

extern "C" int pa_cuda_ipc_usable(const pa_cuda_ipc *all, long long n)
{
    const char *off = getenv("PARRAY_NO_IPC"); /* to measure (or test) the way through the host */
    if (off && *off && *off != '0')
        return 0;
    for (long long i = 0; i < n; i++)
        if (!all[i].usable || all[i].gpus != all[0].gpus)
            return 0;
    return n <= PA_CUDA_MAX_BLOCKS;
}

/* The other processes' blocks mapped into this one, kept between copies:
 * opening a mapping costs more than a small copy, and a pipeline of copies
 * between the same blocks (samples/multi/fft.pah) would pay it each time. */
typedef struct Mapping {
    long long rank;
    int device;
    cudaIpcMemHandle_t handle;
    void *base;
    unsigned long long freed, used; /* the exporter's count when last seen; when last used */
    int owner;                      /* the GPU that holds the block (the exporter's) */
} Mapping;

static struct {
    pthread_mutex_t mu;
    Mapping m[PA_CUDA_IPC_KEPT];
    int n;
    unsigned long long clock;
} mappings = {PTHREAD_MUTEX_INITIALIZER, {}, 0, 0};

static void mapping_drop(int i, const char *file, int line)
{
    pa_cuda_check(cudaIpcCloseMemHandle(mappings.m[i].base), "cudaIpcCloseMemHandle", file, line);
    mappings.m[i] = mappings.m[--mappings.n];
}

/* the base of process rank's block x, mapped on GPU dev (mappings.mu held,
 * dev current), or the error of cudaIpcOpenMemHandle */
static cudaError_t mapping_on(long long rank, const pa_cuda_ipc *x, int dev, void **out, const char *file, int line)
{
    void *base = NULL;
    for (int i = mappings.n - 1; i >= 0; i--) {
        Mapping *m = &mappings.m[i];
        if (m->rank != rank || m->device != dev)
            continue;
        if (!memcmp(&m->handle, &x->handle, sizeof x->handle)) {
            m->freed = x->freed;
            m->used = ++mappings.clock;
            base = m->base;
        } else if (m->freed != x->freed) {
            mapping_drop(i, file, line); /* the exporter freed a block since: perhaps this one */
        }
    }
    *out = base;
    if (base)
        return cudaSuccess;
    if (mappings.n == PA_CUDA_IPC_KEPT) { /* full: the least recently used goes */
        int old = 0;
        for (int i = 1; i < mappings.n; i++)
            if (mappings.m[i].used < mappings.m[old].used)
                old = i;
        mapping_drop(old, file, line);
    }
    cudaError_t err = cudaIpcOpenMemHandle(&base, x->handle, cudaIpcMemLazyEnablePeerAccess);
    if (err != cudaSuccess)
        return err;
    mappings.m[mappings.n++] = {rank, dev, x->handle, base, x->freed, ++mappings.clock, x->device};
    *out = base;
    return cudaSuccess;
}

/* the base of process rank's block x, mapped on this device (mappings.mu held) */
static void *mapping_of(long long rank, const pa_cuda_ipc *x, const char *file, int line)
{
    int dev = 0;
    void *base = NULL;
    pa_cuda_check(cudaGetDevice(&dev), "cudaGetDevice", file, line);
    pa_cuda_check(mapping_on(rank, x, dev, &base, file, line), "cudaIpcOpenMemHandle (the block of another process)",
                  file, line);
    return base;
}

extern "C" pa_cuda_blocks pa_cuda_ipc_open(const pa_cuda_ipc *all, long long n, long long me, const void *mine,
                                           const char *file, int line)
{
    pa_cuda_blocks b;
    memset(&b, 0, sizeof b);
    pthread_mutex_lock(&mappings.mu);
    for (long long i = 0; i < n; i++)
        b.p[i] = i == me ? mine : (const char *)mapping_of(i, &all[i], file, line) + all[i].offset;
    pthread_mutex_unlock(&mappings.mu);
    return b;
}

/* Block q of all (not me's) mapped on the GPU that holds it, *on that GPU,
 * where it can be; else on GPU cur (mappings.mu held) */
static char *ipc_on_owner(const pa_cuda_ipc *all, long long q, int cur, int count, int *on, const char *file,
                          int line)
{
    int dev = all[q].device;
    void *base = NULL;
    if (dev != cur && dev >= 0 && dev < count && cudaSetDevice(dev) == cudaSuccess &&
        mapping_on(q, &all[q], dev, &base, file, line) == cudaSuccess) {
        *on = dev;
        return (char *)base + all[q].offset;
    }
    cudaGetLastError(); /* not the program's failure: the copy goes by this GPU */
    pa_cuda_check(cudaSetDevice(cur), "cudaSetDevice", file, line);
    *on = cur;
    return (char *)mapping_of(q, &all[q], file, line) + all[q].offset;
}

extern "C" void pa_cuda_ipc_on_owners(const pa_cuda_ipc *all, long long n, long long me, const char *file, int line)
{
    int cur = 0, count = 0, on = 0;
    pa_cuda_check(cudaGetDevice(&cur), "cudaGetDevice", file, line);
    pa_cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount", file, line);
    pthread_mutex_lock(&mappings.mu);
    for (long long q = 0; q < n && q < PA_CUDA_MAX_BLOCKS; q++)
        if (q != me)
            ipc_on_owner(all, q, cur, count, &on, file, line);
    pthread_mutex_unlock(&mappings.mu);
    pa_cuda_check(cudaSetDevice(cur), "cudaSetDevice", file, line);
}

extern "C" void pa_cuda_ipc_rows(int to_blocks, void *host, long long rows, long long width, long long pitch,
                                 long long step, const pa_cuda_ipc *all, long long n, long long me, const void *mine,
                                 long long xbase, long long lpitch, size_t elem, const char *file, int line)
{
    if (n > PA_CUDA_MAX_BLOCKS)
        pa_fail(file, line, "%lld blocks: at most %d", n, PA_CUDA_MAX_BLOCKS);
    int cur = 0, count = 0;
    pa_cuda_check(cudaGetDevice(&cur), "cudaGetDevice", file, line);
    pa_cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount", file, line);
    cudaStream_t s[PA_CUDA_MAX_BLOCKS];
    int on[PA_CUDA_MAX_BLOCKS];
    for (long long q = 0; q < n; q++) {
        /* each block by the GPU that holds it, where it can be mapped there;
         * block q + 1 maps while block q's copy runs */
        char *d;
        if (q == me) {
            d = (char *)mine;
            on[q] = cur;
        } else {
            pthread_mutex_lock(&mappings.mu);
            d = ipc_on_owner(all, q, cur, count, &on[q], file, line);
            pthread_mutex_unlock(&mappings.mu);
        }
        d += (size_t)xbase * elem;
        pa_cuda_check(cudaSetDevice(on[q]), "cudaSetDevice", file, line);
        pa_cuda_check(cudaStreamCreateWithFlags(&s[q], cudaStreamNonBlocking), "cudaStreamCreate", file, line);
        char *h = (char *)host + (size_t)(q * step) * elem;
        size_t hp = (size_t)pitch * elem, dp = (size_t)lpitch * elem, w = (size_t)width * elem;
        cudaError_t err;
        if (rows == 1) /* one block: no pitch, which cudaMemcpy2D limits */
            err = to_blocks ? cudaMemcpyAsync(d, h, w, cudaMemcpyDefault, s[q])
                            : cudaMemcpyAsync(h, d, w, cudaMemcpyDefault, s[q]);
        else
            err = to_blocks ? cudaMemcpy2DAsync(d, dp, h, hp, w, (size_t)rows, cudaMemcpyDefault, s[q])
                            : cudaMemcpy2DAsync(h, hp, d, dp, w, (size_t)rows, cudaMemcpyDefault, s[q]);
        pa_cuda_check(err, to_blocks ? "cudaMemcpy2DAsync (rows into another process's GPU block)"
                                     : "cudaMemcpy2DAsync (rows from another process's GPU block)", file, line);
    }
    for (long long q = 0; q < n; q++) {
        pa_cuda_check(cudaSetDevice(on[q]), "cudaSetDevice", file, line);
        pa_cuda_check(cudaStreamSynchronize(s[q]), "cudaStreamSynchronize (rows of the GPU blocks)", file, line);
        pa_cuda_check(cudaStreamDestroy(s[q]), "cudaStreamDestroy", file, line);
    }
    pa_cuda_check(cudaSetDevice(cur), "cudaSetDevice", file, line);
}

/* ---- the transposing all-to-all in packets (parray_cuda.h) ---- */

enum { PA_PACKET_CHUNKS = 4 };

/* What thread or process me keeps between packet all-to-alls: a buffer of
 * packets, a stream for the packing kernels, a stream and events for each
 * destination.  One thread uses its own entry only (under
 * PARRAY_GPU_SHARE two threads on one GPU have two). */
typedef struct PacketState {
    bool made;
    int dev, nq; /* GPU; the destinations whose stream and events exist */
    char *buf;
    size_t bytes;
    cudaStream_t pack, to[PA_CUDA_MAX_BLOCKS];
    cudaEvent_t ev[PA_CUDA_MAX_BLOCKS][PA_PACKET_CHUNKS];
} PacketState;
static PacketState pstate[PA_CUDA_MAX_BLOCKS];

static PacketState *packet_state(long long n, long long me, size_t bytes, const char *file, int line)
{
    if (n > PA_CUDA_MAX_BLOCKS || me < 0 || me >= n)
        pa_fail(file, line, "a #copy between GPUs over %lld threads: at most %d are supported", n, PA_CUDA_MAX_BLOCKS);
    PacketState *s = &pstate[me];
    int dev = 0;
    pa_cuda_check(cudaGetDevice(&dev), "cudaGetDevice", file, line);
    if (s->made && s->dev != dev) { /* another team put this thread on another GPU */
        int was = dev;
        pa_cuda_check(cudaSetDevice(s->dev), "cudaSetDevice", file, line);
        pa_cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", file, line);
        pa_cuda_check(cudaFree(s->buf), "cudaFree", file, line);
        pa_cuda_check(cudaStreamDestroy(s->pack), "cudaStreamDestroy", file, line);
        for (int q = 0; q < s->nq; q++) {
            pa_cuda_check(cudaStreamDestroy(s->to[q]), "cudaStreamDestroy", file, line);
            for (int c = 0; c < PA_PACKET_CHUNKS; c++)
                pa_cuda_check(cudaEventDestroy(s->ev[q][c]), "cudaEventDestroy", file, line);
        }
        pa_cuda_check(cudaSetDevice(was), "cudaSetDevice", file, line);
        memset(s, 0, sizeof *s);
    }
    if (!s->made) {
        s->dev = dev;
        /* the greatest priority: the copy's kernels (packing, this GPU's own rectangle) are on the
           critical path of the kernels queued beside it (2 H200s, N = 16384: the FFT's output by
           columns 2.683 ms against 2.938 at the default, 2.584 against 2.629 on another machine;
           bench/results/run41_priority.md) */
        int least = 0, greatest = 0;
        pa_cuda_check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange", file,
                      line);
        pa_cuda_check(cudaStreamCreateWithPriority(&s->pack, cudaStreamNonBlocking, greatest), "cudaStreamCreate", file,
                      line);
        s->made = true;
    }
    for (; s->nq < n; s->nq++) {
        int q = s->nq;
        pa_cuda_check(cudaStreamCreateWithFlags(&s->to[q], cudaStreamNonBlocking), "cudaStreamCreate", file, line);
        for (int c = 0; c < PA_PACKET_CHUNKS; c++)
            pa_cuda_check(cudaEventCreateWithFlags(&s->ev[q][c], cudaEventDisableTiming), "cudaEventCreate", file,
                          line);
    }
    if (bytes > s->bytes) {
        if (s->buf)
            pa_cuda_check(cudaFree(s->buf), "cudaFree", file, line);
        s->buf = NULL;
        s->bytes = 0;
        cudaError_t err = cudaMalloc(&s->buf, bytes);
        if (err != cudaSuccess) {
            cudaGetLastError();
            pa_fail(file, line, "cannot allocate %zu bytes of GPU memory for the packets of an all-to-all: %s", bytes,
                    cudaGetErrorString(err));
        }
        s->bytes = bytes;
    }
    return s;
}

/* The stream of what me sends q: the packing stream for its own part */
static cudaStream_t pair_stream(const PacketState *st, long long me, long long q)
{
    return q == me ? st->pack : st->to[q];
}

/* A rectangle of rows copied within one GPU by its multiprocessors: w
 * bytes a row, as W words where the addresses and pitches allow; a block's
 * threads along a row (a warp or more) and over rows (narrow rectangles) */
template <typename W>
__global__ void pa_rect_copy(char *to, size_t pitch, const char *from, size_t spitch, long long words, long long rows)
{
    for (long long r = blockIdx.y * (long long)blockDim.y + threadIdx.y; r < rows;
         r += (long long)gridDim.y * blockDim.y) {
        const W *s = (const W *)(from + (size_t)r * spitch);
        W *d = (W *)(to + (size_t)r * pitch);
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < words;
             i += (long long)gridDim.x * blockDim.x)
            d[i] = s[i];
    }
}

template <typename W>
static void rect_copy_as(char *to, size_t pitch, const char *from, size_t spitch, size_t w, long long rows,
                         cudaStream_t s)
{
    long long words = (long long)(w / sizeof(W));
    unsigned bx = words >= 256 ? 256 : (unsigned)(words + 31) / 32 * 32, by = 256 / bx;
    long long x = (words + 4 * bx - 1) / (4 * bx), y = (rows + by - 1) / by; /* four words a thread */
    dim3 grid((unsigned)(x > 1024 ? 1024 : x), (unsigned)(y < 65535 ? y : 65535)), block(bx, by);
    pa_rect_copy<W><<<grid, block, 0, s>>>(to, pitch, from, spitch, words, rows);
}

static void rect_copy(char *to, size_t pitch, const char *from, size_t spitch, size_t w, long long rows,
                      cudaStream_t s)
{
    if (w == 0 || rows <= 0) /* nothing to copy (rect_copy_as's block shape divides by the words) */
        return;
    uintptr_t all = (uintptr_t)to | (uintptr_t)from | pitch | spitch | w;
    if (all % 16 == 0)
        rect_copy_as<int4>(to, pitch, from, spitch, w, rows, s);
    else if (all % 8 == 0)
        rect_copy_as<long long>(to, pitch, from, spitch, w, rows, s);
    else if (all % 4 == 0)
        rect_copy_as<int>(to, pitch, from, spitch, w, rows, s);
    else
        rect_copy_as<char>(to, pitch, from, spitch, w, rows, s);
}

/* the copy kernels, loaded when a distributed array is made (lazily otherwise: in the first copy) */
static const void *const rect_copy_kernels[] = {(const void *)pa_rect_copy<int4>, (const void *)pa_rect_copy<long long>,
                                                (const void *)pa_rect_copy<int>, (const void *)pa_rect_copy<char>};

enum { PA_PRELOAD_MAX = 256 };
static const void *preload_kernels[PA_PRELOAD_MAX];
static int npreload;

extern "C" void pa_cuda_preload(const void *kernel)
{
    if (npreload < PA_PRELOAD_MAX) /* before main: one thread */
        preload_kernels[npreload++] = kernel;
}

__global__ void pa_stream_warm(void) {}

extern "C" void pa_cuda_packets_reserve(long long n, long long me, size_t bytes, int peers, const char *file, int line)
{
    int nrect = (int)(sizeof rect_copy_kernels / sizeof *rect_copy_kernels);
    /* each kernel loaded on this GPU now (lazily otherwise: in the first copy) */
    for (int k = 0; k < npreload + nrect; k++) {
        cudaFuncAttributes a;
        const void *kernel = k < npreload ? preload_kernels[k] : rect_copy_kernels[k - npreload];
        pa_cuda_check(cudaFuncGetAttributes(&a, kernel), "cudaFuncGetAttributes", file, line);
    }
    size_t packet = n > 1 ? (bytes + n - 1) / n : 0; /* a block's share for one GPU, at most */
    PacketState *st = packet_state(n, me, packet * (size_t)(n - 1), file, line);
    /* each stream's first work costs more than the next: its first kind of work now, a kernel on the
       packing stream (the first transpose of 16384^2 floats on 1 H200: 1.33-1.39x a later one, with
       this 1.08-1.10x, bench/results/run42_multi2.md), a few bytes set on each of the others (2 H200s:
       1.29-1.31x, with this 1.14-1.22x) */
    pa_stream_warm<<<1, 32, 0, st->pack>>>();
    pa_cuda_check(cudaGetLastError(), "the packing stream's first kernel", file, line);
    for (long long q = 0; q < n; q++) {
        cudaStream_t s = pair_stream(st, me, q);
        if (q != me && st->bytes > 0)
            pa_cuda_check(cudaMemsetAsync(st->buf, 0, st->bytes < 4 ? st->bytes : 4, s),
                          "cudaMemsetAsync (the all-to-all's streams)", file, line);
        pa_cuda_check(cudaStreamSynchronize(s), "cudaStreamSynchronize (the all-to-all's streams)", file, line);
    }
    if (!peers)
        return;
    int count = 1, me_dev = 0;
    pa_cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount", file, line);
    pa_cuda_check(cudaGetDevice(&me_dev), "cudaGetDevice", file, line);
    for (long long q = 0; q < n; q++) {
        int dev = (int)(q % count), can = 0;
        if (dev == me_dev)
            continue;
        pa_cuda_check(cudaDeviceCanAccessPeer(&can, me_dev, dev), "cudaDeviceCanAccessPeer", file, line);
        if (can) /* else the copy names the GPUs */
            peer_enable(me_dev, dev, file, line);
    }
}

extern "C" pa_cuda_packets pa_cuda_packets_begin(long long n, long long me, long long rows, long long width,
                                                 long long pitch, long long base, size_t elem, const char *file,
                                                 int line)
{
    pa_cuda_packets k;
    memset(&k, 0, sizeof k);
    k.n = n;
    k.me = me;
    k.rows = rows;
    k.width = width;
    k.pitch = pitch;
    k.base = base;
    k.elem = elem;
    size_t packet = (size_t)rows * (size_t)width * elem;
    /* chunks of about 64 MB or more: fewer leave the copy engines idle while the first is packed, more
       cost a launch and a copy each (bench/a2a_variants.cu: 2 to 4 best on 2 and 4 H200s) */
    long long chunks = (long long)(packet >> 26);
    k.chunks = (int)(chunks < 1 ? 1 : chunks > PA_PACKET_CHUNKS ? PA_PACKET_CHUNKS : chunks);
    if (k.chunks > rows)
        k.chunks = rows > 0 ? (int)rows : 1;
    k.steps = (int)(n - 1) * k.chunks + 1;
    PacketState *s = packet_state(n, me, packet * (size_t)(n - 1), file, line);
    k.state = s;
    k.stream = s->pack;
    pa_cuda_packets_ready(file, line);
    return k;
}

extern "C" void pa_cuda_packets_ready(const char *file, int line)
{
    pa_cuda_check(cudaStreamSynchronize(0), "cudaStreamSynchronize (the blocks before an all-to-all)", file, line);
}

extern "C" pa_cuda_step pa_cuda_packets_step(pa_cuda_packets *k, const pa_cuda_blocks *b, int s)
{
    PacketState *st = (PacketState *)k->state;
    pa_cuda_step r;
    size_t packet = (size_t)k->rows * (size_t)k->width * k->elem;
    if (s < k->steps - 1) {
        int d = s / k->chunks + 1, c = s % k->chunks;
        r.q = (int)((k->me + d) % k->n);
        r.lo = k->rows * c / k->chunks;
        r.hi = k->rows * (c + 1) / k->chunks;
        r.out = st->buf + (size_t)(d - 1) * packet;
        r.pitch = k->width;
        k->to[r.q] = (char *)b->p[r.q] + (size_t)k->base * k->elem;
    } else { /* this GPU's own rectangle, straight into its block */
        r.q = (int)k->me;
        r.lo = 0;
        r.hi = k->rows;
        r.out = (char *)b->p[k->me] + (size_t)k->base * k->elem;
        r.pitch = k->pitch;
    }
    return r;
}

extern "C" void pa_cuda_packets_sent(pa_cuda_packets *k, int s, const char *file, int line)
{
    PacketState *st = (PacketState *)k->state;
    pa_cuda_check(cudaGetLastError(), "the packing kernel's launch", file, line);
    if (s >= k->steps - 1)
        return;
    int d = s / k->chunks + 1, c = s % k->chunks, q = (int)((k->me + d) % k->n);
    long long lo = k->rows * c / k->chunks, hi = k->rows * (c + 1) / k->chunks;
    size_t packet = (size_t)k->rows * (size_t)k->width * k->elem, w = (size_t)k->width * k->elem;
    const char *src = st->buf + (size_t)(d - 1) * packet + (size_t)lo * w;
    char *dst = k->to[q] + (size_t)lo * (size_t)k->pitch * k->elem;
    pa_cuda_check(cudaEventRecord(st->ev[q][c], st->pack), "cudaEventRecord", file, line);
    pa_cuda_check(cudaStreamWaitEvent(st->to[q], st->ev[q][c], 0), "cudaStreamWaitEvent", file, line);
    if (hi > lo)
        pa_cuda_check(cudaMemcpy2DAsync(dst, (size_t)k->pitch * k->elem, src, w, w, (size_t)(hi - lo),
                                        cudaMemcpyDefault, st->to[q]),
                      "cudaMemcpy2DAsync (a packet to another GPU)", file, line);
}

extern "C" void pa_cuda_packets_direct(long long n, long long me, long long rows, long long width, long long pitch,
                                       long long base, size_t elem, const pa_cuda_blocks *b, const void *src,
                                       long long spitch, long long sstride, const char *file, int line)
{
    PacketState *st = packet_state(n, me, 0, file, line);
    size_t w = (size_t)width * elem;
    for (long long d = 1; d <= n; d++) { /* the other GPUs' rectangles first, this GPU's own last */
        long long q = (me + d) % n;
        cudaStream_t s = pair_stream(st, me, q);
        const char *from = (const char *)src + (size_t)(q * sstride) * elem;
        char *to = (char *)b->p[q] + (size_t)base * elem;
        if (rows <= 0 || width <= 0)
            continue;
        if (q == me && pitch >= width) {
            /* by the multiprocessors, not a copy engine: beside FFTs, the engine's copy within the GPU
               was the last to end (2 H200s, N = 32768: the FFT's output by columns 11.75 ms against
               13.09, bench/results/run40_own_rectangle.md) */
            rect_copy(to, (size_t)pitch * elem, from, (size_t)spitch * elem, w, rows, s);
            pa_cuda_check(cudaGetLastError(), "the copy kernel of this GPU's own rectangle", file, line);
        } else if (pitch >= width && spitch >= width)
            pa_cuda_check(cudaMemcpy2DAsync(to, (size_t)pitch * elem, from, (size_t)spitch * elem, w, (size_t)rows,
                                            cudaMemcpyDefault, s),
                          "cudaMemcpy2DAsync (a rectangle to another GPU)", file, line);
        else /* rows that overlap (a view that reads an element twice): a pitched copy refuses them */
            for (long long r = 0; r < rows; r++)
                pa_cuda_check(cudaMemcpyAsync(to + (size_t)(r * pitch) * elem, from + (size_t)(r * spitch) * elem, w,
                                              cudaMemcpyDefault, s),
                              "cudaMemcpyAsync (a row of a rectangle)", file, line);
    }
    for (long long q = 0; q < n; q++)
        pa_cuda_check(cudaStreamSynchronize(pair_stream(st, me, q)), "cudaStreamSynchronize (the rectangles to "
                      "the GPUs)", file, line);
}

extern "C" void pa_cuda_packets_end(pa_cuda_packets *k, const char *kernel, const char *file, int line)
{
    PacketState *st = (PacketState *)k->state;
    cudaError_t err = cudaStreamSynchronize(st->pack);
    if (err != cudaSuccess)
        pa_fail(file, line, "kernel %s failed: %s", kernel, cudaGetErrorString(err));
    for (long long d = 1; d < k->n; d++)
        pa_cuda_check(cudaStreamSynchronize(st->to[(k->me + d) % k->n]),
                      "cudaStreamSynchronize (the packets to the other GPUs)", file, line);
}
