/* parray_mpi.h: the MPI part of the Parray runtime (process arrays and
 * distributed copies; SPEC.md sections 4 and 6.3).  Linked as libparray_mpi.a
 * by programs that declare an mpi thread array.
 *
 * Execution model: every process runs main(); process 0 runs the #mainhost
 * code (pa_main) and the others wait in pa_mpi_serve() for work.  A
 * #detour P(ARGS) on process 0 broadcasts the detour's id and the bytes of
 * its packed arguments; every process runs the body; a barrier returns
 * control to process 0.  When process 0 leaves #mainhost it tells the
 * others to stop.  Any process that exits otherwise (pa_fail, exit(n), a
 * return from inside a detour) ends the whole job with MPI_Abort. */
#ifndef PA_PARRAY_MPI_H
#define PA_PARRAY_MPI_H

#include "parray.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The outlined body of an mpi detour, called with its packed arguments. */
typedef void (*pa_mpi_body)(void *args);

/* Records body number id (before main(): see PA_MPI_REGISTER). */
void pa_mpi_register(int id, pa_mpi_body body);
#if defined(__GNUC__) || defined(__clang__)
#define PA_MPI_REGISTER(id, body) \
  __attribute__((constructor)) static void body##_register(void) { pa_mpi_register(id, body); }
#endif

/* MPI_Init and the exit handler that turns any failure into MPI_Abort. */
void pa_mpi_init(int *argc, char ***argv);
/* Every process: the job must have exactly nprocs processes (the extent of mpi
 * array `type`); otherwise process 0 says so and all exit with status 1. */
void pa_mpi_expect(long long nprocs, const char *type, const char *file, int line);
/* Every process, at a #copy of an mpi body: when src != dst on any process,
 * the first such process reports the mismatch and all exit with status 1. */
void pa_mpi_check_copy_extent(long long src, long long dst, const char *file, int line);
int pa_mpi_rank(void);
int pa_mpi_size(void);
/* At the start of an mpi body that does GPU work (SPEC 6.5), every
 * process: gpus is the number of GPUs it sees (0: none, why says so), set
 * which ones (pa_cuda_visible_set).  The processes of a node that see the
 * same GPUs share them out: returns this process's rank among them mod
 * gpus (0 for a process that sees a GPU of its own).  A process without a
 * GPU, or more such processes than GPUs (unless PARRAY_GPU_SHARE=1), ends
 * the job with one message. */
int pa_mpi_gpu_of(int gpus, unsigned long long set, const char *why, const char *type, const char *file, int line);
/* Are all processes of the job on one node (shared memory)? */
int pa_mpi_one_node(void);
/* Every process: the bytes at mine of all processes, in rank order, in
 * new memory (free it with pa_free_host(PA_PAGED, p)). */
void *pa_mpi_allgather(const void *mine, pa_size_t bytes, const char *file, int line);
/* Processes other than 0: runs detours until process 0 stops; returns 0. */
int pa_mpi_serve(void);
/* Process 0: runs detour id on every process with a copy of the args_size
 * bytes at args; returns when all have finished. */
void pa_mpi_detour(int id, const void *args, pa_size_t args_size, long long extent, const char *type,
                   const char *file, int line);
/* Process 0 sends the others the stop message; all finalize MPI. */
void pa_mpi_finalize(void);
/* #sync on `line` of an mpi detour body: a barrier among all processes that
 * also checks they all stand at the same #sync (else the job ends with a
 * message naming where each process is, instead of hanging). */
void pa_mpi_sync(const char *file, int line);
/* A barrier among the processes of an mpi detour body, checked likewise. */
void pa_mpi_barrier(void);
/* Before a collective #copy in an mpi body (file:line): a synchronisation
 * point as #sync is, so processes that reach different collectives (a copy
 * inside 'if ($tid$ == 0)', a return before it) end the job with a message
 * naming both places instead of pairing the wrong collectives and hanging. */
void pa_mpi_copy_point(const char *file, int line);
/* The same before the #create of GPU memory distributed over the processes
 * (file:line), whose exchange of the blocks' CUDA IPC handles is a
 * collective: "process 1 at the #create at FILE:LINE". */
void pa_mpi_create_point(const char *file, int line);

/* ---- distributed #copy ----
 * Elements move in buckets, one per (sender, receiver) pair.  The generated
 * code counts the elements of each bucket, packs the send buffer (cursor
 * scur[p] walks bucket p), runs the exchange, and unpacks the receive
 * buffer (cursor rcur[p] walks what came from process p).  Both sides walk
 * the elements in increasing logical index, so the orders agree. */
