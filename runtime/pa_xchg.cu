/* pa_xchg.cu: a copy between the GPU blocks of mpi processes that cannot
 * map each other's memory (issue 30): through NCCL, or through pinned host
 * memory and MPI (pa_transport.cu picks).  Part of libparray_cuda, built
 * where MPI is found.
 *
 * Each pair's elements cross packed, whatever the copy's layouts.  The
 * first copy of a kernel (with the sizes it takes) maps which element of
 * which process's block each element of this process's block comes from,
 * by running the copy's own kernel over marked blocks (pa_gpu_xchg_probe):
 * n runs mark the owner, one to four more the index.  The map is kept (16
 * maps, least recently used out), and each copy is a gather kernel into
 * one buffer in process order, the pairs' messages (NCCL: grouped
 * ncclSend/ncclRecv; the host: pieces through pinned memory, shared within
 * a node, MPI messages between nodes: see Staging) and a scatter kernel.
 * This process's own part stays on its GPU. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include "parray_cuda.h"
#include "parray_mpi.h"
#include "pa_transport.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The map of one copy site: what this process sends to and receives from
 * each process, as element indices into its source and destination
 * blocks, packed in bucket order. */
typedef struct Plan {
    const void *kernel;
    size_t elem, dst_bytes;
    size_t *src_bytes;      /* every process's */
    long long *key;
    int nkey;
    long long *scount, *sdispl, *rcount, *rdispl; /* elements, per process */
    long long stotal, rtotal;
    unsigned *sidx, *ridx;  /* device: source indices (bucket order), destination indices */
    void *sbuf, *rbuf;      /* device: the packed elements */
    struct Staging *staging; /* pinned host memory, through the host (made at its first copy) */
    unsigned long long used;
} Plan;

enum { PLANS_KEPT = 16 };
static struct {
    Plan *p[PLANS_KEPT];
    int n;
    unsigned long long clock;
} plans;

struct pa_gpu_xchg {
    Plan *plan;      /* found or being made */
    pa_via via;      /* PA_VIA_NCCL or PA_VIA_HOST */
    int fresh;       /* plan being made: the probe runs */
    const void *src;
    void *dst;
    const char *file;
    int line;
    int n, me;
    /* the probe */
    int step, nsteps, rounds, bytes_per_round;
    size_t span;     /* elements of the largest source block */
    size_t ndst;     /* elements of this process's destination block */
    char *fake[2];   /* device, span elements each */
    char *probe;     /* device, the destination the probing kernel writes */
    unsigned char *host; /* a copy of probe */
    int *owner;      /* per destination element: the process it comes from, -1 none */
    unsigned *from;  /* per destination element: its index in that process's block */
};

static void *xmalloc(size_t n, const char *file, int line)
{
    void *p = calloc(n ? n : 1, 1);
    if (!p)
        pa_transport_die(file, line, "cannot allocate %zu bytes for a copy between GPU blocks", n);
    return p;
}

static void staging_free(struct Staging *h);

static void plan_free(Plan *p)
{
    cudaFree(p->sidx);
    cudaFree(p->ridx);
    cudaFree(p->sbuf);
    cudaFree(p->rbuf);
    staging_free(p->staging);
    free(p->src_bytes);
    free(p->key);
    free(p->scount);
    free(p->sdispl);
    free(p->rcount);
    free(p->rdispl);
    free(p);
}

/* The kernel and the sizes it takes decide the map, wherever the copy is:
 * a loop of copies, or the same copy written twice, maps once. */
static int plan_is(const Plan *p, const void *kernel, size_t elem, const size_t *src_bytes, size_t dst_bytes,
                   const long long *key, int nkey, int n)
{
    return p->kernel == kernel && p->elem == elem && p->dst_bytes == dst_bytes && p->nkey == nkey &&
           !memcmp(p->src_bytes, src_bytes, sizeof(size_t) * (size_t)n) &&
           (!nkey || !memcmp(p->key, key, sizeof(long long) * (size_t)nkey));
}

