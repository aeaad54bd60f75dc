/* emit.c: the walk over the syntax tree.  C text is copied through with
 * #line directives; each Parray construct goes to the target that
 * backend_for (backend.h) finds for it among those the driver lists,
 * never to a target by name.
 * Detour bodies are walked here, into text the backend outlines into a
 * function placed before the top-level item that holds the detour. */
#include "emit/emit.h"
#include "ctext.h"
#include "emit/hostc.h"
#include "model/branches.h"
#include "model/macros.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- the one place that maps kinds to targets ---- */

/* a copy goes to the target of whoever runs it (copy_plan.c, copy_by) */
static const Backend *copy_backend(Emitter *e, const CopyPlan *p)
{
  switch (p->by) {
  case COPY_BY_PROCESSES:
    return backend_for(e, TK_MPI, MEM_NONE);
  case COPY_BY_THREAD:
    return backend_for(e, p->detour->kind, MEM_NONE);
  case COPY_BY_DEVICE:
    return backend_for(e, TK_NONE, MEM_DMEM);
  case COPY_BY_HOST:
    break;
  }
  return backend_for(e, TK_NONE, MEM_NONE);
}

/* A plan under a run-time condition (copy_plan.c, guarded): its
 * mechanism when the condition holds, its fallback otherwise. */
static void print_copy(Emitter *e, Node *n, const CopyPlan *p)
{
  if (!p->nguard) {
    copy_backend(e, p)->copy(e, n, p);
    return;
  }
  const char *in = text_indent_of(n);
  Node inner = *n;
  inner.out_indent = ctx_printf(e->ctx, "%s  ", in);
  CopyPlan fast = *p;
  fast.nguard = 0;
  out_gen(e->out, n->loc, "%sif (%s) { /* the sizes let the digits line up */\n", in, copy_guard_text(e->ctx, p));
  copy_backend(e, &fast)->copy(e, &inner, &fast);
  out_gen(e->out, n->loc, "%s} else {\n", in);
  copy_backend(e, p->fallback)->copy(e, &inner, p->fallback);
  out_gen(e->out, n->loc, "%s}\n", in);
}

/* The innermost detour runs on a GPU (its target says so). */
static bool detour_on_gpu(Emitter *e)
{
  return e->detour && backend_for(e, e->detour->type->kind, MEM_NONE)->gpu;
}

/* Directive n does work on a GPU (memory, a copy, a kernel).  Inside a
 * pthd, omp or mpi body each thread or process then binds a GPU of its own
 * (SPEC 6.5): the innermost such detour is marked, and its backend prints
 * the binding. */
static void note_gpu_work(Emitter *e)
{
  if (e->detour && !detour_on_gpu(e))
    e->detour->gpu_work = true;
}

/* ---- the walk ---- */

static void emit_node(Emitter *e, Node *n);

static void emit_nodes(Emitter *e, Node *list)
{
  for (Node *n = list; n && !e->ctx->stopped; n = n->next)
    emit_node(e, n);
}

/* the words without their comments, as the C compiler reads a pragma
 * ("nowait(apart) /+ why +/" -> "nowait(apart)") */
static const char *uncommented(Ctx *ctx, const char *words)
{
  Buf b = {.ctx = ctx};
  CText c = ctext(words, NULL, 0);
  for (CTok t = ctext_next(&c); t.kind != CT_END; t = ctext_next(&c))
    buf_printf(&b, "%.*s", t.kind == CT_COMMENT ? 1 : (int)t.n, t.kind == CT_COMMENT ? " " : t.s);
  const char *u = util_str_trim(ctx, b.data ? b.data : "");
  buf_free(&b);
  return u;
}

/* "#pragma parray WORDS": the targets that have pragmas are asked in
 * order; the first whose words they are handles them (and reports their
 * errors).  Comments are dropped; in a subprogram the words are
 * substituted next. */
static void emit_parray_pragma(Emitter *e, Node *n, const char *words)
{
  words = uncommented(e->ctx, words);
  const char *written = words;
  words = dollar_substitute(e->ctx, words);
  Buf known = {.ctx = e->ctx};
  int nknown = 0;
  for (const Backend *const *b = e->targets; *b; b++) {
    if (!(*b)->pragma)
      continue;
    if ((*b)->pragma(e, n, words, written)) {
      buf_free(&known);
      return;
    }
    buf_printf(&known, "%s%s", nknown++ ? ", " : "", (*b)->pragma_words);
  }
  Loc at = n->loc; /* at the '#' */
  at.col += (int)strspn(n->text, " \t");
  diag_error(e->ctx, at, "unknown '#pragma parray %s': %s %s", util_str_trim(e->ctx, words),
             nknown ? "the parray pragmas are" : "there are no parray pragmas", known.data ? known.data : "");
  buf_free(&known);
}

/* The #error of a guarded conditional line (model/branches.c): the C
 * compiler, given other macros than parrayc, takes another branch. */
static void emit_branch_guard(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  const char *file = text_loc_file(ctx, n->guard_at);
  int line = text_loc_line(ctx, n->guard_at);
  char *why = ctx_printf(ctx, "%s:%d: parrayc %s; give parrayc the macros the C compiler gets (-D NAME=VALUE)",
                         file, line, n->guard == GUARD_DEAD ? "left out the Parray constructs of this branch, which "
                         "the C compiler takes" : "translated this branch, which the C compiler leaves out");
  if (n->guard == GUARD_ELSE) /* before the #endif */
    out_gen(e->out, n->loc, "#else\n");
  out_gen(e->out, n->guard_at, "#error %s\n", text_c_string(ctx, why));
}

