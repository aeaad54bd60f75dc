/* copy_plan.c: the target-independent half of #copy.  From the two
 * dimension trees, their memory kinds and the detour the copy stands in, it
 * decides who runs the copy and by which mechanism; the backends only print
 * the plan.
 *
 * Symbolic sizes: when both sides are strided views whose digits line up
 * (dim_copy_digits), a loop nest or a kernel over the digits is planned
 * whatever the sizes; when they do not line up at translation time, which
 * with symbolic extents happens whenever a split cannot be proven to divide
 * (types.c, truncate_view/divides_exactly), the plan falls back to
 * COPY_ELEMENTS, one element per logical index with offsets that divide and
 * take remainders.  When they line up only if such sizes divide each other
 * (N by 32 for [N][N] against [[N/32][32]][N]), the plan keeps the nest (or
 * the rows, or the transpose kernel) under that run-time condition, with
 * the element plan as its fallback (guarded, below). */
#include "model/copy_plan.h"
#include "model/launch.h"

#include <stdlib.h>
#include <string.h>

bool copy_on_gpu(const Dim *d)
{
  MemKind m = d->type->mem;
  return m == MEM_DMEM || m == MEM_SMEM;
}


CopyBy copy_by(const Ctx *ctx, const CopySite *site)
{
  Dim *s = site->src, *d = site->dst;
  bool gpu = copy_on_gpu(s) || copy_on_gpu(d);
  /* distributed data, or any data in an mpi body (process 0's arrays,
   * this process's own memory: plan_processes tells them apart) */
  if (dim_distributed_over(ctx, s) || dim_distributed_over(ctx, d) || (site->detour && site->detour->kind == TK_MPI))
    return COPY_BY_PROCESSES;
  /* a host thread of a pthd or omp body drives its GPU as the host does */
  if (site->detour && gpu && (site->detour->kind == TK_PTHD || site->detour->kind == TK_OMP))
    return COPY_BY_DEVICE;
  if (site->detour)
    return COPY_BY_THREAD;
  return gpu ? COPY_BY_DEVICE : COPY_BY_HOST;
}

static int by_dst_stride(const void *x, const void *y)
{
  /* outermost first: larger destination strides outside; where a stride is
   * symbolic (N, ld), at least the digit of unit stride goes inside (a
   * column-major pair's first digit: the loops had walked it outermost) */
  const CopyDigit *a = x, *b = y;
  long long sa, sb;
  if (poly_is_const(a->d, &sa) && poly_is_const(b->d, &sb))
    return (sa < sb) - (sa > sb);
  return poly_is_value(a->d, 1) - poly_is_value(b->d, 1);
}

CopyDigit *copy_loop_order(Ctx *ctx, const CopyDigit *dg, int nd)
{
  CopyDigit *sorted = ctx_alloc(ctx, sizeof(CopyDigit) * (nd + 1));
  if (nd)
    memcpy(sorted, dg, sizeof(CopyDigit) * nd);
  if (nd > 1)
    qsort(sorted, nd, sizeof(CopyDigit), by_dst_stride);
  return sorted;
}

char *copy_guard_text(Ctx *ctx, const CopyPlan *p)
{
  Buf b = {.ctx = ctx};
  for (int k = 0; k < p->nguard; k++) {
    CopyCond *c = &p->guard[k];
    const char *and = k ? " && " : "";
    if (c->equal) {
      buf_printf(&b, "%s%s == %s", and, poly_str(ctx, c->a), poly_str(ctx, c->b));
      continue;
    }
    /* a divisor that may be 0 is tested first: x % 0 is undefined */
    if (!poly_provably_less(ctx, poly_const(ctx, 0), c->b))
      buf_printf(&b, "%s%s != 0", and, poly_str(ctx, c->b)), and = " && ";
    buf_printf(&b, "%s%s == 0", and, poly_str(ctx, poly_mod(ctx, c->a, c->b)));
  }
  char *s = ctx_strdup(ctx, b.data ? b.data : "1");
  buf_free(&b);
  return s;
}

/* p, planned as COPY_ELEMENTS because the digits do not line up, planned
 * again by replan over the digits that line up if sizes divide: kept when
 * that gives a better mechanism, under the condition, with p's element
 * plan as the fallback. */
static void guarded(Ctx *ctx, CopyPlan *p, void (*replan)(Ctx *, CopyPlan *))
{
  CopyPlan q = *p;
  if (!dim_copy_digits_if(ctx, p->src, p->dst, &q.dg, &q.nd, &q.guard, &q.nguard) || !q.nguard)
    return;
  replan(ctx, &q);
  if (q.how == COPY_ELEMENTS)
    return;
  q.fallback = ctx_alloc(ctx, sizeof *q.fallback);
  *q.fallback = *p;
  *p = q;
}

static void nest_over_digits(Ctx *ctx, CopyPlan *p)
{
  (void)ctx;
  p->how = COPY_NEST;
}

/* a copy one thread does alone: a nest over the common digits, else element by element */
static void plan_loop(Ctx *ctx, CopyPlan *p)
{
  p->how = dim_copy_digits(ctx, p->src, p->dst, &p->dg, &p->nd) ? COPY_NEST : COPY_ELEMENTS;
  if (p->how == COPY_ELEMENTS)
    guarded(ctx, p, nest_over_digits);
}

