/* cpu.c: pthd and omp thread arrays.
 *
 * A detour's body becomes a function placed before the top-level item that
 * holds the detour:
 *
 *   struct pa_args_T_L12 { float *a; int n; };      (T's PARAMS)
 *   static void pa_detour_T_L12(pa_thread *pa_self)
 *   {
 *     const struct pa_args_T_L12 *pa_args = ...;
 *     int pa_tid = pa_self->tid;                     (omp_get_thread_num())
 *     float *a = pa_args->a;                          (by value, per thread)
 *     int n = pa_args->n;
 *     BODY
 *   }
 *
 * and the directive becomes a block that evaluates the arguments once, on
 * the calling thread, and hands the function to the runtime
 * (pa_pthd_run, or pa_omp_run from parray_cpu.h), which returns when every
 * thread has finished.
 *
 * GPU work in a body (SPEC 6.5) is the GPU target's to print
 * (Backend.team_*): this file describes the team to it (cpu_team). */
#include "print/capture.h"
#include "emit/hostc.h"
#include "targets/all.h"

#include <stdlib.h>
#include <string.h>

/* ---- the team, as the GPU target sees it (Team) ---- */

static void team_copy(Emitter *e, Node *n, const CopyPlan *p);

static const char *team_count(Emitter *e, Type *t)
{
  return dollar_poly_whole(e->ctx, t->root->extent);
}

/* thread k binds GPU k mod G */
static const char *team_gpu_index(Emitter *e, Type *t, const char *gpus, const char *visible, const char *none,
                                  const char *at)
{
  (void)e, (void)t, (void)gpus, (void)visible, (void)none, (void)at;
  return "pa_self->tid";
}

/* the threads' pointers, handed round by the team (pa_team_share) */
static const char *team_share(Emitter *e, const char *mine, const char *at)
{
  (void)at;
  return ctx_printf(e->ctx, "pa_team_share(pa_self, %s)", mine);
}

static const Team cpu_team = {
  .me = "pa_tid",
  .members = "threads",
  .check_extent = "pa_check_copy_extent",
  .one_node = "1",
  .count = team_count,
  .gpu_index = team_gpu_index,
  .share = team_share,
  .host_copy = team_copy,
};

static const char *kind_word(Type *t)
{
  return t->kind == TK_OMP ? "OpenMP" : "POSIX";
}

static bool params_ok(Emitter *e, Node *n, Type *t)
{
  bool ok = true;
  for (int i = 0; i < t->nparams; i++)
    if (capture_type_is_array(e->ctx, e->scope, t->ptypes[i])) {
      diag_error(e->ctx, n->loc,
                 "parameter '%s' of thread array '%s' is an array: %s detours take parameters by value, "
                 "declare it as a pointer",
                 t->pnames[i], t->name, type_kind_name(t->kind));
      ok = false;
    }
  return ok;
}

/* The outlined function: struct of arguments (the parameters by value, the
 * captured locals by reference), header, unpacking, body. */