static void emit_text(Emitter *e, Node *n)
{
  const char *words = n->dead ? NULL : ctext_parray_pragma(n->text);
  if (words) {
    emit_parray_pragma(e, n, words);
    return;
  }
  if (n->guard == GUARD_ELSE)
    emit_branch_guard(e, n);
  char *t = dollar_substitute(e->ctx, n->text);
  buf_puts(&e->scope->text, t);
  out_src(e->out, t, n->loc);
  if (n->guard == GUARD_DEAD)
    emit_branch_guard(e, n);
}

static void emit_block(Emitter *e, Node *n)
{
  out_src(e->out, "{", n->loc);
  bool fn = e->scope->file_scope;
  /* before the '{' joins the text: the header is what precedes it */
  e->scope = scope_open(e->ctx, e->scope, fn);
  buf_puts(&e->scope->parent->text, "{");
  e->function_depth += fn;
  emit_nodes(e, n->body);
  e->function_depth -= fn;
  scope_close(e->scope);
  e->scope = e->scope->parent;
  buf_puts(&e->scope->text, "}");
  out_src(e->out, "}", n->end_loc);
}

/* Translates a detour's body into o, as the body of a function that starts
 * a new scope in which the file scope and the thread array's parameters
 * are visible. */
static void emit_outlined(Emitter *e, Detour *dt, Node *body, Out *o)
{
  Out *saved_out = e->out;
  Scope *saved_scope = e->scope;
  Detour *saved_dt = e->detour;
  e->out = o;
  e->scope = scope_open(e->ctx, scope_file(e->scope), true);
  e->scope->launch = saved_scope;
  for (int i = 0; i < dt->type->nparams; i++)
    scope_declare_as(e->ctx, e->scope, dt->type->pnames[i], dt->type->ptypes[i]);
  e->detour = dt;
  e->function_depth++;
  emit_nodes(e, body);
  e->function_depth--;
  scope_close(e->scope);
  e->scope = saved_scope;
  e->out = saved_out;
  e->detour = saved_dt;
}

static Dim *resolve_data(Emitter *e, const char *name, Loc loc)
{
  Dim *d = dim_resolve(e->ctx, name, loc);
  if (d && d->type->kind != TK_NONE) { /* one that references another thread array too */
    diag_error(e->ctx, loc, "'%s' is a thread array, not a data type", name);
    return NULL;
  }
  return d;
}

static bool mem_allowed(Emitter *e, Node *n, Dim *d)
{
  MemKind m = d->type->mem;
  Ctx *ctx = e->ctx;
  if (m == MEM_SMEM && !detour_on_gpu(e)) {
    diag_error(ctx, n->name_loc, "'%s' is in smem (GPU shared memory), which exists only inside a cuda detour",
               n->name);
    return false;
  }
  if (m == MEM_PAGED && backend_in_kernel(e, e->detour)) { /* dmem and pinned: the GPU target says the same */
    diag_error(ctx, n->name_loc, n->kind == N_CREATE ? "'%s' is in %s memory, which is allocated on the host: create "
                                                       "it before the detour"
                                                     : "'%s' is in %s memory, which is freed on the host: destroy it "
                                                       "after the detour",
               n->name, type_mem_name(m));
    return false;
  }
  if (m == MEM_RMEM && !e->detour && e->function_depth == 0) {
    diag_error(ctx, n->name_loc, "'%s' is in rmem (registers), which exists only inside a function or detour",
               n->name);
    return false;
  }
  return true;
}

/* #create, #destroy, #copy and #detour are statements: at file scope they
 * would make C the compiler rejects */
static bool in_function(Emitter *e, Node *n, const char *what)
{
  if (e->detour || e->function_depth > 0)
    return true;
  diag_error(e->ctx, n->loc, "'#%s' at file scope: it must stand inside a function or '#mainhost'", what);
  return false;
}

/* A second #create of the same plain name in one scope would assign over
 * (and leak) the first block: an error, unless #destroy came between. */
static bool track_created(Emitter *e, Node *n, bool create)
{
  char *p = util_str_trim(e->ctx, frag_text(e, n->args[0]));
  CText ct = ctext(p, NULL, 0);
  CTok first = ctext_code(&ct);
  if (first.kind == CT_NUMBER || first.kind == CT_STRING || first.kind == CT_CHAR || first.kind == CT_END) {
    diag_error(e->ctx, n->args[0]->loc, "'#%s %s(%s)': the target must be a name (or a variable to assign) that %s",
               create ? "create" : "destroy", n->name, p, create ? "receives the new block" : "holds the block");
    return false;
  }
  if (!util_text_is_simple(p))
    return true;
  if (!create) {
    Node *d = e->unbraced_body ? NULL : scope_destroyed_before(e->scope, p);
    if (d) {
      diag_error(e->ctx, n->args[0]->loc, "'%s' is already destroyed: a second '#destroy' would free its block twice",
                 p);
      diag_note(e->ctx, d->loc, "'%s' was destroyed here", p);
      return false;
    }
    /* in the body of an if or else, the other branch may destroy it too */
    if (!e->unbraced_body)
      scope_destroyed(e->scope, p, n);
    else
      scope_destroyed(e->scope, p, NULL);
    return true;
  }
  Node *c = scope_creation(e->scope, p);
  if (c) {
    diag_error(e->ctx, n->args[0]->loc, "'%s' is already created; '#destroy %s(%s)' first or use another name",
               p, c->name, p);
    diag_note(e->ctx, c->loc, "'%s' was created here", p);
    return false;
  }
  scope_created(e->ctx, e->scope, p, n);
  return true;
}

