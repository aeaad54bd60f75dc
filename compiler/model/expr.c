/* expr.c: offset expressions.  A Poly is a sum of terms; a term is an
 * integer coefficient times a product of atoms (sizes, index expressions,
 * quotients and remainders).  Every operation returns a normalised Poly:
 * terms sorted, like terms combined, constants folded, and divisions and
 * remainders removed wherever the bounds of the indices allow.  All values
 * are non-negative (indices and extents), so a / b is floor division. */
#include "ctext.h"
#include "model/macros.h"
#include "parrayc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- atoms ---- */

static Atom *atom_new(Ctx *ctx, AtomKind kind)
{
  Atom *a = ctx_alloc(ctx, sizeof *a);
  a->kind = kind;
  a->id = ctx->natoms++;
  a->slot = -1;
  a->next = ctx->atoms;
  ctx->atoms = a;
  ctx_keep(ctx); /* atoms live as long as ctx, and what they point to */
  return a;
}

static Poly *poly_of_atom(Ctx *ctx, Atom *a, long long coef)
{
  Poly *p = ctx_alloc(ctx, sizeof *p);
  p->n = 1;
  p->t = ctx_alloc(ctx, sizeof(Term));
  p->t[0].coef = coef;
  p->t[0].nf = 1;
  p->t[0].f = ctx_alloc(ctx, sizeof(Atom *));
  p->t[0].f[0] = a;
  return p;
}

Poly *poly_const(Ctx *ctx, long long c)
{
  Poly **cached = c >= -1 && c <= 16 ? &ctx->small_consts[c + 1] : NULL;
  if (cached && *cached)
    return *cached;
  Poly *p = ctx_alloc(ctx, sizeof *p);
  if (c) {
    p->n = 1;
    p->t = ctx_alloc(ctx, sizeof(Term));
    p->t[0].coef = c;
  }
  if (cached) {
    *cached = p;
    ctx_keep(ctx);
  }
  return p;
}

/* Atoms are interned through ctx->atom_map: the key of an atom is its kind
 * and operands, compared as poly_equal does (coefficients and atom ids). */
typedef struct AtomKey {
  AtomKind kind;
  const char *text;
  const Poly *bound, *num, *den;
} AtomKey;

static unsigned long hash_mix(unsigned long h, unsigned long long v)
{
  return (h ^ v) * 1099511628211ul;
}

static unsigned long poly_hash(const Poly *p, unsigned long h)
{
  if (!p)
    return hash_mix(h, 0xfeed);
  h = hash_mix(h, p->n);
  for (int i = 0; i < p->n; i++) {
    h = hash_mix(h, p->t[i].coef);
    for (int k = 0; k < p->t[i].nf; k++)
      h = hash_mix(h, p->t[i].f[k]->id);
  }
  return h;
}

static unsigned long atom_hash(const AtomKey *k)
{
  unsigned long h = hash_mix(HASH_SEED, k->kind);
  if (k->text)
    h = util_hash_str(k->text, h);
  return poly_hash(k->den, poly_hash(k->num, poly_hash(k->bound, h)));
}

static bool atom_matches(const void *item, const void *key)
{
  const Atom *a = item;
  const AtomKey *k = key;
  if (a->kind != k->kind)
    return false;
  if (k->text && strcmp(a->text, k->text))
    return false;
  return poly_equal(a->bound, k->bound) && poly_equal(a->num, k->num) && poly_equal(a->den, k->den);
}

/* The atom of key k, made if new. */
static Atom *atom_intern(Ctx *ctx, const AtomKey *k)
{
  unsigned long h = atom_hash(k);
  Atom *a = map_get(&ctx->atom_map, h, atom_matches, k);
  if (a)
    return a;
  a = atom_new(ctx, k->kind);
  a->text = k->text ? ctx_strdup(ctx, k->text) : NULL;
  a->bound = (Poly *)k->bound;
  a->num = (Poly *)k->num;
  a->den = (Poly *)k->den;
  map_put(ctx, &ctx->atom_map, h, a);
  return a;
}

/* The operations the C text of an offset spells out, a shared operand
 * each time it is written: views that each use their index twice (a split
 * then a transpose, '[[2][n*2] #S0_0]' then '[[#S1_0_1][#S1_0_0]]')
 * double them with each type, while the atoms, shared, grow by a few.
 * Past POLY_MAX_OPS an atom is an error where it is made, and the walks
 * that follow operands as written (printing, evaluation, reach) stop at
 * it: their work would double with each type too.  The terms of a sum
 * double alike (POLY_MAX_TERMS), and a term's factors (POLY_MAX_FACTORS). */
enum { POLY_MAX_OPS = 1 << 16, POLY_MAX_TERMS = 1 << 9, POLY_MAX_FACTORS = 1 << 9 };

/* An offset past those limits, reported where the walk is (not written:
 * an error); what stands for it is any value. */
static void too_large(Ctx *ctx, const char *what, int limit)
{
  diag_error(ctx, ctx->walking ? ctx->walking->loc : ctx->reading,
             "an offset here would take more than %d %s: views that each use their index twice (a split, "
             "then a transpose of it) double them with each type of a chain; parrayc's limit",
             limit, what);
  ctx->stopped = true; /* what follows would double alike: nothing more is translated */
}

/* the most factors of a term of p: a product's terms hold their factors
 * one by one, so types each the square of the last, above one of
 * run-time extent, double them with each type (found by tests/fuzz:
 * gigabytes for 16,384 of them); POLY_MAX_FACTORS bounds them */
static int poly_factors(const Poly *p)
{
  int most = 0;
  for (int i = 0; i < p->n; i++)
    if (p->t[i].nf > most)
      most = p->t[i].nf;
  return most;
}

