/* launch.c: the launch rule of a cuda thread array (launch.h). */
#include "model/launch.h"

#include <string.h>

bool launch_shape(Dim *root, long long n, LaunchShape *l)
{
  memset(l, 0, sizeof *l);
  int m = dim_nkids(root);
  if (m == 1) {
    l->tiled = true;
    l->tile = n > 0 && n <= LAUNCH_MAX_BLOCK ? n : LAUNCH_TILE;
    return true;
  }
  if (m != 2)
    return false;
  for (int w = 0; w < 2; w++) {
    Dim *lv = dim_kid(root, w);
    int k = dim_nkids(lv);
    l->lv[w] = lv;
    l->nax[w] = k >= 1 && k <= 3 ? k : 1;
    for (int j = 0; j < l->nax[w]; j++)
      l->ax[w][j] = l->nax[w] == k ? dim_kid(lv, j) : lv;
  }
  return true;
}

char launch_axis_letter(const LaunchShape *l, int w, int j)
{
  return "zyx"[3 - l->nax[w] + j];
}

const char *launch_blocks(Ctx *ctx, Poly *n, long long k)
{
  long long v;
  if (poly_is_const(n, &v))
    return ctx_printf(ctx, "%lld", (v + k - 1) / k);
  return ctx_printf(ctx, "(%s + %lld) / %lld", poly_str(ctx, n), k - 1, k);
}