static bool contiguous_pair(Ctx *ctx, Dim *s, Dim *d)
{
  char *cs, *cd;
  return dim_contiguous(ctx, s, &cs) == 1 && dim_contiguous(ctx, d, &cd) == 1;
}

static void device_over_digits(Ctx *ctx, CopyPlan *p);

/* with device memory: a block, pitched rows, the transpose kernel or the
 * element kernel (launched directly, or staged when a side is on the host) */
static void plan_device(Ctx *ctx, CopyPlan *p)
{
  bool sdev = p->src->type->mem == MEM_DMEM, ddev = p->dst->type->mem == MEM_DMEM;
  p->dir = sdev && ddev ? COPY_D2D : sdev ? COPY_D2H : COPY_H2D;
  p->check_extent = poly_extents_may_differ(p->src->extent, p->dst->extent);
  if (contiguous_pair(ctx, p->src, p->dst)) {
    p->how = COPY_BLOCK;
    return;
  }
  if (!dim_copy_digits(ctx, p->src, p->dst, &p->dg, &p->nd))
    p->dg = NULL;
  device_over_digits(ctx, p);
  if (!p->dg)
    guarded(ctx, p, device_over_digits);
}

static bool unit_both(const CopyDigit *d)
{
  return poly_is_value(d->s, 1) && poly_is_value(d->d, 1);
}

/* rows, the transpose kernel or the element kernel over p->dg (NULL: the
 * views do not line up) */
static void device_over_digits(Ctx *ctx, CopyPlan *p)
{
  CopyDigit *dg = p->dg;
  if (dg && p->nd == 2 && (unit_both(&dg[1]) || unit_both(&dg[0]))) {
    /* pitched rows, the digit of unit stride inner: a column-major pair's
     * is its first (the element kernel walked it across the rows, each load
     * and store a stride apart: 0.5 of cuBLAS TF32 at N = 999, run 75) */
    if (!unit_both(&dg[1])) {
      CopyDigit *rows = ctx_alloc(ctx, 2 * sizeof *rows);
      rows[0] = dg[1];
      rows[1] = dg[0];
      p->dg = rows;
    }
    p->how = p->dir == COPY_D2D ? COPY_ROW_KERNEL : COPY_ROWS;
    return;
  }
  p->how = COPY_ELEMENTS;
  p->staged = p->dir != COPY_D2D;
  if (!dg)
    return;
  int a = -1, b = -1;
  for (int k = 0; k < p->nd; k++) {
    if (poly_is_value(dg[k].s, 1) && a < 0)
      a = k;
    if (poly_is_value(dg[k].d, 1) && b < 0)
      b = k;
  }
  if (a < 0 || b < 0 || a == b)
    return;
  /* the other digits are enumerated by the grid's z axis (launch_numbers.grid_max) */
  Poly *batch = poly_const(ctx, 1);
  for (int k = 0; k < p->nd; k++)
    if (k != a && k != b)
      batch = poly_mul(ctx, batch, dg[k].extent);
  long long nb;
  if (!poly_is_const(batch, &nb) || nb > launch_numbers.grid_max[0])
    return;
  p->how = COPY_TRANSPOSE;
  p->a = a;
  p->b = b;
  p->batch = batch;
}

static void push_digit(Ctx *ctx, CopySide *s, Dim *d, bool proc)
{
  if (!proc && poly_is_value(d->extent, 1))
    return; /* a loop of one */
  s->dg = ctx_grow(ctx, s->dg, s->n, &s->cap, sizeof *s->dg);
  s->dg[s->n].d = d;
  s->dg[s->n].extent = d->extent;
  s->dg[s->n].proc = proc;
  s->n++;
}

static bool within(Dim *a, Dim *b) /* a is b or lies under it */
{
  for (; a; a = a->parent)
    if (a == b)
      return true;
  return false;
}

/* Do process selectors a and b pick from overlapping parts of the process
 * index?  Two parts of splits are compared themselves ('[[2][2] #P]' has
 * two that do not), anything else by the thread array nodes they follow. */
static bool selectors_overlap(Dim *a, Dim *b)
{
  if (!a->ref && !b->ref)
    return within(a, b);
  return within(dim_process_node(a), dim_process_node(b));
}

/* A process selector onto s, unless it picks from the processes one already
 * there picks from: then an error, at once (types each two references to
 * the last reach one selector by 2^k paths). */
static bool push_selector(Ctx *ctx, Node *n, CopySide *s, Dim *sel)
{
  for (int k = 0; k < s->n; k++)
    if (s->dg[k].proc && selectors_overlap(s->dg[k].d, sel)) {
      const char *procs = dim_process_array(sel)->name;
      if (s->dg[k].d == sel)
        diag_error(ctx, n->loc, "'%s' references the processes of '%s' twice ('%s', which two references lead to)",
                   s->dim->path, procs, sel->path);
      else
        diag_error(ctx, n->loc, "'%s' references the processes of '%s' twice ('%s' and '%s')", s->dim->path, procs,
                   s->dg[k].d->path, sel->path);
      return false;
    }
  push_digit(ctx, s, sel, true);
  return true;
}

