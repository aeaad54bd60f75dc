/* parray_cuda.h: the CUDA (device memory, pinned memory, copies, kernel launch helpers, INIT_GPU) part of the Parray runtime.
 * Placeholder: declarations are added together with runtime/pa_cuda*. */
#ifndef PARRAY_CUDA_H
#define PARRAY_CUDA_H

#include "parray.h"

#endif /* PARRAY_CUDA_H */
