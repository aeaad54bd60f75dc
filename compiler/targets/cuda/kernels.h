/* kernels.h: the one writer of CUDA copy kernels (kernels.c), for the
 * GPU target's launches of them (cuda.c, team.c).  Each returns the kernel's name,
 * its launch configuration (*launch, "GRID, BLOCK") and the launch
 * arguments after the pointers (*extra, the host sizes the kernel
 * captures), or NULL after an error; the kernel goes to e->hoist, once. */
#ifndef PARRAYC_KERNELS_H
#define PARRAYC_KERNELS_H

#include "emit/backend.h"

/* A #copy between layouts of one GPU (CopyPlan.how COPY_ELEMENTS or
 * COPY_TRANSPOSE): launched as KERNEL<<<*launch>>>(src, dst *extra). */
const char *kernel_copy(Emitter *e, Node *n, const CopyPlan *p, const char **launch, const char **extra);
/* An all-to-all between GPUs (CopyPlan.peer): launched as
 * KERNEL<<<*launch>>>(pointer, pa_blocks, tid *extra). */
const char *kernel_peer(Emitter *e, Node *n, const CopyPlan *p, const char **launch, const char **extra);
/* The packing kernel of an all-to-all in packets (CopyPlan.packets): the
 * rectangle this GPU sends one GPU, transposed; its launch grid's y and z
 * in *grid_yz (team.c, packets_steps, launches it). */
const char *kernel_packets(Emitter *e, Node *n, const CopyPlan *p, const char **grid_yz, const char **extra);

#endif