/* The digits below d onto s.  A node two references lead to whose branch
 * gave no digit (every extent 1) is not walked again: types each two
 * references to the last have 2^39 nodes below the 39th (issue 55).  EMPTY
 * holds those nodes. */
static bool collect(Ctx *ctx, Node *n, Dim *d, CopySide *s, Map *empty)
{
  unsigned long hash = map_ptr_hash(d);
  if (map_get(empty, hash, map_is_key, d))
    return true;
  int before = s->n;
  Dim *sel = dim_process_selector(d);
  if (sel)
    return push_selector(ctx, n, s, sel);
  Type *tt = d->ref_kind == REF_SPLIT || d->ref_kind == REF_SIZED ? dim_distributed_over(ctx, d) : NULL;
  if (tt) {
    diag_error(ctx, n->loc,
               "'%s' views distributed data through '[... #%s]': a distributed copy needs the %s dimension "
               "itself ('[#%s]') in the type",
               d->path, d->ref->path, tt->kind == TK_MPI ? "process" : "thread", tt->name);
    return false;
  }
  int m = dim_nkids(d);
  if (m == 0)
    push_digit(ctx, s, d, false);
  for (int k = 0; k < m; k++)
    if (!collect(ctx, n, dim_kid(d, k), s, empty))
      return false;
  if (s->n == before)
    map_put(ctx, empty, hash, d);
  return true;
}

/* The digits of a side, their place values and loop variables. */
static bool make_side(Ctx *ctx, Node *n, Dim *d, const char *ptr, CopySide *s)
{
  memset(s, 0, sizeof *s);
  s->dim = d;
  s->ptr = ptr;
  s->procs = dim_distributed_over(ctx, d);
  Map empty = {0};
  bool ok = collect(ctx, n, d, s, &empty);
  map_free(&empty);
  if (!ok)
    return false;
  for (int k = 0; k < s->n && !s->procs; k++)
    if (s->dg[k].proc)
      s->procs = dim_process_array(s->dg[k].d); /* found only under a reference */
  Poly *place = poly_const(ctx, 1);
  s->local = poly_const(ctx, 1);
  for (int k = s->n - 1; k >= 0; k--) {
    SideDigit *g = &s->dg[k];
    g->place = place;
    place = poly_mul(ctx, place, g->extent);
    g->var = poly_var(ctx, ctx_printf(ctx, "%s%d", g->proc ? "pa_p" : "pa_i", k), g->extent);
    if (!g->proc)
      s->local = poly_mul(ctx, s->local, g->extent);
    else if (dim_process_array(g->d) != s->procs) {
      diag_error(ctx, n->loc, "'%s' is distributed over two thread arrays ('%s' and '%s')", d->path, s->procs->name,
                 dim_process_array(g->d)->name);
      return false;
    }
  }
  if (s->procs) {
    /* the local layout must not depend on the process */
    Poly *full = poly_const(ctx, 0), *zero = poly_const(ctx, 0);
    for (int k = 0; k < s->n; k++) {
      if (s->dg[k].proc && poly_is_value(s->dg[k].extent, 1))
        continue; /* one process: its index is 0 */
      Poly *term = poly_mul(ctx, s->dg[k].var, s->dg[k].place);
      full = poly_add(ctx, full, term);
      if (!s->dg[k].proc)
        zero = poly_add(ctx, zero, term);
    }
    if (!poly_equal(dim_offset(ctx, d, full), dim_offset(ctx, d, zero))) {
      diag_error(ctx, n->loc,
                 "the local layout of '%s' depends on the process: its process dimension lies under a reference",
                 d->path);
      return false;
    }
  }
  return true;
}

/* the linear index of the element the loop variables of s stand at */
Poly *copy_side_linear(Ctx *ctx, CopySide *s)
{
  Poly *i = poly_const(ctx, 0);
  for (int k = 0; k < s->n; k++)
    i = poly_add(ctx, i, poly_mul(ctx, s->dg[k].var, s->dg[k].place));
  return i;
}

/* The process that stores element i of side s (0 for an ordinary array,
 * which lives on process 0); own: i is at s's own loop variables. */
Poly *copy_side_owner(Ctx *ctx, CopySide *s, Poly *i, bool own)
{
  Poly *p = poly_const(ctx, 0);
  for (int k = 0; k < s->n; k++) {
    SideDigit *g = &s->dg[k];
    if (!g->proc)
      continue;
    Poly *digit = own ? g->var : poly_mod(ctx, poly_div(ctx, i, g->place), g->extent);
    p = poly_add(ctx, p, dim_process_index(ctx, g->d, digit));
  }
  return p;
}

/* Does p depend on a local loop variable of s? */
bool copy_side_uses_locals(CopySide *s, Poly *p)
{
  for (int k = 0; k < s->n; k++)
    if (!s->dg[k].proc && poly_count_atom(p, s->dg[k].var->t[0].f[0]))
      return true;
  return false;
}

/* The leading identifier of a pointer expression. */
static char *leading_name(Ctx *ctx, const char *p)
{
  while (*p == ' ' || *p == '(' || *p == '\t')
    p++;
  const char *s = p;
  while (util_is_ident_char((unsigned char)*p))
    p++;
  return ctx_strndup(ctx, s, (size_t)(p - s));
}

