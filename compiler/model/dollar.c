/* dollar.c: C fragments as C text: $...$ translated into folded offset
 * expressions and the parameters of the current #insert replaced.  What a
 * $tid...$ means comes from the innermost detour as plain data (a
 * ThreadView), so this module, like types.c, knows nothing of the printer
 * or the targets. */
#include "ctext.h"
#include "parrayc.h"

#include <string.h>

/* ---- subprogram parameters in C text ---- */

static const char *param_text(Ctx *ctx, const char *w, size_t n)
{
  Instance *in = ctx->instance;
  if (!in)
    return NULL;
  for (int i = 0; i < in->n; i++)
    if (strlen(in->names[i]) == n && !strncmp(in->names[i], w, n))
      return in->values[i];
  return NULL;
}

/* the text with every parameter of the current #insert replaced */
char *dollar_substitute(Ctx *ctx, const char *text)
{
  if (!ctx->instance)
    return (char *)text;
  Buf b = {.ctx = ctx};
  CText c = ctext(text, NULL, 0);
  for (CTok t = ctext_next(&c); t.kind != CT_END; t = ctext_next(&c)) {
    const char *v = t.kind == CT_IDENT ? param_text(ctx, t.s, t.n) : NULL;
    if (v)
      buf_puts(&b, v);
    else
      buf_printf(&b, "%.*s", (int)t.n, t.s);
  }
  char *s = ctx_strdup(ctx, b.data ? b.data : "");
  buf_free(&b);
  return s;
}

/* Prints p, parenthesised unless it is one atom; index expressions with side effects that the offset uses other
 * than once are evaluated once into temporaries (a GNU statement
 * expression, which gcc, clang and the GPU compiler accept). */
static char *print_once(Ctx *ctx, Poly *p, int first_atom)
{
  bool wide = !poly_fits_int(p);
  Buf b = {.ctx = ctx};
  int slots = 0;
  for (Atom *a = ctx->atoms; a && a->id >= first_atom; a = a->next)
    if (a->kind == A_VAR && !a->printed && ctext_has_side_effects(a->text) && poly_count_atom(p, a) != 1)
      a->slot = slots++;
  if (slots) {
    buf_puts(&b, "__extension__ ({ ");
    for (int s = slots - 1; s >= 0; s--)
      for (Atom *a = ctx->atoms; a && a->id >= first_atom; a = a->next)
        if (a->kind == A_VAR && a->slot == s)
          buf_printf(&b, "%s pa_ix%d = (%s); ", wide ? "long long" : "int", s, a->text);
    buf_puts(&b, "(");
    poly_print(&b, p, wide);
    for (Atom *a = ctx->atoms; a && a->id >= first_atom; a = a->next)
      if (a->kind == A_VAR && a->slot >= 0 && poly_count_atom(p, a) == 0)
        buf_printf(&b, ") + 0 * (pa_ix%d", a->slot);
    buf_puts(&b, "); })");
    for (Atom *a = ctx->atoms; a && a->id >= first_atom; a = a->next)
      a->slot = -1;
  } else if (poly_is_atom(p)) {
    poly_print(&b, p, wide);
  } else {
    buf_putc(&b, '(');
    poly_print(&b, p, wide);
    buf_putc(&b, ')');
  }
  /* a $...$ nested in an index expression of another is text there: the
   * outer one must not evaluate its index expressions again */
  for (Atom *a = ctx->atoms; a && a->id >= first_atom; a = a->next)
    a->printed = true;
  char *s = ctx_strdup(ctx, b.data);
  buf_free(&b);
  return s;
}

char *dollar_poly_text(Ctx *ctx, Poly *p)
{
  return print_once(ctx, p, ctx->natoms);
}

char *dollar_poly_whole(Ctx *ctx, Poly *p)
{
  return ctext_strip_parens(ctx, print_once(ctx, p, ctx->natoms));
}

/* ---- $tid...$ ---- */

void view_known(Ctx *ctx, ThreadView *v, Dim *node, Poly *index, const char *var)
{
  KnownIndex *k = ctx_alloc(ctx, sizeof(KnownIndex) * (v->nknown + 1));
  if (v->nknown)
    memcpy(k, v->known, sizeof(KnownIndex) * v->nknown);
  k[v->nknown].node = node;
  k[v->nknown].index = index;
  k[v->nknown].var = var;
  v->known = k;
  v->nknown++;
  ctx_keep(ctx);
}

static Poly *known_index(Ctx *ctx, const KnownIndex *k)
{
  return k->index ? k->index : poly_var(ctx, k->var, k->node->extent);
}