static long long poly_ops(const Poly *p)
{
  long long n = 0;
  for (int i = 0; i < p->n && n <= POLY_MAX_OPS; i++) {
    n++;
    for (int k = 0; k < p->t[i].nf; k++)
      n += p->t[i].f[k]->ops ? p->t[i].f[k]->ops : 1;
  }
  return n;
}

static bool too_many_ops(const Atom *a)
{
  return a->ops > POLY_MAX_OPS;
}

/* Does size text name a variable: an identifier that is neither a macro
 * the program #defines nor one of C's type words (for sizeof and casts)?
 * Such a size is known only at run time and may pass 2^31. */
static bool names_variable(Ctx *ctx, const char *text)
{
  static const char *const words[] = {"sizeof", "char", "short", "int", "long", "float", "double", "signed",
                                      "unsigned", "const", "_Alignof", "alignof", NULL};
  CText c = ctext(text, NULL, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c)) {
    if (t.kind != CT_IDENT || t.member)
      continue;
    bool known = false;
    for (int i = 0; words[i] && !known; i++)
      known = ctok_word(t, words[i]);
    if (known)
      continue;
    if (!macro_defined(ctx, ctx_strndup(ctx, t.s, t.n)))
      return true;
  }
  return false;
}

Poly *poly_sym(Ctx *ctx, const char *text)
{
  AtomKey k = {A_SYM, text, NULL, NULL, NULL};
  return poly_of_atom(ctx, atom_intern(ctx, &k), 1);
}

Poly *poly_size(Ctx *ctx, const char *text)
{
  Poly *p = poly_sym(ctx, text);
  Atom *a = p->t[0].f[0];
  if (!a->runtime && !a->known) {
    a->runtime = names_variable(ctx, text);
    /* macros: the value they have now bounds the offsets (a value given
     * the C compiler alone is caught at #create: pa_check_int_span) */
    a->known = !a->runtime && macro_value(ctx, text, CEVAL_SIZE, &a->value) && a->value > 0;
  }
  return p;
}

Poly *poly_var(Ctx *ctx, const char *text, Poly *bound)
{
  /* an expression with effects is its own atom: it must be evaluated once
   * per occurrence in the source, never merged with another */
  if (ctext_has_side_effects(text)) {
    Atom *a = atom_new(ctx, A_VAR);
    a->text = ctx_strdup(ctx, text);
    a->bound = bound;
    return poly_of_atom(ctx, a, 1);
  }
  AtomKey k = {A_VAR, text, bound, NULL, NULL};
  return poly_of_atom(ctx, atom_intern(ctx, &k), 1);
}

/* ---- terms ---- */

static int term_cmp(const Term *a, const Term *b)
{
  if (a->nf != b->nf)
    return a->nf < b->nf ? 1 : -1; /* constants last */
  for (int i = 0; i < a->nf; i++)
    if (a->f[i] != b->f[i])
      return a->f[i]->id < b->f[i]->id ? -1 : 1;
  return 0;
}

static int term_qcmp(const void *a, const void *b)
{
  return term_cmp(a, b);
}

static int atom_qcmp(const void *a, const void *b)
{
  const Atom *x = *(Atom *const *)a, *y = *(Atom *const *)b;
  return (x->id > y->id) - (x->id < y->id);
}

static long long mul_sat(long long a, long long b)
{
  long long r;
  if (__builtin_mul_overflow(a, b, &r))
    return (a < 0) != (b < 0) ? LLONG_MIN : LLONG_MAX;
  return r;
}

static Term term_mul(Ctx *ctx, const Term *a, const Term *b)
{
  Term t;
  t.coef = mul_sat(a->coef, b->coef);
  t.nf = a->nf + b->nf;
  if (!a->nf || !b->nf) { /* a constant: the other's factors, shared */
    t.f = a->nf ? a->f : b->f;
    return t;
  }
  t.f = t.nf ? ctx_alloc(ctx, sizeof(Atom *) * t.nf) : NULL;
  if (a->nf)
    memcpy(t.f, a->f, sizeof(Atom *) * a->nf);
  if (b->nf)
    memcpy(t.f + a->nf, b->f, sizeof(Atom *) * b->nf);
  if (t.nf > 1) /* qsort(NULL, 0, ...) is undefined */
    qsort(t.f, t.nf, sizeof(Atom *), atom_qcmp);
  return t;
}

typedef struct TermVec {
  Term *t;
  int n, cap;
} TermVec;

/* Room for n more terms: sized to need, as the arena never reuses what a
 * vector outgrows. */
static void tv_reserve(Ctx *ctx, TermVec *v, int n)
{
  if (v->cap - v->n < n) {
    int cap = v->n + n > 2 * v->cap ? v->n + n : 2 * v->cap;
    Term *nt = ctx_alloc(ctx, sizeof(Term) * cap);
    if (v->n)
      memcpy(nt, v->t, sizeof(Term) * v->n);
    v->t = nt;
    v->cap = cap;
  }
}

static void tv_push(Ctx *ctx, TermVec *v, Term t)
{
  if (v->n == v->cap) {
    int cap = v->cap ? v->cap * 2 : 4;
    Term *nt = ctx_alloc(ctx, sizeof(Term) * cap);
    if (v->n)
      memcpy(nt, v->t, sizeof(Term) * v->n);
    v->t = nt;
    v->cap = cap;
  }
  v->t[v->n++] = t;
}