/* The constant extents of d's sub-dimensions, in order ("[3][4]"), or NULL. */
static char *shape_of(Ctx *ctx, Dim *d, long long *sorted, int *n)
{
  *n = dim_nkids(d);
  if (*n < 2 || *n > 8)
    return NULL;
  Buf b = {.ctx = ctx};
  for (int k = 0; k < *n; k++) {
    if (!poly_is_const(dim_extent(dim_kid(d, k)), &sorted[k])) {
      buf_free(&b);
      return NULL;
    }
    buf_printf(&b, "[%lld]", sorted[k]);
  }
  for (int i = 1; i < *n; i++) /* insertion sort: compare as multisets */
    for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
      long long t = sorted[j];
      sorted[j] = sorted[j - 1];
      sorted[j - 1] = t;
    }
  char *s = ctx_strdup(ctx, b.data);
  buf_free(&b);
  return s;
}

/* "#copy A(a) to B(b)" between [3][4] and [4][3]: a reshape, where a
 * transpose was likely meant */
static void check_reshape(Emitter *e, Node *n, Dim *s, Dim *d)
{
  long long ss[8], ds[8];
  int ns, nd;
  char *sh = shape_of(e->ctx, s, ss, &ns), *dh = shape_of(e->ctx, d, ds, &nd);
  if (!sh || !dh || ns != nd || !strcmp(sh, dh) || memcmp(ss, ds, sizeof(long long) * ns))
    return;
  Buf v = {.ctx = e->ctx};
  for (int k = ns - 1; k >= 0; k--)
    buf_printf(&v, "[#%s_%d]", n->name, k);
  diag_warning(e->ctx, WARN_RESHAPE, n->loc, "#copy from '%s' %s to '%s' %s reshapes (elements go in order); for a transpose "
               "copy from a view '%s'", n->name, sh, n->name2, dh, v.data);
  buf_free(&v);
}

/* #create and #destroy */
static void emit_memory(Emitter *e, Node *n)
{
  bool create = n->kind == N_CREATE;
  if (!in_function(e, n, create ? "create" : "destroy"))
    return;
  Dim *d = resolve_data(e, n->name, n->name_loc);
  if (!d || !mem_allowed(e, n, d))
    return;
  if (n->nargs != 1 || !n->args[0]) {
    diag_error(e->ctx, n->loc, "'#%s %s(...)' needs the name of a pointer", create ? "create" : "destroy", n->name);
    return;
  }
  if (!track_created(e, n, create))
    return;
  const Backend *b = backend_for(e, TK_NONE, d->type->mem);
  if (b->gpu)
    note_gpu_work(e);
  view_note_used(e->ctx, here(e), d->type);
  if (create)
    hostc_type_checks(e, n, d->type);
  if (!create) {
    b->destroy(e, n, d);
    return;
  }
  b->create(e, n, d);
  /* dmem distributed over the detour's own thread array: that array's
   * target readies the copies among the blocks */
  Type *tt = d->type->mem == MEM_DMEM ? dim_distributed_over(e->ctx, d) : NULL;
  const Backend *tb = tt && e->detour && e->detour->type == tt ? backend_for(e, tt->kind, MEM_DMEM) : NULL;
  if (tb && tb->create_shared)
    tb->create_shared(e, n, tt, util_str_trim(e->ctx, frag_text(e, n->args[0])), hostc_block_bytes(e->ctx, d));
}