/* Does expression text name process 0's memory: a pointer parameter of
 * the mpi detour? */
static bool process0_array(Ctx *ctx, Type *t, const char *text)
{
  char *name = leading_name(ctx, text);
  for (int i = 0; i < t->nparams; i++)
    if (!strcmp(t->pnames[i], name) && strchr(t->ptypes[i], '*'))
      return true;
  return false;
}

/* The digit of s whose loop variable is atom a, or -1. */
static int digit_of(CopySide *s, const Atom *a)
{
  for (int k = 0; k < s->n; k++)
    if (s->dg[k].var->t[0].f[0] == a)
      return k;
  return -1;
}

/* p as c + sum of a[k] * (the loop variable of digit k of s); false when
 * p is not affine in those variables (a product of two, or one under a
 * division or remainder). */
static bool affine_in(Ctx *ctx, Poly *p, CopySide *s, Poly **a, Poly **c)
{
  for (int k = 0; k < s->n; k++)
    a[k] = poly_const(ctx, 0);
  *c = poly_const(ctx, 0);
  for (int i = 0; i < p->n; i++) {
    Term *t = &p->t[i];
    int which = -1, at = -1;
    for (int j = 0; j < t->nf; j++) {
      Atom *f = t->f[j];
      int k = digit_of(s, f);
      if (k >= 0) {
        if (which >= 0)
          return false;
        which = k;
        at = j;
      } else if (f->kind == A_DIV || f->kind == A_MOD) {
        for (int d = 0; d < s->n; d++) {
          Atom *v = s->dg[d].var->t[0].f[0];
          if (poly_count_atom(f->num, v) || poly_count_atom(f->den, v))
            return false;
        }
      }
    }
    Term rest = {t->coef, 0, ctx_alloc(ctx, sizeof(Atom *) * (t->nf + 1))};
    for (int j = 0; j < t->nf; j++)
      if (j != at)
        rest.f[rest.nf++] = t->f[j];
    Poly *r = ctx_alloc(ctx, sizeof *r);
    r->n = 1;
    r->t = ctx_alloc(ctx, sizeof(Term));
    r->t[0] = rest;
    if (which >= 0)
      a[which] = poly_add(ctx, a[which], r);
    else
      *c = poly_add(ctx, *c, r);
  }
  return true;
}

/* The local digit of side s with unit stride in its own memory, or -1
 * (the offset not affine in s's digits, or no such digit). */
static int unit_digit(Ctx *ctx, CopySide *s)
{
  Poly **a = ctx_alloc(ctx, sizeof(Poly *) * (s->n + 1)), *c;
  if (!affine_in(ctx, dim_offset(ctx, s->dim, copy_side_linear(ctx, s)), s, a, &c))
    return -1;
  for (int k = s->n - 1; k >= 0; k--)
    if (!s->dg[k].proc && poly_is_value(a[k], 1))
      return k;
  return -1;
}

/* A peer copy that transposes (plan.peer_tiles): the walked side X (the
 * distributed destination, else the source) has a digit of unit stride in
 * its own memory and another at the place of the other side's unit digit,
 * which moves that side's offset by one.  Walked element by element, one
 * of the two sides is read or written 4 bytes in 32 bytes (across NVLink
 * too); in tiles staged through shared memory both are whole sectors.  The
 * offsets stay those of the types, so a guess that does not hold costs
 * speed only. */
static void plan_peer_tiles(Ctx *ctx, CopyPlan *p)
{
  bool pull = p->side[1].procs != NULL;
  CopySide *X = &p->side[pull ? 1 : 0], *Y = &p->side[pull ? 0 : 1];
  int ux = unit_digit(ctx, X), uy = unit_digit(ctx, Y), w = -1;
  if (ux < 0 || uy < 0)
    return;
  for (int k = 0; k < X->n; k++)
    if (!X->dg[k].proc && poly_equal(X->dg[k].place, Y->dg[uy].place))
      w = k;
  if (w < 0 || w == ux)
    return; /* no transpose: walked in order, both sides are whole sectors */
  p->peer_tiles = true;
  p->a = pull ? w : ux;
  p->b = pull ? ux : w;
  p->batch = poly_const(ctx, 1);
  for (int k = 0; k < X->n; k++)
    if (!X->dg[k].proc && k != p->a && k != p->b)
      p->batch = poly_mul(ctx, p->batch, X->dg[k].extent);
}

/* An all-to-all in packets (CopyPlan.packets).  Walked on the source
 * side S, every local digit of S but three has extent 1: pk_o is the
 * destination's owner itself, pk_a has unit stride in the source and pk_b
 * unit stride in the destination, where the element lands at pk_base +
 * pk_a * pk_pitch + pk_b of its owner's block, pk_base depending on S's
 * process digit alone.  Then what GPU p sends GPU q is one rectangle,
 * extent(a) rows of extent(b) elements at pitch pk_pitch in q's block: a
 * local transposing kernel packs it, and one pitched copy per pair moves
 * it at the speed of the copy engines (0.88-0.95 of the runtime's peer copy of
 * contiguous blocks on 2 and 4 H200s, where a kernel reading or writing
 * the peers' blocks reached 0.45-0.7: bench/a2a_variants.cu,
 * doc/performance.md).  Where the copy does not transpose (one digit has
 * unit stride on both sides: a distribution by rows to one by columns, and
 * back) the rectangle is already one in the source, pk_spitch apart its
 * rows and pk_sstride * q from the block's start for GPU q: the copy
 * engines move it from there, a kernel the GPU's own (pk_direct,
 * plan_rectangles).  False when the copy is neither (the peer kernel
 * stays). */
