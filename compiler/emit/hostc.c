/* hostc.c: what two backends print alike: the per-thread copy loop, the
 * frame of pa_main, outlined detour bodies, the runtime's memory names,
 * the loop nest of a distributed copy and its staging through the host
 * (whose GPU side the GPU target prints: Backend.stage_out, stage_in). */
#include "print/capture.h"
#include "ctext.h"
#include "emit/hostc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char *hostc_mem_enum(MemKind m)
{
  static const char *names[] = {"PA_PAGED", "PA_PAGED", "PA_PINNED", "PA_DMEM", "PA_SMEM", "PA_RMEM"};
  return names[m];
}

/* ---- copies ---- */

void hostc_copy_loop(Emitter *e, Node *n, const CopyPlan *p, const char *kernel_check)
{
  bool unroll = kernel_check;
  Ctx *ctx = e->ctx;
  Dim *src = p->src, *dst = p->dst;
  const char *in = text_indent_of(n);
  const char *elem = dst->type->elem;
  long long total;
  bool small = poly_is_const(src->extent, &total) && total <= 64;
  bool pragma = unroll && small; /* #pragma unroll before each loop, indented with it */
  /* bounds and indices stand alone (after '<', between brackets): no parentheses */
  out_gen(e->out, n->loc, "%s{ /* #copy %s to %s */\n", in, n->name, n->name2);
  if (p->check_extent) {
    /* inside the block: a copy guarded by 'if (pa_rank == 0)' is one statement */
    const char *s = poly_str(ctx, src->extent), *d = poly_str(ctx, dst->extent);
    const char *at = ctx_printf(ctx, "%s, %d", text_c_string(ctx, text_loc_file(ctx, n->loc)), text_loc_line(ctx, n->loc));
    if (unroll) /* in a kernel: prints and traps */
      out_gen(e->out, n->loc, "%s  %s(%s, %s, %s);\n", in, kernel_check, s, d, at);
    else
      out_gen(e->out, n->loc, "%s  if (%s != %s)\n%s    pa_check_copy_extent(%s, %s, %s);\n", in, s, d, in, s, d, at);
  }
  out_gen(e->out, n->loc, "%s  const %s *pa_src = %s;\n", in, elem, p->sp);
  out_gen(e->out, n->loc, "%s  %s *pa_dst = %s;\n", in, elem, p->dp);
  if (p->how != COPY_NEST) {
    /* any two layouts: walk the logical index, offsets from the types */
    Poly *i = poly_var(ctx, "pa_i", src->extent);
    if (pragma)
      out_gen(e->out, n->loc, "%s  #pragma unroll\n", in);
    out_gen(e->out, n->loc, "%s  for (%s pa_i = 0; pa_i < %s; pa_i++)\n", in, index_type(src->extent),
            poly_str(ctx, src->extent));
    out_gen(e->out, n->loc, "%s    pa_dst[%s] = pa_src[%s];\n", in, poly_str(ctx, dim_offset(ctx, dst, i)),
            poly_str(ctx, dim_offset(ctx, src, i)));
    out_gen(e->out, n->loc, "%s}\n", in);
    return;
  }
  CopyDigit *dg = copy_loop_order(ctx, p->dg, p->nd);
  Poly *so = poly_const(ctx, 0), *doff = poly_const(ctx, 0);
  Buf ind = {.ctx = ctx};
  buf_puts(&ind, in);
  buf_puts(&ind, "  ");
  for (int k = 0; k < p->nd; k++) {
    char *var = ctx_printf(ctx, "pa_i%d", k);
    Poly *v = poly_var(ctx, var, dg[k].extent);
    so = poly_add(ctx, so, poly_mul(ctx, v, dg[k].s));
    doff = poly_add(ctx, doff, poly_mul(ctx, v, dg[k].d));
    if (pragma)
      out_gen(e->out, n->loc, "%s#pragma unroll\n", ind.data);
    out_gen(e->out, n->loc, "%sfor (%s %s = 0; %s < %s; %s++)\n", ind.data, index_type(dg[k].extent), var, var,
            poly_str(ctx, dg[k].extent), var);
    buf_puts(&ind, "  ");
  }
  out_gen(e->out, n->loc, "%spa_dst[%s] = pa_src[%s];\n", ind.data, poly_str(ctx, doff), poly_str(ctx, so));
  out_gen(e->out, n->loc, "%s}\n", in);
  buf_free(&ind);
}