static void emit_copy(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  if (!in_function(e, n, "copy"))
    return;
  Dim *s = resolve_data(e, n->name, n->name_loc);
  Dim *d = resolve_data(e, n->name2, n->name2_loc);
  if (!s || !d)
    return;
  if (!n->args[0] || !n->args[1]) {
    diag_error(ctx, n->loc, "'#copy' needs a pointer on each side: '#copy S(src) to D(dst)'");
    return;
  }
  long long se, de;
  if (poly_is_const(s->extent, &se) && poly_is_const(d->extent, &de) && se != de) {
    diag_error(ctx, n->loc, "#copy extent mismatch: '%s' has %lld elements, '%s' has %lld", n->name, se, n->name2,
               de);
    return;
  }
  check_reshape(e, n, s, d);
  if (strcmp(s->type->elem, d->type->elem)) {
    diag_error(ctx, n->loc, "#copy element types differ: '%s' holds %s, '%s' holds %s", n->name, s->type->elem,
               n->name2, d->type->elem);
    return;
  }
  Node fake = *n;
  fake.name = n->name2;
  fake.name_loc = n->name2_loc;
  if (!mem_allowed(e, n, s) || !mem_allowed(e, &fake, d))
    return;
  view_note_used(ctx, here(e), s->type);
  view_note_used(ctx, here(e), d->type);
  hostc_type_checks(e, n, s->type);
  if (d->type != s->type)
    hostc_type_checks(e, n, d->type);
  CopySite site = {s, d, e->detour ? e->detour->type : NULL};
  CopyBy by = copy_by(ctx, &site);
  char *sp, *dp;
  if (copy_on_gpu(s) || copy_on_gpu(d))
    note_gpu_work(e);
  if (by == COPY_BY_THREAD) {
    /* the pointers as written; the destination's first, the order in
     * which parrayc has always translated them here (and reported their
     * errors) */
    dp = frag_text(e, n->args[1]);
    sp = frag_text(e, n->args[0]);
  } else {
    sp = util_str_trim(ctx, frag_text(e, n->args[0]));
    dp = util_str_trim(ctx, frag_text(e, n->args[1]));
  }
  /* the code printed names the types themselves: in an #insert, not the
   * subprogram's parameters */
  Node inner = *n;
  inner.name = s->path;
  inner.name2 = d->path;
  const char *in = text_indent_of(n);
  /* a copy may name its pointers more than once (a check, then the
   * copy): one with side effects is evaluated once, before */
  bool once = (by == COPY_BY_HOST || by == COPY_BY_DEVICE) && (ctext_has_side_effects(sp) || ctext_has_side_effects(dp));
  if (once) {
    out_gen(e->out, n->loc, "%s{ /* the pointers of #copy %s to %s, evaluated once */\n", in, s->path, d->path);
    if (ctext_has_side_effects(sp)) {
      out_gen(e->out, n->loc, "%s  const %s *pa_sp = %s;\n", in, s->type->elem, sp);
      sp = "pa_sp";
    }
    if (ctext_has_side_effects(dp)) {
      out_gen(e->out, n->loc, "%s  %s *pa_dp = %s;\n", in, d->type->elem, dp);
      dp = "pa_dp";
    }
    inner.text = ctx_printf(ctx, "%s  ", in);
  }
  CopyPlan plan;
  if (!copy_plan(ctx, n, &site, sp, dp, &plan)) /* its messages name the types as the line writes them */
    return;
  print_copy(e, &inner, &plan);
  if (once)
    out_gen(e->out, n->loc, "%s}\n", in);
  if (plan.sync_after) {
    /* a copy the threads do together ends when all have done their part */
    Node sync = *n;
    sync.kind = N_SYNC;
    sync.name = NULL;
    backend_for(e, e->detour->type->kind, MEM_NONE)->sync(e, &sync);
  }
}

static void emit_detour(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  if (!in_function(e, n, "detour"))
    return;
  Type *t = type_lookup(ctx, n->name);
  Dim *d = t ? t->root : dim_resolve(ctx, n->name, n->name_loc);
  if (!d)
    return;
  t = d->type;
  if (t->kind == TK_NONE || d != t->root) {
    diag_error(ctx, n->name_loc, "'%s' is not a thread array: '#detour' needs a type declared with pthd, omp, cuda or mpi",
               n->name);
    return;
  }
  if (n->nargs != t->nparams) {
    diag_error(ctx, n->loc, "wrong number of detour arguments: '%s' takes %d, got %d", n->name, t->nparams, n->nargs);
    return;
  }
  for (int i = 0; i < n->nargs; i++)
    if (!n->args[i]) {
      diag_error(ctx, n->loc, "detour argument %d of '%s' is empty", i + 1, n->name);
      return;
    }
  const Backend *b = backend_for(e, t->kind, MEM_NONE);
  /* a GPU thread runs a kernel's code: it cannot start host threads or
   * processes (the GPU compiler would fail on the output, far from here) */
  Type *outer = e->detour ? e->detour->type : NULL;
  if (outer && backend_for(e, outer->kind, MEM_NONE)->gpu && !b->gpu) {
    const char *kind = type_kind_name(t->kind);
    diag_error(ctx, n->loc, "%s %s detour inside a %s detour: a GPU thread cannot start %s threads; detour to '%s' "
               "before the %s detour, or after it", strchr("aeiou", kind[0]) ? "an" : "a", kind, type_kind_name(outer->kind),
               type_kind_name(t->kind), n->name, type_kind_name(outer->kind));
    diag_note(ctx, e->detour->node->loc, "the %s detour is here", type_kind_name(outer->kind));
    return;
  }
  if (b->gpu)
    note_gpu_work(e);
  Detour *dt = b->detour_open(e, n, t);
  if (!dt)
    return;
  Out body = out_new(ctx, dt->body_line);
  ctx->muted -= n->failed; /* a misspelt #detour's body is checked all the same */
  emit_outlined(e, dt, n->body, &body);
  ctx->muted += n->failed;
  b->detour_close(e, n, dt, &body);
  out_free(&body);
}

static void emit_sync(Emitter *e, Node *n)
{
  if (!e->detour) {
    diag_error(e->ctx, n->loc, "'#sync' outside a detour: there are no threads to synchronise");
    return;
  }
  backend_for(e, e->detour->type->kind, MEM_NONE)->sync(e, n);
}

/* #mainhost's body as `static int pa_main(int argc, char **argv)`: a
 * function body in which argc and argv are visible; the backend writes
 * what comes before and after it (main() itself) */
