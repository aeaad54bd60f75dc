/* hostc.c: host C shared by the backends: the per-thread copy loop, the
 * frame of pa_main, outlined detour bodies, the runtime's memory names. */
#include "hostc.h"

#include <string.h>

const char *mem_enum(MemKind m)
{
  static const char *names[] = {"PA_PAGED", "PA_PAGED", "PA_PINNED", "PA_DMEM", "PA_SMEM", "PA_RMEM"};
  return names[m];
}

/* ---- copies ---- */

void hostc_copy_loop(Emitter *e, Node *n, const CopyPlan *p, bool unroll)
{
  Ctx *ctx = e->ctx;
  Dim *src = p->src, *dst = p->dst;
  const char *in = indent_of(n);
  const char *elem = dst->type->elem;
  long long total;
  bool small = poly_is_const(src->extent, &total) && total <= 64;
  const char *pragma = unroll && small ? "#pragma unroll\n" : "";
  out_gen(e->out, n->loc, "%s{ /* #copy %s to %s */\n", in, n->name, n->name2);
  out_gen(e->out, n->loc, "%s  const %s *pa_src = %s;\n", in, elem, p->sp);
  out_gen(e->out, n->loc, "%s  %s *pa_dst = %s;\n", in, elem, p->dp);
  if (p->how != COPY_NEST) {
    /* any two layouts: walk the logical index, offsets from the types */
    Poly *i = poly_var(ctx, "pa_i", src->extent);
    out_gen(e->out, n->loc, "%s%s  for (int pa_i = 0; pa_i < %s; pa_i++)\n", pragma, in, poly_text(ctx, src->extent));
    out_gen(e->out, n->loc, "%s    pa_dst[%s] = pa_src[%s];\n", in, poly_text(ctx, dim_offset(ctx, dst, i)),
            poly_text(ctx, dim_offset(ctx, src, i)));
    out_gen(e->out, n->loc, "%s}\n", in);
    return;
  }
  CopyDigit *dg = copy_loop_order(ctx, p->dg, p->nd);
  Poly *so = poly_const(ctx, 0), *doff = poly_const(ctx, 0);
  Buf ind = {0};
  buf_puts(&ind, in);
  buf_puts(&ind, "  ");
  for (int k = 0; k < p->nd; k++) {
    char *var = ctx_printf(ctx, "pa_i%d", k);
    Poly *v = poly_var(ctx, var, dg[k].extent);
    so = poly_add(ctx, so, poly_mul(ctx, v, dg[k].s));
    doff = poly_add(ctx, doff, poly_mul(ctx, v, dg[k].d));
    out_gen(e->out, n->loc, "%s%sfor (int %s = 0; %s < %s; %s++)\n", pragma, ind.data, var, var,
            poly_text(ctx, dg[k].extent), var);
    buf_puts(&ind, "  ");
  }
  out_gen(e->out, n->loc, "%spa_dst[%s] = pa_src[%s];\n", ind.data, poly_text(ctx, doff), poly_text(ctx, so));
  out_gen(e->out, n->loc, "%s}\n", in);
  buf_free(&ind);
}

/* ---- #mainhost ---- */

void hostc_main_head(Emitter *e, Node *n)
{
  out_gen(e->out, n->loc, "static int pa_main(int argc, char **argv)\n{ (void)argc; (void)argv;");
}

void hostc_main_tail(Emitter *e, Node *n)
{
  Loc end = n->loc;
  for (Node *x = n->body; x; x = x->next)
    end = x->loc;
  out_gen(e->out, end, "%s  return 0;\n}\n\n", out_at_bol(e->out) && e->out->b.len ? "" : "\n");
}

/* ---- detours outlined as host functions ---- */

Detour *hostc_detour(Emitter *e, Node *n, Type *t, const char *fname, const char *tid_var, size_t size)
{
  Detour *dt = ctx_alloc(e->ctx, size);
  dt->node = n;
  dt->type = t;
  dt->parent = e->detour;
  dt->name = fname;
  dt->body_line = -1;
  dt->view.type = t;
  dt->view.loc = n->loc;
  view_known(e->ctx, &dt->view, t->root, NULL, tid_var);
  return dt;
}

char *hostc_outlined(Ctx *ctx, Node *n, Out *body)
{
  return dedent(ctx, tidy_body(ctx, body->b.data ? body->b.data : ""), indent_of(n), true);
}