static void write_function(Emitter *e, Node *n, Type *t, const char *fname, const char *sname, const char *body,
                           Capture *caps, int ncaps, bool gpu)
{
  Ctx *ctx = e->ctx;
  Loc loc = n->loc;
  bool args = t->nparams || ncaps;
  if (args) {
    out_gen(e->out, loc, "/* the arguments of '#detour %s'%s */\n", n->name,
            ncaps ? (t->nparams ? " and the caller's locals it uses" : ": the caller's locals it uses") : "");
    out_gen(e->out, loc, "struct %s {\n", sname);
    /* each line naming a user's type carries the detour's line */
    for (int i = 0; i < t->nparams; i++) {
      hostc_pin_named(e, t->ptypes[i]);
      out_gen(e->out, loc, "  %s;\n", t->ptypes[i]);
    }
    for (int i = 0; i < ncaps; i++) {
      hostc_pin_named(e, caps[i].nvla ? "void *p" : caps[i].decl);
      out_gen(e->out, loc, "  %s;\n", caps[i].nvla ? ctx_printf(ctx, "void *%s", caps[i].name)
                                                    : capture_pointer_decl(ctx, &caps[i]));
    }
    for (int i = 0; i < ncaps; i++)
      for (int k = 0; k < caps[i].nvla; k++)
        out_gen(e->out, loc, "  pa_size_t %s;%s\n", capture_vla_extent_name(ctx, &caps[i], k),
                k ? "" : ctx_printf(ctx, " /* the extents of %s */", caps[i].decl));
    out_gen(e->out, loc, "};\n\n");
  }
  out_gen(e->out, loc, "/* the body of '#detour %s', run by each of the |%s| %s threads */\n", n->name, t->name,
          kind_word(t));
  out_gen(e->out, loc, "static void %s(pa_thread *pa_self)\n{\n", fname);
  bool tid = text_mentions(body, "pa_tid");
  bool self = t->kind == TK_PTHD ? tid : false;
  if (args) {
    out_gen(e->out, loc, "  const struct %s *pa_args = (const struct %s *)pa_self->args;\n", sname, sname);
    self = true;
  }
  for (int i = 0; i < ncaps; i++) {
    hostc_pin_named(e, caps[i].decl);
    if (caps[i].nvla) { /* C++ (a GPU program) converts no void * without a cast */
      const char *d = capture_vla_decl(ctx, &caps[i], "pa_args->", true);
      out_gen(e->out, loc, "  %s = %spa_args->%s;\n", d,
              e->gpu_program ? ctx_printf(ctx, "(%s)", capture_type_name(ctx, d, caps[i].name)) : "", caps[i].name);
    } else {
      out_gen(e->out, loc, "  %s = pa_args->%s;\n", capture_pointer_decl(ctx, &caps[i]), caps[i].name);
    }
  }
  if (tid)
    out_gen(e->out, loc, "  int pa_tid = %s;\n", t->kind == TK_OMP ? "omp_get_thread_num()" : "pa_self->tid");
  if (gpu) {
    /* thread k drives GPU k mod G (SPEC 6.5) */
    e->gpu->team_bind(e, n->loc, &cpu_team, t);
    self = true;
  }
  /* a parameter the body never names is still declared (a macro may use
   * it), marked unused in the way the C compiler understands */
  for (int i = 0; i < t->nparams; i++) {
    bool used = text_mentions(body, t->pnames[i]);
    hostc_pin_named(e, t->ptypes[i]);
    if (!used && e->gpu_program)
      out_gen(e->out, loc, "  %s __attribute__((unused)) = pa_args->%s;\n", t->ptypes[i], t->pnames[i]);
    else
      out_gen(e->out, loc, "  %s = pa_args->%s;\n", t->ptypes[i], t->pnames[i]);
  }
  for (int i = 0; i < t->nparams; i++)
    if (!e->gpu_program && !text_mentions(body, t->pnames[i]))
      out_gen(e->out, loc, "  (void)%s;\n", t->pnames[i]);
  if (!self && !text_mentions(body, "pa_self"))
    out_gen(e->out, loc, "  (void)pa_self;\n");
}
/* A cpu detour: the names of its function and argument struct. */
typedef struct CpuDetour {
  Detour dt;
  const char *sname;
} CpuDetour;

static Detour *detour_open(Emitter *e, Node *n, Type *t)
{
  if (!params_ok(e, n, t))
    return NULL;
  const char *fname = text_gen_name(e->ctx, "detour", t->cname, n);
  /* the body is translated with $tid$ and #sync answering to this detour */
  CpuDetour *cd = (CpuDetour *)hostc_detour(e, n, t, fname, "pa_tid", sizeof(CpuDetour));
  cd->sname = text_gen_name(e->ctx, "args", t->cname, n);
  return &cd->dt;
}

