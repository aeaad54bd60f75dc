/* launch.h: the launch rule of a cuda thread array, in one place: how its
 * dimensions become a CUDA grid of blocks of threads.  targets/cuda/cuda.c
 * launches kernels by it, explain/explain.c draws who each index is by it,
 * targets/cuda/kernels.c sizes the grids of its copy kernels with
 * launch_blocks. */
#ifndef PARRAYC_LAUNCH_H
#define PARRAYC_LAUNCH_H

#include "parrayc.h"

#define LAUNCH_TILE 256       /* threads per block of a tiled [n] array */
#define LAUNCH_MAX_BLOCK 1024 /* threads per block */

/* [n] is tiled: blocks of LAUNCH_TILE threads, or one block of n when n is
 * at most LAUNCH_MAX_BLOCK.  [grid][block] maps each level's one to three
 * children onto z, y, x (a leaf level, or one of more than three children:
 * x alone, linear). */
typedef struct LaunchShape {
  bool tiled;
  long long tile;      /* threads per block when tiled */
  Dim *lv[2];          /* the grid and block levels (not tiled) */
  Dim *ax[2][3];       /* their axes, outermost first; the last is x */
  int nax[2];
} LaunchShape;

/* The shape of thread array root; n is the extent of a [n] array when
 * known (else <= 0).  false when root has neither one nor two top-level
 * dimensions. */
bool launch_shape(Dim *root, long long n, LaunchShape *l);
/* 'z', 'y' or 'x': axis j of level w */
char launch_axis_letter(const LaunchShape *l, int w, int j);
/* ceil(n / k) as C text */
const char *launch_blocks(Ctx *ctx, Poly *n, long long k);

#endif
