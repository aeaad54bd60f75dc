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