static void tv_combine(TermVec *v)
{
  if (v->n > 1)
    qsort(v->t, v->n, sizeof(Term), term_qcmp);
  int out = 0;
  for (int i = 0; i < v->n; i++) {
    if (out > 0 && term_cmp(&v->t[out - 1], &v->t[i]) == 0) {
      long long r;
      if (__builtin_add_overflow(v->t[out - 1].coef, v->t[i].coef, &r))
        r = LLONG_MAX;
      v->t[out - 1].coef = r;
    } else {
      v->t[out++] = v->t[i];
    }
    if (out > 0 && v->t[out - 1].coef == 0)
      out--;
  }
  v->n = out;
}

/* x - (x / k) * k == x % k, so c*k*G*(x/k) + c*G*(x%k) == c*G*x: the
 * decomposition of an index into digits followed by their recombination
 * (a contiguous view) folds back to the index. */
static bool fold_divmod_pair(Ctx *ctx, TermVec *v)
{
  for (int i = 0; i < v->n; i++) {
    Term *ti = &v->t[i];
    for (int fi = 0; fi < ti->nf; fi++) {
      Atom *m = ti->f[fi];
      if (m->kind != A_MOD || m->den->n != 1)
        continue;
      if (!m->quot) { /* asked at every normalisation: kept */
        m->quot = poly_div(ctx, m->num, m->den);
        ctx_keep(ctx);
      }
      Poly *qp = m->quot;
      if (qp->n != 1 || qp->t[0].coef != 1 || qp->t[0].nf != 1)
        continue;
      Atom *q = qp->t[0].f[0];
      /* partner = coef*G*k*q, its factors on the stack when few: most
       * normalisations find none, and the arena would keep them */
      Atom *gf_room[16], *pf_room[16];
      Atom **gf = ti->nf <= 16 ? gf_room : ctx_alloc(ctx, sizeof(Atom *) * ti->nf);
      Term g = {ti->coef, 0, gf};
      for (int k = 0; k < ti->nf; k++)
        if (k != fi)
          g.f[g.nf++] = ti->f[k];
      const Term *kt = &m->den->t[0];
      int pn = g.nf + kt->nf + 1;
      Term partner = {mul_sat(g.coef, kt->coef), pn, pn <= 16 ? pf_room : ctx_alloc(ctx, sizeof(Atom *) * pn)};
      memcpy(partner.f, g.f, sizeof(Atom *) * g.nf);
      if (kt->nf) /* a constant's factors are NULL */
        memcpy(partner.f + g.nf, kt->f, sizeof(Atom *) * kt->nf);
      partner.f[pn - 1] = q;
      qsort(partner.f, pn, sizeof(Atom *), atom_qcmp);
      for (int j = 0; j < v->n; j++) {
        if (j == i || term_cmp(&v->t[j], &partner) || v->t[j].coef != partner.coef)
          continue;
        /* replace both by g * num: g's factors into the arena, since
         * term_mul shares them with a constant term of num */
        if (g.f == gf_room) {
          g.f = ctx_alloc(ctx, sizeof(Atom *) * (g.nf ? g.nf : 1));
          memcpy(g.f, gf_room, sizeof(Atom *) * g.nf);
        }
        TermVec nv = {0};
        tv_reserve(ctx, &nv, v->n - 2 + m->num->n);
        for (int k = 0; k < v->n; k++)
          if (k != i && k != j)
            tv_push(ctx, &nv, v->t[k]);
        for (int k = 0; k < m->num->n; k++)
          tv_push(ctx, &nv, term_mul(ctx, &g, &m->num->t[k]));
        *v = nv;
        return true;
      }
    }
  }
  return false;
}

static Poly *normalize(Ctx *ctx, TermVec *v)
{
  if (ctx->stopped) /* too_large: any value, and no more work */
    v->n = 0;
  tv_combine(v);
  while (fold_divmod_pair(ctx, v))
    tv_combine(v);
  if (v->n > POLY_MAX_TERMS) {
    too_large(ctx, "terms", POLY_MAX_TERMS);
    v->n = 0;
  }
  Poly *p = ctx_alloc(ctx, sizeof *p);
  p->n = v->n;
  p->t = v->t;
  return p;
}

Poly *poly_add(Ctx *ctx, Poly *a, Poly *b)
{
  /* Polys are never changed: an operand is the answer as it stands */
  if (a->n == 0)
    return b;
  if (b->n == 0)
    return a;
  TermVec v = {0};
  tv_reserve(ctx, &v, a->n + b->n);
  for (int i = 0; i < a->n; i++)
    tv_push(ctx, &v, a->t[i]);
  for (int i = 0; i < b->n; i++)
    tv_push(ctx, &v, b->t[i]);
  return normalize(ctx, &v);
}

Poly *poly_scale(Ctx *ctx, Poly *a, long long c)
{
  return poly_mul(ctx, a, poly_const(ctx, c));
}

Poly *poly_sub(Ctx *ctx, Poly *a, Poly *b)
{
  return poly_add(ctx, a, poly_scale(ctx, b, -1));
}

Poly *poly_mul(Ctx *ctx, Poly *a, Poly *b)
{
  if (a->n == 0 || poly_is_value(b, 1))
    return a;
  if (b->n == 0 || poly_is_value(a, 1))
    return b;
  if ((long long)a->n * b->n > POLY_MAX_TERMS) {
    too_large(ctx, "terms", POLY_MAX_TERMS);
    return poly_const(ctx, 0);
  }
  if (ctx->stopped || poly_factors(a) + poly_factors(b) > POLY_MAX_FACTORS) {
    if (!ctx->stopped)
      too_large(ctx, "factors in a product", POLY_MAX_FACTORS);
    return poly_const(ctx, 0);
  }
  TermVec v = {0};
  tv_reserve(ctx, &v, a->n * b->n);
  for (int i = 0; i < a->n; i++)
    for (int j = 0; j < b->n; j++)
      tv_push(ctx, &v, term_mul(ctx, &a->t[i], &b->t[j]));
  return normalize(ctx, &v);
}