extern "C" pa_gpu_xchg *pa_gpu_xchg_begin(const void *kernel, const void *src, size_t src_bytes, void *dst,
                                          size_t dst_bytes, size_t elem, const long long *key, int nkey, pa_via via,
                                          const char *file, int line)
{
    int n = pa_mpi_size(), me = pa_mpi_rank();
    if (!elem)
        elem = 1;
    size_t *sb = (size_t *)pa_mpi_allgather(&src_bytes, sizeof src_bytes, file, line);
    size_t span = 0;
    for (int q = 0; q < n; q++)
        if (sb[q] / elem > span)
            span = sb[q] / elem;
    Plan *found = NULL;
    for (int i = 0; i < plans.n && !found; i++)
        if (plan_is(plans.p[i], kernel, elem, sb, dst_bytes, key, nkey, n))
            found = plans.p[i];
    /* every process probes, or none (the probe exchanges the maps); the
     * map's indices are 32-bit and its lists MPI's int counts */
    const char *unpacked = getenv("PARRAY_TEST_UNPACKED"); /* tests: the element by element path */
    int fits = n <= PA_CUDA_MAX_BLOCKS && span <= INT_MAX && dst_bytes / elem <= INT_MAX;
    int mine[2] = {found != NULL, fits && !(unpacked && *unpacked == '1')}, all[2];
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all[1]) {
        free(sb);
        if (pa_transport_verbose() && me == 0)
            fprintf(stderr, "%s:%d: parray: this copy goes element by element through the host (%s)\n",
                    file ? file : "parray", line, fits ? "PARRAY_TEST_UNPACKED=1" : n > PA_CUDA_MAX_BLOCKS
                    ? "more than 64 processes" : "blocks of 2^31 elements or more");
        return NULL;
    }
    pa_gpu_xchg *x = (pa_gpu_xchg *)xmalloc(sizeof *x, file, line);
    x->via = via;
    x->src = src;
    x->dst = dst;
    x->file = file;
    x->line = line;
    x->n = n;
    x->me = me;
    if (all[0]) {
        free(sb);
        found->used = ++plans.clock;
        x->plan = found;
        return x;
    }
    Plan *p = (Plan *)xmalloc(sizeof *p, file, line);
    p->kernel = kernel;
    p->elem = elem;
    p->dst_bytes = dst_bytes;
    p->src_bytes = sb;
    p->nkey = nkey;
    p->key = (long long *)xmalloc(sizeof(long long) * (size_t)(nkey > 0 ? nkey : 1), file, line);
    if (nkey > 0)
        memcpy(p->key, key, sizeof(long long) * (size_t)nkey);
    x->plan = p;
    x->fresh = 1;
    x->span = span;
    x->ndst = dst_bytes / elem;
    /* indices in rounds of up to 4 bytes an element */
    x->bytes_per_round = elem < 4 ? (int)elem : 4;
    x->rounds = 1;
    while (x->rounds * x->bytes_per_round < 4 && (span - 1) >> (8 * x->rounds * x->bytes_per_round))
        x->rounds++;
    x->nsteps = n + x->rounds;
    size_t fb = span * elem > 0 ? span * elem : 1;
    for (int k = 0; k < 2; k++)
        pa_cuda_check(cudaMalloc((void **)&x->fake[k], fb), "cudaMalloc (mapping a copy between GPU blocks)", file, line);
    pa_cuda_check(cudaMalloc((void **)&x->probe, dst_bytes ? dst_bytes : 1), "cudaMalloc (mapping a copy between GPU blocks)",
                  file, line);
    x->host = (unsigned char *)xmalloc(fb > dst_bytes ? fb : dst_bytes, file, line);
    x->owner = (int *)xmalloc(sizeof(int) * (x->ndst ? x->ndst : 1), file, line);
    x->from = (unsigned *)xmalloc(sizeof(unsigned) * (x->ndst ? x->ndst : 1), file, line);
    for (size_t e = 0; e < x->ndst; e++)
        x->owner[e] = -1;
    return x;
}

/* What the kernel wrote in probing step s, read back. */
static void probe_read(pa_gpu_xchg *x, int s)
{
    Plan *p = x->plan;
    size_t elem = p->elem;
    pa_cuda_check(cudaMemcpy(x->host, x->probe, p->dst_bytes, cudaMemcpyDeviceToHost),
                  "cudaMemcpy (mapping a copy between GPU blocks)", x->file, x->line);
    if (s < x->n) { /* owner step s: the elements from process s read as 0xff bytes */
        for (size_t e = 0; e < x->ndst; e++)
            if (x->host[e * elem] == 0xff)
                x->owner[e] = s;
        return;
    }
    int r = s - x->n, b = x->bytes_per_round;
    for (size_t e = 0; e < x->ndst; e++) {
        if (x->owner[e] < 0)
            continue;
        unsigned v = 0;
        for (int k = 0; k < b; k++)
            v |= (unsigned)x->host[e * elem + (size_t)k] << (8 * k);
        x->from[e] |= v << (8 * b * r);
    }
}

/* The lists, exchanged: each process tells each other which of its
 * elements it wants, in the order it unpacks them. */
