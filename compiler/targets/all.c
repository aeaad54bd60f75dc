/* all.c: the list of targets (all.h). */
#include "targets/all.h"

const Backend *const targets_all[] = {&backend_c, &backend_cpu, &backend_cuda, &backend_mpi, NULL};