bool poly_is_const(const Poly *p, long long *value)
{
  if (p->n == 0) {
    if (value)
      *value = 0;
    return true;
  }
  if (p->n == 1 && p->t[0].nf == 0) {
    if (value)
      *value = p->t[0].coef;
    return true;
  }
  return false;
}

bool poly_is_value(const Poly *p, long long value)
{
  long long v;
  return poly_is_const(p, &v) && v == value;
}

bool poly_extents_may_differ(const Poly *a, const Poly *b)
{
  long long x;
  return !poly_equal(a, b) && !(poly_is_const(a, &x) && poly_is_const(b, &x));
}

bool poly_equal(const Poly *a, const Poly *b)
{
  if (a == b)
    return true;
  if (!a || !b || a->n != b->n)
    return false;
  for (int i = 0; i < a->n; i++)
    if (a->t[i].coef != b->t[i].coef || term_cmp(&a->t[i], &b->t[i]))
      return false;
  return true;
}

static bool all_nonneg(const Poly *p)
{
  for (int i = 0; i < p->n; i++)
    if (p->t[i].coef < 0)
      return false;
  return true;
}

/* u is t times sizes: u's atoms are t's and others that are sizes (A_SYM). */
static bool times_sizes(const Term *u, const Term *t)
{
  int k = 0;
  for (int j = 0; j < u->nf; j++) {
    if (k < t->nf && u->f[j] == t->f[k])
      k++;
    else if (u->f[j]->kind != A_SYM)
      return false;
  }
  return k == t->nf && u->nf > t->nf;
}

/* Is p >= 0 whatever the atoms' values?  Sizes are at least 1, indices,
 * quotients and remainders at least 0.  A negative term is cancelled by
 * positive terms that are it times sizes (G * (N/G) - N/G >= 0: G >= 1). */
static bool provably_nonneg(const Poly *p)
{
  long long floor = 0, *left = malloc(sizeof(long long) * (p->n + 1));
  bool ok = left != NULL;
  for (int i = 0; ok && i < p->n; i++)
    left[i] = p->t[i].coef > 0 ? p->t[i].coef : 0;
  for (int i = 0; ok && i < p->n; i++) {
    const Term *t = &p->t[i];
    if (t->nf == 0 || t->coef >= 0)
      continue;
    long long need = -t->coef;
    for (int j = 0; j < p->n && need > 0; j++)
      if (left[j] > 0 && times_sizes(&p->t[j], t)) {
        long long take = left[j] < need ? left[j] : need;
        left[j] -= take;
        need -= take;
      }
    ok = need == 0;
  }
  for (int i = 0; ok && i < p->n; i++) {
    const Term *t = &p->t[i];
    if (t->nf == 0) {
      floor += t->coef;
      continue;
    }
    bool all_sizes = true;
    for (int k = 0; k < t->nf; k++)
      all_sizes &= t->f[k]->kind == A_SYM;
    if (all_sizes)
      floor += left[i];
  }
  free(left);
  return ok && floor >= 0;
}

static Poly *atom_max(Ctx *ctx, Atom *a)
{
  switch (a->kind) {
  case A_SYM:
    return poly_of_atom(ctx, a, 1);
  case A_VAR:
    return poly_sub(ctx, a->bound, poly_const(ctx, 1));
  case A_DIV:
    if (too_many_ops(a)) /* reported: any value */
      return poly_of_atom(ctx, a, 1);
    return poly_div(ctx, poly_max(ctx, a->num), a->den);
  case A_MOD:
    return poly_sub(ctx, a->den, poly_const(ctx, 1));
  }
  return poly_const(ctx, 0);
}

Poly *poly_max(Ctx *ctx, Poly *p)
{
  Poly *sum = poly_const(ctx, 0);
  for (int i = 0; i < p->n; i++) {
    const Term *t = &p->t[i];
    if (t->coef < 0)
      continue; /* a negative term only lowers the value */
    Poly *m = poly_const(ctx, t->coef);
    for (int k = 0; k < t->nf; k++)
      m = poly_mul(ctx, m, atom_max(ctx, t->f[k]));
    sum = poly_add(ctx, sum, m);
  }
  return sum;
}

bool poly_provably_less(Ctx *ctx, Poly *a, Poly *b)
{
  long long ca, cb;
  if (poly_is_const(a, &ca) && poly_is_const(b, &cb))
    return ca < cb;
  if (!all_nonneg(a))
    return false;
  Poly *diff = poly_sub(ctx, poly_sub(ctx, b, poly_max(ctx, a)), poly_const(ctx, 1));
  return provably_nonneg(diff);
}

/* Splits a = q*d + r term by term: q gathers the terms that d divides. */
static void split_by(Ctx *ctx, Poly *a, const Term *d, Poly **q, Poly **r)
{
  TermVec qv = {0}, rv = {0};
  for (int i = 0; i < a->n; i++) {
    const Term *t = &a->t[i];
    bool divides = d->coef > 0 && t->coef % d->coef == 0;
    Term rest = {divides ? t->coef / d->coef : 0, 0, NULL};
    if (divides) {
      rest.f = ctx_alloc(ctx, sizeof(Atom *) * (t->nf + 1));
      int k = 0;
      for (int j = 0; j < t->nf; j++) {
        if (k < d->nf && t->f[j] == d->f[k])
          k++;
        else
          rest.f[rest.nf++] = t->f[j];
      }
      divides = k == d->nf;
    }
    tv_push(ctx, divides ? &qv : &rv, divides ? rest : *t);
  }
  *q = normalize(ctx, &qv);
  *r = normalize(ctx, &rv);
}

