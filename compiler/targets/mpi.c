/* mpi.c: mpi process arrays and distributed data (SPEC.md 4, 6.3).
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
 * broadcast), and the receiver unpacks in the same order.
 *
 * GPU work (SPEC 6.5) is the GPU target's to print (Backend.team_*,
 * stage_*): this file describes the processes to it (mpi_team). */
#include "ctext.h"
#include "print/capture.h"
#include "emit/hostc.h"
#include "targets/all.h"

#include <stdlib.h>
#include <string.h>

/* An mpi detour: its number and the name of its argument struct. */
typedef struct MpiDetour {
  Detour dt;
  int id;
  const char *sname;
} MpiDetour;

static const Team mpi_team; /* the processes, as the GPU target sees them: below */


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
               n->name, k == TK_OMP || k == TK_MPI ? "an" : "a", type_kind_name(k));
    return false;
  }
  bool ok = true;
  for (int i = 0; i < t->nparams; i++)
    if (capture_type_is_array(e->ctx, e->scope, t->ptypes[i])) {
      diag_error(ctx, n->loc,
                 "parameter '%s' of mpi array '%s' is an array: detour arguments are sent by value, "
                 "declare it as a pointer (meaningful on process 0 only)",
                 t->pnames[i], t->name);
      ok = false;
    }
  return ok;
}

/* decl without the 'const' and 'volatile' before its name: a member that
 * memcpy fills ("const int k[2]" -> "int k[2]") */
static const char *unconst(Ctx *ctx, const char *decl)
{
  const char *name;
  size_t len;
  if (ctext_declarator(decl, NULL, &name, &len) == CD_NONE)
    return decl;
  Buf b = {.ctx = ctx};
  const char *done = decl;
  CText c = ctext(decl, name, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c))
    if (ctok_word(t, "const") || ctok_word(t, "volatile")) {
      buf_printf(&b, "%.*s", (int)(t.s - done), done);
      done = t.s + t.n;
      while (*done == ' ')
        done++;
    }
  buf_puts(&b, done);
  char *s = ctx_strdup(ctx, b.data);
  buf_free(&b);
  return s;
}

/* A captured local that the body reads through a pointer to this
 * process's copy: an array (its size kept, for sizeof) or a type whose
 * declaration parrayc does not see (an array perhaps). */
static bool by_pointer(const Capture *c)
{
  return c->array || c->opaque;
}

/* A captured local whose elements follow the argument struct: an array
 * of run-time size, or a parameter declared an array whose number of
 * rows is of run time ("int a[n]", "double a[n][m]"). */
static bool appended(const Capture *c)
{
  return c->nvla || c->rows;
}

/* The bytes process 0 sends of such a local. */
static const char *appended_size(Ctx *ctx, const Capture *c)
{
  return c->rows ? ctx_printf(ctx, "(pa_size_t)(%s) * sizeof *%s", c->rows, c->name) : ctx_printf(ctx, "sizeof %s", c->name);
}

/* The declaration of what process 0 sends of c: an array parameter's
 * elements as declared ("int p[3]"), else c as captured. */
static const char *sent_decl(const Capture *c)
{
  return c->sized_param ? c->sized_param : c->decl;
}

/* The parameter of the body's function that receives c (not of run-time
 * size): a pointer to the process's copy of an array or of an opaque
 * local, a parameter declared an array as C makes it, else c itself. */
static const char *param_decl(Ctx *ctx, const Capture *c)
{
  return by_pointer(c) ? capture_pointer_decl(ctx, c) : c->decl;
}

/* The body's function, and the function that unpacks the arguments sent
 * by process 0 (the parameters, and copies of the caller's locals the
 * body uses) and calls it. */
