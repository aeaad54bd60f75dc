/* hostc.c: host C shared by the backends: the per-thread copy loop, the
 * frame of pa_main, outlined detour bodies, the runtime's memory names. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

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
  buf_free(&s.text);
  e->function_depth--;
  Loc end = n->loc;
  for (Node *x = n->body; x; x = x->next)
    end = x->loc;
  out_gen(e, end, "%s  return 0;\n}\n\n", e->out->b.len && e->out->b.data[e->out->b.len - 1] == '\n' ? "" : "\n");
}

/* ---- helpers the backends share ---- */

/* Translates the body of detour n over thread array t (whose linear index
 * is tid_var) for an outlined function named fname; returns its text,
 * shifted left by the directive's indentation. */
char *outline_detour(Emitter *e, Node *n, Type *t, const char *fname, const char *tid_var)
{
  Detour dt = {0};
  dt.node = n;
  dt.type = t;
  dt.parent = e->detour;
  dt.name = fname;
  dt.tid = tid_linear;
  dt.tid_var = tid_var;
  Out body = {{0}, -1, 0};
  emit_outlined(e, &dt, n->body, &body, t->pnames, t->nparams, "");
  char *text = dedent_body(e->ctx, tidy_body(e->ctx, body.b.data ? body.b.data : ""), strlen(indent_of(n)));
  out_free(&body);
  return text;
}

const char *mem_enum(MemKind m)
{
  static const char *names[] = {"PA_PAGED", "PA_PAGED", "PA_PINNED", "PA_DMEM", "PA_SMEM", "PA_RMEM"};
  return names[m];
}