static void give(Ctx *ctx, ThreadView *v, Poly *p)
{
  if (v->ngiven == v->given_cap) { /* doubled: a body may hold thousands */
    v->given_cap = v->given_cap ? 2 * v->given_cap : 8;
    Poly **g = ctx_alloc(ctx, sizeof(Poly *) * v->given_cap);
    if (v->ngiven)
      memcpy(g, v->given, sizeof(Poly *) * v->ngiven);
    v->given = g;
  }
  v->given[v->ngiven++] = p;
  ctx_keep(ctx); /* read at the launch */
}

/* Node d's index: digits of the index of its nearest known ancestor (or,
 * without a grid, of the first known node). */
Poly *view_index(Ctx *ctx, ThreadView *v, Dim *d)
{
  for (Dim *k = d; k; k = k->parent)
    for (int i = 0; i < v->nknown; i++)
      if (v->known[i].node == k) {
        Poly *base = known_index(ctx, &v->known[i]);
        Poly *p = k == d ? base : dim_index_of(ctx, k, d, base);
        give(ctx, v, p);
        return p;
      }
  if (v->grid || !v->nknown) {
    diag_error(ctx, v->loc, "cannot map '%s' onto %s: it is not a node of '%s' itself", d->path,
               v->grid ? v->grid : "the threads", v->type->name);
    return poly_const(ctx, 0);
  }
  Dim *k = v->known[0].node;
  Poly *p = dim_index_of(ctx, k, d, known_index(ctx, &v->known[0]));
  give(ctx, v, p);
  return p;
}

static char *tid_text(Ctx *ctx, ThreadView *here, Dx *dx)
{
  if (!here) {
    diag_error(ctx, dx->path_loc, "'$%s$' outside a detour: there is no thread index here", dx->path);
    return "0";
  }
  /* tid_1_0 names node T_1_0 of the innermost thread array */
  const char *suffix = dx->path + 3;
  Dim *d = dim_resolve(ctx, ctx_printf(ctx, "%s%s", here->type->name, suffix), dx->path_loc);
  if (!d)
    return "0";
  int first = ctx->natoms;
  Poly *p = view_index(ctx, here, d);
  return print_once(ctx, p, first);
}

/* ---- what the body uses: checked at the launch ---- */

bool view_type_outside(const Type *a, const ThreadView *v)
{
  for (const ThreadView *x = v; x; x = x->parent)
    if (a->detour == x->node)
      return true;
  return a->detour == NULL;
}

/* The innermost detour's body uses type t: its extents are checked before
 * the launch, where t is declared outside the body. */
void view_note_used(Ctx *ctx, ThreadView *v, Type *t)
{
  if (!v || t->kind != TK_NONE)
    return;
  for (int i = 0; i < v->nused; i++)
    if (v->used[i] == t)
      return;
  Type **u = ctx_alloc(ctx, sizeof(Type *) * (v->nused + 1));
  if (v->nused)
    memcpy(u, v->used, sizeof(Type *) * v->nused);
  u[v->nused++] = t;
  v->used = u;
  ctx_keep(ctx);
}

/* The one $tid...$ an index expression consists of, or NULL. */
static Node *lone_tid(Node *expr)
{
  Node *tid = NULL;
  for (Node *x = expr; x; x = x->next) {
    if (x->kind == N_DOLLAR && x->dx->kind == DX_TID && !tid)
      tid = x;
    else if (x->kind != N_TEXT || x->text[strspn(x->text, " \t\r\n")])
      return NULL;
  }
  return tid;
}

/* A thread index used alone as the index of a dimension ($A[$tid_0$][i]$)
 * usually ranges over exactly that dimension: with fewer threads part of it
 * is never touched (Fig 21's grid for N = 1000), with more the index runs
 * past its end.  Either can be meant (a guarded tail, an output buffer
 * larger than the threads), so it is a warning, where the extents are
 * constants; a tile in shared memory or registers may have spare room
 * (padding, Fig 7's [16][17]) and is not reported for it. */