static int owner_digit(Ctx *ctx, CopySide *s);

/* A copy that does not transpose: the digits of S besides the owner's
 * make one run of unit stride on both sides and at most one run of rows,
 * after the digits that lie one after another in both the source and the
 * destination join (k's strides are j's times j's extent: the rows or
 * columns written as `[[GPUS][CHUNKS][PIECE]]`).  Then what GPU p sends
 * GPU q is one rectangle of its block (pk_direct; pk_a and pk_b -1,
 * pk_rows and pk_width its size). */
static bool plan_rectangles(Ctx *ctx, CopyPlan *p, Poly **as, Poly **ad, int o)
{
  CopySide *S = &p->side[0];
  int n = 0;
  Poly **ext = ctx_alloc(ctx, sizeof(Poly *) * (S->n + 1)), **ss = ctx_alloc(ctx, sizeof(Poly *) * (S->n + 1)),
       **ds = ctx_alloc(ctx, sizeof(Poly *) * (S->n + 1));
  for (int k = 0; k < S->n; k++)
    if (!S->dg[k].proc && k != o && !poly_is_value(S->dg[k].extent, 1)) {
      ext[n] = S->dg[k].extent;
      ss[n] = as[k];
      ds[n] = ad[k];
      n++;
    }
  for (bool joined = true; joined && n > 1;) { /* run j takes run k just outside it */
    joined = false;
    for (int j = 0; j < n && !joined; j++)
      for (int k = 0; k < n && !joined; k++) {
        if (j == k || !poly_equal(ss[k], poly_mul(ctx, ss[j], ext[j])) ||
            !poly_equal(ds[k], poly_mul(ctx, ds[j], ext[j])))
          continue;
        ext[j] = poly_mul(ctx, ext[j], ext[k]);
        ext[k] = ext[--n], ss[k] = ss[n], ds[k] = ds[n];
        joined = true;
      }
  }
  int w = -1, r = -1;
  for (int k = 0; k < n; k++)
    if (poly_is_value(ss[k], 1) && poly_is_value(ds[k], 1) && w < 0)
      w = k;
    else if (r < 0)
      r = k;
    else
      return false; /* still more than one rectangle a pair */
  if (w < 0 || (r >= 0 && (poly_is_value(ss[r], 1) || poly_is_value(ds[r], 1))))
    return false; /* no unit run, or a second one (a transpose) */
  p->pk_direct = true;
  p->pk_a = p->pk_b = -1;
  p->pk_rows = r >= 0 ? ext[r] : poly_const(ctx, 1);
  p->pk_width = ext[w];
  p->pk_pitch = r >= 0 ? ds[r] : ext[w];
  p->pk_spitch = r >= 0 ? ss[r] : ext[w];
  return true;
}

static bool plan_packets(Ctx *ctx, CopyPlan *p)
{
  CopySide *S = &p->side[0], *T = &p->side[1];
  if (!S->procs || !T->procs)
    return false;
  int ps = owner_digit(ctx, S), pt = owner_digit(ctx, T);
  /* every thread (process) sends and receives: not where only some hold a block of either side */
  if (ps < 0 || pt < 0 || !poly_equal(S->dg[ps].extent, S->procs->root->extent) ||
      !poly_equal(T->dg[pt].extent, T->procs->root->extent))
    return false;
  Poly *i = copy_side_linear(ctx, S);
  Poly *owner = copy_side_owner(ctx, T, i, false);
  int o = -1;
  for (int k = 0; k < S->n; k++)
    if (!S->dg[k].proc && poly_equal(owner, S->dg[k].var))
      o = k;
  if (o < 0)
    return false;
  Poly **as = ctx_alloc(ctx, sizeof(Poly *) * (S->n + 1)), **ad = ctx_alloc(ctx, sizeof(Poly *) * (S->n + 1)), *cs, *cd;
  if (!affine_in(ctx, dim_offset(ctx, p->src, i), S, as, &cs) || !affine_in(ctx, dim_offset(ctx, p->dst, i), S, ad, &cd))
    return false;
  if (!poly_is_value(ad[o], 0) || !poly_is_value(cs, 0))
    return false;
  int a = -1, b = -1, others = 0;
  for (int k = 0; k < S->n; k++) {
    if (S->dg[k].proc || k == o || poly_is_value(S->dg[k].extent, 1))
      continue;
    if (poly_is_value(as[k], 1) && a < 0)
      a = k;
    else if (poly_is_value(ad[k], 1) && b < 0)
      b = k;
    else
      others++;
  }
  if (a >= 0 && b >= 0 && others == 0) { /* a transpose: packed */
    p->pk_direct = false;
    p->pk_a = a;
    p->pk_b = b;
    p->pk_rows = S->dg[a].extent;
    p->pk_width = S->dg[b].extent;
    p->pk_pitch = ad[a];
    p->pk_spitch = S->dg[a].extent;
  } else if (!plan_rectangles(ctx, p, as, ad, o)) {
    return false; /* a third digit beside a transpose, or more than one rectangle a pair */
  }
  p->packets = true;
  p->pk_o = o;
  p->pk_sstride = as[o];
  p->pk_base = cd;
  p->pk_pstride = ad[ps];
  return true;
}

