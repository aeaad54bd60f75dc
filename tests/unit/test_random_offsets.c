/* test_random_offsets.c: random array types against a brute-force model.
 *
 * Each case writes a few random #parray declarations (natural trees of
 * small constant extents, then types referencing their nodes: full and
 * sized references, splits, permutations, nesting), translates them, and
 * compares what types.c answers (dim_offset, dim_eval of nested index
 * lists, dim_span, dim_contiguous, dim_strides) with an evaluator of
 * SPEC.md 2.4 and 2.5 written here on its own small tree, independently
 * of types.c.  The seed is fixed: failures reproduce. */
#include "pa_test.h"

#include <stdarg.h>

#define NCASES 1600
#define MAX_EXTENT 96   /* of a whole type: keeps brute force cheap */
#define MAX_NODES 400
#define MAX_TYPES 6
#define MAX_KIDS 4

/* ---- a deterministic generator (xorshift), independent of libc ---- */

static unsigned long long rng_state;

static unsigned rnd(unsigned n)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return n ? (unsigned)(rng_state % n) : 0;
}

/* ---- the model: a tree of nodes, as SPEC.md 2.2 describes ---- */

typedef enum { R_LEAF, R_INNER, R_FULL, R_SIZED, R_SPLIT } RKind;

typedef struct RNode RNode;
struct RNode {
  RKind kind;
  long long size;     /* R_LEAF: its extent; R_SIZED: n */
  RNode *ref;         /* R_FULL, R_SIZED, R_SPLIT */
  RNode *kids[MAX_KIDS];
  int nkids;          /* own children (R_INNER, R_SPLIT and the root) */
  RNode *parent;
  int index;
  long long extent;
};

/* a path that names a node, with the node it names (imports included) */
typedef struct RPath {
  char path[96];
  RNode *node;
  int type;
} RPath;

typedef struct Model {
  RNode nodes[MAX_NODES];
  int nnodes;
  RPath paths[MAX_NODES * 4];
  int npaths;
  char names[MAX_TYPES][8];
  RNode *roots[MAX_TYPES];
  int ntypes;
  char src[8192];
  size_t len;
  bool overflow;
} Model;

static RNode *new_node(Model *m, RKind kind)
{
  if (m->nnodes == MAX_NODES) {
    m->overflow = true;
    m->nnodes = 0; /* reuse: the case is thrown away */
  }
  RNode *n = &m->nodes[m->nnodes++];
  memset(n, 0, sizeof *n);
  n->kind = kind;
  return n;
}

static void put(Model *m, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(m->src + m->len, sizeof m->src - m->len, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof m->src - m->len)
    m->overflow = true;
  else
    m->len += (size_t)n;
}

/* children as one sees them through a full reference */
static int r_nkids(const RNode *n)
{
  while (n->kind == R_FULL)
    n = n->ref;
  return n->nkids;
}

static RNode *r_kid(const RNode *n, int k)
{
  while (n->kind == R_FULL)
    n = n->ref;
  return n->kids[k];
}

static void add_kid(RNode *parent, RNode *kid)
{
  kid->parent = parent;
  kid->index = parent->nkids;
  parent->kids[parent->nkids++] = kid;
}

static long long kids_product(const RNode *n)
{
  long long p = 1;
  for (int k = 0; k < n->nkids; k++)
    p *= n->kids[k]->extent;
  return p;
}

/* ---- SPEC.md 2.4: offsets ---- */

static bool has_ref(const RNode *n)
{
  return n->kind == R_FULL || n->kind == R_SIZED || n->kind == R_SPLIT;
}

static const RNode *ref_ancestor(const RNode *n)
{
  for (const RNode *p = n->parent; p; p = p->parent)
    if (has_ref(p))
      return p;
  return NULL;
}

/* W(n, a): the product of the extents of the leaves after n's subtree
 * within a's subtree (a subtree's leaves multiply to its extent) */
static long long W(const RNode *n, const RNode *a)
{
  long long w = 1;
  for (const RNode *x = n; x != a; x = x->parent)
    for (int k = x->index + 1; k < x->parent->nkids; k++)
      w *= x->parent->kids[k]->extent;
  return w;
}

