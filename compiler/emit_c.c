/* emit_c.c: the host C target: allocation in paged, pinned and rmem memory,
 * copies between host layouts, per-thread copy loops, and #mainhost. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

void emit_c_create(Emitter *e, Node *n, Dim *d)
{
  Ctx *ctx = e->ctx;
  char *p = str_trim(ctx, fragment_text(e, n->args[0]));
  char *span = poly_text(e, dim_span(ctx, d));
  const char *elem = d->type->elem;
  if (d->type->mem == MEM_RMEM) {
    out_gen(e, n->loc, "%s%s %s[%s];\n", indent_of(n), elem, p, span);
    scope_declare(e, p);
    return;
  }
  const char *decl = "";
  if (text_is_simple(p) && !name_declared(e, p)) {
    decl = ctx_printf(ctx, "%s *", elem);
    scope_declare(e, p);
  }
  out_gen(e, n->loc, "%s%s%s = (%s *)pa_alloc_host(%s, %s, sizeof(%s), %s, %s, %d);\n", indent_of(n), decl, p,
          elem, mem_enum(d->type->mem), span, elem, c_string(ctx, n->name), c_string(ctx, ctx->opt.display),
          n->loc.line);
}

void emit_c_destroy(Emitter *e, Node *n, Dim *d)
{
  char *p = str_trim(e->ctx, fragment_text(e, n->args[0]));
  if (d->type->mem == MEM_RMEM)
    return; /* registers need no freeing */
  out_gen(e, n->loc, "%spa_free_host(%s, %s);\n", indent_of(n), mem_enum(d->type->mem), p);
}

/* ---- copies ---- */

static int digit_by_dst_stride(const void *x, const void *y)
{
  /* outermost first: larger destination strides outside */
  const CopyDigit *a = x, *b = y;
  long long sa, sb;
  if (poly_is_const(a->d, &sa) && poly_is_const(b->d, &sb))
    return (sa < sb) - (sa > sb);
  return 0;
}

void emit_copy_loop(Emitter *e, Node *n, Dim *src, const char *sp, Dim *dst, const char *dp, bool unroll)
{
  Ctx *ctx = e->ctx;
  const char *in = indent_of(n);
  const char *elem = dst->type->elem;
  int nd = 0;
  CopyDigit *dg = NULL;
  bool strided = dim_copy_digits(ctx, src, dst, &dg, &nd);
  long long total;
  bool small = poly_is_const(src->extent, &total) && total <= 64;
  const char *pragma = unroll && small ? "#pragma unroll\n" : "";
  out_gen(e, n->loc, "%s{ /* #copy %s to %s */\n", in, n->name, n->name2);
  out_gen(e, n->loc, "%s  const %s *pa_src = %s;\n", in, elem, sp);
  out_gen(e, n->loc, "%s  %s *pa_dst = %s;\n", in, elem, dp);
  if (!strided) {
    /* any two layouts: walk the logical index, offsets from the types */
    Poly *i = poly_var(ctx, "pa_i", src->extent);
    out_gen(e, n->loc, "%s%s  for (int pa_i = 0; pa_i < %s; pa_i++)\n", pragma, in, poly_text(e, src->extent));
    out_gen(e, n->loc, "%s    pa_dst[%s] = pa_src[%s];\n", in, poly_text(e, dim_offset(ctx, dst, i)),
            poly_text(e, dim_offset(ctx, src, i)));
    out_gen(e, n->loc, "%s}\n", in);
    return;
  }
  if (nd > 1)
    qsort(dg, nd, sizeof(CopyDigit), digit_by_dst_stride);
  Poly *so = poly_const(ctx, 0), *doff = poly_const(ctx, 0);
  Buf ind = {0};
  buf_puts(&ind, in);
  buf_puts(&ind, "  ");
  for (int k = 0; k < nd; k++) {
    char *var = ctx_printf(ctx, "pa_i%d", k);
    Poly *v = poly_var(ctx, var, dg[k].extent);
    so = poly_add(ctx, so, poly_mul(ctx, v, dg[k].s));
    doff = poly_add(ctx, doff, poly_mul(ctx, v, dg[k].d));
    out_gen(e, n->loc, "%s%sfor (int %s = 0; %s < %s; %s++)\n", pragma, ind.data, var, var,
            poly_text(e, dg[k].extent), var);
    buf_puts(&ind, "  ");
  }
  out_gen(e, n->loc, "%spa_dst[%s] = pa_src[%s];\n", ind.data, poly_text(e, doff), poly_text(e, so));
  out_gen(e, n->loc, "%s}\n", in);
  buf_free(&ind);
}

void emit_c_copy(Emitter *e, Node *n, Dim *src, Dim *dst)
{
  Ctx *ctx = e->ctx;
  char *sp = str_trim(ctx, fragment_text(e, n->args[0]));
  char *dp = str_trim(ctx, fragment_text(e, n->args[1]));
  const char *in = indent_of(n);
  long long x;
  if (!poly_is_const(src->extent, &x) || !poly_is_const(dst->extent, &x))
    out_gen(e, n->loc, "%spa_check_copy_extent(%s, %s, %s, %d);\n", in, poly_text(e, src->extent),
            poly_text(e, dst->extent), c_string(ctx, ctx->opt.display), n->loc.line);
  char *cs, *cd;
  if (dim_contiguous(ctx, src, &cs) == 1 && dim_contiguous(ctx, dst, &cd) == 1) {
    out_gen(e, n->loc, "%smemcpy(%s, %s, (size_t)%s * sizeof(%s));\n", in, dp, sp, poly_text(e, src->extent),
            src->type->elem);
    return;
  }
  emit_copy_loop(e, n, src, sp, dst, dp, false);
}

/* ---- #mainhost ---- */

/* #mainhost's body as `static int pa_main(int argc, char **argv)`: a
 * function body in which argc and argv are visible */
void emit_main_body(Emitter *e, Node *n)
{
  out_gen(e, n->loc, "static int pa_main(int argc, char **argv)\n{ (void)argc; (void)argv;");
  e->function_depth++;
  Scope *saved = e->scope;
  Scope s = {0};
  s.parent = saved;
  s.function = true;
  e->scope = &s;
  scope_declare(e, "argc");
  scope_declare(e, "argv");
  emit_nodes(e, n->body);
  e->scope = saved;
  scope_free(&s);
  e->function_depth--;
  Loc end = n->loc;
  for (Node *x = n->body; x; x = x->next)
    end = x->loc;
  out_gen(e, end, "%s  return 0;\n}\n\n", e->out->b.len && e->out->b.data[e->out->b.len - 1] == '\n' ? "" : "\n");
}

void emit_c_main(Emitter *e, Node *n)
{
  emit_main_body(e, n);
  out_gen(e, n->loc,
          "int main(int argc, char **argv)\n"
          "{\n"
          "  pa_init(&argc, &argv);\n"
          "  int status = pa_main(argc, argv);\n"
          "  pa_finalize();\n"
          "  return status;\n"
          "}\n");
}