/* GPU to GPU among the threads: the peer kernel (kernel_peer), in tiles
 * where it transposes, or packets. */

/* The holders of the walked side of a peer copy (the distributed
 * destination, else the source): processes 0 .. its process digit's
 * extent - 1, NULL when all (CopyPlan.parts). */
static Poly *peer_parts(Ctx *ctx, CopyPlan *p)
{
  CopySide *X = p->side[1].procs ? &p->side[1] : &p->side[0];
  int pk = owner_digit(ctx, X);
  if (pk < 0 || poly_equal(X->dg[pk].extent, X->procs->root->extent))
    return NULL;
  return X->dg[pk].extent;
}

static void plan_peer(Ctx *ctx, CopyPlan *p)
{
  p->by = COPY_BY_DEVICE;
  p->dir = COPY_D2D;
  p->peer = true;
  p->parts = peer_parts(ctx, p);
  /* packets move every process's share: not where only some hold one */
  if (p->parts || !plan_packets(ctx, p))
    plan_peer_tiles(ctx, p);
}

/* A scatter or gather between a shared host array and dmem distributed
 * over the threads, when each thread's part of the host array is rows of
 * a contiguous width (or one block) and its GPU block the same rows
 * packed: each thread copies its part with one pitched 2D copy, by the host
 * as outside a detour (COPY_ROWS, the host pointer moved to the thread's
 * first element).  False when the layouts do not allow it. */
/* The one process digit of side s when the owner of an element is that
 * digit itself (the side is distributed over one dimension that is the
 * whole thread array), else -1. */
static int owner_digit(Ctx *ctx, CopySide *s)
{
  int pk = -1;
  for (int k = 0; k < s->n; k++)
    if (s->dg[k].proc) {
      if (pk >= 0)
        return -1;
      pk = k;
    }
  return pk >= 0 && poly_equal(copy_side_owner(ctx, s, NULL, true), s->dg[pk].var) ? pk : -1;
}

/* Each process's (or thread's) part of a scatter or gather as rows: the
 * part of the undistributed side Y is rows of a contiguous width, the
 * same rows packed in X's block.  Fills p->dg (rows: extent, then width;
 * strides s and d as the copy's source and destination), *step (Y's offset
 * from one process's part to the next's) and *ybase, *xbase (the offsets
 * of the first element).  False when the layouts are not that. */
static bool part_rows(Ctx *ctx, CopyPlan *p, Poly **step, Poly **ybase, Poly **xbase)
{
  bool scatter = p->coll == COLL_SCATTER;
  CopySide *X = &p->side[scatter ? 1 : 0]; /* distributed */
  CopySide *Y = &p->side[scatter ? 0 : 1]; /* the host array */
  int pk = owner_digit(ctx, X);
  if (pk < 0)
    return false;
  Poly *i = copy_side_linear(ctx, X);
  Poly **ax = ctx_alloc(ctx, sizeof(Poly *) * (X->n + 1)), **ay = ctx_alloc(ctx, sizeof(Poly *) * (X->n + 1));
  if (!affine_in(ctx, dim_offset(ctx, X->dim, i), X, ax, xbase) || !affine_in(ctx, dim_offset(ctx, Y->dim, i), X, ay, ybase))
    return false;
  /* the local digits, neighbours contiguous on both sides merged */
  CopyDigit *dg = ctx_alloc(ctx, sizeof(CopyDigit) * (X->n + 2));
  int nd = 0;
  for (int k = 0; k < X->n; k++) {
    if (k == pk || poly_is_value(X->dg[k].extent, 1))
      continue;
    CopyDigit g = {X->dg[k].extent, scatter ? ay[k] : ax[k], scatter ? ax[k] : ay[k]};
    CopyDigit *last = nd ? &dg[nd - 1] : NULL;
    if (last && poly_equal(last->s, poly_mul(ctx, g.s, g.extent)) && poly_equal(last->d, poly_mul(ctx, g.d, g.extent))) {
      last->extent = poly_mul(ctx, last->extent, g.extent);
      last->s = g.s;
      last->d = g.d;
      continue;
    }
    if (nd == 2)
      return false;
    dg[nd++] = g;
  }
  if (nd == 0 || !poly_is_value(dg[nd - 1].s, 1) || !poly_is_value(dg[nd - 1].d, 1))
    return false;
  if (nd == 1) { /* one block: one row */
    dg[1] = dg[0];
    dg[0] = (CopyDigit){poly_const(ctx, 1), dg[1].extent, dg[1].extent};
  }
  p->dg = dg;
  p->nd = 2;
  *step = ay[pk];
  /* the owner is the process digit itself: processes 0 .. its extent - 1 */
  Type *procs = X->procs;
  p->parts = poly_equal(X->dg[pk].extent, procs->root->extent) ? NULL : X->dg[pk].extent;
  return true;
}

