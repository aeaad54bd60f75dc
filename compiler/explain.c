/* explain.c: --explain, what a type looks like: its dimension tree, offset
 * functions and, for a small 2-D type, its physical offsets. */
#include "explain.h"

static void explain_node(Ctx *ctx, Dim *d, const char *path, int depth, FILE *out)
{
  Poly *var = poly_var(ctx, "i", d->extent);
  const char *ref = "";
  if (d->ref_kind == REF_FULL)
    ref = ctx_printf(ctx, "  (= #%s)", d->ref->path);
  else if (d->ref_kind == REF_SIZED || d->ref_kind == REF_SPLIT)
    ref = ctx_printf(ctx, "  (view of #%s)", d->ref->path);
  fprintf(out, "  %*s%-*s extent %-8s off(i) = %s%s\n", depth * 2, "", 12 - depth * 2, path,
          poly_str(ctx, d->extent), poly_str(ctx, dim_offset(ctx, d, var)), ref);
  int m = dim_nkids(d);
  for (int k = 0; k < m; k++)
    explain_node(ctx, dim_kid(d, k), ctx_printf(ctx, "%s_%d", path, k), depth + 1, out);
}

void type_explain(Ctx *ctx, Dim *d, FILE *out)
{
  Type *t = d->type;
  if (t->kind != TK_NONE)
    fprintf(out, "%s: %s thread array, %s threads\n", d->path, thread_kind_name(t->kind), poly_str(ctx, d->extent));
  else
    fprintf(out, "%s: %s %s, extent %s, span %s, contiguous %s\n", d->path, mem_name(t->mem), t->elem,
            poly_str(ctx, d->extent), poly_str(ctx, dim_span(ctx, d)), ({
              char *c;
              int r = dim_contiguous(ctx, d, &c);
              r == 1 ? "yes" : r == 0 ? "no" : c ? c : "unknown";
            }));
  explain_node(ctx, d, d->path, 0, out);
  /* a 2-D type of small constant extents: its physical offsets */
  long long rows, cols;
  if (dim_nkids(d) != 2 || !poly_is_const(dim_kid(d, 0)->extent, &rows) ||
      !poly_is_const(dim_kid(d, 1)->extent, &cols) || rows > 32 || cols > 32)
    return;
  fprintf(out, "offsets of %s[r][c] (rows r = %s, columns c = %s):\n", d->path, dim_kid(d, 0)->path,
          dim_kid(d, 1)->path);
  Poly *var = poly_var(ctx, "pa_explain_i", d->extent);
  Atom *a = var->t[0].f[0];
  Poly *off = dim_offset(ctx, d, var);
  for (long long r = 0; r < rows; r++) {
    fputs("  ", out);
    for (long long c = 0; c < cols; c++) {
      long long v;
      if (poly_eval(off, a, r * cols + c, &v))
        fprintf(out, "%5lld", v);
      else
        fputs("    ?", out);
    }
    fputc('\n', out);
  }
}