static void emit_main(Emitter *e, Node *n)
{
  const Backend *b = backend_for(e, e->mpi ? TK_MPI : TK_NONE, MEM_NONE);
  b->main_open(e, n);
  e->function_depth++;
  Scope *saved = e->scope;
  Scope s = {0};
  s.parent = saved;
  s.function = true;
  e->scope = &s;
  scope_declare_as(e->ctx, e->scope, "argc", "int argc");
  scope_declare_as(e->ctx, e->scope, "argv", "char **argv");
  emit_nodes(e, n->body);
  e->scope = saved;
  scope_close(&s);
  e->function_depth--;
  b->main_close(e, n);
}

static void emit_global(Emitter *e, Node *n)
{
  if (e->scope->file_scope) {
    emit_nodes(e, n->body);
    return;
  }
  /* contents go to file scope, before the code that uses them */
  Out o = out_new(e->ctx, -1);
  Out *saved_out = e->out;
  Scope *saved_scope = e->scope;
  Detour *saved_dt = e->detour;
  int saved_depth = e->function_depth;
  e->scope = scope_file(e->scope);
  e->out = &o;
  e->detour = NULL;
  e->function_depth = 0;
  emit_nodes(e, n->body);
  e->out = saved_out;
  e->scope = saved_scope;
  e->detour = saved_dt;
  e->function_depth = saved_depth;
  out_append(&e->hoist, &o);
  out_free(&o);
}

/* The C text of a fragment as written, without substitution ("" if it
 * holds a $...$: a parameter name never does). */
static char *plain_text(Ctx *ctx, Node *list)
{
  Buf b = {.ctx = ctx};
  for (Node *n = list; n; n = n->next) {
    if (n->kind != N_TEXT) {
      buf_free(&b);
      return "";
    }
    buf_puts(&b, n->text);
  }
  char *s = ctx_strdup(ctx, b.data ? b.data : "");
  buf_free(&b);
  return s;
}

static bool subprog_is(const void *item, const void *key)
{
  return !strcmp(((const Subprog *)item)->node->name, key);
}

static Subprog *subprog_find(Ctx *ctx, const char *name)
{
  return map_get(&ctx->subprogs, util_hash_str(name, HASH_SEED), subprog_is, name);
}

static void emit_subprog(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  Subprog *old = subprog_find(ctx, n->name);
  if (old) {
    diag_error(ctx, n->name_loc, "subprogram '%s' is already defined", n->name);
    diag_note(ctx, old->node->name_loc, "'%s' was defined here", n->name);
    return;
  }
  for (int i = 0; i < n->nargs; i++) {
    char *p = util_str_trim(ctx, plain_text(ctx, n->args[i]));
    if (!util_text_is_simple(p) || !util_is_ident_start((unsigned char)p[0]))
      diag_error(ctx, n->loc, "subprogram parameter %d of '%s' must be a name", i + 1, n->name);
  }
  Subprog *s = ctx_alloc(ctx, sizeof *s);
  s->node = n;
  map_put(ctx, &ctx->subprogs, util_hash_str(n->name, HASH_SEED), s);
}

static void emit_insert(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  Subprog *s = subprog_find(ctx, n->name);
  if (!s) {
    diag_error(ctx, n->name_loc, "undefined subprogram '%s'", n->name);
    return;
  }
  Node *sp = s->node;
  if (n->nargs != sp->nargs) {
    diag_error(ctx, n->loc, "wrong number of arguments to '#insert %s': it takes %d, got %d", n->name, sp->nargs,
               n->nargs);
    return;
  }
  /* a subprogram inserted inside itself, by any path, never ends: one
   * error at the first repeat (not one per path, of which there can be
   * exponentially many) */
  int depth = 0;
  for (Instance *in = ctx->instance; in; in = in->parent) {
    if (!strcmp(in->insert->name, n->name)) {
      diag_error(ctx, n->loc, "'#insert %s' inserts itself", n->name);
      return;
    }
    if (++depth >= 200) { /* as gcc's #include */
      diag_error(ctx, n->loc, "'#insert %s' is nested more than 200 deep", n->name);
      return;
    }
  }
  Instance *in = ctx_alloc(ctx, sizeof *in);
  in->id = ++ctx->ninstances;
  in->insert = n;
  in->n = n->nargs;
  in->names = ctx_alloc(ctx, sizeof(char *) * (n->nargs + 1));
  in->values = ctx_alloc(ctx, sizeof(char *) * (n->nargs + 1));
  in->written = ctx_alloc(ctx, sizeof(char *) * (n->nargs + 1));
  for (int i = 0; i < n->nargs; i++) {
    /* the parameter names as written: not substituted by the instance
     * this #insert stands in */
    in->names[i] = util_str_trim(ctx, plain_text(ctx, sp->args[i]));
    in->values[i] = util_str_trim(ctx, n->args[i] ? frag_text(e, n->args[i]) : "");
    in->written[i] = util_str_trim(ctx, plain_text(ctx, n->args[i]));
  }
  in->parent = ctx->instance;
  ctx->instance = in;
  const char *saved_indent = e->insert_indent;
  Detour *saved_detour = e->insert_detour;
  e->insert_indent = n->text ? n->text : ""; /* as written: the text around it is */
  e->insert_detour = e->detour;
  emit_nodes(e, sp->body);
  e->insert_indent = saved_indent;
  e->insert_detour = saved_detour;
  ctx->instance = in->parent;
  /* the next source text needs a #line again */
  e->out->line = -1;
}

/* Directive n is the unbraced body of an if, else, for, while or do: its
 * statements go in braces.  '#create' there is an error: the name it
 * declares would not outlive the statement. */
