// wgmma_ws.cuh: the lab's warp-specialised Hopper kernels (issue 53, lab/tf32_ws.cu,
// lab/x3_ws.cu) take their helpers (mbarriers, TMA, setmaxnreg, tmap_2d) from
// samples/hopper.pah, through wgmma.cuh; tmap_or_exit is the lab's form of tmap_2d.
#pragma once
#include "wgmma.cuh"

static inline CUtensorMap tmap_or_exit(const float *base, long long rows, long long cols, long long ld, int box_rows,
                                       int box_cols) {
  CUtensorMap tm;
  if (!tmap_2d(&tm, base, rows, cols, ld, box_rows, box_cols)) {
    printf("cuTensorMapEncodeTiled refused %lld x %lld (ld %lld)\n", rows, cols, ld);
    exit(1);
  }
  return tm;
}