/* A scatter or gather between a shared host array and dmem distributed
 * over the threads, when each thread's part is rows (part_rows): each
 * thread copies its part with one pitched 2D copy, as the host does outside
 * a detour (COPY_ROWS, the host pointer moved to the thread's part). */
static bool team_rows(Ctx *ctx, CopyPlan *p)
{
  bool scatter = p->coll == COLL_SCATTER;
  Poly *step, *ybase, *xbase;
  if (!part_rows(ctx, p, &step, &ybase, &xbase))
    return false;
  Poly *host_base = poly_add(ctx, poly_mul(ctx, step, poly_sym(ctx, "pa_tid")), ybase);
  const char **hp = scatter ? &p->sp : &p->dp, **xp = scatter ? &p->dp : &p->sp;
  *hp = ctx_printf(ctx, "%s + %s", ctext_sum_operand(ctx, *hp), poly_str(ctx, host_base));
  if (!poly_is_value(xbase, 0))
    *xp = ctx_printf(ctx, "%s + %s", ctext_sum_operand(ctx, *xp), poly_str(ctx, xbase));
  p->by = COPY_BY_DEVICE;
  p->how = COPY_ROWS;
  p->dir = scatter ? COPY_H2D : COPY_D2H;
  return true;
}

/* Among the threads of a pthd or omp detour, with dmem distributed over
 * them (one block per thread's GPU): each thread fills its block of a
 * distributed destination (scatter, all-to-all), or writes its block's
 * elements of a shared host destination (gather). */
static bool plan_threads(Ctx *ctx, Node *n, CopyPlan *p, Type *team)
{
  CopySide *S = &p->side[0], *T = &p->side[1];
  if (p->detour != team) {
    diag_error(ctx, n->loc, "a #copy of '%s', distributed over the %s array '%s', must stand in the body of a "
               "detour on '%s' itself%s", (S->procs ? S : T)->dim->path, type_kind_name(team->kind), team->name,
               team->name, p->detour ? ctx_printf(ctx, ", not in one on '%s'", p->detour->name) : "");
    return false;
  }
  for (int k = 0; k < 2; k++) {
    CopySide *x = &p->side[k];
    if (x->procs && x->procs != team) {
      diag_error(ctx, n->loc, "'%s' is distributed over '%s', but this detour runs on '%s'", x->dim->path,
                 x->procs->name, team->name);
      return false;
    }
  }
  p->by = COPY_BY_THREAD;
  p->how = COPY_COLLECTIVE;
  p->coll = S->procs && T->procs ? COLL_ALLTOALL : S->procs ? COLL_GATHER : COLL_SCATTER;
  p->check_extent = poly_extents_may_differ(p->src->extent, p->dst->extent);
  p->sync_after = true;
  bool sgpu = copy_on_gpu(p->src), dgpu = copy_on_gpu(p->dst);
  if (p->coll == COLL_ALLTOALL && sgpu && dgpu && owner_digit(ctx, T) >= 0) {
    /* GPU to GPU: each thread's GPU reads the others' blocks (cuda backend);
     * a destination over one axis of a grid of threads goes through the
     * host below, as among mpi processes */
    plan_peer(ctx, p);
    return true;
  }
  if (p->coll != COLL_ALLTOALL && (sgpu || dgpu) && team_rows(ctx, p)) {
    if (sgpu && dgpu)
      p->dir = COPY_PEER; /* one GPU's array and the blocks of all */
    return true;
  }
  if (p->coll != COLL_ALLTOALL && sgpu && dgpu) {
    /* one GPU's array and the blocks, in other layouts: the all-to-all's
     * kernel, reading from that array or writing into it */
    CopySide *x = S->procs ? S : T;
    if (owner_digit(ctx, x) < 0) {
      diag_error(ctx, n->loc, "#copy %s to %s: between one GPU's array and the GPUs of '%s', '%s' must be "
                 "distributed over one dimension of '%s' that is the whole thread array", n->name, n->name2,
                 team->name, x->dim->path, team->name);
      return false;
    }
    plan_peer(ctx, p);
    return true;
  }
  /* anything else: element by element on the host, GPU blocks staged
   * (an all-to-all: each thread reads the others' staged blocks) */
  p->via_host[0] = sgpu;
  p->via_host[1] = dgpu;
  return true;
}

/* among the processes of an mpi detour: a collective when a side is
 * distributed (or process 0's memory is broadcast), else a local loop */