static bool brace_directive(Emitter *e, Node *n)
{
  if (!scope_ends_in_statement_head(e->scope))
    return false;
  if (n->kind == N_CREATE) {
    diag_error(e->ctx, n->loc, "'#create %s' is the body of an if, else, for or while without braces: the name it "
               "declares would end with that statement; put the statement in braces with what uses it",
               n->name);
    return false;
  }
  out_gen(e->out, n->loc, "%s{ /* the body of the statement above */\n", text_indent_of(n));
  return true;
}

static void emit_directive(Emitter *e, Node *n)
{
  if (e->insert_indent && *e->insert_indent && e->detour == e->insert_detour) {
    /* a directive of an inserted subprogram: its code at the #insert's
     * indentation plus its own (not inside a detour the subprogram
     * opened: its body goes into a function of its own) */
    Node *c = ctx_alloc(e->ctx, sizeof *c);
    *c = *n;
    c->out_indent = ctx_printf(e->ctx, "%s%s", e->insert_indent, n->text ? n->text : "");
    n = c;
  }
  bool braced = brace_directive(e, n);
  e->unbraced_body = braced;
  const char *indent = text_indent_of(n);
  Node inner;
  if (braced && (n->kind == N_COPY || n->kind == N_SYNC || n->kind == N_DESTROY)) {
    inner = *n; /* printed one level deeper, inside the braces */
    inner.out_indent = ctx_printf(e->ctx, "%s  ", text_indent_of(n));
    n = &inner;
  }
  switch (n->kind) {
  case N_CREATE:
  case N_DESTROY:
    emit_memory(e, n);
    break;
  case N_COPY:
    emit_copy(e, n);
    break;
  case N_DETOUR:
    emit_detour(e, n);
    break;
  case N_SYNC:
    emit_sync(e, n);
    break;
  case N_INSERT:
    emit_insert(e, n);
    break;
  default:
    break;
  }
  if (braced)
    out_gen(e->out, n->loc, "%s}\n", indent);
  buf_puts(&e->scope->text, ";\n"); /* a statement ended here, whatever it printed (a line of its own: a
                                       * preprocessor line may follow) */
}

/* The C text s[0..len) ends inside the arguments of a call of one of the
 * program's function-like macros (the innermost open parenthesis follows
 * its name): an argument is pasted into the macro's body as text, where
 * a $...$ result keeps its parentheses. */
static bool in_macro_call(Ctx *ctx, const char *s, size_t len)
{
  if (!macro_any_function_like(ctx)) /* most programs: no reading back */
    return false;
  int depth = 0;
  for (size_t i = len; i-- > 0;) {
    if (s[i] == ';' || s[i] == '{' || s[i] == '}')
      return false;
    if (s[i] == ')') {
      depth++;
    } else if (s[i] == '(' && depth-- == 0) {
      size_t end = i;
      while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\t'))
        end--;
      size_t b = end;
      while (b > 0 && util_is_ident_char((unsigned char)s[b - 1]))
        b--;
      return b < end && macro_function_like(ctx, ctx_strndup(ctx, s + b, end - b));
    }
  }
  return false;
}

/* Every node but a block: out of line, so that its frame (large, of
 * what is inlined into it) is not on the stack once per level of blocks
 * nested thousands deep. */
