/* emit_mpi.c: mpi process arrays and distributed data (SPEC.md 4, 6.3).
 *
 * A program with an mpi array runs as |P| processes.  main() initialises
 * MPI; process 0 runs the #mainhost block (pa_main) and the others wait in
 * pa_mpi_serve().  A detour's body becomes a function placed before the
 * top-level item that holds the detour:
 *
 *   struct pa_args_P_L12 { float *a; int n; };          (P's PARAMS)
 *   static void pa_detour_P_L12(int pa_rank, float *a, int n) { BODY }
 *   static void pa_run_P_L12(void *pa_args) { unpack; call the body }
 *   PA_MPI_REGISTER(1, pa_run_P_L12)                    (detour number 1)
 *
 * and the directive becomes a call that broadcasts the number and the bytes
 * of the packed arguments, runs the body everywhere and waits for all.
 *
 * Distributed data: a dimension of a data type that references an mpi
 * array selects the process; types.c gives it offset 0, so the rest of the
 * type is the local layout of each process.  A #copy with a distributed
 * side moves elements in buckets, one per pair of processes: both sides
 * walk the elements in increasing logical index, the sender packs bucket
 * by bucket, a collective moves them (scatter, gather, all-to-all or
 * broadcast), and the receiver unpacks in the same order. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>


static bool has_mainhost(Node *list)
{
  for (Node *n = list; n; n = n->next)
    if (n->kind == N_MAINHOST || (n->body && n->kind != N_DETOUR && has_mainhost(n->body)))
      return true;
  return false;
}

static bool detour_ok(Emitter *e, Node *n, Type *t)
{
  Ctx *ctx = e->ctx;
  if (!has_mainhost(ctx->tree)) {
    diag_error(ctx, n->loc,
               "mpi detour on '%s' in a program without '#mainhost': the main() that #mainhost generates starts "
               "the MPI processes",
               n->name);
    return false;
  }
  if (e->detour) {
    ThreadKind k = e->detour->type->kind;
    diag_error(ctx, n->loc,
               "mpi detour on '%s' inside %s %s detour: mpi detours start only from the #mainhost code of "
               "process 0",
               n->name, k == TK_OMP || k == TK_MPI ? "an" : "a", thread_kind_name(k));
    return false;
  }
  bool ok = true;
  for (int i = 0; i < t->nparams; i++)
    if (strchr(t->ptypes[i], '[')) {
      diag_error(ctx, n->loc,
                 "parameter '%s' of mpi array '%s' is an array: detour arguments are sent by value, "
                 "declare it as a pointer (meaningful on process 0 only)",
                 t->pnames[i], t->name);
      ok = false;
    }
  return ok;
}

/* The outlined body, its argument struct and the function that unpacks
 * the arguments each process receives. */
/* The body's function, and the function that unpacks the arguments sent
 * by process 0 (the parameters, and copies of the caller's locals the
 * body uses) and calls it. */
static void write_functions(Emitter *e, Node *n, Type *t, int id, const char *fname, const char *sname,
                            const char *rname, const char *body, Capture *caps, int ncaps)
{
  Loc loc = n->loc;
  bool args = t->nparams || ncaps;
  if (args) {
    out_gen(e, loc, "/* the arguments of '#detour %s'%s, sent by value from process 0 */\n", n->name,
            ncaps ? " and the caller's locals it uses" : "");
    out_gen(e, loc, "struct %s {\n", sname);
    for (int i = 0; i < t->nparams; i++)
      out_gen(e, loc, "  %s;\n", t->ptypes[i]);
    for (int i = 0; i < ncaps; i++)
      out_gen(e, loc, "  %s;\n", caps[i].decl);
    out_gen(e, loc, "};\n\n");
  }
  out_gen(e, loc, "/* the body of '#detour %s', run by each of the |%s| MPI processes */\n", n->name, t->name);
  out_gen(e, loc, "static void %s(int pa_rank", fname);
  for (int i = 0; i < t->nparams; i++)
    out_gen(e, loc, ", %s", t->ptypes[i]);
  for (int i = 0; i < ncaps; i++)
    out_gen(e, loc, ", %s", caps[i].decl);
  out_gen(e, loc, ")\n{\n");
  if (!mentions(body, "pa_rank"))
    out_gen(e, loc, "  (void)pa_rank;\n");
  for (int i = 0; i < t->nparams; i++)
    if (!mentions(body, t->pnames[i]))
      out_gen(e, loc, "  (void)%s;\n", t->pnames[i]);
  buf_puts(&e->out->b, body);
  if (e->out->b.len && e->out->b.data[e->out->b.len - 1] != '\n')
    buf_putc(&e->out->b, '\n');
  e->out->line = -1;
  out_gen(e, loc, "}\n\n");
  out_gen(e, loc, "static void %s(void *pa_args)\n{\n", rname);
  if (args) {
    out_gen(e, loc, "  const struct %s *pa_a = (const struct %s *)pa_args;\n", sname, sname);
    out_gen(e, loc, "  %s(pa_mpi_rank()", fname);
    for (int i = 0; i < t->nparams; i++)
      out_gen(e, loc, ", pa_a->%s", t->pnames[i]);
    /* an array reaches the body as a pointer to this process's copy */
    for (int i = 0; i < ncaps; i++)
      out_gen(e, loc, caps[i].array ? ", (void *)pa_a->%s" : ", pa_a->%s", caps[i].name);
    out_gen(e, loc, ");\n}\n");
  } else {
    out_gen(e, loc, "  (void)pa_args;\n  %s(pa_mpi_rank());\n}\n", fname);
  }
  out_gen(e, loc, "PA_MPI_REGISTER(%d, %s)\n\n", id, rname);
}