static const RNode *r_root(const RNode *n)
{
  while (n->parent)
    n = n->parent;
  return n;
}

static long long r_off(const RNode *n, long long i)
{
  if (has_ref(n))
    return r_off(n->ref, i); /* rule 1 */
  const RNode *a = ref_ancestor(n);
  if (a)
    return r_off(a, i * W(n, a)); /* rule 2 */
  if (n->nkids) {                 /* rule 3: mixed-radix digits, last fastest */
    long long sum = 0;
    for (int k = n->nkids - 1; k >= 0; k--) {
      long long e = n->kids[k]->extent;
      sum += r_off(n->kids[k], i % e);
      i /= e;
    }
    return sum;
  }
  return i * W(n, r_root(n)); /* rule 4 */
}

/* ---- SPEC.md 2.5: nested index lists ---- */

typedef struct RIx {
  bool list;
  long long value;
  bool var;           /* this entry is the variable of the case */
  struct RIx *items[MAX_KIDS];
  int n;
} RIx;

static long long r_combine(const RNode *n, const RIx *ix, long long v)
{
  if (!ix->list)
    return ix->var ? v : ix->value;
  long long sum = 0;
  for (int k = 0; k < ix->n; k++) {
    long long place = 1;
    for (int j = k + 1; j < ix->n; j++)
      place *= r_kid(n, j)->extent;
    sum += r_combine(r_kid(n, k), ix->items[k], v) * place;
  }
  return sum;
}

static long long r_eval(const RNode *n, const RIx *ix, long long v)
{
  if (!ix->list)
    return r_off(n, ix->var ? v : ix->value);
  if (has_ref(n) || ref_ancestor(n))
    return r_off(n, r_combine(n, ix, v));
  long long sum = 0;
  for (int k = 0; k < ix->n; k++)
    sum += r_eval(r_kid(n, k), ix->items[k], v);
  return sum;
}

/* ---- random declarations ---- */

/* a natural dimension; *room bounds the product of the leaves */
static RNode *gen_natural(Model *m, int depth, long long room)
{
  if (depth > 0 && room >= 4 && rnd(3) == 0) {
    RNode *n = new_node(m, R_INNER);
    int nk = 2 + (int)rnd(2);
    put(m, "[");
    for (int k = 0; k < nk && room >= 2; k++) {
      RNode *kid = gen_natural(m, depth - 1, room);
      add_kid(n, kid);
      room /= kid->extent;
    }
    put(m, "]");
    n->extent = kids_product(n);
    return n;
  }
  RNode *n = new_node(m, R_LEAF);
  long long hi = room < 4 ? room : 4;
  n->size = 1 + rnd((unsigned)hi);
  n->extent = n->size;
  put(m, "[%lld]", n->size);
  return n;
}

/* sized leaves splitting `total` at most, for [[a][b] #R] */
static RNode *gen_split_kid(Model *m, int depth, long long room)
{
  if (depth > 0 && room >= 4 && rnd(4) == 0) {
    RNode *n = new_node(m, R_INNER);
    put(m, "[");
    for (int k = 0; k < 2; k++) {
      RNode *kid = gen_split_kid(m, depth - 1, room);
      add_kid(n, kid);
      room /= kid->extent;
    }
    put(m, "]");
    n->extent = kids_product(n);
    return n;
  }
  RNode *n = new_node(m, R_LEAF);
  n->size = 1 + rnd((unsigned)(room < 6 ? room : 6));
  n->extent = n->size;
  put(m, "[%lld]", n->size);
  return n;
}

static const RPath *pick_target(Model *m, long long room)
{
  for (int tries = 0; tries < 8; tries++) {
    const RPath *p = &m->paths[rnd((unsigned)m->npaths)];
    if (p->node->extent <= room)
      return p;
  }
  return NULL;
}