static void write_functions(Emitter *e, Node *n, Type *t, int id, const char *fname, const char *sname,
                            const char *rname, const char *body, Capture *caps, int ncaps, bool gpu)
{
  Loc loc = n->loc;
  bool args = t->nparams || ncaps;
  if (args) {
    out_gen(e->out, loc, "/* the arguments of '#detour %s'%s, sent by value from process 0 */\n", n->name,
            ncaps ? " and the caller's locals it uses" : "");
    out_gen(e->out, loc, "struct %s {\n", sname);
    /* each line naming a user's type carries the detour's line */
    for (int i = 0; i < t->nparams; i++) {
      hostc_pin_named(e, t->ptypes[i]);
      out_gen(e->out, loc, "  %s;\n", t->ptypes[i]);
    }
    for (int i = 0; i < ncaps; i++)
      if (!appended(&caps[i])) {
        hostc_pin_named(e, sent_decl(&caps[i]));
        out_gen(e->out, loc, "  %s;\n", unconst(e->ctx, sent_decl(&caps[i])));
      }
    for (int i = 0; i < ncaps; i++)
      for (int k = 0; k < caps[i].nvla; k++)
        out_gen(e->out, loc, "  pa_size_t %s;%s\n", capture_vla_extent_name(e->ctx, &caps[i], k),
                k ? "" : ctx_printf(e->ctx, " /* %s: its extents, and where it follows the struct */", caps[i].decl));
    for (int i = 0; i < ncaps; i++)
      if (appended(&caps[i]))
        out_gen(e->out, loc, "  pa_size_t pa_%s_at;%s\n", caps[i].name,
                caps[i].nvla ? "" : ctx_printf(e->ctx, " /* where %s's %s rows follow the struct */", caps[i].name,
                                               caps[i].rows));
    out_gen(e->out, loc, "};\n\n");
  }
  out_gen(e->out, loc, "/* the body of '#detour %s', run by each of the |%s| MPI processes */\n", n->name, t->name);
  bool named = false;
  for (int i = 0; i < t->nparams; i++)
    named = named || capture_decl_names(t->ptypes[i]);
  for (int i = 0; i < ncaps; i++)
    named = named || capture_decl_names(sent_decl(&caps[i]));
  if (named)
    out_pin(e->out);
  out_gen(e->out, loc, "static void %s(int pa_rank", fname);
  for (int i = 0; i < t->nparams; i++)
    out_gen(e->out, loc, ", %s", t->ptypes[i]);
  for (int i = 0; i < ncaps; i++) {
    for (int k = 0; k < caps[i].nvla; k++)
      out_gen(e->out, loc, ", pa_size_t %s", capture_vla_extent_name(e->ctx, &caps[i], k));
    if (caps[i].nvla)
      out_gen(e->out, loc, ", void *pa_%s", caps[i].name);
    else
      out_gen(e->out, loc, ", %s", param_decl(e->ctx, &caps[i]));
  }
  out_gen(e->out, loc, ")\n{\n");
  /* an array of run-time size: a pointer to it, whose type names the
   * extents (a parameter's type cannot, in C++) */
  for (int i = 0; i < ncaps; i++)
    if (caps[i].nvla) {
      const char *d = capture_vla_decl(e->ctx, &caps[i], "", !caps[i].vla_ptr);
      hostc_pin_named(e, caps[i].decl);
      out_gen(e->out, loc, "  %s = (%s)pa_%s;\n", d, capture_type_name(e->ctx, d, caps[i].name), caps[i].name);
    }
  if (!text_mentions(body, "pa_rank"))
    out_gen(e->out, loc, "  (void)pa_rank;\n");
  for (int i = 0; i < t->nparams; i++)
    if (!text_mentions(body, t->pnames[i]))
      out_gen(e->out, loc, "  (void)%s;\n", t->pnames[i]);
  if (gpu)
    e->gpu->team_bind(e, loc, &mpi_team, t);
  buf_puts(&e->out->b, body);
  if (e->out->b.len && e->out->b.data[e->out->b.len - 1] != '\n')
    buf_putc(&e->out->b, '\n');
  e->out->line = -1;
  out_gen(e->out, loc, "}\n\n");
  out_gen(e->out, loc, "static void %s(void *pa_args)\n{\n", rname);
  if (args) {
    out_gen(e->out, loc, "  const struct %s *pa_a = (const struct %s *)pa_args;\n", sname, sname);
    if (named)
      out_pin(e->out);
    out_gen(e->out, loc, "  %s(pa_mpi_rank()", fname);
    for (int i = 0; i < t->nparams; i++)
      out_gen(e->out, loc, ", pa_a->%s", t->pnames[i]);
    /* an array reaches the body as a pointer to this process's copy */
    for (int i = 0; i < ncaps; i++) {
      for (int k = 0; k < caps[i].nvla; k++)
        out_gen(e->out, loc, ", pa_a->%s", capture_vla_extent_name(e->ctx, &caps[i], k));
      if (caps[i].nvla)
        out_gen(e->out, loc, ", (char *)pa_args + pa_a->pa_%s_at", caps[i].name);
      else if (caps[i].rows)
        out_gen(e->out, loc, ", (%s)((char *)pa_args + pa_a->pa_%s_at)",
                capture_type_name(e->ctx, caps[i].decl, caps[i].name), caps[i].name);
      else if (by_pointer(&caps[i]) || caps[i].sized_param) /* this process's copy, not const */
        out_gen(e->out, loc, ", (%s)%spa_a->%s", capture_type_name(e->ctx, param_decl(e->ctx, &caps[i]), caps[i].name),
                caps[i].sized_param ? "" : "&", caps[i].name);
      else
        out_gen(e->out, loc, ", pa_a->%s", caps[i].name);
    }
    out_gen(e->out, loc, ");\n}\n");
  } else {
    out_gen(e->out, loc, "  (void)pa_args;\n  %s(pa_mpi_rank());\n}\n", fname);
  }
  out_gen(e->out, loc, "PA_MPI_REGISTER(%d, %s)\n\n", id, rname);
}
/* The first 'return' in the C text of an mpi body (nested detours
 * aside), with its location, and the first collective (#sync, #copy). */