static __attribute__((noinline)) void emit_leaf(Emitter *e, Node *n)
{
  switch (n->kind) {
  case N_TEXT:
    emit_text(e, n);
    break;
  case N_BLOCK:
    emit_block(e, n);
    break;
  case N_DOLLAR: {
    /* "$dim(A)$1" would paste 16 and 1 into 161 */
    if (n->next && n->next->kind == N_TEXT && n->next->text && util_is_ident_char((unsigned char)n->next->text[0]))
      diag_error(e->ctx, n->next->loc, "'%.*s' is glued to the '$...$' before it: the value and it would make one "
                 "token; put a space or an operator between them",
                 (int)strspn(n->next->text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"),
                 n->next->text);
    /* without parentheses where the text around makes it whole, unless
     * it is pasted into a macro's body; what its translation takes of the
     * arena goes back after it, what it keeps stays (ctx_keep) */
    ScratchMark m = ctx_scratch_begin(e->ctx);
    Buf *before = &e->scope->text;
    char *t = dollar_text(e->ctx, here(e), n);
    if (!in_macro_call(e->ctx, before->data, before->len))
      t = ctext_bare_operand(e->ctx, t, before->data, before->len,
                             n->next && n->next->kind == N_TEXT ? n->next->text : NULL);
    buf_puts(&e->scope->text, t);
    out_src(e->out, t, n->loc);
    ctx_scratch_end(e->ctx, m);
    break;
  }
  case N_PARRAY: {
    Type *t = type_declare(e->ctx, here(e), n);
    if (t)
      t->detour = e->detour ? e->detour->node : NULL;
    break;
  }
  case N_CREATE:
  case N_DESTROY:
  case N_COPY:
  case N_DETOUR:
  case N_SYNC:
  case N_INSERT:
    /* a misspelt directive: its one error said it; a detour's body is
       checked as its own (emit_detour) */
    e->ctx->muted += n->failed;
    emit_directive(e, n);
    e->ctx->muted -= n->failed;
    break;
  case N_MAINHOST:
    e->ctx->muted += n->failed;
    if (!e->scope->file_scope) {
      diag_error(e->ctx, n->loc, "'#mainhost' must stand at file scope");
      e->ctx->muted -= n->failed;
      break;
    }
    if (e->mainhost) {
      diag_error(e->ctx, n->loc, "a second '#mainhost': a program has one main function");
      diag_note(e->ctx, e->mainhost->loc, "the first '#mainhost' is here");
      e->ctx->muted -= n->failed;
      break;
    }
    e->ctx->muted -= n->failed;
    e->mainhost = n;
    emit_main(e, n);
    break;
  case N_GLOBAL:
    emit_global(e, n);
    break;
  case N_SUBPROG:
    emit_subprog(e, n);
    break;
  }
}

static void emit_node(Emitter *e, Node *n)
{
  if (n->dead && n->kind != N_TEXT) /* in a branch of an #if parrayc did not take */
    return;
  const Node *outer = e->ctx->walking;
  e->ctx->walking = n;
  if (n->kind == N_BLOCK)
    emit_block(e, n);
  else
    emit_leaf(e, n);
  e->ctx->walking = outer;
}

/* The first words of the #parray declarations in list, at any depth: one
 * bit each of the kinds a program's target depends on (one walk of the
 * tree, however many are asked about). */
enum { K_GPU_ARRAY = 1, K_DMEM = 2, K_SMEM = 4, K_MPI = 8, K_PTHD = 16, K_OMP = 32 };

static unsigned declared_kinds(Node *list)
{
  static const char *const words[] = {"cuda", "dmem", "smem", "mpi", "pthd", "omp"};
  unsigned kinds = 0;
  for (Node *n = list; n; n = n->next) {
    if (n->dead)
      continue;
    if (n->kind == N_PARRAY && n->nwords > 0)
      for (unsigned k = 0; k < sizeof words / sizeof *words; k++)
        if (!strcmp(n->words[0], words[k]))
          kinds |= 1u << k;
    if (n->body)
      kinds |= declared_kinds(n->body);
  }
  return kinds;
}

/* The end of the last complete top-level declaration (';' or '}') or
 * preprocessor line in text, or -1: hoisted code goes there, never between
 * a function's header (a text item) and its body (a block item). */
static long decl_boundary(const char *t)
{
  long cut = -1;
  CText c = ctext(t, NULL, CT_DIRECTIVES);
  for (CTok k = ctext_next(&c); k.kind != CT_END; k = ctext_next(&c)) {
    const char *after = k.s + k.n;
    if ((k.kind == CT_PREPROC && *after == '\n') || ctok_is(k, ';') || ctok_is(k, '}'))
      cut = (long)(after - t) + (k.kind == CT_PREPROC);
  }
  return cut;
}

/* The line of offset cut of w (bol: offset 0 starts a line): the last
 * #line before it plus the newlines since; false when w has none. */
static bool line_at(const char *w, size_t cut, bool bol, int *line, const char **file, int *file_len)
{
  for (size_t i = cut; i-- > 0;)
    if ((i == 0 ? bol : w[i - 1] == '\n') && !strncmp(w + i, "#line ", 6)) {
      const char *nl = strchr(w + i, '\n');
      *line = (int)strtol(w + i + 6, (char **)file, 10);
      *file_len = (int)((nl ? nl : w + cut) - *file); /* ` "NAME"` as it was written */
      for (const char *p = nl ? nl + 1 : w + cut; p < w + cut; p++)
        *line += *p == '\n';
      return true;
    }
  return false;
}

/* Puts hoisted code at offset cut of tail, then a #line for the text that
 * follows (the line the C compiler would have given it).  done is the
 * output before tail, never rewritten: the cost is tail's, not the whole
 * output's (a file of many functions each with a detour stays linear). */
static void insert_hoist(Ctx *ctx, const Buf *done, Out *tail, size_t cut, Out *hoist)
{
  Buf b = {.ctx = ctx};
  const char *w = tail->b.data ? tail->b.data : "";
  bool bol = !done->len || done->data[done->len - 1] == '\n';
  /* rather after the end of that line, when nothing else is on it */
  size_t end = cut;
  while (w[end] == ' ' || w[end] == '\t')
    end++;
  if (w[end] == '\n')
    cut = end + 1;
  buf_printf(&b, "%.*s", (int)cut, w);
  if (cut > 0 ? w[cut - 1] != '\n' : !bol)
    buf_putc(&b, '\n');
  buf_puts(&b, hoist->b.data);
  if (b.data[b.len - 1] != '\n')
    buf_putc(&b, '\n');
  int line = 0, file_len = 0;
  const char *file = "";
  if (ctx->opt.line_directives && !line_at(w, cut, bol, &line, &file, &file_len) &&
      line_at(done->data ? done->data : "", done->len, true, &line, &file, &file_len))
    for (size_t i = 0; i < cut; i++)
      line += w[i] == '\n';
  if (line > 0 && ctx->opt.line_directives)
    buf_printf(&b, "#line %d%.*s\n", line, file_len, file);
  buf_puts(&b, w + cut);
  buf_free(&tail->b);
  tail->b = b;
}

/* Moves tail's first n bytes to the end of done. */
static void settle(Buf *done, Out *tail, size_t n)
{
  if (!n)
    return;
  buf_printf(done, "%.*s", (int)n, tail->b.data);
  memmove(tail->b.data, tail->b.data + n, tail->b.len - n + 1);
  tail->b.len -= n;
}

/* "defined(A) && defined(B)" for the macros the texts name, each once,
 * or NULL */
static const char *macros_defined(Ctx *ctx, const char *a, const char *b)
{
  Buf cond = {.ctx = ctx};
  for (const char *text = a; text; text = text == a ? b : NULL) {
    CText c = ctext(text, NULL, 0);
    for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c)) {
      char *name = t.kind == CT_IDENT ? ctx_strndup(ctx, t.s, t.n) : NULL;
      char *test = name ? ctx_printf(ctx, "defined(%s)", name) : NULL;
      if (name && macro_defined(ctx, name) && !(cond.data && strstr(cond.data, test)))
        buf_printf(&cond, "%s%s", cond.len ? " && " : "", test);
    }
  }
  const char *r = cond.data ? ctx_strdup(ctx, cond.data) : NULL;
  buf_free(&cond);
  return r;
}

