/* launch.h: the launch rule of a cuda thread array, in one place: how its
 * dimensions become a CUDA grid of blocks of threads.  targets/cuda/cuda.c
 * launches kernels by it, explain/cells.c draws who each index is by it,
 * targets/cuda/kernels.c sizes the grids of its copy kernels with
 * launch_blocks. */
#ifndef PARRAYC_LAUNCH_H
#define PARRAYC_LAUNCH_H

#include "parrayc.h"

/* CUDA's numbers, in one table: the limits of a launch (the CUDA
 * programming guide's, compute capability 7.0 to 9.0) and the shapes of
 * the kernels parrayc writes.  The copy planner, the CUDA target and the
 * explainer read them here. */
typedef struct LaunchNumbers {
  long long grid_max[3];  /* gridDim.z, .y, .x */
  long long block_max[3]; /* blockDim.z, .y, .x */
  long long block_threads; /* threads per block */
  long long smem_static;  /* static __shared__ bytes a block may declare */
  long long smem_max;     /* dynamic shared memory a block may opt in to (sm_80, sm_90) */
  int tile;               /* threads per block of a tiled [n] array and of the element copy kernel */
  /* the transpose copy kernel's square tile: the edge for elements of at
   * most 8 bytes (64 x 65 of them fit the static shared memory), else */
  int transpose_edge, transpose_edge_wide;
  /* the tiles of the peer and packing kernels (copy_tile x copy_tile
   * elements), and the blocks of those and the transpose kernel
   * (copy_tile x copy_rows threads) */
  int copy_tile, copy_rows;
} LaunchNumbers;

extern const LaunchNumbers launch_numbers;

/* The memory system's, which the explainer sizes arrays by: the threads
 * of a warp, the bytes global memory moves in (a sector), the banks of
 * 4-byte words of shared memory. */
enum { LAUNCH_WARP = 32, LAUNCH_SECTOR = 32, LAUNCH_BANKS = 32 };

/* [n] is tiled: blocks of launch_numbers.tile threads, or one block of n
 * when n is at most launch_numbers.block_threads.  [grid][block] maps each level's one to three
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