/* a dimension of a reference type */
static RNode *gen_ref_dim(Model *m, int depth, long long room)
{
  int what = (int)rnd(10);
  if (depth > 0 && what >= 8) {
    RNode *n = new_node(m, R_INNER);
    put(m, "[");
    int nk = 2;
    for (int k = 0; k < nk && room >= 1; k++) {
      RNode *kid = gen_ref_dim(m, depth - 1, room);
      add_kid(n, kid);
      room /= kid->extent ? kid->extent : 1;
    }
    put(m, "]");
    n->extent = kids_product(n);
    return n;
  }
  const RPath *t = pick_target(m, what >= 5 ? MAX_EXTENT : room);
  if (!t || what == 7) {
    RNode *n = new_node(m, R_LEAF);
    n->size = 1 + rnd(3);
    n->extent = n->size;
    put(m, "[%lld]", n->size);
    return n;
  }
  long long tx = t->node->extent;
  if (what <= 2 && tx <= room) {
    RNode *n = new_node(m, R_FULL);
    n->ref = t->node;
    n->extent = tx;
    put(m, "[#%s]", t->path);
    return n;
  }
  if (what <= 4) {
    RNode *n = new_node(m, R_SIZED);
    n->ref = t->node;
    long long hi = tx < room ? tx : room;
    n->size = 1 + rnd((unsigned)(hi > 0 ? hi : 1));
    n->extent = n->size;
    put(m, "[%lld #%s]", n->size, t->path);
    return n;
  }
  RNode *n = new_node(m, R_SPLIT);
  n->ref = t->node;
  long long hi = tx < room ? tx : room;
  put(m, "[");
  for (int k = 0; k < 2; k++) {
    RNode *kid = gen_split_kid(m, 1, hi);
    add_kid(n, kid);
    hi /= kid->extent;
  }
  put(m, " #%s]", t->path);
  n->extent = kids_product(n);
  return n;
}

/* every path of type `ti` rooted at n, imports through full references included */
static void add_paths(Model *m, int ti, RNode *n, const char *path)
{
  if (m->npaths == (int)(sizeof m->paths / sizeof m->paths[0]))
    return;
  RPath *p = &m->paths[m->npaths++];
  snprintf(p->path, sizeof p->path, "%s", path);
  p->node = n;
  p->type = ti;
  int nk = r_nkids(n);
  for (int k = 0; k < nk; k++) {
    char sub[96];
    if (snprintf(sub, sizeof sub, "%s_%d", path, k) >= (int)sizeof sub)
      continue;
    add_paths(m, ti, r_kid(n, k), sub);
  }
}

static void gen_type(Model *m, bool natural)
{
  int ti = m->ntypes;
  snprintf(m->names[ti], sizeof m->names[ti], "%c%c", natural ? 'N' : 'R', 'a' + ti);
  RNode *root = new_node(m, R_INNER);
  put(m, "#parray {%s ", natural ? "paged int" : (rnd(2) ? "int" : "paged int"));
  long long room = MAX_EXTENT;
  int nk = 1 + (int)rnd(3);
  for (int k = 0; k < nk && room >= 1; k++) {
    RNode *kid = natural ? gen_natural(m, 2, room) : gen_ref_dim(m, 2, room);
    add_kid(root, kid);
    room /= kid->extent;
  }
  root->extent = kids_product(root);
  put(m, "} %s\n", m->names[ti]);
  m->roots[ti] = root;
  m->ntypes++;
  add_paths(m, ti, root, m->names[ti]);
}

/* ---- the comparison ---- */

static long long brute_span(const RNode *n)
{
  long long max = 0;
  for (long long i = 0; i < n->extent; i++) {
    long long o = r_off(n, i);
    if (o > max)
      max = o;
  }
  return max + 1;
}

static int brute_contiguous(const RNode *n)
{
  for (long long i = 0; i < n->extent; i++)
    if (r_off(n, i) != r_off(n, 0) + i)
      return 0;
  return 1;
}

static int var_counter;

/* a random index for node n, mirrored as an Index for dim_eval */
static RIx *gen_ix(Ctx *ctx, const RNode *n, Index **out, RIx *pool, int *used)
{
  RIx *ix = &pool[(*used)++];
  memset(ix, 0, sizeof *ix);
  int nk = r_nkids(n);
  if (nk == 0 || *used > 40 || rnd(3) == 0) {
    ix->value = (long long)rnd((unsigned)n->extent);
    *out = pa_ix_expr(ctx, ctx_printf(ctx, "%lld", ix->value));
    return ix;
  }
  ix->list = true;
  ix->n = nk;
  Index *items[MAX_KIDS];
  for (int k = 0; k < nk; k++)
    ix->items[k] = gen_ix(ctx, r_kid(n, k), &items[k], pool, used);
  *out = pa_ix_list(ctx, items, nk);
  return ix;
}

