/* pa_transport.cu: how the GPU blocks of mpi processes reach each other
 * (the cluster path, issue 30).  Part of libparray_cuda, built where MPI
 * is found; pulled into mpi x cuda programs only.
 *
 * The transport, per pair of processes, decided once: two processes on one
 * node map each other's blocks (CUDA IPC); processes on different nodes go
 * through NCCL when parrayc was built with it (PARRAY_NCCL) and libnccl
 * loads; otherwise through pinned host memory (shared within a node, MPI
 * messages between nodes: pa_xchg.cu).  A copy uses one
 * transport for all its pairs: CUDA IPC when every pair can (one node, every
 * block a #create's), else NCCL (which itself takes NVLink or PCIe between
 * the GPUs of a node and the network between nodes), else the host.
 * PARRAY_TRANSPORT=ipc|nccl|host forces one (an error naming why when it
 * cannot work); PARRAY_VERBOSE=1 prints the choice, once per pair.
 *
 * NCCL: one communicator for the job, made at the first copy through it
 * (ncclGetUniqueId on process 0, MPI_Bcast, ncclCommInitRank).  libnccl is
 * opened with dlopen, so programs link as before (no -lnccl).  What a copy
 * sends is packed by pa_xchg.cu; here the packed elements cross, grouped
 * ncclSend/ncclRecv.  A process that dies or stops mid-copy does not hang
 * the others: the wait polls ncclCommGetAsyncError and gives up after
 * PARRAY_COPY_TIMEOUT seconds (300 by default) with a message and
 * MPI_Abort. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include "parray_cuda.h"
#include "parray_mpi.h"
#include "pa_transport.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#if PARRAY_HAVE_NCCL
#include <dlfcn.h>
#include <nccl.h>
#endif

static const char *const via_names[] = {"ipc", "nccl", "host"};

/* ---- errors ---- */

static void vsay(char *buf, size_t n, const char *file, int line, const char *fmt, va_list ap)
{
    int len = file ? snprintf(buf, n, "%s:%d: error: ", file, line) : snprintf(buf, n, "parray: error: ");
    if (len < 0 || (size_t)len >= n)
        len = 0;
    vsnprintf(buf + len, n - (size_t)len, fmt, ap);
}

/* Every process decided the same: process 0 says why, all exit 1. */
static void fail_all(const char *file, int line, const char *fmt, ...)
{
    char msg[1536];
    va_list ap;
    va_start(ap, fmt);
    vsay(msg, sizeof msg, file, line, fmt, ap);
    va_end(ap);
    pa_mpi_fail_all(msg);
}


static int env_on(const char *name)
{
    const char *v = getenv(name);
    return v && *v && *v != '0';
}

/* ---- NCCL, opened at run time ---- */

#if PARRAY_HAVE_NCCL
#ifndef PARRAY_NCCL_LIBRARY
#define PARRAY_NCCL_LIBRARY ""
#endif
static struct {
    int tried, ok;
    char why[512];
    decltype(&ncclGetUniqueId) GetUniqueId;
    decltype(&ncclCommInitRank) CommInitRank;
    decltype(&ncclCommAbort) CommAbort;
    decltype(&ncclCommGetAsyncError) CommGetAsyncError;
    decltype(&ncclGetErrorString) GetErrorString;
    decltype(&ncclGroupStart) GroupStart;
    decltype(&ncclGroupEnd) GroupEnd;
    decltype(&ncclSend) Send;
    decltype(&ncclRecv) Recv;
    decltype(&ncclGetVersion) GetVersion;
    ncclComm_t comm;
    int made;
} nc;