static void detour_close(Emitter *e, Node *n, Detour *dt, Out *body)
{
  Ctx *ctx = e->ctx;
  Type *t = dt->type;
  const char *fname = dt->name, *sname = ((CpuDetour *)dt)->sname;
  const char *in = text_indent_of(n);

  /* the body shares the caller's locals it uses */
  char *text = hostc_outlined(ctx, n, body);
  Capture *caps;
  int ncaps = capture_find(ctx, e->scope, n, text, t->pnames, t->nparams, &caps);
  if (ncaps < 0)
    return;
  text = capture_body_block(ctx, capture_by_reference(ctx, text, caps, ncaps), caps, ncaps);

  /* the launch site: arguments and thread count on the calling thread */
  Buf args = {.ctx = ctx};
  for (int i = 0; i < n->nargs; i++)
    buf_printf(&args, "%s%s", i ? ", " : "", util_str_trim(ctx, frag_text(e, n->args[i])));
  for (int i = 0; i < ncaps; i++)
    buf_printf(&args, "%s.%s = %s&%s%s", args.len ? ", " : "", caps[i].name, caps[i].nvla ? "(void *)" : "",
               caps[i].reg ? "pa_reg_" : "", caps[i].name);
  for (int i = 0; i < ncaps; i++)
    for (int k = 0; k < caps[i].nvla; k++)
      buf_printf(&args, ", .%s = %s", capture_vla_extent_name(ctx, &caps[i], k), capture_vla_extent(ctx, &caps[i], k));
  char *count = dollar_poly_whole(e->ctx, t->root->extent);
  long long nthreads;
  char *how_many = poly_is_const(t->root->extent, &nthreads) ? ctx_printf(ctx, "%lld", nthreads)
                                                              : ctx_printf(ctx, "|%s|", t->name);
  hostc_launch_checks(e, n, dt);
  if (dt->gpu_work)
    e->gpu->team_launch(e, n, &cpu_team, t);
  out_gen(e->out, n->loc, "%s{ /* #detour %s: %s %s threads */\n", in, n->name, how_many, kind_word(t));
  for (int i = 0; i < ncaps; i++) /* a register local has no address: the threads share a copy */
    if (caps[i].reg)
      out_gen(e->out, n->loc, "%s  %s = %s;\n", in, capture_register_copy(ctx, &caps[i]), caps[i].name);
  if (args.len)
    out_gen(e->out, n->loc, "%s  struct %s pa_args = {%s};\n", in, sname, args.data);
  out_gen(e->out, n->loc, "%s  %s(%s, %s, %s, %s, %d);\n", in, t->kind == TK_OMP ? "pa_omp_run" : "pa_pthd_run", count,
          fname, args.len ? "&pa_args" : "PA_NULL", text_c_string(ctx, text_loc_file(ctx, n->loc)), text_loc_line(ctx, n->loc));
  for (int i = 0; i < ncaps; i++)
    if (caps[i].reg && !caps[i].readonly)
      out_gen(e->out, n->loc, "%s  %s = pa_reg_%s;\n", in, caps[i].name, caps[i].name);
  out_gen(e->out, n->loc, "%s}", in);
  buf_free(&args);

  Out fn = out_new(ctx, -1);
  Out *saved = e->out;
  e->out = &fn;
  write_function(e, n, t, fname, sname, text, caps, ncaps, dt->gpu_work);
  buf_puts(&fn.b, text);
  if (fn.b.len && fn.b.data[fn.b.len - 1] != '\n')
    buf_putc(&fn.b, '\n');
  buf_puts(&fn.b, "}\n\n");
  e->out = saved;
  out_append(&e->hoist, &fn);
  out_free(&fn);
}

static void sync(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  Detour *dt = e->detour;
  Type *t = dt->type;
  const char *in = text_indent_of(n);
  const char *suffix = n->name ? n->name : "";
  /* omp too: the team's barrier sees a #sync some threads skip, where
   * OpenMP's would hang */
  if (!*suffix) {
    out_gen(e->out, n->loc, "%spa_sync_at(pa_self, %d);\n", in, text_loc_line(ctx, n->loc));
    return;
  }
  /* the suffix must name a node of the innermost thread array */
  char *base;
  int *digits, nd;
  Dim *d = t->root;
  if (!type_path_split(ctx_printf(ctx, "T%s", suffix), &base, &digits, &nd, ctx) || strcmp(base, "T")) {
    diag_error(ctx, n->loc, "'#sync%s' is not a sub-dimension suffix: write '#sync' or '#sync_K' (e.g. #sync_1_0)",
               suffix);
    return;
  }
  for (int k = 0; k < nd; k++) {
    int have = dim_nkids(d);
    if (digits[k] >= have) {
      diag_error(ctx, n->loc, "'#sync%s' names no sub-dimension of '%s', the thread array of the innermost detour: "
                 "'%s' has %s", suffix, t->name, d == t->root ? t->name : d->path,
                 have ? ctx_printf(ctx, "%d sub-dimension%s (_0 to _%d)", have, have == 1 ? "" : "s", have - 1)
                      : "no sub-dimensions");
      return;
    }
    d = dim_kid(d, digits[k]);
  }
  Poly *ext = d->extent;
  Poly *w = dim_weight(ctx, d, t->root);
  long long v;
  if (poly_is_const(ext, &v) && v == 1) {
    out_gen(e->out, n->loc, "%s/* #sync%s: every group is one thread */\n", in, suffix);
    return;
  }
  if (poly_equal(ext, t->root->extent)) {
    /* the sub-array holds every thread */
    out_gen(e->out, n->loc, "%spa_sync_at(pa_self, %d); /* #sync%s: all threads */\n", in, text_loc_line(ctx, n->loc),
            suffix);
    return;
  }
  /* groups of |K| threads: those that differ only in $tid_K$ */
  out_gen(e->out, n->loc, "%spa_sync_sub(pa_self, %s, %s, %s, %d); /* #sync%s: threads differing only in $tid%s$ */\n",
          in, dollar_poly_whole(e->ctx, w), dollar_poly_whole(e->ctx, ext), text_c_string(ctx, text_loc_file(ctx, n->loc)), text_loc_line(ctx, n->loc),
          suffix, suffix);
}