/* make one constant entry the variable; returns its bound */
static long long pick_var(Ctx *ctx, const RNode *n, RIx *ix, Index *tix, const char *name)
{
  if (!ix->list) {
    ix->var = true;
    tix->expr->text = ctx_strdup(ctx, name);
    return n->extent;
  }
  int k = (int)rnd((unsigned)ix->n);
  return pick_var(ctx, r_kid(n, k), ix->items[k], tix->items[k], name);
}

static Atom *find_var(Ctx *ctx, const char *name)
{
  for (Atom *a = ctx->atoms; a; a = a->next)
    if (a->kind == A_VAR && !strcmp(a->text, name))
      return a;
  return NULL;
}

static int check_strides(Ctx *ctx, Dim *d, const RNode *n, const char *src, const char *path)
{
  Stride *s;
  int ns;
  if (!dim_strides(ctx, d, &s, &ns))
    return 0;
  long long *ext = calloc((size_t)ns + 1, sizeof *ext), *str = calloc((size_t)ns + 1, sizeof *str);
  for (int k = 0; k < ns; k++) {
    pa_check(poly_is_const(s[k].extent, &ext[k]) && poly_is_const(s[k].stride, &str[k]),
                  "non-constant strides of %s in\n%s", path, src);
  }
  long long prod = 1;
  for (int k = 0; k < ns; k++)
    prod *= ext[k];
  pa_check(prod == n->extent, "strides of %s cover %lld elements, not %lld, in\n%s", path, prod, n->extent,
                src);
  for (long long i = 0; i < n->extent; i++) {
    long long rest = i, off = 0;
    for (int k = ns - 1; k >= 0; k--) {
      off += (rest % ext[k]) * str[k];
      rest /= ext[k];
    }
    pa_check(off == r_off(n, i), "strides of %s give %lld at %lld, want %lld, in\n%s", path, off, i,
                  r_off(n, i), src);
  }
  free(ext);
  free(str);
  return 1;
}

static void check_case(Model *m, int *nstrided, long long *nchecks)
{
  Ctx *ctx;
  char *out = pa_translate_ctx(m->src, false, &ctx);
  pa_check(out != NULL, "random case does not translate (%d errors):\n%s", ctx->errors, m->src);
  free(out);
  for (int p = 0; p < m->npaths; p++) {
    const RPath *rp = &m->paths[p];
    const RNode *n = rp->node;
    Dim *d = dim_resolve(ctx, rp->path, (Loc){0, 0});
    pa_check(d != NULL, "%s does not resolve in\n%s", rp->path, m->src);
    long long ext;
    pa_check(poly_is_const(d->extent, &ext) && ext == n->extent, "extent of %s: got %s, want %lld in\n%s",
                  rp->path, poly_str(ctx, d->extent), n->extent, m->src);
    pa_check(dim_nkids(d) == r_nkids(n), "children of %s", rp->path);
    /* off_d(i) for a variable i */
    Poly *var = poly_var(ctx, "pa_rnd_i", d->extent);
    Atom *a = var->t[0].f[0];
    Poly *off = dim_offset(ctx, d, var);
    for (long long i = 0; i < n->extent; i++) {
      long long got;
      pa_check(poly_eval(off, a, i, &got), "offset of %s does not evaluate", rp->path);
      pa_check(got == r_off(n, i), "off_%s(%lld) = %lld, want %lld; off(i) = %s in\n%s", rp->path, i, got,
                    r_off(n, i), poly_str(ctx, off), m->src);
      (*nchecks)++;
    }
    long long span;
    Poly *sp = dim_span(ctx, d);
    pa_check(poly_is_const(sp, &span) && span == brute_span(n), "span of %s: got %s, want %lld in\n%s",
                  rp->path, poly_str(ctx, sp), brute_span(n), m->src);
    char *c;
    int cnt = dim_contiguous(ctx, d, &c);
    pa_check(cnt == brute_contiguous(n), "contiguous(%s): got %d, want %d in\n%s", rp->path, cnt,
                  brute_contiguous(n), m->src);
    *nstrided += check_strides(ctx, d, n, m->src, rp->path);
    /* a few random nested index lists, one entry a variable */
    for (int trial = 0; trial < 3; trial++) {
      RIx pool[64];
      int used = 0;
      Index *tix;
      RIx *ix = gen_ix(ctx, n, &tix, pool, &used);
      char name[32];
      snprintf(name, sizeof name, "v%d", var_counter++);
      long long bound = trial ? pick_var(ctx, n, ix, tix, name) : 0;
      Poly *pe = dim_eval(ctx, d, tix, NULL);
      pa_check(pe != NULL, "dim_eval of %s failed in\n%s", rp->path, m->src);
      Atom *va = trial ? find_var(ctx, name) : NULL;
      pa_check(!trial || va, "variable %s vanished from the offset of %s", name, rp->path);
      for (long long v = 0; v < (trial ? bound : 1); v++) {
        long long got;
        pa_check(poly_eval(pe, va, v, &got), "eval of %s does not evaluate: %s", rp->path, poly_str(ctx, pe));
        long long want = r_eval(n, ix, v);
        pa_check(got == want, "eval %s at %s=%lld: got %lld, want %lld; offset %s in\n%s", rp->path, name, v,
                      got, want, poly_str(ctx, pe), m->src);
        (*nchecks)++;
      }
    }
  }
  ctx_free(ctx);
}