void emit_mpi_detour(Emitter *e, Node *n, Type *t)
{
  Ctx *ctx = e->ctx;
  if (!detour_ok(e, n, t))
    return;
  int id = ++e->mpi_detours;
  const char *fname = detour_name(e, "pa_detour", n, t);
  const char *sname = detour_name(e, "pa_args", n, t);
  const char *rname = detour_name(e, "pa_run", n, t);
  const char *in = indent_of(n);

  /* the body: $tid$ is the rank, #sync a barrier */
  Detour dt;
  char *text = outline_detour(e, n, t, fname, "pa_rank", &dt);
  Capture *caps;
  int ncaps = find_captures(e, n, text, t->pnames, t->nparams, &caps);
  if (ncaps < 0)
    return;

  /* the call on process 0: arguments evaluated once, then sent */
  Buf args = {0};
  for (int i = 0; i < n->nargs; i++)
    buf_printf(&args, "%s%s", i ? ", " : "", str_trim(ctx, fragment_text(e, n->args[i])));
  for (int i = 0; i < ncaps; i++)
    if (!caps[i].array)
      buf_printf(&args, "%s.%s = %s", args.len ? ", " : "", caps[i].name, caps[i].name);
  bool send = t->nparams || ncaps;
  long long np;
  char *how_many = poly_is_const(t->root->extent, &np) ? ctx_printf(ctx, "%lld", np)
                                                        : ctx_printf(ctx, "|%s|", t->name);
  emit_launch_checks(e, n, &dt);
  out_gen(e, n->loc, "%s{ /* #detour %s: %s MPI processes */\n", in, n->name, how_many);
  if (send) {
    /* arrays cannot be initialised from arrays: copied after */
    out_gen(e, n->loc, "%s  struct %s pa_args = {%s};\n", in, sname, args.data ? args.data : "");
    for (int i = 0; i < ncaps; i++)
      if (caps[i].array)
        out_gen(e, n->loc, "%s  memcpy(pa_args.%s, %s, sizeof pa_args.%s);\n", in, caps[i].name, caps[i].name,
                caps[i].name);
  }
  out_gen(e, n->loc, "%s  pa_mpi_detour(%d, %s, %s, %s, %s, %s, %d);\n", in, id, send ? "&pa_args" : "NULL",
          send ? "sizeof pa_args" : "0", bare(ctx, poly_text(e, t->root->extent)), c_string(ctx, t->name),
          c_string(ctx, loc_file(ctx, n->loc)), loc_line(ctx, n->loc));
  out_gen(e, n->loc, "%s}", in);
  buf_free(&args);

  Out fn = {{0}, -1, 0};
  Out *saved = e->out;
  e->out = &fn;
  write_functions(e, n, t, id, fname, sname, rname, text, caps, ncaps);
  e->out = saved;
  out_append(&e->hoist, &fn);
  out_free(&fn);
}

/* ---- #sync ---- */