static void check_thread_indices(Ctx *ctx, ThreadView *dt, Dim *d, Index *ix)
{
  if (!dt || !ix)
    return;
  while (!ix->expr && ix->nitems == 1 && ix->items[0]->expr)
    ix = ix->items[0];
  if (!ix->expr) {
    if (ix->nitems == dim_nkids(d))
      for (int k = 0; k < ix->nitems; k++)
        check_thread_indices(ctx, dt, dim_kid(d, k), ix->items[k]);
    return;
  }
  Node *tid = lone_tid(ix->expr);
  if (!tid)
    return;
  char *base;
  int *digits, nd;
  if (!type_path_split(ctx_printf(ctx, "T%s", tid->dx->path + 3), &base, &digits, &nd, ctx))
    return;
  Dim *td = dt->type->root;
  for (int k = 0; k < nd; k++) {
    if (digits[k] >= dim_nkids(td))
      return; /* reported where the $tid$ is translated */
    td = dim_kid(td, digits[k]);
  }
  long long a, b;
  MemKind m = d->type->mem;
  if (!poly_is_const(td->extent, &a) || !poly_is_const(d->extent, &b) || a == b ||
      (a < b && (m == MEM_SMEM || m == MEM_RMEM)))
    return;
  if (a < b)
    diag_warning(ctx, WARN_THREAD_EXTENT, tid->dx->path_loc, "'$%s$' takes %lld values (the extent of '%s'), but it indexes '%s', which "
                 "has %lld: %lld of its elements are never reached this way", tid->dx->path, a, td->path, d->path, b,
                 b - a);
  else
    diag_warning(ctx, WARN_THREAD_EXTENT, tid->dx->path_loc, "'$%s$' takes %lld values (the extent of '%s'), but it indexes '%s', which "
                 "has %lld: threads %lld and above index past its end unless a condition keeps them out",
                 tid->dx->path, a, td->path, d->path, b, b);
}

/* ---- $...$ and fragments ---- */

/* --explain-access: an access on the line asked about, or before it (what
 * a pointer used there was set to), in the order met */
static void note_access(Ctx *ctx, ThreadView *here, Node *n, Dim *d, Poly *off)
{
  Access *a = ctx_alloc(ctx, sizeof *a);
  *a = (Access){n->loc, d, off, here ? here->type : NULL, here ? here->node : NULL, ctx->instance, NULL};
  if (!ctx->accesses_tail)
    ctx->accesses_tail = &ctx->accesses;
  *ctx->accesses_tail = a;
  ctx->accesses_tail = &a->next;
  ctx_keep(ctx);
}

static char *dx_text(Ctx *ctx, ThreadView *here, Node *n, Dx *dx)
{
  if (dx->kind == DX_TID)
    return tid_text(ctx, here, dx);
  Dim *d = dim_resolve(ctx, dx->path, dx->path_loc);
  if (!d)
    return "0";
  view_note_used(ctx, here, d->type);
  int first = ctx->natoms;
  switch (dx->kind) {
  case DX_DIM:
    return print_once(ctx, d->extent, first);
  case DX_CNT: {
    char *c;
    int r = dim_contiguous(ctx, d, &c);
    if (r >= 0)
      return r ? "1" : "0";
    if (c)
      return ctx_printf(ctx, "(%s)", c);
    diag_error(ctx, dx->path_loc, "cannot decide '$cnt(%s)$': the layout is not strided and its sizes are not constants",
               dx->path);
    return "0";
  }
  case DX_RUN: {
    Poly *r = dim_run(ctx, d);
    return r ? print_once(ctx, r, first) : "0";
  }
  case DX_INDEX: {
    if (d->type->kind != TK_NONE && !dim_thread_type(ctx, d)) {
      diag_error(ctx, dx->path_loc, "'%s' is a thread array: index it with '$tid$', not '$%s[...]$'", dx->path,
                 dx->path);
      return "0";
    }
    check_thread_indices(ctx, here, d, dx->index);
    Poly *p = dim_eval(ctx, d, dx->index, here);
    if (p && ctx->opt.access_line && n->loc.line <= ctx->opt.access_line)
      note_access(ctx, here, n, d, p);
    return p ? print_once(ctx, p, first) : "0";
  }
  default:
    return "0";
  }
}

/* A $...$ the parser kept only as where it is is read again (into the
 * walk's scratch region for it, where there is one). */
char *dollar_text(Ctx *ctx, ThreadView *here, Node *n)
{
  Dx *dx = n->dx ? n->dx : parse_dollar(ctx, n);
  return dx ? dx_text(ctx, here, n, dx) : "0";
}

char *dollar_fragment_text(Ctx *ctx, ThreadView *here, Node *list)
{
  Buf b = {.ctx = ctx};
  for (Node *n = list; n; n = n->next) {
    if (n->kind == N_DOLLAR) {
      if (n->text)
        buf_puts(&b, n->text); /* the blanks before the '$' */
      buf_puts(&b, dollar_text(ctx, here, n));
    }
    else if (n->kind == N_TEXT)
      buf_puts(&b, dollar_substitute(ctx, n->text));
  }
  char *s = ctx_strdup(ctx, b.data ? b.data : "");
  buf_free(&b);
  return s;
}