/* ---- run-time checks of what parrayc could not decide ---- */

/* The types a check reaches, each once, in the order a depth-first walk
 * meets them; found without recursion and without copying the list, so
 * that a chain of 100,000 views (each referencing the last) costs linear
 * time and memory and no stack. */
typedef struct Reach {
  const Ctx *ctx; /* where running out of memory is reported */
  Type **list;
  int n, cap;
  Map seen;
  Dim **stack;
  int depth, room;
} Reach;

static void reach_push(Reach *r, Dim *d)
{
  if (r->depth == r->room)
    r->stack = util_realloc(r->ctx, r->stack, sizeof *r->stack * (size_t)(r->room = r->room ? 2 * r->room : 64));
  r->stack[r->depth++] = d;
}

/* Adds t unless it is there: whether it was new */
static bool reach_new(Reach *r, Type *t)
{
  unsigned long h = map_ptr_hash(t);
  if (map_get(&r->seen, h, map_is_key, t))
    return false;
  map_put(r->ctx, &r->seen, h, t);
  if (r->n == r->cap)
    r->list = util_realloc(r->ctx, r->list, sizeof *r->list * (size_t)(r->cap = r->cap ? 2 * r->cap : 16));
  r->list[r->n++] = t;
  return true;
}

/* t, if new, and the types its references lead to */
static void reach_type(Reach *r, Type *t)
{
  if (!reach_new(r, t))
    return;
  int base = r->depth;
  reach_push(r, t->root);
  while (r->depth > base) {
    Dim *d = r->stack[--r->depth];
    for (int k = d->nkids; k-- > 0;)
      reach_push(r, d->kids[k]);
    /* a node's referenced type, all of it, before the node's children,
     * as a recursive walk meets them: pushed last, taken first */
    if (d->ref && reach_new(r, d->ref->type))
      reach_push(r, d->ref->type->root);
  }
}

static void reach_free(Reach *r)
{
  free(r->list);
  free(r->stack);
  map_free(&r->seen);
}

/* The run-time checks of the extents of the types in list, as lines of C
 * starting with indent. */
static void type_checks(Emitter *e, Type **list, int n, const char *indent, Buf *b)
{
  Ctx *ctx = e->ctx;
  for (int i = 0; i < n; i++) {
    ExtentCheck *c;
    int nc = type_extent_checks(ctx, list[i], &c);
    for (int k = 0; k < nc; k++)
      buf_printf(b, "%spa_check_extent(%s, %s, %d, %s, %s, %s, %d);\n", indent, poly_str(ctx, c[k].have),
                 poly_str(ctx, c[k].want), c[k].exact, text_c_string(ctx, c[k].d->path),
                 text_c_string(ctx, c[k].d->ref->path), text_c_string(ctx, text_loc_file(ctx, c[k].d->loc)), text_loc_line(ctx, c[k].d->loc));
  }
}

/* Checks before a #create or #copy of t: outside detours, and inside a
 * host detour for the types its body declares (the others are checked at
 * the launch); nothing inside a kernel. */
void hostc_type_checks(Emitter *e, Node *n, Type *t)
{
  if (backend_in_kernel(e, e->detour))
    return;
  if (e->detour && view_type_outside(t, e->detour->view.parent) && t->detour != e->detour->node)
    return;
  Reach r = {.ctx = e->ctx};
  reach_type(&r, t);
  Buf b = {.ctx = e->ctx};
  type_checks(e, r.list, r.n, text_indent_of(n), &b);
  reach_free(&r);
  if (b.len)
    out_gen(e->out, n->loc, "%s", b.data);
  buf_free(&b);
}

void hostc_check_at_launch(Emitter *e, Detour *dt, const char *stmt)
{
  for (int i = 0; i < dt->nchecks; i++)
    if (!strcmp(dt->checks[i], stmt))
      return;
  const char **c = ctx_alloc(e->ctx, sizeof(char *) * (dt->nchecks + 1));
  if (dt->nchecks)
    memcpy(c, dt->checks, sizeof(char *) * dt->nchecks);
  c[dt->nchecks++] = stmt;
  dt->checks = c;
}