static Poly *divmod_atom(Ctx *ctx, AtomKind kind, Poly *num, Poly *den)
{
  AtomKey k = {kind, NULL, NULL, num, den};
  Atom *a = atom_intern(ctx, &k);
  if (!a->ops) {
    long long ops = 1 + poly_ops(num) + poly_ops(den);
    a->ops = ops > POLY_MAX_OPS ? POLY_MAX_OPS + 1 : ops;
    if (too_many_ops(a))
      too_large(ctx, "operations of C", POLY_MAX_OPS);
  }
  return poly_of_atom(ctx, a, 1);
}

Poly *poly_div(Ctx *ctx, Poly *a, Poly *d)
{
  long long ca, cd;
  bool a_const = poly_is_const(a, &ca), d_const = poly_is_const(d, &cd);
  if (d_const && cd == 1)
    return a;
  if (a_const && ca == 0)
    return a;
  if (a_const && d_const && cd > 0 && ca >= 0)
    return poly_const(ctx, ca / cd);
  if (poly_equal(a, d))
    return poly_const(ctx, 1);
  if (d->n != 1 || d->t[0].coef <= 0 || !all_nonneg(a))
    return divmod_atom(ctx, A_DIV, a, d);
  Poly *q, *r;
  split_by(ctx, a, &d->t[0], &q, &r);
  if (r->n == 0 || poly_provably_less(ctx, r, d))
    return q;
  /* (x / k) / d == x / (k * d) */
  if (r->n == 1 && r->t[0].coef == 1 && r->t[0].nf == 1 && r->t[0].f[0]->kind == A_DIV) {
    Atom *in = r->t[0].f[0];
    return poly_add(ctx, q, poly_div(ctx, in->num, poly_mul(ctx, in->den, d)));
  }
  return poly_add(ctx, q, divmod_atom(ctx, A_DIV, r, d));
}

Poly *poly_mod(Ctx *ctx, Poly *a, Poly *d)
{
  long long ca, cd;
  bool a_const = poly_is_const(a, &ca), d_const = poly_is_const(d, &cd);
  if (d_const && cd == 1)
    return poly_const(ctx, 0);
  if (a_const && d_const && cd > 0 && ca >= 0)
    return poly_const(ctx, ca % cd);
  if (poly_equal(a, d))
    return poly_const(ctx, 0);
  if (d->n != 1 || d->t[0].coef <= 0 || !all_nonneg(a))
    return divmod_atom(ctx, A_MOD, a, d);
  Poly *q, *r;
  split_by(ctx, a, &d->t[0], &q, &r);
  if (r->n == 0)
    return r;
  if (poly_provably_less(ctx, r, d))
    return r;
  /* (x % a) % d == x % d when d divides a */
  if (r->n == 1 && r->t[0].coef == 1 && r->t[0].nf == 1 && r->t[0].f[0]->kind == A_MOD) {
    Atom *in = r->t[0].f[0];
    if (d_const && poly_is_const(in->den, &ca) && ca % cd == 0)
      return poly_mod(ctx, in->num, d);
  }
  return divmod_atom(ctx, A_MOD, r, d);
}

/* ---- evaluation: the one evaluator, the one walk ---- */

bool poly_value(const Poly *p, PolyLeaf leaf, void *arg, long long *out)
{
  long long sum = 0;
  for (int i = 0; i < p->n; i++) {
    long long t = p->t[i].coef, v, n, d;
    for (int k = 0; k < p->t[i].nf; k++) {
      const Atom *a = p->t[i].f[k];
      if (a->kind == A_DIV || a->kind == A_MOD) {
        if (too_many_ops(a) || !poly_value(a->num, leaf, arg, &n) || !poly_value(a->den, leaf, arg, &d) || d <= 0)
          return false;
        v = a->kind == A_DIV ? n / d : n % d;
      } else if (!leaf(arg, a, &v)) {
        return false;
      }
      if (__builtin_mul_overflow(t, v, &t))
        return false;
    }
    if (__builtin_add_overflow(sum, t, &sum))
      return false;
  }
  *out = sum;
  return true;
}

int poly_count_atom(const Poly *p, const Atom *a)
{
  int n = 0;
  for (int i = 0; i < p->n; i++)
    for (int k = 0; k < p->t[i].nf; k++) {
      const Atom *f = p->t[i].f[k];
      if (f == a)
        n++;
      else if (too_many_ops(f)) /* reported: taken to hold a */
        n++;
      else if (f->kind == A_DIV || f->kind == A_MOD)
        n += poly_count_atom(f->num, a) + poly_count_atom(f->den, a);
    }
  return n;
}

typedef struct VarValue {
  const Atom *var;
  long long value;
} VarValue;

static bool var_leaf(void *arg, const Atom *a, long long *out)
{
  const VarValue *vv = arg;
  if (a != vv->var)
    return false;
  *out = vv->value;
  return true;
}

bool poly_eval(const Poly *p, Atom *var, long long value, long long *out)
{
  VarValue vv = {var, value};
  return poly_value(p, var_leaf, &vv, out);
}

/* a size of macros and literals whose value parrayc knows */
static bool known_leaf(void *arg, const Atom *a, long long *out)
{
  (void)arg;
  if (a->kind != A_SYM || !a->known)
    return false;
  *out = a->value;
  return true;
}

/* A bound of the largest |value| p takes, from its constants: a size that
 * names a variable is unbounded (LLONG_MAX, SPEC.md 2.5: 64 bits where an
 * extent is known only at run time), one made of macros counts as the
 * value they give it (-D, the program's #define), or 1 when they give it
 * none: a compile-time constant, int offsets while it fits, as a careful
 * person writes them; #create checks at run time that its span does,
 * pa_check_int_span. */