typedef enum pa_mpi_how { PA_MPI_SCATTER, PA_MPI_GATHER, PA_MPI_ALLTOALL, PA_MPI_BCAST } pa_mpi_how;

typedef struct pa_mpi_xchg {
  int nprocs, rank;
  pa_size_t elem;            /* bytes per element */
  long long *scount, *rcount; /* elements to / from each process */
  long long *scur, *rcur;    /* element cursors into sbuf / rbuf */
  void *sbuf, *rbuf;
} pa_mpi_xchg;

pa_mpi_xchg *pa_mpi_xchg_begin(pa_size_t elem);
/* After the counts: allocates the send buffer, sets scur to the displacements. */
void *pa_mpi_xchg_pack(pa_mpi_xchg *x);
/* After packing: moves the data (a scatter or broadcast from process 0, a
 * gather to it, or an all-to-all); returns the receive buffer, rcur set. */
void *pa_mpi_xchg_run(pa_mpi_xchg *x, pa_mpi_how how, const char *file, int line);
void pa_mpi_xchg_end(pa_mpi_xchg *x);

/* A scatter (how = PA_MPI_SCATTER) or gather of rows: process r < parts
 * holds a part (the others none: data over a sub-range or one axis of the
 * processes); its part of process 0's array host is `rows` rows of `width`
 * elements of elem bytes, pitch elements apart, starting at host + r *
 * step; on process r it is the rows at local, lpitch apart.  host is read
 * (written) on process 0 only.  PA_MPI_BCAST: every process gets all the
 * rows (parts and step unused).  parts above the number of processes is an
 * error naming the line. */
void pa_mpi_rows(pa_mpi_how how, long long parts, void *host, long long rows, long long width, long long pitch, long long step,
                 void *local, long long lpitch, pa_size_t elem, const char *file, int line);

/* ---- GPU blocks between processes: the transport (pa_transport.cu) ----
 * Defined in libparray_cuda (runtime/pa_transport.cu, pa_xchg.cu), for
 * mpi x cuda programs.
 * The transport of a copy between GPU blocks of the processes: PA_VIA_IPC
 * when every pair of processes shares a node and every block is a
 * #create's (exports: the pa_cuda_ipc of all n processes), else
 * PA_VIA_NCCL when parrayc was built with NCCL and libnccl loads (never
 * for rows: process 0's host memory on one side), else PA_VIA_HOST.
 * PARRAY_TRANSPORT=ipc|nccl|host|auto forces one (all processes end with a
 * message naming why when it cannot work); PARRAY_VERBOSE=1 prints the
 * transport of each pair once, and of each copy once.  Every process calls
 * it at the same copy, with the same exports. */
typedef enum pa_via { PA_VIA_IPC, PA_VIA_NCCL, PA_VIA_HOST } pa_via;
pa_via pa_gpu_transport(const void *exports, long long n, int rows, const char *file, int line);
/* A copy between GPU blocks through NCCL or the host (via), each pair's
 * elements packed on the GPU, by every process: begin with the copy's
 * peer kernel (its address), this process's source and destination
 * blocks, and the sizes the kernel captures (key, nkey: the map depends on
 * them); while pa_gpu_xchg_probe returns 1, launch the kernel with the
 * blocks (a pa_cuda_blocks) and destination it gives, and check the
 * launch; then pa_gpu_xchg_run moves the elements and frees x.  The first
 * copy of a kernel and sizes maps its elements (the kernel over marked
 * blocks); later ones reuse the map.  NULL, on every process alike: more
 * than PA_CUDA_MAX_BLOCKS processes or blocks of 2^31 elements and more,
 * which the map does not hold (the copy then goes element by element
 * through the host). */
typedef struct pa_gpu_xchg pa_gpu_xchg;
pa_gpu_xchg *pa_gpu_xchg_begin(const void *kernel, const void *src, pa_size_t src_bytes, void *dst, pa_size_t dst_bytes,
                               pa_size_t elem, const long long *key, int nkey, pa_via via, const char *file, int line);
int pa_gpu_xchg_probe(pa_gpu_xchg *x, void *blocks, void **probe);
void pa_gpu_xchg_run(pa_gpu_xchg *x);
/* The runtime's own (pa_xchg.cu): release, called by every process in
 * pa_mpi_finalize before MPI_Finalize, frees what MPI must free
 * collectively (the shared windows of pinned memory). */
void pa_mpi_before_finalize(void (*release)(void));
/* Every process, having decided alike that the job cannot go on: process
 * 0 prints msg (one line, no newline needed), all exit with status 1. */
void pa_mpi_fail_all(const char *msg);

#ifdef __cplusplus
}
#endif

#endif /* PA_PARRAY_MPI_H */