void hostc_launch_checks(Emitter *e, Node *n, Detour *dt)
{
  Reach r = {.ctx = e->ctx};
  reach_type(&r, dt->type);
  for (int i = 0; i < dt->view.nused; i++)
    if (view_type_outside(dt->view.used[i], here(e)))
      reach_type(&r, dt->view.used[i]);
  Buf b = {.ctx = e->ctx};
  const char *in = text_indent_of(n);
  type_checks(e, r.list, r.n, in, &b);
  reach_free(&r);
  for (int i = 0; i < dt->nchecks; i++)
    buf_printf(&b, "%s%s\n", in, dt->checks[i]);
  if (b.len)
    out_gen(e->out, n->loc, "%s", b.data);
  buf_free(&b);
}

/* The sizes only the program knows among the factors of span, each with
 * the highest power it has in a term, and the sum of the coefficients'
 * magnitudes: with every size >= 1, span <= bound * prod size^power. */
static int span_sizes(Ctx *ctx, Poly *span, Atom ***atoms, int **powers, long long *bound)
{
  int cap = 0, n = 0;
  for (int i = 0; i < span->n; i++)
    cap += span->t[i].nf;
  *atoms = ctx_alloc(ctx, sizeof(Atom *) * (cap + 1));
  *powers = ctx_alloc(ctx, sizeof(int) * (cap + 1));
  *bound = 0;
  for (int i = 0; i < span->n; i++) {
    Term *t = &span->t[i];
    long long c = t->coef < 0 ? (t->coef == LLONG_MIN ? LLONG_MAX : -t->coef) : t->coef;
    if (__builtin_add_overflow(*bound, c, bound))
      *bound = LLONG_MAX;
    for (int k = 0; k < t->nf; k++) {
      Atom *a = t->f[k];
      if (a->kind != A_SYM)
        continue;
      int power = 0, j = 0;
      for (int m = 0; m < t->nf; m++)
        power += t->f[m] == a;
      while (j < n && (*atoms)[j] != a)
        j++;
      if (j == n) {
        (*atoms)[n] = a;
        (*powers)[n++] = 0;
      }
      if (power > (*powers)[j])
        (*powers)[j] = power;
    }
  }
  return n;
}

/* Is elem spelled with C's own type words only ("unsigned int", "float4",
 * "size_t")?  Other names (typedefs, structs, typos) are worth a check. */
static bool plain_c_type(const char *elem)
{
  static const char *const words[] = {"char", "short", "int", "long", "float", "double", "signed", "unsigned",
                                      "const", "volatile", "_Bool", "bool", "half", NULL};
  CText c = ctext(elem, NULL, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c)) {
    if (t.kind != CT_IDENT)
      continue;
    const char *w = t.s;
    size_t n = t.n;
    if (n > 2 && w[n - 2] == '_' && w[n - 1] == 't')
      continue; /* size_t, int32_t */
    while (n > 0 && w[n - 1] >= '0' && w[n - 1] <= '9')
      n--; /* float4, int2 */
    bool known = false;
    for (int i = 0; words[i] && !known; i++)
      known = strlen(words[i]) == n && !strncmp(w, words[i], n);
    if (!known)
      return false;
  }
  return true;
}

/* The span of d for #create, computed in 64 bits, after (when sizes only
 * the program knows enter it) a run-time check that each such size is
 * positive and the span fits: a clear error naming n's line rather than a
 * wrapped-around allocation. */
char *hostc_checked_span(Emitter *e, Node *n, Dim *d)
{
  Ctx *ctx = e->ctx;
  Poly *span = dim_span(ctx, d);
  Atom **atoms;
  int *powers;
  long long bound;
  int k = span_sizes(ctx, span, &atoms, &powers, &bound);
  /* a misspelt element type is reported at the #parray, not here */
  if (!plain_c_type(d->type->elem))
    out_gen(e->out, d->type->loc, "%s(void)sizeof(%s);\n", text_indent_of(n), d->type->elem);
  if (k == 0)
    return dollar_poly_whole(ctx, span);
  Buf b = {.ctx = ctx};
  buf_printf(&b, "%spa_check_sizes(%s, %s, %d, %lldLL, %d", text_indent_of(n), text_c_string(ctx, d->path),
             text_c_string(ctx, text_loc_file(ctx, n->loc)), text_loc_line(ctx, n->loc), bound, k);
  for (int i = 0; i < k; i++) {
    buf_printf(&b, ", %s, ", text_c_string(ctx, atoms[i]->text));
    if (poly_size_overflows(atoms[i])) /* "n * n": (long long)n * (long long)n */
      print_wide_text(&b, atoms[i]->text, false);
    else
      buf_printf(&b, util_text_is_simple(atoms[i]->text) ? "(long long)%s" : "(long long)(%s)", atoms[i]->text);
    buf_printf(&b, ", %d", powers[i]);
  }
  buf_puts(&b, ");\n");
  /* under the #parray's line: a size the C compiler rejects (an undeclared
   * variable) is reported where it was written */
  out_gen(e->out, d->type->loc, "%s", b.data);
  buf_free(&b);
  poly_print(&b, span, true);
  char *text = ctx_strdup(ctx, b.data);
  buf_free(&b);
  /* macros only, whose values parrayc knew (or not) fit int: the offsets
   * are int, right only while the values the C compiler sees fit too */
  if (poly_fits_int(span))
    out_gen(e->out, n->loc, "%spa_check_int_span(%s, %s, %d, %s);\n", text_indent_of(n), text_c_string(ctx, d->path),
            text_c_string(ctx, text_loc_file(ctx, n->loc)), text_loc_line(ctx, n->loc), text);
  return text;
}