/* A scatter or gather between a shared host array and data distributed
 * over the threads (host blocks, SPEC 6.3; dmem, SPEC 6.5) whose layouts
 * team_rows could not turn into pitched copies: every thread moves the
 * elements it owns, element by element, a GPU block staged through pinned
 * host memory.  An all-to-all between host blocks: every thread fills its
 * block of the destination from the others' blocks of the source, whose
 * addresses pa_team_share hands round. */
static void team_copy(Emitter *e, Node *n, const CopyPlan *p)
{
  Ctx *ctx = e->ctx;
  const char *in = text_indent_of(n);
  const char *where = text_c_string(ctx, text_loc_file(ctx, n->loc));
  int line = text_loc_line(ctx, n->loc);
  Dim *src = p->src, *dst = p->dst;
  CopySide S = p->side[0], T = p->side[1];
  Type *team = (S.procs ? S : T).procs;
  if (p->check_extent)
    out_gen(e->out, n->loc, "%spa_check_copy_extent(%s, %s, %s, %d);\n", in, poly_str(ctx, src->extent),
            poly_str(ctx, dst->extent), where, line);
  const char *what = p->coll == COLL_SCATTER    ? "each thread fills its block"
                     : p->coll == COLL_ALLTOALL ? "each thread fills its block from the others'"
                                                : "each thread sends its block";
  out_gen(e->out, n->loc, "%s{ /* %s over the threads of %s: %s%s */\n", in, text_copy_title(ctx, n, p->sp, p->dp),
          team->name, what,
          p->via_host[0] || p->via_host[1] ? ", GPU memory through the host" : "");
  char *bytes[] = {hostc_block_bytes(ctx, src), hostc_block_bytes(ctx, dst)};
  hostc_stage_open(e, n, p, p->sp, p->dp, bytes);
  Poly *iS = copy_side_linear(ctx, &S), *iT = copy_side_linear(ctx, &T);
  switch (p->coll) {
  case COLL_SCATTER:
    hostc_side_nest(e, n, &T, true, true, NULL,
                    ctx_printf(ctx, "pa_dst[%s] = pa_src[%s]", dollar_poly_whole(ctx, dim_offset(ctx, dst, iT)),
                               dollar_poly_whole(ctx, dim_offset(ctx, src, iT))),
                    "pa_tid");
    break;
  case COLL_ALLTOALL: {
    const char *elem = src->type->elem;
    out_gen(e->out, n->loc, "%s  const %s *const *pa_blocks = (const %s *const *)pa_team_share(pa_self, pa_src);\n",
            in, elem, elem);
    hostc_side_nest(e, n, &T, true, true, NULL,
                    ctx_printf(ctx, "pa_dst[%s] = pa_blocks[%s][%s]", dollar_poly_whole(ctx, dim_offset(ctx, dst, iT)),
                               dollar_poly_whole(ctx, copy_side_owner(ctx, &S, iT, false)),
                               dollar_poly_whole(ctx, dim_offset(ctx, src, iT))),
                    "pa_tid");
    if (p->via_host[0]) /* the staged source goes when the others have read it */
      out_gen(e->out, n->loc, "%s  pa_sync_at(pa_self, %d);\n", in, line);
    break;
  }
  default:
    hostc_side_nest(e, n, &S, true, true, NULL,
                    ctx_printf(ctx, "pa_dst[%s] = pa_src[%s]", dollar_poly_whole(ctx, dim_offset(ctx, dst, iS)),
                               dollar_poly_whole(ctx, dim_offset(ctx, src, iS))),
                    "pa_tid");
    break;
  }
  hostc_stage_close(e, n, p, p->dp, bytes);
  out_gen(e->out, n->loc, "%s}\n", in);
}

/* a #copy in a thread's body: the thread copies alone, or the threads
 * together when data is distributed over them */
static void copy(Emitter *e, Node *n, const CopyPlan *p)
{
  if (p->how == COPY_COLLECTIVE)
    team_copy(e, n, p);
  else
    hostc_copy_loop(e, n, p, NULL);
}

/* dmem distributed over the threads (Backend.create_shared): what the
 * copies between their GPUs need, made by the GPU target */
static void create_shared(Emitter *e, Node *n, Type *threads, const char *p, const char *bytes)
{
  e->gpu->team_create(e, n, &cpu_team, threads, p, bytes);
}

static bool takes(ThreadKind threads, MemKind mem, bool gpu_program)
{
  (void)mem, (void)gpu_program;
  return threads == TK_PTHD || threads == TK_OMP;
}

static bool needed(const Ctx *ctx)
{
  return ctx->uses_pthd || ctx->uses_omp;
}

const Backend backend_cpu = {
  .name = "cpu",
  .include = "parray_cpu.h",
  .takes = takes,
  .needed = needed,
  .create_shared = create_shared,
  .copy = copy,
  .detour_open = detour_open,
  .detour_close = detour_close,
  .sync = sync,
  .team = &cpu_team,
};