static void find_return(Node *list, Loc *ret, Node **collective)
{
  for (Node *n = list; n; n = n->next) {
    if (n->kind == N_TEXT && !ret->line && text_mentions(n->text, "return")) {
      *ret = n->loc;
      for (const char *p = n->text; *p && strncmp(p, "return", 6); p++) {
        ret->col = *p == '\n' ? 1 : ret->col + 1;
        ret->line += *p == '\n';
      }
    }
    if ((n->kind == N_SYNC || n->kind == N_COPY) && !*collective)
      *collective = n;
    if (n->kind == N_BLOCK)
      find_return(n->body, ret, collective);
  }
}

/* A process of an mpi body that returns while the others wait at a #sync
 * (or a distributed #copy) would hang the job: SPEC promises it cannot. */
static bool mpi_returns_early(Emitter *e, Node *n)
{
  Loc ret = {0, 0};
  Node *coll = NULL;
  find_return(n->body, &ret, &coll);
  if (!ret.line || !coll)
    return false;
  diag_error(e->ctx, ret, "'return' in the body of mpi detour '%s', which has collective steps: a process "
             "that returns early leaves the others waiting forever (set a flag and skip to the end instead)", n->name);
  diag_note(e->ctx, coll->loc, "every process must reach this '#%s'", coll->kind == N_SYNC ? "sync" : "copy");
  return true;
}

static Detour *detour_open(Emitter *e, Node *n, Type *t)
{
  if (mpi_returns_early(e, n) || !detour_ok(e, n, t))
    return NULL;
  int id = ++e->mpi_detours;
  const char *fname = text_gen_name(e->ctx, "detour", t->cname, n);
  /* the body: $tid$ is the rank, #sync a barrier */
  MpiDetour *md = (MpiDetour *)hostc_detour(e, n, t, fname, "pa_rank", sizeof(MpiDetour));
  md->id = id;
  md->sname = text_gen_name(e->ctx, "args", t->cname, n);
  return &md->dt;
}

/* Sends pa_args followed by the arrays of run-time size the body uses,
 * each at a multiple of 16 bytes (the alignment of malloc's blocks, so
 * that of any element), where pa_NAME_at says. */
static void send_with_arrays(Emitter *e, Node *n, Type *t, Capture *caps, int ncaps, int id, const char *file,
                             int line)
{
  const char *in = text_indent_of(n);
  const char *end = "sizeof pa_args";
  out_gen(e->out, n->loc, "%s  /* the arrays of run-time size follow the struct, each at a multiple of 16 bytes */\n",
          in);
  for (int i = 0; i < ncaps; i++)
    if (appended(&caps[i])) {
      out_gen(e->out, n->loc, "%s  pa_args.pa_%s_at = (%s + 15) / 16 * 16;\n", in, caps[i].name, end);
      end = ctx_printf(e->ctx, "pa_args.pa_%s_at + %s", caps[i].name, appended_size(e->ctx, &caps[i]));
    }
  out_gen(e->out, n->loc, "%s  pa_size_t pa_size = %s;\n", in, end);
  out_gen(e->out, n->loc, "%s  char *pa_buf = (char *)pa_alloc_host(PA_PAGED, pa_size, 1, \"char\", %s, %d);\n", in,
          file, line);
  out_gen(e->out, n->loc, "%s  pa_memcpy(pa_buf, &pa_args, sizeof pa_args);\n", in);
  for (int i = 0; i < ncaps; i++)
    if (appended(&caps[i]))
      out_gen(e->out, n->loc, "%s  pa_memcpy(pa_buf + pa_args.pa_%s_at, %s%s, %s);\n", in, caps[i].name,
              text_mentions(caps[i].decl, "volatile") ? "(const void *)" : "", caps[i].name,
              appended_size(e->ctx, &caps[i]));
  out_gen(e->out, n->loc, "%s  pa_mpi_detour(%d, pa_buf, pa_size, %s, %s, %s, %d);\n", in, id,
          dollar_poly_whole(e->ctx, t->root->extent), text_c_string(e->ctx, t->name), file, line);
  out_gen(e->out, n->loc, "%s  pa_free_host(PA_PAGED, pa_buf);\n", in);
}