static void plan_make(pa_gpu_xchg *x)
{
    Plan *p = x->plan;
    const char *file = x->file;
    int line = x->line, n = x->n;
    size_t elem = p->elem;
    p->rcount = (long long *)xmalloc(sizeof(long long) * (size_t)n, file, line);
    p->rdispl = (long long *)xmalloc(sizeof(long long) * (size_t)n, file, line);
    p->scount = (long long *)xmalloc(sizeof(long long) * (size_t)n, file, line);
    p->sdispl = (long long *)xmalloc(sizeof(long long) * (size_t)n, file, line);
    for (size_t e = 0; e < x->ndst; e++)
        if (x->owner[e] >= 0)
            p->rcount[x->owner[e]]++;
    long long sum = 0;
    for (int q = 0; q < n; q++) {
        p->rdispl[q] = sum;
        sum += p->rcount[q];
    }
    p->rtotal = sum;
    unsigned *ridx = (unsigned *)xmalloc(sizeof(unsigned) * (size_t)(sum ? sum : 1), file, line);
    unsigned *want = (unsigned *)xmalloc(sizeof(unsigned) * (size_t)(sum ? sum : 1), file, line);
    long long *cur = (long long *)xmalloc(sizeof(long long) * (size_t)n, file, line);
    memcpy(cur, p->rdispl, sizeof(long long) * (size_t)n);
    for (size_t e = 0; e < x->ndst; e++) {
        int q = x->owner[e];
        if (q < 0)
            continue;
        if ((size_t)x->from[e] >= p->src_bytes[q] / elem)
            pa_transport_die(file, line, "mapping a copy between GPU blocks: element %zu comes from element %u of "
                             "process %d's block, which has %zu (internal error)", e, x->from[e], q,
                             p->src_bytes[q] / elem);
        ridx[cur[q]] = (unsigned)e;
        want[cur[q]++] = x->from[e];
    }
    if (MPI_Alltoall(p->rcount, 1, MPI_LONG_LONG, p->scount, 1, MPI_LONG_LONG, MPI_COMM_WORLD) != MPI_SUCCESS)
        pa_transport_die(file, line, "MPI_Alltoall (mapping a copy between GPU blocks) failed");
    sum = 0;
    int *sc = (int *)xmalloc(sizeof(int) * (size_t)n * 4, file, line), *sd = sc + n, *rc = sc + 2 * n, *rd = sc + 3 * n;
    for (int q = 0; q < n; q++) {
        p->sdispl[q] = sum;
        sum += p->scount[q];
        if (sum > INT_MAX || p->rdispl[q] + p->rcount[q] > INT_MAX)
            pa_transport_die(file, line, "a copy between GPU blocks in which the others read more than %d "
                             "elements of this process's block: not supported", INT_MAX);
        sc[q] = (int)p->scount[q];
        sd[q] = (int)p->sdispl[q];
        rc[q] = (int)p->rcount[q];
        rd[q] = (int)p->rdispl[q];
    }
    p->stotal = sum;
    unsigned *sidx = (unsigned *)xmalloc(sizeof(unsigned) * (size_t)(sum ? sum : 1), file, line);
    /* what I want from q goes to q; what q wants from me comes back */
    if (MPI_Alltoallv(want, rc, rd, MPI_UNSIGNED, sidx, sc, sd, MPI_UNSIGNED, MPI_COMM_WORLD) != MPI_SUCCESS)
        pa_transport_die(file, line, "MPI_Alltoallv (mapping a copy between GPU blocks) failed");
    size_t mine = p->src_bytes[x->me] / elem;
    for (long long i = 0; i < p->stotal; i++)
        if (sidx[i] >= mine)
            pa_transport_die(file, line, "mapping a copy between GPU blocks: a process wants element %u of a block "
                             "of %zu (internal error)", sidx[i], mine);
    size_t sn = (size_t)(p->stotal ? p->stotal : 1), rn = (size_t)(p->rtotal ? p->rtotal : 1);
    const char *what = "cudaMalloc (a copy between GPU blocks)";
    pa_cuda_check(cudaMalloc((void **)&p->sidx, sn * sizeof(unsigned)), what, file, line);
    pa_cuda_check(cudaMalloc((void **)&p->ridx, rn * sizeof(unsigned)), what, file, line);
    pa_cuda_check(cudaMalloc(&p->sbuf, sn * elem), what, file, line);
    pa_cuda_check(cudaMalloc(&p->rbuf, rn * elem), what, file, line);
    what = "cudaMemcpy (a copy between GPU blocks)";
    pa_cuda_check(cudaMemcpy(p->sidx, sidx, sn * sizeof(unsigned), cudaMemcpyHostToDevice), what, file, line);
    pa_cuda_check(cudaMemcpy(p->ridx, ridx, rn * sizeof(unsigned), cudaMemcpyHostToDevice), what, file, line);
    free(sidx);
    free(ridx);
    free(want);
    free(cur);
    free(sc);
    /* kept: the least recently used goes when full */
    if (plans.n == PLANS_KEPT) {
        int old = 0;
        for (int i = 1; i < plans.n; i++)
            if (plans.p[i]->used < plans.p[old]->used)
                old = i;
        plan_free(plans.p[old]);
        plans.p[old] = plans.p[--plans.n];
    }
    p->used = ++plans.clock;
    plans.p[plans.n++] = p;
    x->fresh = 0;
    cudaFree(x->fake[0]);
    cudaFree(x->fake[1]);
    cudaFree(x->probe);
    free(x->host);
    free(x->owner);
    free(x->from);
    if (pa_transport_verbose() && x->me == 0)
        fprintf(stderr, "%s:%d: parray: mapped the copy between GPU blocks (%d runs of its kernel): process 0 sends "
                "%lld and receives %lld elements\n", file ? file : "parray", line, x->nsteps, p->stotal, p->rtotal);
}