void emit_mpi_sync(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  Type *t = e->detour->type;
  const char *in = indent_of(n);
  const char *suffix = n->name ? n->name : "";
  if (*suffix) {
    Dim *d = dim_resolve(ctx, ctx_printf(ctx, "%s%s", t->name, suffix), n->loc);
    if (!d)
      return;
    long long v;
    if (poly_is_const(d->extent, &v) && v == 1) {
      out_gen(e, n->loc, "%s/* #sync%s: every group is one process */\n", in, suffix);
      return;
    }
    if (!poly_equal(d->extent, t->root->extent)) {
      diag_error(ctx, n->loc,
                 "'#sync%s' synchronises a part of the processes of '%s', which the mpi target cannot do: "
                 "use '#sync' (all processes)",
                 suffix, t->name);
      return;
    }
  }
  out_gen(e, n->loc, "%spa_mpi_sync(%s, %d);%s\n", in, c_string(ctx, loc_file(ctx, n->loc)), loc_line(ctx, n->loc),
          *suffix ? ctx_printf(ctx, " /* #sync%s: all processes */", suffix) : "");
}

/* ---- #mainhost ---- */

void emit_mpi_main(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  out_gen(e, n->loc, "/* #mainhost: runs on process 0; the others serve its mpi detours */\n");
  emit_main_body(e, n);
  out_gen(e, n->loc,
          "int main(int argc, char **argv)\n"
          "{\n"
          "  pa_init(&argc, &argv);\n"
          "  pa_mpi_init(&argc, &argv);\n");
  /* the job must have as many processes as each mpi array (those of
   * non-constant extent are checked at their detours) */
  for (Type *t = ctx->types; t; t = t->next) {
    long long np;
    if (t->kind == TK_MPI && poly_is_const(t->root->extent, &np))
      out_gen(e, n->loc, "  pa_mpi_expect(%lld, %s, %s, %d);\n", np, c_string(ctx, t->name),
              c_string(ctx, loc_file(ctx, t->loc)), loc_line(ctx, t->loc));
  }
  out_gen(e, n->loc,
          "  int status = pa_mpi_rank() == 0 ? pa_main(argc, argv) : pa_mpi_serve();\n"
          "  pa_mpi_finalize();\n"
          "  pa_finalize();\n"
          "  return status;\n"
          "}\n");
}

/* ---- distributed #copy ---- */

/* One digit of a side's logical index: a process digit (a dimension that
 * references the mpi array) or a local one (a leaf). */
typedef struct MDigit {
  Dim *d;
  Poly *extent, *place; /* place: weight in the side's linear index */
  bool proc;
  Poly *var;            /* the loop variable */
} MDigit;

typedef struct Side {
  Dim *dim;
  const char *ptr;      /* C text of the pointer */
  Type *procs;          /* the mpi array it is distributed over, or NULL */
  MDigit *dg;
  int n;
  Poly *local;          /* elements per process */
} Side;

static void push_digit(Ctx *ctx, Side *s, Dim *d, bool proc)
{
  long long one;
  if (!proc && poly_is_const(d->extent, &one) && one == 1)
    return; /* a loop of one */
  MDigit *dg = ctx_alloc(ctx, sizeof(MDigit) * (s->n + 1));
  if (s->n)
    memcpy(dg, s->dg, sizeof(MDigit) * s->n);
  dg[s->n].d = d;
  dg[s->n].extent = d->extent;
  dg[s->n].proc = proc;
  s->dg = dg;
  s->n++;
}

static bool collect(Emitter *e, Node *n, Dim *d, Side *s)
{
  if (d->ref && d->ref->type->kind == TK_MPI) {
    push_digit(e->ctx, s, d, true);
    return true;
  }
  Type *tt = dim_thread_type(d);
  if (tt && (d->ref_kind == REF_SPLIT || d->ref_kind == REF_SIZED)) {
    diag_error(e->ctx, n->loc,
               "'%s' views distributed data through '[... #%s]': the mpi target needs the process dimension "
               "itself ('[#%s]') in the type",
               d->path, d->ref->path, tt->name);
    return false;
  }
  int m = dim_nkids(d);
  if (m == 0) {
    push_digit(e->ctx, s, d, false);
    return true;
  }
  for (int k = 0; k < m; k++)
    if (!collect(e, n, dim_kid(d, k), s))
      return false;
  return true;
}

static bool within(Dim *a, Dim *b) /* a is b or lies under it */
{
  for (; a; a = a->parent)
    if (a == b)
      return true;
  return false;
}