/* The comparisons of sizes parrayc decided at its macros' values, as
 * static assertions at the end of the output: a C compiler given other
 * values (-D) stops there.  Each under #if defined(...) of its macros:
 * a program may #undef a size after its last use. */
static void emit_size_facts(Ctx *ctx, Out *whole)
{
  for (const SizeFact *f = ctx->facts; f; f = f->next) {
    Type *t = f->at->type;
    Loc loc = f->at->loc.line ? f->at->loc : t->loc;
    const char *file = text_loc_file(ctx, loc);
    int line = text_loc_line(ctx, loc);
    char *less = poly_str(ctx, f->less), *than = poly_str(ctx, f->than);
    char *why = ctx_printf(ctx, "%s:%d: %s: parrayc laid out its copies for %s < %s, true at the values it has for "
                           "the macros; give parrayc the values the C compiler gets (-D NAME=VALUE)",
                           file, line, t->name, less, than);
    const char *guard = macros_defined(ctx, less, than);
    if (guard)
      out_gen(whole, loc, "#if %s\n", guard);
    out_gen(whole, loc, "PA_STATIC_ASSERT(%s < %s, %s);\n", less, than, text_c_string(ctx, why));
    if (guard)
      out_gen(whole, loc, "#endif\n");
  }
}

/* Does list hold anything but C text and braces?  A program that does
 * not (plain C) is translated to itself, with no runtime header: it keeps
 * every name, whatever macros the C compiler is given. */
static bool uses_parray(const Node *list)
{
  for (const Node *n = list; n; n = n->next)
    if ((n->kind != N_TEXT && n->kind != N_BLOCK) || uses_parray(n->body))
      return true;
  return false;
}

char *emit_program(Ctx *ctx, const Backend *const *targets)
{
  Emitter e = {0};
  e.ctx = ctx;
  e.targets = targets;
  ctx->fragment_text = dollar_fragment_text;
  branches_mark(ctx, ctx->tree);
  unsigned kinds = declared_kinds(ctx->tree);
  e.gpu_program = kinds & (K_GPU_ARRAY | K_DMEM | K_SMEM);
  for (const Backend *const *b = targets; *b && !e.gpu; b++)
    if ((*b)->gpu)
      e.gpu = *b;
  e.mpi = kinds & K_MPI;
  ctx->uses_gpu = e.gpu_program;
  ctx->uses_mpi = e.mpi;
  ctx->uses_pthd = kinds & K_PTHD;
  ctx->uses_omp = kinds & K_OMP;
  e.hoist = out_new(ctx, -1);
  Scope file = {0};
  file.file_scope = true;
  e.scope = &file;
  /* the output: done, then whole from where the current top-level
   * declaration starts (where hoisted code goes) */
  Buf done = {.ctx = ctx};
  Out whole = out_new(ctx, -1);
  for (Node *n = ctx->tree; n && !ctx->stopped; n = n->next) {
    Out item = out_new(ctx, whole.line);
    e.out = &item;
    emit_node(&e, n);
    if (e.hoist.b.len)
      insert_hoist(ctx, &done, &whole, 0, &e.hoist);
    out_free(&e.hoist);
    e.hoist.line = -1;
    int after = item.line;
    size_t before = whole.b.len;
    out_append(&whole, &item);
    whole.line = after;
    if (n->kind == N_TEXT) {
      long b = item.b.data ? decl_boundary(item.b.data) : -1;
      if (b >= 0)
        settle(&done, &whole, before + (size_t)b);
    } else if (n->kind != N_DOLLAR) {
      settle(&done, &whole, whole.b.len);
    }
    out_free(&item);
  }
  if (whole.b.len)
    settle(&done, &whole, whole.b.len);
  out_free(&whole);
  whole.b = done;
  scope_close(&file);
  if (ctx->errors) {
    out_free(&whole);
    return NULL;
  }
  emit_size_facts(ctx, &whole);
  Buf head = {.ctx = ctx};
  buf_printf(&head, "/* Generated by parrayc %s from %s.  Edit the .pa file, not this one. */\n", PARRAY_VERSION,
             ctx->opt.display);
  bool parray = uses_parray(ctx->tree);
  for (const Backend *const *b = targets; parray && *b; b++)
    if ((*b)->needed(ctx))
      buf_printf(&head, "#include <%s>\n", (*b)->include);
  if (whole.b.data)
    buf_puts(&head, whole.b.data);
  out_free(&whole);
  return buf_detach(&head);
}