extern "C" int pa_gpu_xchg_probe(pa_gpu_xchg *x, void *blocks, void **probe)
{
    if (!x->fresh)
        return 0;
    Plan *p = x->plan;
    size_t elem = p->elem, fb = x->span * elem;
    if (x->step > 0)
        probe_read(x, x->step - 1);
    if (x->step == x->nsteps) {
        plan_make(x);
        return 0;
    }
    int s = x->step++;
    const char *what = "cudaMemset (mapping a copy between GPU blocks)";
    pa_cuda_blocks *b = (pa_cuda_blocks *)blocks;
    memset(b, 0, sizeof *b);
    pa_cuda_check(cudaMemset(x->probe, 0, p->dst_bytes), what, x->file, x->line);
    if (s < x->n) { /* owner step: process s's block all ones, the others zeros */
        if (s == 0) {
            pa_cuda_check(cudaMemset(x->fake[0], 0xff, fb), what, x->file, x->line);
            pa_cuda_check(cudaMemset(x->fake[1], 0, fb), what, x->file, x->line);
        }
        for (int q = 0; q < x->n; q++)
            b->p[q] = x->fake[q == s ? 0 : 1];
    } else { /* index round r: element k of every block holds byte group r of k */
        int r = s - x->n, bpr = x->bytes_per_round;
        memset(x->host, 0, fb);
        for (size_t k = 0; k < x->span; k++) {
            size_t v = k >> (8 * bpr * r);
            for (int j = 0; j < bpr; j++)
                x->host[k * elem + (size_t)j] = (unsigned char)(v >> (8 * j));
        }
        pa_cuda_check(cudaMemcpy(x->fake[0], x->host, fb, cudaMemcpyHostToDevice),
                      "cudaMemcpy (mapping a copy between GPU blocks)", x->file, x->line);
        for (int q = 0; q < x->n; q++)
            b->p[q] = x->fake[0];
    }
    *probe = x->probe;
    return 1;
}

/* ---- gather and scatter by index lists ---- */

template <typename W>
__global__ void pa_xchg_gather(W *out, const W *in, const unsigned *idx, long long n, int words)
{
    long long total = n * words;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
         t += (long long)gridDim.x * blockDim.x) {
        long long i = t / words;
        out[t] = in[(long long)idx[i] * words + t % words];
    }
}

template <typename W>
__global__ void pa_xchg_scatter(W *out, const W *in, const unsigned *idx, long long n, int words)
{
    long long total = n * words;
    for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total;
         t += (long long)gridDim.x * blockDim.x) {
        long long i = t / words;
        out[(long long)idx[i] * words + t % words] = in[t];
    }
}

template <typename W>
static void move(int gather, void *out, const void *in, const unsigned *idx, long long n, int words, cudaStream_t s)
{
    long long total = n * words;
    if (total <= 0)
        return;
    long long grid = (total + 255) / 256;
    if (grid > 65536)
        grid = 65536;
    if (gather)
        pa_xchg_gather<W><<<(unsigned)grid, 256, 0, s>>>((W *)out, (const W *)in, idx, n, words);
    else
        pa_xchg_scatter<W><<<(unsigned)grid, 256, 0, s>>>((W *)out, (const W *)in, idx, n, words);
}

/* out[i] = in[idx[i]] (gather) or out[idx[i]] = in[i], elements of elem
 * bytes, moved in the widest words that elem and the pointers allow */
static void by_index(int gather, void *out, const void *in, const unsigned *idx, long long n, size_t elem,
                     cudaStream_t s, const char *file, int line)
{
    uintptr_t a = (uintptr_t)out | (uintptr_t)in;
    size_t w = 16;
    while (w > 1 && (elem % w || a % w))
        w /= 2;
    int words = (int)(elem / w);
    switch (w) {
    case 16: move<uint4>(gather, out, in, idx, n, words, s); break;
    case 8: move<unsigned long long>(gather, out, in, idx, n, words, s); break;
    case 4: move<unsigned>(gather, out, in, idx, n, words, s); break;
    case 2: move<unsigned short>(gather, out, in, idx, n, words, s); break;
    default: move<unsigned char>(gather, out, in, idx, n, words, s); break;
    }
    pa_cuda_check(cudaGetLastError(), gather ? "the gather kernel of a copy between GPU blocks"
                                             : "the scatter kernel of a copy between GPU blocks", file, line);
}

/* The streams of this process's copies between GPU blocks, made once:
 * 0 packs, sends and unpacks, 1 copies up from the host. */
static cudaStream_t xchg_stream(int which, const char *file, int line)
{
    static cudaStream_t s[2];
    static int made[2];
    if (!made[which]) {
        pa_cuda_check(cudaStreamCreateWithFlags(&s[which], cudaStreamNonBlocking), "cudaStreamCreate (a copy between "
                      "GPU blocks)", file, line);
        made[which] = 1;
    }
    return s[which];
}

/* ---- through pinned host memory ---- */