/* libnccl's functions, or why not (nc.why) */
static int nccl_load(void)
{
    if (nc.tried)
        return nc.ok;
    nc.tried = 1;
    const char *env = getenv("PARRAY_NCCL_LIBRARY");
    const char *names[] = {env && *env ? env : NULL, PARRAY_NCCL_LIBRARY, "libnccl.so.2", "libnccl.so"};
    void *h = NULL;
    const char *err = "not found";
    for (size_t i = 0; i < sizeof names / sizeof *names && !h; i++) {
        if (!names[i] || !*names[i])
            continue;
        h = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
        if (!h)
            err = dlerror();
    }
    if (!h) {
        snprintf(nc.why, sizeof nc.why, "libnccl cannot be loaded (%s; PARRAY_NCCL_LIBRARY names it)", err);
        return 0;
    }
#define LOAD(f)                                                                                  \
    if (!(*(void **)&nc.f = dlsym(h, "nccl" #f))) {                                              \
        snprintf(nc.why, sizeof nc.why, "libnccl has no nccl" #f " (NCCL 2.7 or newer needed)"); \
        return 0;                                                                                \
    }
    LOAD(GetUniqueId) LOAD(CommInitRank) LOAD(CommAbort) LOAD(CommGetAsyncError) LOAD(GetErrorString)
    LOAD(GroupStart) LOAD(GroupEnd) LOAD(Send) LOAD(Recv) LOAD(GetVersion)
#undef LOAD
    nc.ok = 1;
    return 1;
}

static void nccl_check(ncclResult_t r, const char *call, const char *file, int line)
{
    if (r != ncclSuccess)
        pa_transport_die(file, line, "%s failed: %s", call, nc.GetErrorString(r));
}

/* ncclCommInitRank waits for every process of the job, and a process that
 * stopped or died before it would hang the others there: it runs on a
 * thread of its own, and the caller gives up after the timeout. */
typedef struct NcclInit {
    int size, rank, dev;
    ncclUniqueId id;
    ncclResult_t result;
    int done; /* atomic */
} NcclInit;

static void *nccl_init_thread(void *arg)
{
    NcclInit *w = (NcclInit *)arg;
    cudaSetDevice(w->dev);
    w->result = nc.CommInitRank(&nc.comm, w->size, w->id, w->rank);
    __atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void nccl_init(int size, ncclUniqueId id, int rank, const char *file, int line)
{
    const char *stall = getenv("PARRAY_NCCL_TEST_STALL"); /* tests: this process stops before the communicator */
    if (stall && *stall && atoi(stall) == rank) {
        fprintf(stderr, "parray: PARRAY_NCCL_TEST_STALL: process %d stops before ncclCommInitRank\n", rank);
        fflush(stderr);
        for (;;)
            pause();
    }
    static NcclInit w; /* the thread may outlive this call: the job is ended then */
    w.size = size;
    w.rank = rank;
    w.id = id;
    pa_cuda_check(cudaGetDevice(&w.dev), "cudaGetDevice", file, line);
    pthread_t t;
    if (pthread_create(&t, NULL, nccl_init_thread, &w))
        pa_transport_die(file, line, "cannot start a thread for ncclCommInitRank");
    double timeout = pa_transport_timeout(), t0 = pa_transport_now();
    while (!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE)) {
        if (pa_transport_now() - t0 > timeout)
            pa_transport_die(file, line, "ncclCommInitRank waited %g s for the other processes (PARRAY_COPY_TIMEOUT): "
                             "a process of the job died or stopped before its first copy through NCCL", timeout);
        usleep(200);
    }
    pthread_join(t, NULL);
    nccl_check(w.result, "ncclCommInitRank", file, line);
}

/* The job's communicator on this process's GPU (collective: every process
 * takes the NCCL branch of the same copy). */
static void nccl_comm(const char *file, int line)
{
    if (nc.made)
        return;
    ncclUniqueId id;
    memset(&id, 0, sizeof id);
    int rank = pa_mpi_rank(), size = pa_mpi_size();
    if (rank == 0)
        nccl_check(nc.GetUniqueId(&id), "ncclGetUniqueId", file, line);
    if (MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        pa_transport_die(file, line, "MPI_Bcast of the NCCL id failed");
    nccl_init(size, id, rank, file, line);
    nc.made = 1;
    if (rank == 0 && env_on("PARRAY_VERBOSE")) {
        int v = 0;
        nc.GetVersion(&v);
        fprintf(stderr, "parray: NCCL %d.%d.%d: one communicator of %d processes\n", v / 10000, v / 100 % 100, v % 100,
                size);
        fflush(stderr);
    }
}
#endif

/* pa_transport.h */
void pa_transport_die(const char *file, int line, const char *fmt, ...)
{
    char msg[1536];
    va_list ap;
    va_start(ap, fmt);
    vsay(msg, sizeof msg, file, line, fmt, ap);
    va_end(ap);
    fflush(stdout);
    fprintf(stderr, "%s (process %d of %d); ending all processes\n", msg, pa_mpi_rank(), pa_mpi_size());
    fflush(stderr);
#if PARRAY_HAVE_NCCL
    if (nc.made)
        nc.CommAbort(nc.comm);
    nc.made = 0;
#endif
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

/* ---- the transport of each pair ---- */

static struct {
    int ready;
    int n, me;
    int *node;       /* node number of each process (by host name) */
    MPI_Comm node_comm; /* the processes of this one's node */
    char (*host)[MPI_MAX_PROCESSOR_NAME];
    int one_node;    /* every process on one node */
    int see;         /* every process sees the GPUs of the others of its node (CUDA IPC can map them) */
    int blind, blind_of; /* else: a process that does not, and the one whose GPU it misses */
    int share_a, share_b; /* two processes on one GPU (PARRAY_GPU_SHARE), which NCCL refuses; -1 none */
    int forced;      /* -1, or the PA_VIA_* of PARRAY_TRANSPORT */
    int verbose;
    int nccl;        /* built with NCCL and libnccl loads, on every process */
    char why_no_nccl[1024];
    const char *said[64]; /* copies already described (verbose), by file:line */
    int said_line[64];
    int nsaid;
} tp;

static void transport_init(const char *file, int line)
{
    if (tp.ready)
        return;
    tp.ready = 1;
    tp.n = pa_mpi_size();
    tp.me = pa_mpi_rank();
    tp.verbose = env_on("PARRAY_VERBOSE");
    /* the host names of all processes: equal names, one node */
    char mine[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    memset(mine, 0, sizeof mine);
    MPI_Get_processor_name(mine, &len);
    /* tests: PARRAY_FAKE_NODES=K splits the job into K nodes by rank, as if
     * each block of processes ran on a host of its own */
    const char *fake = getenv("PARRAY_FAKE_NODES");
    if (fake && atoi(fake) > 1) {
        int k = atoi(fake);
        size_t at = strnlen(mine, sizeof mine - 16);
        snprintf(mine + at, sizeof mine - at, "#%d", (int)((long long)tp.me * k / tp.n));
    }
    tp.host = (char (*)[MPI_MAX_PROCESSOR_NAME])pa_mpi_allgather(mine, sizeof mine, file, line);
    tp.node = (int *)calloc((size_t)tp.n, sizeof(int));
    if (!tp.node)
        pa_transport_die(file, line, "out of memory");
    int nodes = 0;
    for (int p = 0; p < tp.n; p++) {
        tp.node[p] = -1;
        for (int q = 0; q < p && tp.node[p] < 0; q++)
            if (!strncmp(tp.host[p], tp.host[q], MPI_MAX_PROCESSOR_NAME))
                tp.node[p] = tp.node[q];
        if (tp.node[p] < 0)
            tp.node[p] = nodes++;
    }
    tp.one_node = nodes == 1;
    if (MPI_Comm_split(MPI_COMM_WORLD, tp.node[tp.me], tp.me, &tp.node_comm) != MPI_SUCCESS)
        pa_transport_die(file, line, "MPI_Comm_split (the processes of each node) failed");
    /* CUDA IPC maps a block only on a process that sees its GPU: not where
     * CUDA_VISIBLE_DEVICES gives each process its own (srun
     * --gpus-per-task=1).  The PCI bus id of each process's GPU; without
     * one (no GPU yet) nothing is known and IPC is assumed. */
    char bus[32];
    int dev = -1;
    memset(bus, 0, sizeof bus);
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetPCIBusId(bus, (int)sizeof bus - 1, dev) != cudaSuccess)
        bus[0] = 0;
    cudaGetLastError();
    char (*buses)[32] = (char (*)[32])pa_mpi_allgather(bus, sizeof bus, file, line);
    int mine_blind = -1;
    for (int q = 0; q < tp.n && bus[0] && mine_blind < 0; q++) {
        int d = -1;
        if (q != tp.me && tp.node[q] == tp.node[tp.me] && buses[q][0] &&
            cudaDeviceGetByPCIBusId(&d, buses[q]) != cudaSuccess)
            mine_blind = q;
        cudaGetLastError();
    }
    int me_and_q[2] = {mine_blind >= 0 ? tp.me : tp.n, mine_blind}, first[2];
    MPI_Allreduce(me_and_q, first, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
    tp.see = first[0] == tp.n;
    tp.blind = first[0];
    tp.blind_of = first[1];
    tp.share_a = tp.share_b = -1;
    for (int p = 0; p < tp.n && tp.share_a < 0; p++)
        for (int q = p + 1; q < tp.n && tp.share_a < 0; q++)
            if (buses[p][0] && tp.node[p] == tp.node[q] && !strcmp(buses[p], buses[q])) {
                tp.share_a = p;
                tp.share_b = q;
            }
    free(buses);
    /* NCCL on every process, or on none */
    int have = 0;
#if PARRAY_HAVE_NCCL
    have = nccl_load();
    if (!have)
        snprintf(tp.why_no_nccl, sizeof tp.why_no_nccl, "on process %d (%s), %s", tp.me, tp.host[tp.me], nc.why);
#else
    snprintf(tp.why_no_nccl, sizeof tp.why_no_nccl, "this parrayc was built without NCCL (cmake -DPARRAY_NCCL=ON "
             "needs nccl.h and libnccl)");
#endif
    int all = 0;
    MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    tp.nccl = all;
    if (!all && have)
        snprintf(tp.why_no_nccl, sizeof tp.why_no_nccl, "libnccl does not load on every process");
    if (tp.nccl && tp.share_a >= 0) {
        snprintf(tp.why_no_nccl, sizeof tp.why_no_nccl, "processes %d and %d share a GPU (PARRAY_GPU_SHARE), "
                 "which NCCL refuses: one GPU a process", tp.share_a, tp.share_b);
        tp.nccl = 0;
    }
    /* PARRAY_TRANSPORT; PARRAY_NO_IPC=1 is the older spelling of host */
    const char *t = getenv("PARRAY_TRANSPORT");
    tp.forced = -1;
    if (t && *t && strcmp(t, "auto")) {
        for (int k = 0; k < 3; k++)
            if (!strcmp(t, via_names[k]))
                tp.forced = k;
        if (tp.forced < 0)
            fail_all(file, line, "PARRAY_TRANSPORT=%s: expected ipc, nccl, host or auto", t);
    } else if (env_on("PARRAY_NO_IPC")) {
        tp.forced = PA_VIA_HOST;
    }
    if (tp.forced == PA_VIA_IPC && !tp.one_node) {
        int p = 0;
        while (p < tp.n && tp.node[p] == tp.node[0])
            p++;
        fail_all(file, line, "PARRAY_TRANSPORT=ipc, but process 0 (on %s) and process %d (on %s) are on different "
                 "nodes: CUDA IPC maps GPU memory within one node only", tp.host[0], p, tp.host[p]);
    }
    if (tp.forced == PA_VIA_IPC && !tp.see)
        fail_all(file, line, "PARRAY_TRANSPORT=ipc, but process %d does not see the GPU of process %d, on its node "
                 "(CUDA_VISIBLE_DEVICES gives each process its own GPU, as srun --gpus-per-task=1 does): CUDA IPC "
                 "maps only the blocks of GPUs a process sees", tp.blind, tp.blind_of);
    if (tp.forced == PA_VIA_NCCL && !tp.nccl)
        fail_all(file, line, "PARRAY_TRANSPORT=nccl, but %s", tp.why_no_nccl);
    if (tp.verbose) {
        /* once per pair, by the lower process of the pair */
        for (int q = tp.me + 1; q < tp.n; q++) {
            int same = tp.node[q] == tp.node[tp.me] && tp.see;
            int via = tp.forced >= 0 ? tp.forced : same ? PA_VIA_IPC : tp.nccl ? PA_VIA_NCCL : PA_VIA_HOST;
            fprintf(stderr, "parray: transport between process %d (%s) and process %d (%s): %s (%s)\n", tp.me,
                    tp.host[tp.me], q, tp.host[q], via_names[via],
                    tp.forced >= 0 ? "PARRAY_TRANSPORT"
                    : same         ? "same node: CUDA IPC"
                    : tp.node[q] == tp.node[tp.me]
                        ? (tp.nccl ? "same node, GPUs not visible to each other: NCCL"
                                   : "same node, GPUs not visible to each other, no NCCL: the node's shared "
                                     "pinned memory")
                    : tp.nccl      ? "different nodes: NCCL"
                                   : "different nodes, no NCCL: pinned host memory and MPI");
        }
        fflush(stderr);
    }
}

/* Has copy file:line been described (verbose) already?  Marks it. */
static int said_before(const char *file, int line)
{
    for (int i = 0; i < tp.nsaid; i++)
        if (tp.said_line[i] == line && (tp.said[i] == file || (file && tp.said[i] && !strcmp(tp.said[i], file))))
            return 1;
    if (tp.nsaid < 64) {
        tp.said[tp.nsaid] = file;
        tp.said_line[tp.nsaid++] = line;
    }
    return 0;
}

extern "C" pa_via pa_gpu_transport(const void *exports, long long n, int rows, const char *file, int line)
{
    transport_init(file, line);
    const pa_cuda_ipc *all = (const pa_cuda_ipc *)exports;
    int blocks = 1; /* every block a #create's, and few enough for the copy kernel */
    for (long long i = 0; i < n; i++)
        blocks &= all[i].usable;
    blocks &= n <= PA_CUDA_MAX_BLOCKS;
    int ipc = tp.one_node && tp.see && blocks;
    int nccl = tp.nccl && !rows && tp.n <= PA_CUDA_MAX_BLOCKS; /* the probe hands the kernel every process's block */
    pa_via via;
    const char *why;
    switch (tp.forced) {
    case PA_VIA_IPC:
        if (!blocks)
            fail_all(file, line, "PARRAY_TRANSPORT=ipc, but %s: CUDA IPC exports only the blocks #create makes, "
                     "at most %d", n > PA_CUDA_MAX_BLOCKS ? "the copy has too many processes" :
                     "a block of this copy was not made by #create", PA_CUDA_MAX_BLOCKS);
        via = PA_VIA_IPC;
        why = "PARRAY_TRANSPORT=ipc";
        break;
    case PA_VIA_NCCL:
        if (tp.n > PA_CUDA_MAX_BLOCKS && !rows)
            fail_all(file, line, "PARRAY_TRANSPORT=nccl, but the job has %d processes: at most %d", tp.n,
                     PA_CUDA_MAX_BLOCKS);
        /* rows between process 0's host memory and the GPUs: MPI carries them */
        via = rows ? PA_VIA_HOST : PA_VIA_NCCL;
        why = rows ? "PARRAY_TRANSPORT=nccl; host memory on one side: MPI" : "PARRAY_TRANSPORT=nccl";
        break;
    case PA_VIA_HOST:
        via = PA_VIA_HOST;
        why = getenv("PARRAY_TRANSPORT") ? "PARRAY_TRANSPORT=host" : "PARRAY_NO_IPC=1";
        break;
    default:
        via = ipc ? PA_VIA_IPC : nccl ? PA_VIA_NCCL : PA_VIA_HOST;
        why = ipc            ? "one node"
              : nccl         ? (!tp.one_node ? "several nodes"
                                : !tp.see      ? "one node, but the processes do not see each other's GPUs"
                                               : "one node, but a block was not made by #create")
              : rows && tp.nccl ? "host memory on one side: MPI"
              : tp.one_node  ? (tp.see ? "a block was not made by #create, and no NCCL"
                                      : "the processes do not see each other's GPUs, and no NCCL")
                             : "several nodes, and no NCCL";
    }
    if (tp.verbose && tp.me == 0 && !said_before(file, line)) {
        fprintf(stderr, "%s:%d: parray: this copy goes through %s (%s)\n", file ? file : "parray", line,
                via_names[via], why);
        fflush(stderr);
    }
    return via;
}

int pa_transport_verbose(void)
{
    return tp.verbose;
}

/* ---- the pairs' packed elements through NCCL (pa_transport.h) ---- */

int pa_transport_node(int q)
{
    return tp.node[q];
}

MPI_Comm pa_transport_node_comm(void)
{
    return tp.node_comm;
}

double pa_transport_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double pa_transport_timeout(void)
{
    static double timeout = -1;
    if (timeout < 0) {
        const char *t = getenv("PARRAY_COPY_TIMEOUT");
        if (!t || !*t)
            t = getenv("PARRAY_NCCL_TIMEOUT");
        timeout = t && *t ? atof(t) : 300;
        if (timeout <= 0)
            timeout = 300;
    }
    return timeout;
}

#if PARRAY_HAVE_NCCL

/* Until the stream is done; an NCCL error, or no end after the timeout
 * (a process died or stopped), ends the job. */
static void nccl_wait(cudaStream_t s, const char *file, int line)
{
    double timeout = pa_transport_timeout(), t0 = pa_transport_now();
    for (long spin = 0;; spin++) {
        cudaError_t e = cudaStreamQuery(s);
        if (e == cudaSuccess)
            return;
        if (e != cudaErrorNotReady)
            pa_transport_die(file, line, "a copy through NCCL failed: %s", cudaGetErrorString(e));
        ncclResult_t r = ncclSuccess;
        nccl_check(nc.CommGetAsyncError(nc.comm, &r), "ncclCommGetAsyncError", file, line);
#if defined(NCCL_VERSION_CODE) && NCCL_VERSION_CODE >= NCCL_VERSION(2, 14, 0)
        if (r == ncclInProgress)
            r = ncclSuccess;
#endif
        if (r != ncclSuccess)
            pa_transport_die(file, line, "a copy through NCCL failed: %s (a process of the job died, or its network "
                             "failed)", nc.GetErrorString(r));
        if (pa_transport_now() - t0 > timeout)
            pa_transport_die(file, line, "a copy through NCCL made no progress for %g s (PARRAY_COPY_TIMEOUT): a "
                             "process of the job died or stopped", timeout);
        if (spin > 1000)
            usleep(50);
    }
}

void pa_nccl_exchange(const void *sbuf, const long long *scount, const long long *sdispl, void *rbuf,
                      const long long *rcount, const long long *rdispl, size_t elem, cudaStream_t s,
                      const char *file, int line)
{
    nccl_comm(file, line);
    int n = tp.n, me = tp.me;
    const char *die_at = getenv("PARRAY_NCCL_TEST_DIE"); /* tests: this process dies mid-copy */
    nccl_check(nc.GroupStart(), "ncclGroupStart", file, line);
    for (int q = 0; q < n; q++) {
        if (q == me)
            continue;
        if (scount[q])
            nccl_check(nc.Send((const char *)sbuf + (size_t)sdispl[q] * elem, (size_t)scount[q] * elem, ncclInt8, q,
                               nc.comm, s), "ncclSend", file, line);
        if (rcount[q])
            nccl_check(nc.Recv((char *)rbuf + (size_t)rdispl[q] * elem, (size_t)rcount[q] * elem, ncclInt8, q,
                               nc.comm, s), "ncclRecv", file, line);
    }
    nccl_check(nc.GroupEnd(), "ncclGroupEnd", file, line);
    if (die_at && *die_at && atoi(die_at) == me) {
        fprintf(stderr, "parray: PARRAY_NCCL_TEST_DIE: process %d dies in the middle of a copy through NCCL\n", me);
        fflush(stderr);
        _exit(9);
    }
    nccl_wait(s, file, line);
}

#else /* no NCCL: pa_gpu_transport never picks it */

void pa_nccl_exchange(const void *sbuf, const long long *scount, const long long *sdispl, void *rbuf,
                      const long long *rcount, const long long *rdispl, size_t elem, cudaStream_t s,
                      const char *file, int line)
{
    (void)sbuf, (void)scount, (void)sdispl, (void)rbuf, (void)rcount, (void)rdispl, (void)elem, (void)s;
    pa_transport_die(file, line, "a copy through NCCL, but this parrayc was built without NCCL (internal error)");
}

#endif
