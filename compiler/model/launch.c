/* launch.c: the launch rule of a cuda thread array (launch.h). */
#include "ctext.h"
#include "model/launch.h"

#include <string.h>

const LaunchNumbers launch_numbers = {
  .grid_max = {65535, 65535, 2147483647LL},
  .block_max = {64, 1024, 1024},
  .block_threads = 1024,
  .smem_static = 48 * 1024,
  .smem_max = 227 * 1024,
  .tile = 256,
  .transpose_edge = 64,
  .transpose_edge_wide = 32,
  .copy_tile = 32,
  .copy_rows = 8,
};

bool launch_shape(Dim *root, long long n, LaunchShape *l)
{
  memset(l, 0, sizeof *l);
  int m = dim_nkids(root);
  if (m == 1) {
    l->tiled = true;
    l->tile = n > 0 && n <= launch_numbers.block_threads ? n : launch_numbers.tile;
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
  /* "(GPUS * NG + 255) / 256": a size's own parentheses only where '+' needs them */
  const char *size = ctext_sum_operand(ctx, ctext_strip_parens(ctx, poly_str(ctx, n)));
  return ctx_printf(ctx, "(%s + %lld) / %lld", size, k - 1, k);
}