/* What leaves a process goes down to pinned host memory in pieces, in the
 * order of its destinations (each process starting after itself), and each
 * piece up to its destination's GPU as soon as it is down: the copies out
 * of one GPU and into another overlap.  Between processes of one node the
 * pinned memory is a window of the node's shared memory
 * (MPI_Win_allocate_shared, registered with CUDA by every process of the
 * node), and each receiver copies from the sender's pieces directly: no
 * MPI message, no copy between host buffers.  Between nodes (or where the
 * window cannot be made) each piece is an MPI message into the receiver's
 * pinned buffer.
 *
 * The head of each process's staging is what the others of its node poll:
 * progress[q], the pieces of its part for q that are down, as
 * (run << 32) | count; consumed, the last run whose parts this process has
 * copied up from the others (they may then overwrite them). */
typedef struct Head {
    unsigned long long progress[PA_CUDA_MAX_BLOCKS];
    unsigned long long consumed;
} Head;
enum { HEAD_BYTES = 4096 }; /* the elements start a page in */

/* The bytes of one piece of a part of `bytes` (the same on both sides of
 * the pair): 2 MiB, or a 256th of a larger part, at most 1 GiB (an MPI
 * message's int count). */
static size_t piece_of(size_t bytes)
{
    size_t piece = (size_t)2 << 20, most = (bytes + 255) / 256;
    if (most > piece)
        piece = (most + 65535) / 65536 * 65536;
    return piece < ((size_t)1 << 30) ? piece : (size_t)1 << 30;
}

typedef struct Piece {
    int q;              /* the process at the other end */
    size_t off, len;    /* bytes into the part */
} Piece;

typedef struct Staging {
    char *send;             /* pinned: the packed elements that leave */
    char *recv;             /* pinned: what arrives by MPI (NULL: nothing does) */
    int window;             /* send is in a window of the node's shared memory */
    MPI_Win win;
    char **seg;             /* per process of the node, in the window: its staging, registered here; else NULL */
    long long *at;          /* per process q: where its part for this process starts in its send (elements) */
    Piece *out, *in;        /* the pieces that leave, in order; those that arrive */
    int nout, nin;
    cudaEvent_t *down;      /* per piece that leaves: its copy to the host is done */
    unsigned long long run; /* copies made through it */
} Staging;

static int on_window(const Staging *h, int q)
{
    return h->window && h->seg[q];
}

static void staging_free(Staging *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->nout; i++)
        cudaEventDestroy(h->down[i]);
    if (h->window) {
        for (int q = 0; q < PA_CUDA_MAX_BLOCKS; q++)
            if (h->seg[q])
                cudaHostUnregister(h->seg[q]);
        MPI_Win_free(&h->win);
    } else {
        cudaFreeHost(h->send);
    }
    cudaFreeHost(h->recv);
    free(h->seg);
    free(h->at);
    free(h->out);
    free(h->in);
    free(h->down);
    free(h);
    cudaGetLastError();
}

/* The pieces of the parts of count[q] elements, process by process from
 * the one after me; returns how many */
static int pieces(Piece *list, const long long *count, int n, int me, size_t elem)
{
    int k = 0;
    for (int i = 1; i < n; i++) {
        int q = (me + i) % n;
        size_t bytes = (size_t)count[q] * elem, piece = piece_of(bytes);
        for (size_t off = 0; off < bytes; off += piece, k++)
            if (list)
                list[k] = {q, off, bytes - off < piece ? bytes - off : piece};
    }
    return k;
}

/* The node's shared window: every process of the node allocates its
 * staging there, touches and registers it (its pages on this process's
 * memory), then registers the others'.  0 on every process of the node when
 * one of them cannot: then everything goes by MPI. */
static int window_make(Staging *h, size_t bytes, int n, int me, const char *file, int line)
{
    MPI_Comm node = pa_transport_node_comm();
    int size = 1;
    MPI_Comm_size(node, &size);
    if (size < 2)
        return 0;
    MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    char *base = NULL;
    bytes = (HEAD_BYTES + bytes + 65535) / 65536 * 65536; /* whole pages: two registrations never share one */
    int ok = MPI_Win_allocate_shared((MPI_Aint)bytes, 1, info, node, &base, &h->win) == MPI_SUCCESS;
    MPI_Info_free(&info);
    if (ok) {
        memset(base, 0, bytes);
        ok = cudaHostRegister(base, bytes, cudaHostRegisterPortable) == cudaSuccess;
        h->seg[me] = ok ? base : NULL;
    }
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, node); /* and every page touched by its own process */
    for (int q = 0, r = 0; q < n && all && ok; q++) {
        if (pa_transport_node(q) != pa_transport_node(me))
            continue;
        MPI_Aint qbytes = 0;
        int unit = 0;
        void *qbase = NULL;
        if (q != me) {
            ok = MPI_Win_shared_query(h->win, r, &qbytes, &unit, &qbase) == MPI_SUCCESS && qbase &&
                 cudaHostRegister(qbase, (size_t)qbytes, cudaHostRegisterPortable) == cudaSuccess;
            h->seg[q] = ok ? (char *)qbase : NULL;
        }
        r++;
    }
    if (all)
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, node);
    cudaGetLastError();
    if (!all) {
        for (int q = 0; q < n; q++)
            if (h->seg[q])
                cudaHostUnregister(h->seg[q]);
        memset(h->seg, 0, sizeof(char *) * PA_CUDA_MAX_BLOCKS);
        cudaGetLastError();
        if (h->win != MPI_WIN_NULL)
            MPI_Win_free(&h->win);
        if (pa_transport_verbose())
            fprintf(stderr, "%s:%d: parray: process %d: no shared window of pinned memory on its node: the copy "
                    "goes by MPI messages\n", file ? file : "parray", line, me);
        return 0;
    }
    h->send = base + HEAD_BYTES;
    return 1;
}

