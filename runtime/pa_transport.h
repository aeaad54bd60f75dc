/* pa_transport.h: what pa_transport.cu (the transport of each pair of
 * processes, NCCL) gives pa_xchg.cu (copies with each pair's elements
 * packed on the GPU).  Internal to libparray_cuda; not installed. */
#ifndef PA_TRANSPORT_H
#define PA_TRANSPORT_H

#include <cuda_runtime.h>
#include <stddef.h>
/* mpi.h comes first, with OMPI_SKIP_MPICXX and MPICH_SKIP_MPICXX set */

/* A fatal error on this process alone (the others may be inside NCCL or
 * MPI): "file:line: error: ..." and the process number, then the job
 * ends (ncclCommAbort, MPI_Abort). */
__attribute__((noreturn, format(printf, 3, 4))) void pa_transport_die(const char *file, int line, const char *fmt,
                                                                      ...);

/* PARRAY_VERBOSE is set. */
int pa_transport_verbose(void);

/* The node of process q (processes with one host name share one;
 * PARRAY_FAKE_NODES=K splits them into K), and the communicator of the
 * processes of this one's node (ranks in job order).  Known once
 * pa_gpu_transport has run. */
int pa_transport_node(int q);
MPI_Comm pa_transport_node_comm(void);

/* Seconds a copy waits for another process without progress before it
 * ends the job (PARRAY_COPY_TIMEOUT, or its older name
 * PARRAY_NCCL_TIMEOUT; 300 by default). */
double pa_transport_timeout(void);

/* Seconds, monotonic. */
double pa_transport_now(void);

/* The pairs' packed elements through NCCL, on stream s, by every process:
 * this process sends scount[q] elements of elem bytes from sbuf + sdispl[q]
 * elements to each process q and receives rcount[q] into rbuf + rdispl[q]
 * (q == me left out: the caller copies its own); returns when stream s is
 * done, or ends the job when NCCL fails or makes no progress for
 * pa_transport_timeout() seconds.  Without NCCL in the build: an internal
 * error. */
void pa_nccl_exchange(const void *sbuf, const long long *scount, const long long *sdispl, void *rbuf,
                      const long long *rcount, const long long *rdispl, size_t elem, cudaStream_t s,
                      const char *file, int line);

#endif
