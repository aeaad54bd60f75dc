/* parray_cpu.h: the CPU thread arrays (pthread and OpenMP launch helpers, barriers) part of the Parray runtime.
 * Placeholder: declarations are added together with runtime/pa_thread*. */
#ifndef PARRAY_CPU_H
#define PARRAY_CPU_H

#include "parray.h"

#endif /* PARRAY_CPU_H */