/* At the end, the stagings' windows, collectively: every process of a
 * node holds the same plans in the same places (each was made by all) */
static void stagings_release(void)
{
    for (int i = 0; i < plans.n; i++) {
        staging_free(plans.p[i]->staging);
        plans.p[i]->staging = NULL;
    }
}

/* The staging of a plan, at its first copy through the host (collective). */
static Staging *staging_make(pa_gpu_xchg *x)
{
    pa_mpi_before_finalize(stagings_release);
    Plan *p = x->plan;
    const char *file = x->file;
    int line = x->line, n = x->n, me = x->me;
    size_t elem = p->elem;
    Staging *h = (Staging *)xmalloc(sizeof *h, file, line);
    h->seg = (char **)xmalloc(sizeof(char *) * PA_CUDA_MAX_BLOCKS, file, line);
    h->at = (long long *)xmalloc(sizeof(long long) * (size_t)n, file, line);
    h->win = MPI_WIN_NULL;
    if (MPI_Alltoall(p->sdispl, 1, MPI_LONG_LONG, h->at, 1, MPI_LONG_LONG, MPI_COMM_WORLD) != MPI_SUCCESS)
        pa_transport_die(file, line, "MPI_Alltoall (a copy between GPU blocks through the host) failed");
    const char *what = "cudaMallocHost (a copy between GPU blocks through the host)";
    h->window = window_make(h, (size_t)p->stotal * elem, n, me, file, line);
    if (!h->window)
        pa_cuda_check(cudaMallocHost((void **)&h->send, (size_t)(p->stotal ? p->stotal : 1) * elem), what, file, line);
    int by_mpi = 0;
    for (int q = 0; q < n; q++)
        by_mpi |= q != me && p->rcount[q] && !on_window(h, q);
    if (by_mpi)
        pa_cuda_check(cudaMallocHost((void **)&h->recv, (size_t)p->rtotal * elem), what, file, line);
    h->nout = pieces(NULL, p->scount, n, me, elem);
    h->nin = pieces(NULL, p->rcount, n, me, elem);
    h->out = (Piece *)xmalloc(sizeof(Piece) * (size_t)(h->nout + 1), file, line);
    h->in = (Piece *)xmalloc(sizeof(Piece) * (size_t)(h->nin + 1), file, line);
    pieces(h->out, p->scount, n, me, elem);
    pieces(h->in, p->rcount, n, me, elem);
    h->down = (cudaEvent_t *)xmalloc(sizeof(cudaEvent_t) * (size_t)(h->nout + 1), file, line);
    for (int i = 0; i < h->nout; i++)
        pa_cuda_check(cudaEventCreateWithFlags(&h->down[i], cudaEventDisableTiming), "cudaEventCreate (a copy "
                      "between GPU blocks through the host)", file, line);
    if (pa_transport_verbose() && me == 0)
        fprintf(stderr, "%s:%d: parray: through pinned host memory: %s\n", file ? file : "parray", line,
                h->window ? "the node's shared window between the processes of a node, MPI between nodes"
                          : "MPI messages");
    return h;
}

static Head *head_of(const Staging *h, int q)
{
    return (Head *)h->seg[q];
}

/* One copy through the host while it moves: the MPI requests (the
 * receives first, then the sends) and how far each side has got. */
typedef struct Flow {
    Plan *p;
    Staging *h;
    const char *file;
    int line, n, me;
    unsigned long long run;
    cudaStream_t in;     /* the copies up to this GPU */
    MPI_Request *req;
    int *piece_of_req;   /* per receive: its piece in h->in */
    int *idx;            /* MPI_Testsome's answer */
    int *got, *sent;     /* per process: its pieces up here; this process's pieces for it down (node) */
    int *first;          /* per process: its first piece in h->in */
    int nrecv, nsend, recv_left, down, up;
} Flow;

static const char through_what[] = "cudaMemcpyAsync (a copy between GPU blocks through the host)";

/* The readers of the node are done with the last run's pieces */
static void wait_for_readers(const Flow *f, double timeout)
{
    double since = pa_transport_now();
    for (int q = 0; q < f->n; q++) {
        if (q == f->me || !f->p->scount[q] || !on_window(f->h, q))
            continue;
        while (__atomic_load_n(&head_of(f->h, q)->consumed, __ATOMIC_ACQUIRE) + 1 < f->run)
            if (pa_transport_now() - since > timeout)
                pa_transport_die(f->file, f->line, "a copy between GPU blocks through the host waited %g s for "
                                 "process %d (PARRAY_COPY_TIMEOUT): a process of the job died or stopped",
                                 timeout, q);
    }
}