/* ---- #mainhost ---- */

/* Does C text in body (at any depth) use identifier name? */
static bool body_mentions(Node *body, const char *name)
{
  for (Node *x = body; x; x = x->next)
    if ((x->kind == N_TEXT && x->text && text_mentions(x->text, name)) || body_mentions(x->body, name))
      return true;
  return false;
}

/* Does body end in a return statement of its own (not one inside an if or
 * a block)?  after: body's last directive (NULL: none); only the text
 * after it is read. */
static bool ends_in_return(Node *body, Node *after)
{
  Node *last = after;
  for (Node *x = after ? after->next : body; x; x = x->next) {
    CText c = ctext(x->text ? x->text : "", NULL, CT_DIRECTIVES);
    if (ctext_code(&c).kind != CT_END)
      last = x;
  }
  if (!last || last->kind != N_TEXT || !last->text)
    return false;
  CText c = ctext(last->text, NULL, CT_DIRECTIVES);
  CTok first = {CT_END, "", 0, false}, prev = first;
  bool start = true;
  for (CTok t = ctext_code(&c); t.kind != CT_END; prev = t, t = ctext_code(&c)) {
    if (start)
      first = t;
    start = ctok_is(t, ';') || ctok_is(t, '{') || ctok_is(t, '}');
  }
  return ctok_is(prev, ';') && ctok_word(first, "return");
}

void hostc_main_head(Emitter *e, Node *n)
{
  out_gen(e->out, n->loc, "static int pa_main(int argc, char **argv)\n{");
  /* pa_main's parameters are the program's: unused, they would warn (a
   * name the whole input never spells needs no walk of the body) */
  const char *src = e->ctx->src ? e->ctx->src : "";
  if (!strstr(src, "argc") || !body_mentions(n->body, "argc"))
    out_gen(e->out, n->loc, "\n  (void)argc;");
  if (!strstr(src, "argv") || !body_mentions(n->body, "argv"))
    out_gen(e->out, n->loc, "\n  (void)argv;");
}

void hostc_main_tail(Emitter *e, Node *n)
{
  Loc end = n->loc;
  Node *last_directive = NULL;
  for (Node *x = n->body; x; x = x->next) {
    end = x->loc;
    if (x->kind != N_TEXT)
      last_directive = x;
  }
  const char *nl = out_at_bol(e->out) && e->out->b.len ? "" : "\n";
  if (ends_in_return(n->body, last_directive))
    out_gen(e->out, end, "%s}\n\n", nl);
  else
    out_gen(e->out, end, "%s  return 0;\n}\n\n", nl);
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
  dt->view.node = n;
  dt->view.parent = here(e);
  dt->view.loc = n->loc;
  view_known(e->ctx, &dt->view, t->root, NULL, tid_var);
  return dt;
}

char *hostc_outlined(Ctx *ctx, Node *n, Out *body)
{
  return text_dedent(ctx, text_tidy_body(ctx, body->b.data ? body->b.data : ""), n->text ? n->text : "", true);
}