static long long const_reach(const Poly *p, bool consts);

bool poly_known_value(const Poly *p, long long *value)
{
  return poly_value(p, known_leaf, NULL, value);
}

bool poly_names_variable(const Poly *p)
{
  for (int i = 0; i < p->n; i++)
    for (int k = 0; k < p->t[i].nf; k++) {
      const Atom *a = p->t[i].f[k];
      if ((a->kind == A_SYM && a->runtime) || too_many_ops(a) || (a->num && poly_names_variable(a->num)) ||
          (a->den && poly_names_variable(a->den)) || (a->bound && poly_names_variable(a->bound)))
        return true;
    }
  return false;
}

/* consts: for poly_math, the arithmetic as written: run-time sizes count
 * as 1 (no casts where only a variable could pass 2^31) */
static long long atom_reach(const Atom *a, bool consts)
{
  long long v;
  switch (a->kind) {
  case A_SYM:
    if (a->runtime)
      return consts ? 1 : LLONG_MAX;
    return a->known ? a->value : 1;
  case A_VAR:
    if (a->bound && poly_is_const(a->bound, &v))
      return v > 1 ? v - 1 : 1;
    /* a thread's index is an int in the code generated for it (thread
     * counts fit one); an index into a run-time size may pass 2^31 */
    return a->bound && strcmp(a->text, "pa_tid") ? const_reach(a->bound, consts) : 1;
  case A_DIV:
    if (too_many_ops(a))
      return LLONG_MAX;
    v = const_reach(a->num, consts);
    long long d;
    return poly_known_value(a->den, &d) && d > 0 ? v / d : v;
  case A_MOD:
    if (poly_known_value(a->den, &v))
      return v > 1 ? v - 1 : 0;
    return too_many_ops(a) ? LLONG_MAX : const_reach(a->num, consts);
  }
  return 1;
}

static long long const_reach(const Poly *p, bool consts)
{
  long long pos = 0, neg = 0;
  for (int i = 0; i < p->n; i++) {
    long long t = p->t[i].coef < 0 ? mul_sat(p->t[i].coef, -1) : p->t[i].coef;
    for (int k = 0; k < p->t[i].nf; k++)
      t = mul_sat(t, atom_reach(p->t[i].f[k], consts));
    long long *acc = p->t[i].coef < 0 ? &neg : &pos;
    if (__builtin_add_overflow(*acc, t, acc))
      *acc = LLONG_MAX;
  }
  return pos > neg ? pos : neg;
}

static bool fits_int(const Poly *p, bool consts)
{
  if (const_reach(p, consts) > INT_MAX)
    return false;
  for (int i = 0; i < p->n; i++) {
    if (p->t[i].coef > INT_MAX || p->t[i].coef < INT_MIN)
      return false;
    for (int k = 0; k < p->t[i].nf; k++) {
      Atom *a = p->t[i].f[k];
      if ((a->kind == A_DIV || a->kind == A_MOD) &&
          (too_many_ops(a) || !fits_int(a->num, consts) || !fits_int(a->den, consts)))
        return false;
    }
  }
  return true;
}

bool poly_fits_int(const Poly *p)
{
  return fits_int(p, false);
}

/* ---- printing ---- */

static bool poly_is_single_factor(const Poly *p)
{
  return p->n == 1 && ((p->t[0].nf == 0) || (p->t[0].nf == 1 && p->t[0].coef == 1 &&
                                             p->t[0].f[0]->kind != A_DIV &&
                                             p->t[0].f[0]->kind != A_MOD));
}

/* Does p print as one primary expression (a constant that is not
 * negative, one name, one parenthesised text), which needs no parentheses
 * of its own inside another? */
bool poly_is_atom(const Poly *p)
{
  if (p->n == 0)
    return true;
  const Term *t = &p->t[0];
  if (p->n != 1 || t->coef < 0)
    return false;
  if (t->nf == 0)
    return true; /* a constant */
  if (t->nf != 1 || t->coef != 1 || t->f[0]->kind == A_DIV || t->f[0]->kind == A_MOD)
    return false;
  /* a bare name is printed as it is (poly_print), anything else wide
   * after a (long long) cast */
  return poly_fits_int(p) || (t->f[0]->slot < 0 && util_text_is_simple(t->f[0]->text));
}

static void print_poly(Buf *b, const Poly *p, bool wide, bool consts);

static void print_operand(Buf *b, const Poly *p, bool wide, bool consts)
{
  if (poly_is_single_factor(p)) {
    print_poly(b, p, wide, consts);
  } else {
    buf_putc(b, '(');
    print_poly(b, p, wide, consts);
    buf_putc(b, ')');
  }
}

/* Size text as an operand of 64-bit arithmetic: "(long long)(n * n)" would
 * still multiply in int, so every operand that is not a literal is converted
 * where it stands, at any depth of parentheses: "m.rows * m.cols" as
 * "(long long)m.rows * (long long)m.cols", "f(n) << 16" as
 * "(long long)f(n) << 16", "N * N" (a macro) as "(long long)N * (long long)N".
 * A unary expression (a member, a call, a subscript, a cast, sizeof) is one
 * operand, converted whole; what a call's arguments or a subscript compute
 * is the program's own. */
typedef struct Wide {
  CTok *t;
  int *match; /* the index of the bracket closing t[i], or -1 */
  bool *mark; /* "(long long)" goes before t[i] */
} Wide;

static bool wide_punct(const Wide *w, int i, int end, const char *set)
{
  return i < end && w->t[i].kind == CT_PUNCT && w->t[i].n == 1 && strchr(set, w->t[i].s[0]);
}