/* Every piece that leaves, down to pinned memory on stream s, an event after each */
static void copy_down(const Flow *f, cudaStream_t s)
{
    const Staging *h = f->h;
    for (int i = 0; i < h->nout; i++) {
        const Piece *c = &h->out[i];
        size_t at = (size_t)f->p->sdispl[c->q] * f->p->elem + c->off;
        pa_cuda_check(cudaMemcpyAsync(h->send + at, (char *)f->p->sbuf + at, c->len, cudaMemcpyDeviceToHost, s),
                      through_what, f->file, f->line);
        pa_cuda_check(cudaEventRecord(h->down[i], s), "cudaEventRecord (a copy between GPU blocks)", f->file,
                      f->line);
    }
}

static void flow_start(Flow *f, pa_gpu_xchg *x, Staging *h, cudaStream_t in)
{
    memset(f, 0, sizeof *f);
    f->p = x->plan;
    f->h = h;
    f->file = x->file;
    f->line = x->line;
    f->n = x->n;
    f->me = x->me;
    f->run = ++h->run;
    f->in = in;
    int nmsg = 0;
    for (int i = 0; i < h->nin; i++)
        nmsg += !on_window(h, h->in[i].q);
    for (int i = 0; i < h->nout; i++)
        nmsg += !on_window(h, h->out[i].q);
    f->req = (MPI_Request *)xmalloc(sizeof(MPI_Request) * (size_t)(nmsg + 1), f->file, f->line);
    f->piece_of_req = (int *)xmalloc(sizeof(int) * (size_t)(nmsg + 1), f->file, f->line);
    f->idx = (int *)xmalloc(sizeof(int) * (size_t)(nmsg + 1), f->file, f->line);
    f->got = (int *)xmalloc(sizeof(int) * (size_t)f->n, f->file, f->line);
    f->sent = (int *)xmalloc(sizeof(int) * (size_t)f->n, f->file, f->line);
    f->first = (int *)xmalloc(sizeof(int) * (size_t)f->n, f->file, f->line);
    for (int i = h->nin - 1; i >= 0; i--)
        f->first[h->in[i].q] = i;
}

static void flow_free(Flow *f)
{
    free(f->req);
    free(f->piece_of_req);
    free(f->idx);
    free(f->got);
    free(f->sent);
    free(f->first);
}

/* By MPI, every piece's receive is posted before anything is sent */
static void post_receives(Flow *f)
{
    const Staging *h = f->h;
    for (int i = 0; i < h->nin; i++) {
        const Piece *c = &h->in[i];
        if (on_window(h, c->q))
            continue;
        char *at = h->recv + (size_t)f->p->rdispl[c->q] * f->p->elem + c->off;
        f->piece_of_req[f->nrecv] = i;
        MPI_Irecv(at, (int)c->len, MPI_BYTE, c->q, 0x7061, MPI_COMM_WORLD, &f->req[f->nrecv++]);
    }
    f->recv_left = f->nrecv;
}

/* Pieces down in pinned memory: said so in this process's head (node) or
 * sent (MPI).  Whether any was. */
static int announce_down(Flow *f)
{
    const Staging *h = f->h;
    int moved = 0;
    for (; f->down < h->nout; f->down++, moved = 1) {
        cudaError_t e = cudaEventQuery(h->down[f->down]);
        if (e == cudaErrorNotReady)
            break;
        pa_cuda_check(e, "a copy from the GPU to pinned memory", f->file, f->line);
        const Piece *c = &h->out[f->down];
        if (on_window(h, c->q)) {
            unsigned long long count = (unsigned long long)++f->sent[c->q];
            __atomic_store_n(&head_of(h, f->me)->progress[c->q], (f->run & 0xffffffffULL) << 32 | count,
                             __ATOMIC_RELEASE);
        } else {
            MPI_Isend(h->send + (size_t)f->p->sdispl[c->q] * f->p->elem + c->off, (int)c->len, MPI_BYTE, c->q,
                      0x7061, MPI_COMM_WORLD, &f->req[f->nrecv + f->nsend++]);
        }
    }
    return moved;
}

/* The node's processes' pieces that are down, up to this GPU from their
 * staging.  Whether any went. */