static bool plan_processes(Ctx *ctx, Node *n, CopyPlan *p)
{
  Type *mpi = p->detour && p->detour->kind == TK_MPI ? p->detour : NULL;
  CopySide *S = &p->side[0], *T = &p->side[1];
  if (!make_side(ctx, n, p->src, p->sp, S) || !make_side(ctx, n, p->dst, p->dp, T))
    return false;
  Type *procs = S->procs ? S->procs : T->procs;
  if (procs && procs->kind != TK_MPI)
    return plan_threads(ctx, n, p, procs);
  if (!mpi) {
    if (p->detour)
      diag_error(ctx, n->loc, "a #copy of distributed data must stand in the body of its mpi detour itself, not "
                 "in a nested %s detour", type_kind_name(p->detour->kind));
    else
      diag_error(ctx, n->loc, "a #copy of distributed data must stand in the body of an mpi detour");
    return false;
  }
  for (int k = 0; k < 2; k++)
    if (p->side[k].procs && p->side[k].procs != mpi) {
      diag_error(ctx, n->loc, "'%s' is distributed over '%s', but this detour runs on '%s'", p->side[k].dim->path,
                 p->side[k].procs->name, mpi->name);
      return false;
    }
  p->how = COPY_COLLECTIVE;
  if (S->procs && T->procs) {
    p->coll = COLL_ALLTOALL;
  } else if (S->procs) {
    p->coll = COLL_GATHER;
  } else if (T->procs) {
    p->coll = COLL_SCATTER;
  } else if (process0_array(ctx, mpi, p->sp) && !process0_array(ctx, mpi, p->dp)) {
    p->coll = COLL_BCAST;
  } else if (copy_on_gpu(p->src) || copy_on_gpu(p->dst)) {
    if (process0_array(ctx, mpi, p->dp)) {
      diag_error(ctx, n->loc, "#copy from GPU memory into process 0's memory ('%s') in the body of mpi detour '%s': "
                 "gather into it from a distributed type, or copy on the host after the detour", p->dp, mpi->name);
      return false;
    }
    /* this process's memory and its GPU: the host thread copies as outside */
    p->by = COPY_BY_DEVICE;
    plan_device(ctx, p);
    return true;
  } else {
    /* process 0's memory exists on process 0 only */
    p->process0 = process0_array(ctx, mpi, p->dp);
    p->check_extent = poly_extents_may_differ(p->src->extent, p->dst->extent);
    plan_loop(ctx, p);
    return true;
  }
  p->check_extent = poly_extents_may_differ(p->src->extent, p->dst->extent);
  /* MPI moves host memory: a GPU side is staged (GPU-aware MPI would take
   * the device pointers; the Open MPI builds parrayc meets are not) */
  p->via_host[0] = copy_on_gpu(p->src);
  p->via_host[1] = copy_on_gpu(p->dst);
  /* between GPUs, when the processes share a node and the blocks are
   * #create's: each GPU reads the others' blocks mapped across processes (the
   * runtime decides; through the host otherwise) */
  p->peer = p->coll == COLL_ALLTOALL && p->via_host[0] && p->via_host[1] && owner_digit(ctx, T) >= 0;
  if (p->peer) {
    p->parts = peer_parts(ctx, p);
    if (p->parts || !plan_packets(ctx, p))
      plan_peer_tiles(ctx, p);
  }
  /* a scatter or gather of rows, a broadcast of a block: no element
   * loops (pa_mpi_rows) */
  if ((p->coll == COLL_SCATTER && !p->via_host[0]) || (p->coll == COLL_GATHER && !p->via_host[1]))
    p->rows = part_rows(ctx, p, &p->step, &p->ybase, &p->xbase);
  if (p->coll == COLL_BCAST && !p->via_host[0] && contiguous_pair(ctx, p->src, p->dst)) {
    Poly *all = p->src->extent;
    p->dg = ctx_alloc(ctx, sizeof(CopyDigit) * 2);
    p->dg[0] = (CopyDigit){poly_const(ctx, 1), all, all};
    p->dg[1] = (CopyDigit){all, poly_const(ctx, 1), poly_const(ctx, 1)};
    p->nd = 2;
    p->step = p->ybase = p->xbase = poly_const(ctx, 0);
    p->rows = true;
  }
  /* through the host, MPI moves about 0.3 GB/s between the processes of a
   * node on the machines at hand (64 MB broadcast and 32 MB scattered in
   * 278 ms, bench/multi_gpu.sh at N = 4096 on an H100); process 0 writing
   * the GPU blocks itself moves them at the speed of a plain GPU copy */
  int x = p->coll == COLL_GATHER ? 0 : 1; /* the GPU side */
  p->ipc_rows = p->rows && p->via_host[x] && !p->via_host[1 - x];
  return true;
}

bool copy_plan(Ctx *ctx, Node *n, const CopySite *site, const char *sp, const char *dp, CopyPlan *plan)
{
  CopyPlan *p = plan;
  memset(p, 0, sizeof *p);
  p->by = copy_by(ctx, site);
  p->src = site->src;
  p->dst = site->dst;
  p->sp = sp;
  p->dp = dp;
  p->detour = site->detour;
  switch (p->by) {
  case COPY_BY_PROCESSES:
    return plan_processes(ctx, n, p);
  case COPY_BY_THREAD:
    /* each thread's own copy: checked like any other (the backend
     * decides where: in place, or before a kernel's launch) */
    p->check_extent = poly_extents_may_differ(p->src->extent, p->dst->extent);
    plan_loop(ctx, p);
    return true;
  case COPY_BY_DEVICE:
    plan_device(ctx, p);
    return true;
  case COPY_BY_HOST:
    p->check_extent = poly_extents_may_differ(p->src->extent, p->dst->extent);
    if (contiguous_pair(ctx, p->src, p->dst))
      p->how = COPY_BLOCK;
    else
      plan_loop(ctx, p);
    return true;
  }
  return false;
}