/* t[i] and t[i + 1] written together as one operator ("<<", "++") */
static bool wide_joined(const Wide *w, int i, int end)
{
  return i + 1 < end && w->t[i + 1].kind == CT_PUNCT && w->t[i + 1].s == w->t[i].s + 1;
}

/* Does the group at t[i] read as a cast: type words and '*' only, an
 * operand after it ("(long)x", "(size_t)n", "(T)-x"; "(n) * m" too, where
 * converting it whole is right either way)? */
static bool wide_cast(const Wide *w, int i, int end)
{
  int close = w->match[i];
  if (close <= i + 1 || close + 1 >= end)
    return false;
  for (int k = i + 1; k < close; k++)
    if (w->t[k].kind != CT_IDENT && !wide_punct(w, k, close, "*"))
      return false;
  const CTok *n = &w->t[close + 1];
  return n->kind == CT_IDENT || n->kind == CT_NUMBER || n->kind == CT_STRING || n->kind == CT_CHAR ||
         wide_punct(w, close + 1, end, "(-+~!*&{"); /* "(int){3}": a compound literal */
}

/* the end of the unary expression at t[i]: prefixes, a primary, postfixes */
static int wide_operand_end(const Wide *w, int i, int end)
{
  for (;;) {
    if (wide_punct(w, i, end, "(") && w->match[i] > 0 && wide_cast(w, i, end)) {
      i = w->match[i] + 1;
    } else if (i < end && (ctok_word(w->t[i], "sizeof") || ctok_word(w->t[i], "_Alignof"))) {
      if (wide_punct(w, i + 1, end, "(") && w->match[i + 1] > 0)
        return w->match[i + 1] + 1; /* sizeof(int): a type, not a cast */
      i++;
    } else if (wide_punct(w, i, end, "-+~!*&")) {
      i++;
    } else {
      break;
    }
  }
  if (wide_punct(w, i, end, "([{") && w->match[i] > 0)
    i = w->match[i] + 1;
  else if (i + 1 < end && w->t[i].kind == CT_IDENT && (w->t[i + 1].kind == CT_CHAR || w->t[i + 1].kind == CT_STRING) &&
           w->t[i + 1].s == w->t[i].s + w->t[i].n)
    i += 2; /* L'x', u8"s": a prefix and its literal */
  else if (i < end)
    i++;
  for (;;) {
    if (wide_punct(w, i, end, "([") && w->match[i] > 0)
      i = w->match[i] + 1;
    else if (i < end && w->t[i].kind == CT_PUNCT && w->t[i].n == 2) /* -> */
      i += 2;
    else if (wide_punct(w, i, end, "."))
      i += 2;
    else if (wide_punct(w, i, end, "+-") && wide_joined(w, i, end) && w->t[i + 1].s[0] == w->t[i].s[0])
      i += 2; /* x++ */
    else
      return i < end ? i : end;
  }
}

/* "(long long)x": converted already */
static bool wide_already(const Wide *w, int i, int end)
{
  return wide_punct(w, i, end, "(") && w->match[i] == i + 3 && ctok_word(w->t[i + 1], "long") &&
         ctok_word(w->t[i + 2], "long") && wide_cast(w, i, end);
}

/* Does the number t[i] begin a product or shift of its own ("70000 * 70000
 * * n": the first multiplication would be int's)?  A number after an
 * operand already widened ("n * 4", "n - 1") takes its type. */
static bool wide_number_first(const Wide *w, int i, int end)
{
  bool after = (i > 0 && wide_punct(w, i - 1, end, "*/%")) ||
               (i > 1 && wide_punct(w, i - 1, end, "<>") && wide_joined(w, i - 2, end) &&
                w->t[i - 2].s[0] == w->t[i - 1].s[0]);
  bool before = wide_punct(w, i + 1, end, "*/%") ||
                (wide_punct(w, i + 1, end, "<") && wide_joined(w, i + 1, end) && w->t[i + 2].s[0] == '<');
  return before && !after;
}

static void wide_mark(Wide *w, int i, int end)
{
  while (i < end) {
    if (wide_punct(w, i, end, "-+~") && !(wide_joined(w, i, end) && w->t[i + 1].s[0] == w->t[i].s[0])) {
      i++; /* -n: the operand after it is converted */
      continue;
    }
    int j = wide_operand_end(w, i, end);
    if (wide_punct(w, i, end, "(") && j == w->match[i] + 1)
      wide_mark(w, i + 1, w->match[i]); /* (a * b): inside */
    else if ((!(j == i + 1 && w->t[i].kind == CT_NUMBER) || wide_number_first(w, i, end)) &&
             !wide_already(w, i, end))
      w->mark[i] = true;
    i = j;
    /* one binary operator, of one to three characters ("<<=") */
    if (i < end && w->t[i].kind == CT_PUNCT) {
      i++;
      while (i < end && w->t[i].kind == CT_PUNCT && w->t[i].s == w->t[i - 1].s + 1 &&
             strchr("<>=&|", w->t[i].s[0]))
        i++;
    } else if (i < end) {
      i++; /* not C an expression has: left as it is */
    }
  }
}