static int up_from_node(Flow *f)
{
    const Staging *h = f->h;
    const Plan *p = f->p;
    int moved = 0;
    for (int q = 0; q < f->n; q++) {
        if (q == f->me || !p->rcount[q] || !on_window(h, q))
            continue;
        unsigned long long v = __atomic_load_n(&head_of(h, q)->progress[f->me], __ATOMIC_ACQUIRE);
        if (v >> 32 != (f->run & 0xffffffffULL))
            continue;
        for (; f->got[q] < (int)(v & 0xffffffffULL); f->got[q]++, f->up++, moved = 1) {
            const Piece *c = &h->in[f->first[q] + f->got[q]];
            pa_cuda_check(cudaMemcpyAsync((char *)p->rbuf + (size_t)p->rdispl[q] * p->elem + c->off,
                                          h->seg[q] + HEAD_BYTES + (size_t)h->at[q] * p->elem + c->off, c->len,
                                          cudaMemcpyHostToDevice, f->in), through_what, f->file, f->line);
        }
    }
    return moved;
}

/* The pieces that came by MPI, up to this GPU; once all have, the sends
 * are helped along.  Whether any went. */
static int up_from_messages(Flow *f)
{
    if (!f->recv_left) {
        int flag = 0;
        if (f->nsend)
            MPI_Testall(f->nsend, f->req + f->nrecv, &flag, MPI_STATUSES_IGNORE); /* progress */
        return 0;
    }
    int outcount = 0, moved = 0;
    if (MPI_Testsome(f->nrecv, f->req, &outcount, f->idx, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        pa_transport_die(f->file, f->line, "MPI_Testsome (a copy between GPU blocks through the host) failed");
    for (int k = 0; k < outcount && outcount != MPI_UNDEFINED; k++, f->up++, f->recv_left--, moved = 1) {
        const Piece *c = &f->h->in[f->piece_of_req[f->idx[k]]];
        size_t at = (size_t)f->p->rdispl[c->q] * f->p->elem + c->off;
        pa_cuda_check(cudaMemcpyAsync((char *)f->p->rbuf + at, f->h->recv + at, c->len, cudaMemcpyHostToDevice,
                                      f->in), through_what, f->file, f->line);
    }
    return moved;
}

/* The packed elements of the other processes through pinned host memory:
 * see Staging.  Stream s holds the packed buffer; `in` takes the copies
 * up.  Nothing moving for PARRAY_COPY_TIMEOUT seconds ends the job. */
static void through_host(pa_gpu_xchg *x, cudaStream_t s, cudaStream_t in)
{
    if (!x->plan->staging)
        x->plan->staging = staging_make(x);
    Flow f;
    flow_start(&f, x, x->plan->staging, in);
    double timeout = pa_transport_timeout(), last = pa_transport_now();
    wait_for_readers(&f, timeout);
    copy_down(&f, s);
    post_receives(&f);
    while (f.down < f.h->nout || f.up < f.h->nin) {
        int moved = announce_down(&f);
        moved |= up_from_node(&f);
        moved |= up_from_messages(&f);
        double t = pa_transport_now();
        if (moved)
            last = t;
        else if (t - last > timeout)
            pa_transport_die(f.file, f.line, "a copy between GPU blocks through the host made no progress for %g s "
                             "(PARRAY_COPY_TIMEOUT): a process of the job died or stopped", timeout);
    }
    if (f.nsend && MPI_Waitall(f.nsend, f.req + f.nrecv, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        pa_transport_die(f.file, f.line, "MPI_Waitall (a copy between GPU blocks through the host) failed");
    /* up: the others may overwrite their pieces */
    pa_cuda_check(cudaStreamSynchronize(in), "cudaStreamSynchronize (a copy between GPU blocks through the host)",
                  f.file, f.line);
    if (f.h->window)
        __atomic_store_n(&head_of(f.h, f.me)->consumed, f.run, __ATOMIC_RELEASE);
    flow_free(&f);
}

extern "C" void pa_gpu_xchg_run(pa_gpu_xchg *x)
{
    Plan *p = x->plan;
    const char *file = x->file;
    int line = x->line, me = x->me;
    if (x->fresh) /* the probe loop was left early */
        pa_transport_die(file, line, "a copy between GPU blocks ran before its mapping was made (internal error)");
    size_t elem = p->elem;
    cudaStream_t s = xchg_stream(0, file, line);
    /* the program's work on its GPU (the default stream, its own) is done */
    pa_cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (before a copy between GPU blocks)", file, line);
    by_index(1, p->sbuf, x->src, p->sidx, p->stotal, elem, s, file, line);
    /* this process's own part stays on its GPU */
    if (p->rcount[me])
        pa_cuda_check(cudaMemcpyAsync((char *)p->rbuf + (size_t)p->rdispl[me] * elem,
                                      (char *)p->sbuf + (size_t)p->sdispl[me] * elem, (size_t)p->rcount[me] * elem,
                                      cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync (a copy between GPU blocks)",
                      file, line);
    if (x->via == PA_VIA_NCCL)
        pa_nccl_exchange(p->sbuf, p->scount, p->sdispl, p->rbuf, p->rcount, p->rdispl, elem, s, file, line);
    else
        through_host(x, s, xchg_stream(1, file, line));
    by_index(0, x->dst, p->rbuf, p->ridx, p->rtotal, elem, s, file, line);
    pa_cuda_check(cudaStreamSynchronize(s), "cudaStreamSynchronize (a copy between GPU blocks)", file, line);
    free(x);
}
