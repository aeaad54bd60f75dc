/* nccl_ref.cu: NCCL's own all-to-all of the bytes xfer.pa's float
 * transpose moves (N x N floats spread over the processes; each process
 * sends its block's share to every other one), as grouped ncclSend/ncclRecv
 * on the transport the environment leaves NCCL (NCCL_P2P_DISABLE,
 * NCCL_SHM_DISABLE).  The reference of tests/gpu_transport.sh's table.
 * Also the reference of the copies through the host: every process copies
 * the bytes it sends (its block less its own share) from its GPU to pinned
 * host memory at once, one cudaMemcpy.
 * Usage: mpirun -np P nccl_ref N REPS; prints "NCCL_REF np=P n=N ms=T" and
 * "PINNED_REF np=P n=N ms=T" (means of REPS after one call). */
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>
#include <nccl.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)
#define NK(x) do { ncclResult_t nr_ = (x); if (nr_ != ncclSuccess) { fprintf(stderr, "%s: %s\n", #x, ncclGetErrorString(nr_)); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, local, gpus;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
  CK(cudaGetDeviceCount(&gpus));
  CK(cudaSetDevice(local % gpus));
  long long n = argc > 1 ? atoll(argv[1]) : 1024;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  size_t block = (size_t)(n * n / size) * sizeof(float), part = block / (size_t)size;
  char *s, *r;
  CK(cudaMalloc((void **)&s, block));
  CK(cudaMalloc((void **)&r, block));
  ncclUniqueId id;
  if (rank == 0)
    NK(ncclGetUniqueId(&id));
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  ncclComm_t comm;
  NK(ncclCommInitRank(&comm, size, id, rank));
  cudaStream_t st;
  CK(cudaStreamCreate(&st));
  double t0 = 0;
  for (int k = 0; k <= reps; k++) {
    if (k == 1) {
      CK(cudaStreamSynchronize(st));
      MPI_Barrier(MPI_COMM_WORLD);
      t0 = MPI_Wtime();
    }
    NK(ncclGroupStart());
    for (int q = 0; q < size; q++)
      if (q != rank) {
        NK(ncclSend(s + q * part, part, ncclInt8, q, comm, st));
        NK(ncclRecv(r + q * part, part, ncclInt8, q, comm, st));
      }
    NK(ncclGroupEnd());
    CK(cudaMemcpyAsync(r + rank * part, s + rank * part, part, cudaMemcpyDeviceToDevice, st));
    CK(cudaStreamSynchronize(st));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t = (MPI_Wtime() - t0) / reps;
  if (rank == 0)
    printf("NCCL_REF np=%d n=%lld ms=%.3f\n", size, n, t * 1e3);
  char *h;
  CK(cudaMallocHost((void **)&h, block));
  for (int k = 0; k <= reps; k++) {
    if (k == 1) {
      MPI_Barrier(MPI_COMM_WORLD);
      t0 = MPI_Wtime();
    }
    CK(cudaMemcpy(h, s, part * (size_t)(size - 1), cudaMemcpyDeviceToHost));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  t = (MPI_Wtime() - t0) / reps;
  if (rank == 0)
    printf("PINNED_REF np=%d n=%lld ms=%.3f\n", size, n, t * 1e3);
  CK(cudaFreeHost(h));
  ncclCommDestroy(comm);
  MPI_Finalize();
  return 0;
}
