/* c.c: the host C target: allocation in paged, pinned and rmem memory,
 * copies between host layouts, and #mainhost. */
#include "emit/hostc.h"
#include "targets/all.h"

#include <stdlib.h>
#include <string.h>

static void create(Emitter *e, Node *n, Dim *d)
{
  Ctx *ctx = e->ctx;
  char *p = util_str_trim(ctx, frag_text(e, n->args[0]));
  char *span = hostc_checked_span(e, n, d);
  const char *elem = d->type->elem;
  if (d->type->mem == MEM_RMEM) {
    /* a size only the run knows, or a large one: a local array would
     * fault past the thread's stack without a word */
    long long count;
    bool kernel = backend_in_kernel(e, e->detour); /* a GPU thread's local memory: not the host's stack */
    if (!kernel && (!poly_is_const(dim_span(ctx, d), &count) || count > 4096))
      out_gen(e->out, n->loc, "%spa_check_rmem(%s, sizeof(%s), %s, %s, %d);\n", text_indent_of(n), span, elem,
              text_c_string(ctx, n->name), text_c_string(ctx, text_loc_file(ctx, n->loc)), text_loc_line(ctx, n->loc));
    out_gen(e->out, n->loc, "%s%s %s[%s];\n", text_indent_of(n), elem, p, span);
    scope_declare_as(e->ctx, e->scope, p, ctx_printf(ctx, "%s %s[%s]", elem, p, span));
    return;
  }
  const char *decl = "";
  if (util_text_is_simple(p) && !scope_name_declared(e->ctx, e->scope, p)) {
    decl = ctx_printf(ctx, "%s *", elem);
    scope_declare_as(e->ctx, e->scope, p, ctx_printf(ctx, "%s%s", decl, p));
  }
  out_gen(e->out, n->loc, "%s%s%s = (%s *)pa_alloc_host(%s, %s, sizeof(%s), %s, %s, %d);\n", text_indent_of(n), decl, p,
          elem, hostc_mem_enum(d->type->mem), span, elem, text_c_string(ctx, n->name), text_c_string(ctx, text_loc_file(ctx, n->loc)),
          text_loc_line(ctx, n->loc));
}

static void destroy(Emitter *e, Node *n, Dim *d)
{
  char *p = util_str_trim(e->ctx, frag_text(e, n->args[0]));
  if (d->type->mem == MEM_RMEM)
    return; /* registers need no freeing */
  /* the line goes with it: a block destroyed twice is reported there */
  out_gen(e->out, n->loc, "%spa_destroy_host(%s, %s, %s, %s, %d);\n", text_indent_of(n), hostc_mem_enum(d->type->mem), p,
          text_c_string(e->ctx, n->name), text_c_string(e->ctx, text_loc_file(e->ctx, n->loc)),
          text_loc_line(e->ctx, n->loc));
}

/* ---- copies between host layouts ---- */

static void copy(Emitter *e, Node *n, const CopyPlan *p)
{
  Ctx *ctx = e->ctx;
  const char *in = text_indent_of(n);
  if (p->check_extent)
    out_gen(e->out, n->loc, "%spa_check_copy_extent(%s, %s, %s, %d);\n", in, poly_str(ctx, p->src->extent),
            poly_str(ctx, p->dst->extent), text_c_string(ctx, text_loc_file(ctx, n->loc)), text_loc_line(ctx, n->loc));
  if (p->how == COPY_BLOCK) {
    out_gen(e->out, n->loc, "%spa_memcpy(%s, %s, (pa_size_t)%s * sizeof(%s));\n", in, p->dp, p->sp,
            dollar_poly_text(ctx, p->src->extent), p->src->type->elem);
    return;
  }
  CopyPlan loop = *p;
  loop.check_extent = false; /* checked above */
  hostc_copy_loop(e, n, &loop, NULL);
}

/* ---- #mainhost ---- */

static void main_close(Emitter *e, Node *n)
{
  hostc_main_tail(e, n);
  out_gen(e->out, n->loc,
          "int main(int argc, char **argv)\n"
          "{\n"
          "  pa_init(&argc, &argv);\n"
          "  int status = pa_main(argc, argv);\n"
          "  pa_finalize();\n"
          "  return status;\n"
          "}\n");
}

static bool needed(const Ctx *ctx)
{
  (void)ctx;
  return true;
}

const Backend backend_c = {
  .name = "c",
  .include = "parray.h",
  .needed = needed, /* the first of the list: it takes what no other takes */
  .create = create,
  .destroy = destroy,
  .copy = copy,
  .main_open = hostc_main_head,
  .main_close = main_close,
};