static void detour_close(Emitter *e, Node *n, Detour *dt, Out *body)
{
  Ctx *ctx = e->ctx;
  MpiDetour *md = (MpiDetour *)dt;
  Type *t = dt->type;
  int id = md->id;
  const char *fname = dt->name, *sname = md->sname;
  const char *rname = text_gen_name(e->ctx, "run", t->cname, n);
  const char *in = text_indent_of(n);

  char *text = hostc_outlined(ctx, n, body);
  Capture *caps;
  int ncaps = capture_find(ctx, e->scope, n, text, t->pnames, t->nparams, &caps);
  if (ncaps < 0)
    return;
  bool unsized = false;
  for (int i = 0; i < ncaps; i++)
    if (caps[i].array && !caps[i].nvla && capture_decl_is_unsized_array(caps[i].decl)) {
      diag_error(ctx, n->loc, "the body of mpi detour '%s' uses '%s', a local array whose size its initialiser "
                 "gives ('%s'): the processes receive a copy, whose size must be written: declare it with its size",
                 n->name, caps[i].name, caps[i].decl);
      unsized = true;
    }
  for (int i = 0; i < ncaps; i++)
    if (caps[i].vla_ptr && !caps[i].rows) {
      diag_error(ctx, n->loc, "the body of mpi detour '%s' uses '%s', a parameter declared '%s', whose number of rows "
                 "is not written: the processes receive a copy, whose size must be known: write it ('[n][m]')",
                 n->name, caps[i].name, caps[i].decl);
      unsized = true;
    }
  if (unsized)
    return;
  /* the arrays and the locals of unknown type are read through pointers */
  Capture *ptrs = ctx_alloc(ctx, sizeof(Capture) * (size_t)(ncaps + 1));
  int nptrs = 0, nvlas = 0;
  for (int i = 0; i < ncaps; i++) {
    if (by_pointer(&caps[i]))
      ptrs[nptrs++] = caps[i];
    nvlas += appended(&caps[i]);
  }
  text = capture_body_block(ctx, capture_by_reference(ctx, text, ptrs, nptrs), caps, ncaps);

  /* the call on process 0: arguments evaluated once, then sent */
  Buf args = {.ctx = ctx};
  for (int i = 0; i < n->nargs; i++)
    buf_printf(&args, "%s%s", i ? ", " : "", util_str_trim(ctx, frag_text(e, n->args[i])));
  /* (C++ wants every member initialised: those copied after too) */
  for (int i = 0; i < ncaps; i++)
    if (appended(&caps[i]))
      continue;
    else if (!by_pointer(&caps[i]) && !caps[i].sized_param)
      buf_printf(&args, "%s.%s = %s", args.len ? ", " : "", caps[i].name, caps[i].name);
    else if (e->gpu_program)
      buf_printf(&args, "%s.%s = {}", args.len ? ", " : "", caps[i].name);
  for (int i = 0; i < ncaps; i++)
    for (int k = 0; k < caps[i].nvla; k++)
      buf_printf(&args, "%s.%s = %s", args.len ? ", " : "", capture_vla_extent_name(ctx, &caps[i], k),
                 capture_vla_extent(ctx, &caps[i], k));
  for (int i = 0; i < ncaps && e->gpu_program; i++)
    if (appended(&caps[i]))
      buf_printf(&args, ", .pa_%s_at = 0", caps[i].name);
  bool send = t->nparams || ncaps;
  long long np;
  char *how_many = poly_is_const(t->root->extent, &np) ? ctx_printf(ctx, "%lld", np)
                                                        : ctx_printf(ctx, "|%s|", t->name);
  hostc_launch_checks(e, n, dt);
  out_gen(e->out, n->loc, "%s{ /* #detour %s: %s MPI processes */\n", in, n->name, how_many);
  if (send) {
    /* arrays cannot be initialised from arrays: copied after */
    out_gen(e->out, n->loc, "%s  struct %s pa_args = {%s};\n", in, sname, args.data ? args.data : "");
    for (int i = 0; i < ncaps; i++)
      if ((by_pointer(&caps[i]) || caps[i].sized_param) && !appended(&caps[i]))
        out_gen(e->out, n->loc, "%s  pa_memcpy(%s%s, %s%s, sizeof pa_args.%s);\n", in, caps[i].opaque ? "&" : "",
                ctx_printf(ctx, "pa_args.%s", caps[i].name),
                text_mentions(caps[i].decl, "volatile") ? "(const void *)&" : caps[i].opaque ? "&" : "",
                caps[i].name, caps[i].name);
  }
  const char *file = text_c_string(ctx, text_loc_file(ctx, n->loc));
  int line = text_loc_line(ctx, n->loc);
  if (nvlas)
    send_with_arrays(e, n, t, caps, ncaps, id, file, line);
  else
    out_gen(e->out, n->loc, "%s  pa_mpi_detour(%d, %s, %s, %s, %s, %s, %d);\n", in, id, send ? "&pa_args" : "PA_NULL",
            send ? "sizeof pa_args" : "0", dollar_poly_whole(e->ctx, t->root->extent), text_c_string(ctx, t->name),
            file, line);
  out_gen(e->out, n->loc, "%s}", in);
  buf_free(&args);

  Out fn = out_new(ctx, -1);
  Out *saved = e->out;
  e->out = &fn;
  write_functions(e, n, t, id, fname, sname, rname, text, caps, ncaps, dt->gpu_work);
  e->out = saved;
  out_append(&e->hoist, &fn);
  out_free(&fn);
}