void hostc_side_nest(Emitter *e, Node *n, CopySide *s, bool own, bool locals, const char *cond, const char *stmt,
                     const char *rank)
{
  Ctx *ctx = e->ctx;
  Buf ind = {.ctx = ctx};
  buf_printf(&ind, "%s  ", text_indent_of(n));
  if (cond) {
    out_gen(e->out, n->loc, "%sif (%s)\n", ind.data, cond);
    buf_puts(&ind, "  ");
  }
  /* this process's elements: fix the process digits first */
  for (int pass = own ? 0 : 1; pass < 2; pass++) {
    for (int k = 0; k < s->n; k++) {
      SideDigit *g = &s->dg[k];
      bool here = own ? (pass == 0) == g->proc : (g->proc || locals);
      if (!here || (!g->proc && !locals))
        continue;
      const char *v = g->var->t[0].f[0]->text;
      out_gen(e->out, n->loc, "%sfor (%s %s = 0; %s < %s; %s++)\n", ind.data, index_type(g->extent), v, v,
              dollar_poly_whole(e->ctx, g->extent), v);
      buf_puts(&ind, "  ");
    }
    if (own && pass == 0) {
      out_gen(e->out, n->loc, "%sif (%s == %s)\n", ind.data, dollar_poly_whole(e->ctx, copy_side_owner(ctx, s, NULL, true)), rank);
      buf_puts(&ind, "  ");
    }
  }
  out_gen(e->out, n->loc, "%s%s;\n", ind.data, stmt);
  buf_free(&ind);
}

char *hostc_block_bytes(Ctx *ctx, Dim *d)
{
  Poly *span = dim_span(ctx, d);
  long long known;
  if (poly_is_const(span, &known))
    return ctx_printf(ctx, "(pa_size_t)%lld * sizeof(%s)", known, d->type->elem);
  Buf b = {.ctx = ctx};
  poly_print(&b, span, true); /* in long long: a block of 2^31 elements and more */
  char *s = ctx_printf(ctx, span->n > 1 ? "(pa_size_t)(%s) * sizeof(%s)" : "(pa_size_t)%s * sizeof(%s)", b.data,
                       d->type->elem);
  buf_free(&b);
  return s;
}

bool hostc_written_whole(Ctx *ctx, CopySide *s)
{
  if (!s->procs || !poly_equal(dim_span(ctx, s->dim), s->local))
    return false;
  /* every process holds a part (not [2 #P] of 4, not one axis of a grid):
   * a process that holds none keeps its block as it was */
  Poly *held = poly_const(ctx, 1);
  for (int k = 0; k < s->n; k++)
    if (s->dg[k].proc)
      held = poly_mul(ctx, held, s->dg[k].extent);
  return poly_equal(held, s->procs->root->extent);
}

void hostc_stage_open(Emitter *e, Node *n, const CopyPlan *p, const char *sp, const char *dp, char **bytes)
{
  Ctx *ctx = e->ctx;
  const char *in = text_indent_of(n), *elem = p->dst->type->elem;
  const char *at = ctx_printf(ctx, "%s, %d", text_c_string(ctx, text_loc_file(ctx, n->loc)), text_loc_line(ctx, n->loc));
  if (p->via_host[0])
    out_gen(e->out, n->loc, "%s  const %s *pa_src = (const %s *)%s;\n", in, elem, elem,
            e->gpu->stage_out(e, sp, bytes[0], at));
  else
    out_gen(e->out, n->loc, "%s  const %s *pa_src = %s;\n", in, elem, sp);
  /* the whole block goes back: it is read first unless the copy writes
   * all of it (a distributed block without padding or other chunks) */
  if (p->via_host[1])
    out_gen(e->out, n->loc, "%s  %s *pa_dst = (%s *)%s;\n", in, elem, elem,
            e->gpu->stage_out(e, hostc_written_whole(ctx, (CopySide *)&p->side[1]) ? "PA_NULL" : dp, bytes[1], at));
  else
    out_gen(e->out, n->loc, "%s  %s *pa_dst = %s;\n", in, elem, dp);
}

void hostc_stage_close(Emitter *e, Node *n, const CopyPlan *p, const char *dp, char **bytes)
{
  Ctx *ctx = e->ctx;
  const char *in = text_indent_of(n);
  const char *at = ctx_printf(ctx, "%s, %d", text_c_string(ctx, text_loc_file(ctx, n->loc)), text_loc_line(ctx, n->loc));
  if (p->via_host[0])
    out_gen(e->out, n->loc, "%s  %s\n", in, e->gpu->stage_in(e, "PA_NULL", "(void *)pa_src", "0", at));
  if (p->via_host[1])
    out_gen(e->out, n->loc, "%s  %s\n", in, e->gpu->stage_in(e, dp, "pa_dst", bytes[1], at));
}

void hostc_pin_named(Emitter *e, const char *decl)
{
  if (capture_decl_names(decl))
    out_pin(e->out);
}
