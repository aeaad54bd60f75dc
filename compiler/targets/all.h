/* all.h: the targets parrayc translates to, in the order the walk asks
 * them (emit/backend.h, backend_for).  A fifth target is a file (or a
 * folder) of targets/ defining its Backend and one line of all.c. */
#ifndef PARRAYC_TARGETS_ALL_H
#define PARRAYC_TARGETS_ALL_H

#include "emit/backend.h"

extern const Backend backend_c;    /* host C: paged, pinned and rmem memory, host copies, #mainhost */
extern const Backend backend_cpu;  /* pthd and omp thread arrays */
extern const Backend backend_cuda; /* cuda thread arrays and GPU memory */
extern const Backend backend_mpi;  /* mpi process arrays, distributed data, #mainhost of mpi programs */

/* NULL-terminated, in the order of their headers in a program; host C
 * first, which translates what no other takes */
extern const Backend *const targets_all[];

#endif
