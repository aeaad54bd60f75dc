/* choice.cu: the transport pa_gpu_transport picks (runtime/pa_transport.cu),
 * without a GPU: the exports are made up (argv[1]: 1 usable, 0 not), and
 * the choice needs no CUDA call.  Prints, on process 0, the transport of an
 * all-to-all between GPU blocks, of rows (host memory on one side), and of
 * the first copy again.  Driven by tests/check_transport.sh. */
#include <parray.h>
#include <parray_cuda.h>
#include <parray_mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
  pa_init(&argc, &argv);
  pa_mpi_init(&argc, &argv);
  static const char *names[] = {"ipc", "nccl", "host"};
  int n = pa_mpi_size();
  pa_cuda_ipc all[PA_CUDA_MAX_BLOCKS];
  memset(all, 0, sizeof all);
  int usable = argc > 1 ? atoi(argv[1]) : 1;
  for (int i = 0; i < n && i < PA_CUDA_MAX_BLOCKS; i++)
    all[i].usable = usable;
  pa_via a = pa_gpu_transport(all, n, 0, "t.pa", 10);
  pa_via b = pa_gpu_transport(all, n, 1, "t.pa", 11);
  pa_via c = pa_gpu_transport(all, n, 0, "t.pa", 10);
  if (pa_mpi_rank() == 0)
    printf("copy %s rows %s again %s\n", names[a], names[b], names[c]);
  pa_mpi_finalize();
  return 0;
}