/* ---- #sync ---- */

static void sync(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  Type *t = e->detour->type;
  const char *in = text_indent_of(n);
  const char *suffix = n->name ? n->name : "";
  if (*suffix) {
    Dim *d = dim_resolve(ctx, ctx_printf(ctx, "%s%s", t->name, suffix), n->loc);
    if (!d)
      return;
    long long v;
    if (poly_is_const(d->extent, &v) && v == 1) {
      out_gen(e->out, n->loc, "%s/* #sync%s: every group is one process */\n", in, suffix);
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
  out_gen(e->out, n->loc, "%spa_mpi_sync(%s, %d);%s\n", in, text_c_string(ctx, text_loc_file(ctx, n->loc)), text_loc_line(ctx, n->loc),
          *suffix ? ctx_printf(ctx, " /* #sync%s: all processes */", suffix) : "");
}

/* ---- #mainhost ---- */

static void main_open(Emitter *e, Node *n)
{
  out_gen(e->out, n->loc, "/* #mainhost: runs on process 0; the others serve its mpi detours */\n");
  hostc_main_head(e, n);
}

static void main_close(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  hostc_main_tail(e, n);
  out_gen(e->out, n->loc,
          "int main(int argc, char **argv)\n"
          "{\n"
          "  pa_init(&argc, &argv);\n"
          "  pa_mpi_init(&argc, &argv);\n");
  /* the job must have as many processes as each mpi array (those of
   * non-constant extent are checked at their detours) */
  for (Type *t = ctx->types; t; t = t->next) {
    long long np;
    if (t->kind == TK_MPI && poly_is_const(t->root->extent, &np))
      out_gen(e->out, n->loc, "  pa_mpi_expect(%lld, %s, %s, %d);\n", np, text_c_string(ctx, t->name),
              text_c_string(ctx, text_loc_file(ctx, t->loc)), text_loc_line(ctx, t->loc));
  }
  out_gen(e->out, n->loc,
          "  int status = pa_mpi_rank() == 0 ? pa_main(argc, argv) : pa_mpi_serve();\n"
          "  pa_mpi_finalize();\n"
          "  pa_finalize();\n"
          "  return status;\n"
          "}\n");
}

/* ---- distributed #copy ---- */

/* "bucket[p] += count" over the nest of s (own or all), looping over the
 * local digits only when the bucket depends on them. */
static void count(Emitter *e, Node *n, CopySide *s, bool own, const char *cond, const char *array, Poly *bucket)
{
  Ctx *ctx = e->ctx;
  bool locals = copy_side_uses_locals(s, bucket);
  Poly *inc = locals ? poly_const(ctx, 1) : s->local;
  hostc_side_nest(e, n, s, own, locals, cond,
       ctx_printf(ctx, "pa_x->%s[%s] += %s", array, dollar_poly_whole(e->ctx, bucket), dollar_poly_whole(e->ctx, inc)), "pa_rank");
}

static const char *how_name(Collective how)
{
  static const char *names[] = {"PA_MPI_SCATTER", "PA_MPI_GATHER", "PA_MPI_ALLTOALL", "PA_MPI_BCAST"};
  return names[how];
}

/* The body of a scatter or gather of rows, or a broadcast of a block
 * (CopyPlan.rows): one pa_mpi_rows call, the GPU block of the side every
 * process has staged through pinned host memory. */
static void rows(Emitter *e, Node *n, const CopyPlan *p, char **bytes)
{
  Ctx *ctx = e->ctx;
  const char *in = text_indent_of(n);
  bool scatter = p->coll != COLL_GATHER; /* a broadcast moves rows the same way */
  int x = scatter ? 1 : 0; /* the distributed (or every process's) side */
  const char *elem = p->dst->type->elem;
  const char *where = text_c_string(ctx, text_loc_file(ctx, n->loc));
  int line = text_loc_line(ctx, n->loc);
  const char *xp = x ? p->dp : p->sp, *hp = x ? p->sp : p->dp;
  const char *local = xp;
  if (p->via_host[x]) {
    /* a scattered block goes back whole: read first unless the rows fill it */
    bool fresh = scatter && hostc_written_whole(ctx, (CopySide *)&p->side[x]);
    out_gen(e->out, n->loc, "%s  %s *pa_local = (%s *)%s;\n", in, elem, elem,
            e->gpu->stage_out(e, fresh ? "PA_NULL" : xp, bytes[x], ctx_printf(ctx, "%s, %d", where, line)));
    local = "pa_local";
  }
  if (!poly_is_value(p->xbase, 0))
    local = ctx_printf(ctx, "%s + %s", ctext_sum_operand(ctx, local), poly_str(ctx, p->xbase));
  const CopyDigit *dg = p->dg;
  Poly *hpitch = scatter ? dg[0].s : dg[0].d, *lpitch = scatter ? dg[0].d : dg[0].s;
  /* the host pointer is cast to void *: its offset added first, in elements */
  const char *host = poly_is_value(p->ybase, 0) ? util_text_operand(ctx, hp)
                                                : ctx_printf(ctx, "(%s + %s)", ctext_sum_operand(ctx, hp),
                                                             poly_str(ctx, p->ybase));
  out_gen(e->out, n->loc, "%s  pa_mpi_rows(%s, %s, pa_rank == 0 ? (void *)%s : PA_NULL, %s, %s, %s, %s, %s, %s, "
          "sizeof(%s), %s, %d);\n", in, how_name(p->coll), p->parts ? poly_str(ctx, p->parts) : "pa_mpi_size()", host,
          poly_str(ctx, dg[0].extent), poly_str(ctx, dg[1].extent), poly_str(ctx, hpitch), poly_str(ctx, p->step),
          local, poly_str(ctx, lpitch), elem, where, line);
  if (p->via_host[x])
    out_gen(e->out, n->loc, "%s  %s\n", in, e->gpu->stage_in(e, scatter ? xp : "PA_NULL", "pa_local",
                                                            scatter ? bytes[x] : "0",
                                                            ctx_printf(ctx, "%s, %d", where, line)));
}

/* The buckets of a distributed copy, moved by an MPI collective (GPU
 * blocks staged through pinned host memory). */
static void collective(Emitter *e, Node *n, const CopyPlan *p)
{
  Ctx *ctx = e->ctx;
  const char *in = text_indent_of(n);
  Dim *src = p->src, *dst = p->dst;
  const char *sp = p->sp, *dp = p->dp;
  CopySide S = p->side[0], T = p->side[1];
  Collective how = p->coll;
  static const char *whats[] = {"scatter from process 0", "gather to process 0", "all-to-all among the processes",
                                "broadcast from process 0"};
  const char *what = whats[how];
  if (p->check_extent)
    out_gen(e->out, n->loc, "%spa_mpi_check_copy_extent(%s, %s, %s, %d);\n", in, poly_str(ctx, src->extent),
            poly_str(ctx, dst->extent), text_c_string(ctx, text_loc_file(ctx, n->loc)), text_loc_line(ctx, n->loc));
  const char *elem = dst->type->elem;
  char *bytes[] = {hostc_block_bytes(ctx, src), hostc_block_bytes(ctx, dst)};
  out_gen(e->out, n->loc, "%s{ /* %s: %s%s%s */\n", in, text_copy_title(ctx, n, sp, dp), what, p->rows ? ", rows of each process's part" : "",
          p->ipc_rows ? ctx_printf(ctx, ", GPU memory by process 0 through %s on one node, else through the host",
                                   e->gpu->ipc)
          : p->via_host[0] || p->via_host[1] ? ", GPU memory through the host" : "");
  if (p->rows) {
    if (p->ipc_rows) /* GPU memory by process 0 */
      e->gpu->team_copy(e, n, &mpi_team, p);
    else
      rows(e, n, p, bytes);
    out_gen(e->out, n->loc, "%s}\n", in);
    return;
  }
  out_gen(e->out, n->loc, "%s  pa_mpi_xchg *pa_x = pa_mpi_xchg_begin(sizeof(%s));\n", in, elem);
  /* GPU memory that is not distributed is process 0's in a scatter or a
   * gather (every process's own in a broadcast): staged there only */
  bool root_src = !S.procs, root_dst = !T.procs && how == COLL_GATHER;
  for (int k = 0; k < 2; k++)
    if (p->via_host[k] && (k ? root_dst : root_src)) {
      if (k == 0)
        sp = ctx_printf(ctx, "pa_rank == 0 ? %s : PA_NULL", sp);
      else
        dp = ctx_printf(ctx, "pa_rank == 0 ? %s : PA_NULL", dp);
      bytes[k] = ctx_printf(ctx, "pa_rank == 0 ? %s : 0", bytes[k]);
    }
  hostc_stage_open(e, n, p, sp, dp, bytes);
  /* w: the side whose digits drive the loops where only one is distributed */
  CopySide *w = how == COLL_GATHER || how == COLL_BCAST ? &S : &T;
  Poly *iS = copy_side_linear(ctx, &S), *iT = copy_side_linear(ctx, &T), *iw = copy_side_linear(ctx, w);
  char *root = ctx_strdup(ctx, "pa_rank == 0");
  const char *sb = "pa_sbuf[pa_x->scur[%s]++] = pa_src[%s]";
  const char *rb = "pa_dst[%s] = pa_rbuf[pa_x->rcur[%s]++]";
  out_gen(e->out, n->loc, "%s  /* elements to and from each process */\n", in);
  switch (how) {
  case COLL_SCATTER:
    count(e, n, &T, false, root, "scount", copy_side_owner(ctx, &T, iT, true));
    count(e, n, &T, true, NULL, "rcount", poly_const(ctx, 0));
    break;
  case COLL_GATHER:
    count(e, n, &S, true, NULL, "scount", poly_const(ctx, 0));
    count(e, n, &S, false, root, "rcount", copy_side_owner(ctx, &S, iS, true));
    break;
  case COLL_ALLTOALL:
    count(e, n, &S, true, NULL, "scount", copy_side_owner(ctx, &T, iS, false));
    count(e, n, &T, true, NULL, "rcount", copy_side_owner(ctx, &S, iT, false));
    break;
  case COLL_BCAST:
    count(e, n, &S, false, root, "scount", poly_const(ctx, 0));
    count(e, n, &S, false, NULL, "rcount", poly_const(ctx, 0));
    break;
  }
  out_gen(e->out, n->loc, "%s  %s *pa_sbuf = (%s *)pa_mpi_xchg_pack(pa_x);\n", in, elem, elem);
  switch (how) {
  case COLL_SCATTER:
  case COLL_BCAST:
    hostc_side_nest(e, n, w, false, true, root,
         ctx_printf(ctx, sb, dollar_poly_whole(e->ctx, copy_side_owner(ctx, &T, iw, true)),
                    dollar_poly_whole(e->ctx, dim_offset(ctx, src, iw))), "pa_rank");
    break;
  case COLL_GATHER:
  case COLL_ALLTOALL:
    hostc_side_nest(e, n, &S, true, true, NULL,
         ctx_printf(ctx, sb, dollar_poly_whole(e->ctx, copy_side_owner(ctx, &T, iS, false)),
                    dollar_poly_whole(e->ctx, dim_offset(ctx, src, iS))), "pa_rank");
    break;
  }
  out_gen(e->out, n->loc, "%s  const %s *pa_rbuf = (const %s *)pa_mpi_xchg_run(pa_x, %s, %s, %d);\n", in, elem, elem,
          how_name(how), text_c_string(ctx, text_loc_file(ctx, n->loc)), text_loc_line(ctx, n->loc));
  switch (how) {
  case COLL_SCATTER:
  case COLL_ALLTOALL:
    hostc_side_nest(e, n, &T, true, true, NULL,
         ctx_printf(ctx, rb, dollar_poly_whole(e->ctx, dim_offset(ctx, dst, iT)),
                    dollar_poly_whole(e->ctx, copy_side_owner(ctx, &S, iT, false))), "pa_rank");
    break;
  case COLL_GATHER:
    hostc_side_nest(e, n, &S, false, true, root,
         ctx_printf(ctx, rb, dollar_poly_whole(e->ctx, dim_offset(ctx, dst, iS)),
                    dollar_poly_whole(e->ctx, copy_side_owner(ctx, &S, iS, true))), "pa_rank");
    break;
  case COLL_BCAST:
    hostc_side_nest(e, n, &S, false, true, NULL,
         ctx_printf(ctx, rb, dollar_poly_whole(e->ctx, dim_offset(ctx, dst, iS)), "0"), "pa_rank");
    break;
  }
  out_gen(e->out, n->loc, "%s  pa_mpi_xchg_end(pa_x);\n", in);
  hostc_stage_close(e, n, p, dp, bytes);
  out_gen(e->out, n->loc, "%s}\n", in);
}

static void copy(Emitter *e, Node *n, const CopyPlan *p)
{
  if (p->how != COPY_COLLECTIVE) {
    /* process 0's memory exists on process 0 only */
    if (p->process0)
      out_gen(e->out, n->loc, "%sif (pa_rank == 0) /* #copy into process 0's memory */\n", text_indent_of(n));
    hostc_copy_loop(e, n, p, NULL);
    return;
  }
  /* every process must reach this copy: checked as #sync is */
  for (Detour *x = e->detour; x; x = x->parent)
    if (x->type->kind == TK_MPI) {
      out_gen(e->out, n->loc, "%spa_mpi_copy_point(%s, %d);\n", text_indent_of(n), text_c_string(e->ctx, text_loc_file(e->ctx, n->loc)),
              text_loc_line(e->ctx, n->loc));
      break;
    }
  if (p->peer) /* between the processes' GPUs */
    e->gpu->team_copy(e, n, &mpi_team, p);
  else
    collective(e, n, p);
}

/* dmem distributed over the processes (Backend.create_shared), made by
 * every process together (the GPU target's): every process must reach
 * it, checked as #sync is. */
static void create_shared(Emitter *e, Node *n, Type *threads, const char *p, const char *bytes)
{
  out_gen(e->out, n->loc, "%spa_mpi_create_point(%s);\n", text_indent_of(n), backend_at(e, n));
  e->gpu->team_create(e, n, &mpi_team, threads, p, bytes);
}

/* ---- the processes, as the GPU target sees them (Team) ---- */

static const char *team_count(Emitter *e, Type *t)
{
  (void)e, (void)t;
  return "pa_mpi_size()";
}

/* a process's GPU: its rank among the processes of its node that see the
 * same GPUs, mod their number */
static const char *team_gpu_index(Emitter *e, Type *t, const char *gpus, const char *visible, const char *none,
                                  const char *at)
{
  return ctx_printf(e->ctx, "pa_mpi_gpu_of(%s, %s, %s, %s, %s)", gpus, visible, none, text_c_string(e->ctx, t->name),
                    at);
}

/* every process's value of lvalue mine, gathered (freed by pa_free_host) */
static const char *team_share(Emitter *e, const char *mine, const char *at)
{
  return ctx_printf(e->ctx, "pa_mpi_allgather(&%s, sizeof %s, %s)", mine, mine, at);
}

static const char *team_wait(Emitter *e, const char *at)
{
  return ctx_printf(e->ctx, "pa_mpi_sync(%s);", at);
}

static void team_rows(Emitter *e, Node *n, const CopyPlan *p)
{
  char *bytes[] = {hostc_block_bytes(e->ctx, p->src), hostc_block_bytes(e->ctx, p->dst)};
  rows(e, n, p, bytes);
}

static const Team mpi_team = {
  .me = "pa_rank",
  .members = "processes",
  .processes = true,
  .check_extent = "pa_mpi_check_copy_extent",
  .one_node = "pa_mpi_one_node()",
  .count = team_count,
  .gpu_index = team_gpu_index,
  .share = team_share,
  .wait = team_wait,
  .host_copy = collective,
  .host_rows = team_rows,
};

/* mpi process arrays (and #mainhost of an mpi program, which the walk
 * asks for as run by them) */
static bool takes(ThreadKind threads, MemKind mem, bool gpu_program)
{
  (void)mem, (void)gpu_program;
  return threads == TK_MPI;
}

static bool needed(const Ctx *ctx)
{
  return ctx->uses_mpi;
}

const Backend backend_mpi = {
  .name = "mpi",
  .include = "parray_mpi.h",
  .takes = takes,
  .needed = needed,
  .create_shared = create_shared,
  .copy = copy,
  .detour_open = detour_open,
  .detour_close = detour_close,
  .sync = sync,
  .main_open = main_open,
  .main_close = main_close,
  .team = &mpi_team,
};