START_TEST(random_types_match_the_model)
{
  rng_state = 0x9e3779b97f4a7c15ULL;
  static Model m;
  int done = 0, strided = 0;
  long long checks = 0;
  for (int c = 0; c < NCASES; c++) {
    memset(&m, 0, sizeof m);
    int nnat = 1 + (int)rnd(2), nref = 1 + (int)rnd(3);
    for (int t = 0; t < nnat; t++)
      gen_type(&m, true);
    for (int t = 0; t < nref; t++)
      gen_type(&m, false);
    if (m.overflow)
      continue;
    check_case(&m, &strided, &checks);
    done++;
  }
  ck_assert_int_ge(done, NCASES * 9 / 10);
  ck_assert_int_gt(strided, 0);
  printf("random offsets: %d cases, %lld values compared, %d strided views\n", done, checks, strided);
}
END_TEST

/* the model itself, on the values of SPEC.md Appendix B */
START_TEST(model_gives_appendix_b)
{
  static Model m;
  memset(&m, 0, sizeof m);
  /* A = [2][2][4][4], M = [[#A_0][#A_2]][[#A_1][#A_3]]: $M[5][6]$ = 54 */
  RNode *a = new_node(&m, R_INNER);
  long long ex[4] = {2, 2, 4, 4};
  for (int k = 0; k < 4; k++) {
    RNode *l = new_node(&m, R_LEAF);
    l->extent = l->size = ex[k];
    add_kid(a, l);
  }
  a->extent = 64;
  RNode *mm = new_node(&m, R_INNER);
  for (int r = 0; r < 2; r++) {
    RNode *in = new_node(&m, R_INNER);
    for (int k = 0; k < 2; k++) {
      RNode *f = new_node(&m, R_FULL);
      f->ref = a->kids[r + 2 * k];
      f->extent = f->ref->extent;
      add_kid(in, f);
    }
    in->extent = kids_product(in);
    add_kid(mm, in);
  }
  mm->extent = 64;
  RIx i5 = {.value = 5}, i6 = {.value = 6}, i13 = {.value = 13};
  RIx l = {.list = true, .n = 2, .items = {&i5, &i6}};
  ck_assert_int_eq(r_eval(mm, &l, 0), 54);
  ck_assert_int_eq(r_eval(mm, &i13, 0), 21);
  ck_assert_int_eq(r_off(mm->kids[0]->kids[1], 3), 12);
}
END_TEST

static Suite *make(void)
{
  Suite *s = suite_create("random_offsets");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, model_gives_appendix_b);
  tcase_add_test(tc, random_types_match_the_model);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  return pa_run_suite(make());
}