void print_wide_text(Buf *b, const char *text, bool paren)
{
  int n = 0, cap = 16;
  Wide w = {util_malloc(b->ctx, sizeof(CTok) * cap), NULL, NULL};
  CText c = ctext(text, NULL, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c)) {
    if (n == cap)
      w.t = util_realloc(b->ctx, w.t, sizeof(CTok) * (cap *= 2));
    w.t[n++] = t;
  }
  w.match = util_malloc(b->ctx, sizeof(int) * (n + 1));
  w.mark = memset(util_malloc(b->ctx, n + 1), 0, n + 1);
  int *open = util_malloc(b->ctx, sizeof(int) * (n + 1)), depth = 0;
  for (int i = 0; i < n; i++) {
    w.match[i] = -1;
    if (wide_punct(&w, i, n, "([{"))
      open[depth++] = i;
    else if (wide_punct(&w, i, n, ")]}") && depth > 0)
      w.match[open[--depth]] = i;
  }
  wide_mark(&w, 0, n);
  bool whole = n > 0 && w.mark[0] && wide_operand_end(&w, 0, n) == n;
  if (paren && !whole)
    buf_putc(b, '(');
  const char *from = text;
  for (int i = 0; i < n; i++)
    if (w.mark[i]) {
      buf_printf(b, "%.*s(long long)", (int)(w.t[i].s - from), from);
      from = w.t[i].s;
    }
  buf_puts(b, from);
  if (paren && !whole)
    buf_putc(b, ')');
  free(w.t);
  free(w.match);
  free(w.mark);
  free(open);
}

static void print_atom(Buf *b, const Atom *a, bool wide, bool alone, bool consts)
{
  switch (a->kind) {
  case A_SYM:
  case A_VAR:
    if (a->kind == A_VAR && a->slot >= 0)
      buf_printf(b, "pa_ix%d", a->slot);
    else if (util_text_is_simple(a->text))
      buf_puts(b, a->text);
    else
      buf_printf(b, "(%s)", a->text);
    return;
  case A_DIV:
  case A_MOD:
    if (too_many_ops(a)) { /* reported: the output is not written */
      buf_putc(b, '0');
      return;
    }
    if (!alone)
      buf_putc(b, '(');
    print_operand(b, a->num, wide, consts);
    buf_puts(b, a->kind == A_DIV ? " / " : " % ");
    print_operand(b, a->den, wide, consts);
    if (!alone)
      buf_putc(b, ')');
    return;
  }
}

bool poly_size_overflows(const Atom *a)
{
  return !util_text_is_simple(a->text) && (a->runtime || !a->known || a->value > INT_MAX);
}

/* Is a a size poly_size_overflows says may overflow int, or an index into
 * a size only the run knows written as arithmetic ("n - 1"): printed with
 * each operand converted to long long, since converting the result would
 * be too late? */
static bool widened(const Atom *a, bool consts)
{
  if (util_text_is_simple(a->text ? a->text : "x"))
    return false;
  if (a->kind == A_SYM)
    return poly_size_overflows(a);
  return a->kind == A_VAR && a->slot < 0 && a->bound && const_reach(a->bound, consts) == LLONG_MAX;
}

static void print_term(Buf *b, const Term *t, bool wide, bool first, bool consts)
{
  long long c = t->coef;
  if (!first)
    buf_puts(b, c < 0 ? " - " : " + ");
  else if (c < 0)
    buf_putc(b, '-');
  if (c < 0)
    c = -c;
  if (t->nf == 0) {
    buf_printf(b, wide ? "%lldLL" : "%lld", c);
    return;
  }
  bool alone = t->nf == 1 && c == 1;
  /* indices first, sizes after: "i * N", as one writes it by hand */
  int printed = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int k = 0; k < t->nf; k++) {
      if ((t->f[k]->kind == A_SYM) != (pass == 1))
        continue;
      Atom *a = t->f[k];
      if (printed++)
        buf_puts(b, " * ");
      if (wide && widened(a, consts)) {
        /* converted operand by operand, in parentheses: the poly may be
         * an operand itself ("(n - 1) % m") */
        print_wide_text(b, a->text, true);
        continue;
      }
      if (printed == 1 && wide)
        buf_puts(b, "(long long)");
      print_atom(b, t->f[k], wide, alone && !wide, consts);
    }
  if (c != 1)
    buf_printf(b, " * %lld", c);
}

static void print_poly(Buf *b, const Poly *p, bool wide, bool consts)
{
  if (p->n == 0) {
    buf_puts(b, "0");
    return;
  }
  /* a bare name has its own type: nothing is computed to overflow */
  if (wide && p->n == 1 && p->t[0].nf == 1 && p->t[0].coef == 1 && p->t[0].f[0]->kind != A_DIV &&
      p->t[0].f[0]->kind != A_MOD && p->t[0].f[0]->slot < 0 && util_text_is_simple(p->t[0].f[0]->text))
    wide = false;
  /* a positive term first reads better than a leading minus */
  int first = 0;
  for (int i = 0; i < p->n; i++)
    if (p->t[i].coef > 0) {
      first = i;
      break;
    }
  print_term(b, &p->t[first], wide, true, consts);
  for (int i = 0; i < p->n; i++)
    if (i != first)
      print_term(b, &p->t[i], wide, false, consts);
}

const char *index_type(const Poly *extent)
{
  return poly_fits_int(extent) ? "int" : "long long";
}

void poly_print(Buf *b, const Poly *p, bool wide)
{
  print_poly(b, p, wide, false);
}

/* p as C text, in long long where its reach (consts: from the constants
 * alone) passes int */
static char *poly_text(Ctx *ctx, const Poly *p, bool consts)
{
  Buf b = {.ctx = ctx};
  print_poly(&b, p, !fits_int(p, consts), consts);
  char *s = ctx_strdup(ctx, b.data ? b.data : "0");
  buf_free(&b);
  return s;
}

char *poly_math(Ctx *ctx, const Poly *p)
{
  return poly_text(ctx, p, true);
}

char *poly_str(Ctx *ctx, const Poly *p)
{
  return poly_text(ctx, p, false);
}