/* The digits of a side, their place values and loop variables. */
static bool make_side(Emitter *e, Node *n, Dim *d, const char *ptr, Side *s)
{
  Ctx *ctx = e->ctx;
  memset(s, 0, sizeof *s);
  s->dim = d;
  s->ptr = ptr;
  s->procs = dim_thread_type(d);
  if (s->procs && s->procs->kind != TK_MPI) {
    diag_error(ctx, n->loc, "'%s' is distributed over the %s array '%s': only data distributed over mpi arrays can "
               "be copied", d->path, thread_kind_name(s->procs->kind), s->procs->name);
    return false;
  }
  if (!collect(e, n, d, s))
    return false;
  for (int k = 0; k < s->n && !s->procs; k++)
    if (s->dg[k].proc)
      s->procs = s->dg[k].d->ref->type; /* found only under a reference */
  Poly *place = poly_const(ctx, 1);
  s->local = poly_const(ctx, 1);
  for (int k = s->n - 1; k >= 0; k--) {
    MDigit *g = &s->dg[k];
    g->place = place;
    place = poly_mul(ctx, place, g->extent);
    g->var = poly_var(ctx, ctx_printf(ctx, "%s%d", g->proc ? "pa_p" : "pa_i", k), g->extent);
    if (!g->proc)
      s->local = poly_mul(ctx, s->local, g->extent);
    else if (g->d->ref->type != s->procs) {
      diag_error(ctx, n->loc, "'%s' is distributed over two mpi arrays ('%s' and '%s')", d->path, s->procs->name,
                 g->d->ref->type->name);
      return false;
    }
  }
  for (int a = 0; a < s->n; a++)
    for (int b = 0; b < s->n; b++)
      if (a != b && s->dg[a].proc && s->dg[b].proc && within(s->dg[a].d->ref, s->dg[b].d->ref)) {
        diag_error(ctx, n->loc, "'%s' references the processes of '%s' twice ('%s' and '%s')", d->path,
                   s->procs->name, s->dg[a].d->path, s->dg[b].d->path);
        return false;
      }
  if (s->procs) {
    /* the local layout must not depend on the process */
    Poly *full = poly_const(ctx, 0), *zero = poly_const(ctx, 0);
    for (int k = 0; k < s->n; k++) {
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
static Poly *linear(Ctx *ctx, Side *s)
{
  Poly *i = poly_const(ctx, 0);
  for (int k = 0; k < s->n; k++)
    i = poly_add(ctx, i, poly_mul(ctx, s->dg[k].var, s->dg[k].place));
  return i;
}

/* The process that stores element i of side s (0 for an ordinary array,
 * which lives on process 0); own: i is at s's own loop variables. */
static Poly *owner(Ctx *ctx, Side *s, Poly *i, bool own)
{
  Poly *p = poly_const(ctx, 0);
  for (int k = 0; k < s->n; k++) {
    MDigit *g = &s->dg[k];
    if (!g->proc)
      continue;
    Poly *digit = own ? g->var : poly_mod(ctx, poly_div(ctx, i, g->place), g->extent);
    p = poly_add(ctx, p, dim_offset(ctx, g->d->ref, digit));
  }
  return p;
}

static bool uses_atom(const Poly *p, const Atom *a)
{
  for (int i = 0; i < p->n; i++)
    for (int k = 0; k < p->t[i].nf; k++) {
      Atom *f = p->t[i].f[k];
      if (f == a || ((f->kind == A_DIV || f->kind == A_MOD) && (uses_atom(f->num, a) || uses_atom(f->den, a))))
        return true;
    }
  return false;
}

/* Does p depend on a local loop variable of s? */
static bool uses_locals(Side *s, Poly *p)
{
  for (int k = 0; k < s->n; k++)
    if (!s->dg[k].proc && uses_atom(p, s->dg[k].var->t[0].f[0]))
      return true;
  return false;
}

/* Writes a loop nest over the elements of side s: all of them in
 * increasing logical index, or (own) those of this process.  With
 * locals false only the process digits are looped over.  cond, when not
 * NULL, guards the whole nest. */
static void nest(Emitter *e, Node *n, Side *s, bool own, bool locals, const char *cond, const char *stmt)
{
  Ctx *ctx = e->ctx;
  Buf ind = {0};
  buf_printf(&ind, "%s  ", indent_of(n));
  if (cond) {
    out_gen(e, n->loc, "%sif (%s)\n", ind.data, cond);
    buf_puts(&ind, "  ");
  }
  /* this process's elements: fix the process digits first */
  for (int pass = own ? 0 : 1; pass < 2; pass++) {
    for (int k = 0; k < s->n; k++) {
      MDigit *g = &s->dg[k];
      bool here = own ? (pass == 0) == g->proc : (g->proc || locals);
      if (!here || (!g->proc && !locals))
        continue;
      const char *v = g->var->t[0].f[0]->text;
      out_gen(e, n->loc, "%sfor (int %s = 0; %s < %s; %s++)\n", ind.data, v, v, bare(ctx, poly_text(e, g->extent)), v);
      buf_puts(&ind, "  ");
    }
    if (own && pass == 0) {
      out_gen(e, n->loc, "%sif (%s == pa_rank)\n", ind.data, poly_text(e, owner(ctx, s, NULL, true)));
      buf_puts(&ind, "  ");
    }
  }
  out_gen(e, n->loc, "%s%s;\n", ind.data, stmt);
  buf_free(&ind);
}

/* "bucket[p] += count" over the nest of s (own or all), looping over the
 * local digits only when the bucket depends on them. */
static void count(Emitter *e, Node *n, Side *s, bool own, const char *cond, const char *array, Poly *bucket)
{
  Ctx *ctx = e->ctx;
  bool locals = uses_locals(s, bucket);
  Poly *inc = locals ? poly_const(ctx, 1) : s->local;
  nest(e, n, s, own, locals, cond,
       ctx_printf(ctx, "pa_x->%s[%s] += %s", array, bare(ctx, poly_text(e, bucket)), bare(ctx, poly_text(e, inc))));
}

static const char *how_name(int how)
{
  static const char *names[] = {"PA_MPI_SCATTER", "PA_MPI_GATHER", "PA_MPI_ALLTOALL", "PA_MPI_BCAST"};
  return names[how];
}

enum { SCATTER, GATHER, ALLTOALL, BCAST };

/* The leading identifier of a pointer expression. */
static char *leading_name(Ctx *ctx, const char *p)
{
  while (*p == ' ' || *p == '(' || *p == '\t')
    p++;
  const char *s = p;
  while (is_ident_char((unsigned char)*p))
    p++;
  return ctx_strndup(ctx, s, (size_t)(p - s));
}

/* Does expression text name process 0's memory: a pointer parameter of
 * the mpi detour? */
static bool process0_array(Emitter *e, const char *text)
{
  Type *t = e->detour->type;
  char *name = leading_name(e->ctx, text);
  for (int i = 0; i < t->nparams; i++)
    if (!strcmp(t->pnames[i], name) && strchr(t->ptypes[i], '*'))
      return true;
  return false;
}

void emit_mpi_copy(Emitter *e, Node *n, Dim *src, Dim *dst)
{
  Ctx *ctx = e->ctx;
  const char *in = indent_of(n);
  char *sp = str_trim(ctx, fragment_text(e, n->args[0]));
  char *dp = str_trim(ctx, fragment_text(e, n->args[1]));
  Type *mpi = e->detour && e->detour->type->kind == TK_MPI ? e->detour->type : NULL;
  Side S, T;
  if (!make_side(e, n, src, sp, &S) || !make_side(e, n, dst, dp, &T))
    return;
  if (!mpi) {
    if (e->detour)
      diag_error(ctx, n->loc, "a #copy of distributed data must stand in the body of its mpi detour itself, not "
                 "in a nested %s detour", thread_kind_name(e->detour->type->kind));
    else
      diag_error(ctx, n->loc, "a #copy of distributed data must stand in the body of an mpi detour");
    return;
  }
  Side *sides[2] = {&S, &T};
  for (int k = 0; k < 2; k++)
    if (sides[k]->procs && sides[k]->procs != mpi) {
      diag_error(ctx, n->loc, "'%s' is distributed over '%s', but this detour runs on '%s'", sides[k]->dim->path,
                 sides[k]->procs->name, mpi->name);
      return;
    }
  int how;
  const char *what;
  if (S.procs && T.procs) {
    how = ALLTOALL, what = "all-to-all among the processes";
  } else if (S.procs) {
    how = GATHER, what = "gather to process 0";
  } else if (T.procs) {
    how = SCATTER, what = "scatter from process 0";
  } else if (process0_array(e, sp) && !process0_array(e, dp)) {
    how = BCAST, what = "broadcast from process 0";
  } else if (process0_array(e, dp)) {
    /* process 0's memory exists on process 0 only */
    out_gen(e, n->loc, "%sif (pa_rank == 0) /* #copy into process 0's memory */\n", in);
    emit_copy_loop(e, n, src, sp, dst, dp, false);
    return;
  } else {
    emit_copy_loop(e, n, src, sp, dst, dp, false);
    return;
  }
  long long x;
  if (!poly_is_const(src->extent, &x) || !poly_is_const(dst->extent, &x))
    out_gen(e, n->loc, "%spa_mpi_check_copy_extent(%s, %s, %s, %d);\n", in, bare(ctx, poly_text(e, src->extent)),
            bare(ctx, poly_text(e, dst->extent)), c_string(ctx, loc_file(ctx, n->loc)), loc_line(ctx, n->loc));
  const char *elem = dst->type->elem;
  bool show = !strstr(sp, "*/") && !strstr(dp, "*/");
  out_gen(e, n->loc, "%s{ /* #copy %s(%s) to %s(%s): %s */\n", in, n->name, show ? sp : "..", n->name2,
          show ? dp : "..", what);
  out_gen(e, n->loc, "%s  pa_mpi_xchg *pa_x = pa_mpi_xchg_begin(sizeof(%s));\n", in, elem);
  out_gen(e, n->loc, "%s  const %s *pa_src = %s;\n", in, elem, sp);
  out_gen(e, n->loc, "%s  %s *pa_dst = %s;\n", in, elem, dp);
  /* w: the side whose digits drive the loops where only one is distributed */
  Side *w = how == GATHER || how == BCAST ? &S : &T;
  Poly *iS = linear(ctx, &S), *iT = linear(ctx, &T), *iw = linear(ctx, w);
  char *root = ctx_strdup(ctx, "pa_rank == 0");
  const char *sb = "pa_sbuf[pa_x->scur[%s]++] = pa_src[%s]";
  const char *rb = "pa_dst[%s] = pa_rbuf[pa_x->rcur[%s]++]";
  out_gen(e, n->loc, "%s  /* elements to and from each process */\n", in);
  switch (how) {
  case SCATTER:
    count(e, n, &T, false, root, "scount", owner(ctx, &T, iT, true));
    count(e, n, &T, true, NULL, "rcount", poly_const(ctx, 0));
    break;
  case GATHER:
    count(e, n, &S, true, NULL, "scount", poly_const(ctx, 0));
    count(e, n, &S, false, root, "rcount", owner(ctx, &S, iS, true));
    break;
  case ALLTOALL:
    count(e, n, &S, true, NULL, "scount", owner(ctx, &T, iS, false));
    count(e, n, &T, true, NULL, "rcount", owner(ctx, &S, iT, false));
    break;
  case BCAST:
    count(e, n, &S, false, root, "scount", poly_const(ctx, 0));
    count(e, n, &S, false, NULL, "rcount", poly_const(ctx, 0));
    break;
  }
  out_gen(e, n->loc, "%s  %s *pa_sbuf = (%s *)pa_mpi_xchg_pack(pa_x);\n", in, elem, elem);
  switch (how) {
  case SCATTER:
  case BCAST:
    nest(e, n, w, false, true, root,
         ctx_printf(ctx, sb, bare(ctx, poly_text(e, owner(ctx, &T, iw, true))),
                    bare(ctx, poly_text(e, dim_offset(ctx, src, iw)))));
    break;
  case GATHER:
  case ALLTOALL:
    nest(e, n, &S, true, true, NULL,
         ctx_printf(ctx, sb, bare(ctx, poly_text(e, owner(ctx, &T, iS, false))),
                    bare(ctx, poly_text(e, dim_offset(ctx, src, iS)))));
    break;
  }
  out_gen(e, n->loc, "%s  const %s *pa_rbuf = (const %s *)pa_mpi_xchg_run(pa_x, %s, %s, %d);\n", in, elem, elem,
          how_name(how), c_string(ctx, loc_file(ctx, n->loc)), loc_line(ctx, n->loc));
  switch (how) {
  case SCATTER:
  case ALLTOALL:
    nest(e, n, &T, true, true, NULL,
         ctx_printf(ctx, rb, bare(ctx, poly_text(e, dim_offset(ctx, dst, iT))),
                    bare(ctx, poly_text(e, owner(ctx, &S, iT, false)))));
    break;
  case GATHER:
    nest(e, n, &S, false, true, root,
         ctx_printf(ctx, rb, bare(ctx, poly_text(e, dim_offset(ctx, dst, iS))),
                    bare(ctx, poly_text(e, owner(ctx, &S, iS, true)))));
    break;
  case BCAST:
    nest(e, n, &S, false, true, NULL,
         ctx_printf(ctx, rb, bare(ctx, poly_text(e, dim_offset(ctx, dst, iS))), "0"));
    break;
  }
  out_gen(e, n->loc, "%s  pa_mpi_xchg_end(pa_x);\n", in);
  out_gen(e, n->loc, "%s}\n", in);
}
