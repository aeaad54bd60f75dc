/* parray_mpi.h: the MPI (process arrays, distributed copies) part of the Parray runtime.
 * Placeholder: declarations are added together with runtime/pa_mpi*. */
#ifndef PARRAY_MPI_H
#define PARRAY_MPI_H

#include "parray.h"

#endif /* PARRAY_MPI_H */
