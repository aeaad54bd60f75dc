/* cuda.c: cuda thread arrays and GPU memory (the GPU target).
 *
 * A cuda detour becomes a __global__ kernel (placed before the top-level
 * item that holds the detour) and a launch in place of the directive,
 * followed by a checked synchronisation.  Thread indices are ints declared
 * at the top of the kernel (pa_bx = blockIdx.x, pa_tx = threadIdx.x, ...)
 * and enter offset expressions as index variables bounded by their
 * extents, so the simplifier folds divisions and remainders away and nvcc
 * sees constant strides.  A #copy with device memory prints its plan
 * (copy_plan.c): cudaMemcpy, cudaMemcpy2D, or a generated copy kernel
 * launched directly or staged; a #copy inside a kernel, the loop each
 * thread runs alone (hostc.c).  The GPU side of the work of a pthd, omp
 * or mpi team is team.c's; the copy kernels are kernels.c's. */
#include <ctype.h>
#include "ctext.h"
#include "print/capture.h"
#include "emit/hostc.h"
#include "targets/cuda/kernels.h"
#include "model/launch.h"
#include "targets/all.h"
#include "targets/cuda/team.h"

#include <stdlib.h>
#include <string.h>

#define SMEM_ALIGN 16

/* ---- the launch shape of a thread array ---- */

typedef struct Axis {
  Dim *node;          /* the thread-array node on this axis */
  Poly *var;          /* its index: pa_tx, ... */
  const char *name;   /* "pa_tx" */
  const char *builtin; /* "threadIdx.x" */
} Axis;

typedef struct Level {
  Dim *dim;           /* T_0 (grid) or T_1 (block) */
  Axis ax[3];         /* outermost first; the last is x */
  int n;
} Level;

typedef struct Shape {
  bool tiled;         /* one top-level dimension: blocks of `tile` threads */
  long long tile;
  bool guard;         /* the last block is ragged */
  Poly *tid;          /* tiled: the linear thread index pa_tid */
  Level lv[2];
} Shape;

/* An smem #create of the kernel being translated: it leaves a mark in the
 * body, replaced by its declaration when the kernel is complete (static or
 * dynamic depends on the sum of all of them). */
typedef struct SmemArray {
  Node *node;
  const char *name;
  const char *elem;
  Poly *span;
  long long bytes;    /* 0: not a number at translation time */
  const char *offset; /* C text: its byte offset in the dynamic buffer */
} SmemArray;

/* A cuda detour being translated (dt first: the walk sees a Detour). */
typedef struct CudaDetour {
  Detour dt;
  Shape sh;
  bool used[2][3];    /* which axis variables the body used */
  bool used_tid;
  SmemArray *smem;
  int nsmem;
  const char *smem_bytes; /* C text: the size of the dynamic buffer; NULL: static arrays */
  int min_blocks;     /* #pragma parray min_blocks(K) in the body; 0: none */
  const char *nowait; /* #pragma parray nowait[(COND)]: "" or COND's text; NULL: waited for */
} CudaDetour;

/* "file.pa", line: the place a run-time failure names */
static const char *where(Emitter *e, Node *n)
{
  return ctx_printf(e->ctx, "%s, %d", text_c_string(e->ctx, text_loc_file(e->ctx, n->loc)), text_loc_line(e->ctx, n->loc));
}

/* C text of an extent or stride without the outer parentheses, for a
 * whole argument or operand of a comparison */
static const char *num(Emitter *e, Poly *p)
{
  return ctext_strip_parens(e->ctx, poly_str(e->ctx, p));
}

/* the axes of a level of the launch shape (model/launch.c) as pa_bz...,
 * blockIdx.z... */
static void set_level(Ctx *ctx, Level *lv, const LaunchShape *l, int which)
{
  const char *prefix = which ? "pa_t" : "pa_b";
  const char *builtin = which ? "threadIdx" : "blockIdx";
  lv->dim = l->lv[which];
  lv->n = l->nax[which];
  for (int k = 0; k < lv->n; k++) {
    char c = launch_axis_letter(l, which, k);
    Axis *a = &lv->ax[k];
    a->node = l->ax[which][k];
    a->name = ctx_printf(ctx, "%s%c", prefix, c);
    a->builtin = ctx_printf(ctx, "%s.%c", builtin, c);
    a->var = poly_var(ctx, a->name, a->node->extent);
  }
}

/* Checks a constant extent against a limit; reports at the detour. */
static bool limit_ok(Emitter *e, Node *n, Type *t, Dim *d, const char *what, long long max)
{
  long long v;
  if (!poly_is_const(d->extent, &v) || v <= max)
    return true;
  diag_error(e->ctx, n->name_loc, "%s of cuda thread array '%s' is %lld ('%s'); CUDA allows at most %lld", what,
             t->name, v, d->path, max);
  diag_note(e->ctx, t->loc, "'%s' was declared here", t->name);
  return false;
}

static bool shape_of(Emitter *e, Node *n, Type *t, Shape *sh)
{
  Ctx *ctx = e->ctx;
  Dim *root = t->root;
  memset(sh, 0, sizeof *sh);
  long long v;
  LaunchShape l;
  if (!launch_shape(root, poly_is_const(root->extent, &v) ? v : 0, &l)) {
    diag_error(ctx, n->name_loc,
               "cuda thread array '%s' has %d top-level dimensions; it needs one ([n], tiled into blocks) or two "
               "([grid][block])",
               t->name, dim_nkids(root));
    diag_note(ctx, t->loc, "'%s' was declared here", t->name);
    return false;
  }
  if (l.tiled) {
    /* [n]: tiled like a C++ AMP extent */
    sh->tiled = true;
    sh->tile = l.tile;
    sh->guard = !(poly_is_const(root->extent, &v) && v % sh->tile == 0);
    sh->tid = poly_var(ctx, "pa_tid", root->extent);
    return true;
  }
  set_level(ctx, &sh->lv[0], &l, 0);
  set_level(ctx, &sh->lv[1], &l, 1);
  bool ok = limit_ok(e, n, t, l.lv[1], "the block size", launch_numbers.block_threads);
  static const char *grid_what[3] = {"gridDim.z", "gridDim.y", "gridDim.x"};
  static const char *block_what[3] = {"blockDim.z", "blockDim.y", "blockDim.x"};
  for (int w = 0; w < 2; w++) {
    Level *lv = &sh->lv[w];
    for (int k = 0; k < lv->n; k++) {
      int c = 3 - lv->n + k;
      ok &= limit_ok(e, n, t, lv->ax[k].node, w ? block_what[c] : grid_what[c], w ? launch_numbers.block_max[c] : launch_numbers.grid_max[c]);
    }
  }
  return ok;
}

/* ---- $tid...$ inside a kernel ---- */

static Atom *atom_of(Poly *var)
{
  return var->t[0].f[0];
}

static void note_used(CudaDetour *cd, Poly *p)
{
  Shape *sh = &cd->sh;
  if (sh->tiled) {
    cd->used_tid |= poly_count_atom(p, atom_of(sh->tid)) > 0;
    return;
  }
  for (int w = 0; w < 2; w++)
    for (int k = 0; k < sh->lv[w].n; k++)
      cd->used[w][k] |= poly_count_atom(p, atom_of(sh->lv[w].ax[k].var)) > 0;
}

/* the linear index of a level: its axes in row-major order */
static Poly *level_index(Ctx *ctx, Level *lv)
{
  Poly *sum = poly_const(ctx, 0);
  for (int k = 0; k < lv->n; k++) {
    Poly *place = poly_const(ctx, 1);
    for (int j = k + 1; j < lv->n; j++)
      place = poly_mul(ctx, place, lv->ax[j].node->extent);
    sum = poly_add(ctx, sum, poly_mul(ctx, lv->ax[k].var, place));
  }
  return sum;
}

/* What the launch shape knows directly, for the body's $tid...$: the
 * linear index, each level and each axis; deeper nodes are digits of these
 * (dollar.c, view_index). */
static void set_view(Ctx *ctx, CudaDetour *cd, Node *n, Type *t, ThreadView *parent)
{
  ThreadView *v = &cd->dt.view;
  Shape *sh = &cd->sh;
  Dim *root = t->root;
  v->type = t;
  v->node = n;
  v->parent = parent;
  v->grid = "the CUDA grid";
  v->loc = n->loc;
  if (sh->tiled) {
    view_known(ctx, v, root, sh->tid, NULL);
    return;
  }
  view_known(ctx, v, root, poly_add(ctx, poly_mul(ctx, level_index(ctx, &sh->lv[0]), sh->lv[1].dim->extent),
                                    level_index(ctx, &sh->lv[1])), NULL);
  for (int w = 0; w < 2; w++) {
    Level *lv = &sh->lv[w];
    for (int k = 0; k < lv->n; k++)
      view_known(ctx, v, lv->ax[k].node, lv->ax[k].var, NULL);
    view_known(ctx, v, lv->dim, level_index(ctx, lv), NULL);
  }
}

/* ---- shared memory ----
 * A kernel's smem arrays are static __shared__ arrays while their sizes
 * are numbers here and fit together in the 48 KB a block may declare
 * statically.  Above that, or where a size is known only to the C compiler,
 * they are pointers into one dynamic buffer (each at a multiple of 16
 * bytes), whose size the launch passes, opting in beyond 48 KB. */

#define SMEM_MARK '\x01' /* "\x01K\x01": where smem array K is declared */

static bool smem_too_big(Emitter *e, Node *n, CudaDetour *cd, long long bytes)
{
  diag_error(e->ctx, n->loc, "the smem arrays of cuda detour '%s' take %lld bytes; a block can have at most %lld (%lld KB)",
             cd->dt.type->name, bytes, launch_numbers.smem_max, launch_numbers.smem_max / 1024);
  for (int i = 0; i < cd->nsmem; i++)
    diag_note(e->ctx, cd->smem[i].node->loc, "'%s' takes %lld bytes", cd->smem[i].name, cd->smem[i].bytes);
  return false;
}

static void smem_create(Emitter *e, Node *n, Dim *d, const char *p)
{
  CudaDetour *cd = (CudaDetour *)e->detour;
  if (!(cd->nsmem & (cd->nsmem - 1))) { /* 0, 1, 2, 4, ...: full */
    SmemArray *grown = ctx_alloc(e->ctx, sizeof *grown * (cd->nsmem ? 2 * cd->nsmem : 1));
    if (cd->nsmem)
      memcpy(grown, cd->smem, sizeof *grown * cd->nsmem);
    cd->smem = grown;
  }
  SmemArray *a = &cd->smem[cd->nsmem];
  a->node = n;
  a->name = p;
  a->elem = d->type->elem;
  a->span = dim_span(e->ctx, d);
  long long v;
  if (!poly_is_const(a->span, &v) || __builtin_mul_overflow(v, (long long)type_elem_bytes(a->elem), &a->bytes))
    a->bytes = 0;
  out_gen(e->out, n->loc, "%s%c%d%c\n", text_indent_of(n), SMEM_MARK, cd->nsmem++, SMEM_MARK);
}

/* sizes known: static within 48 KB, else dynamic; false after an error */
static bool smem_plan_numbers(Emitter *e, Node *n, CudaDetour *cd)
{
  long long total = 0;
  for (int i = 0; i < cd->nsmem; i++) {
    SmemArray *a = &cd->smem[i];
    if (a->bytes > launch_numbers.smem_max)
      return smem_too_big(e, n, cd, a->bytes);
    long long at = (total + SMEM_ALIGN - 1) / SMEM_ALIGN * SMEM_ALIGN;
    a->offset = ctx_printf(e->ctx, "%lld", at);
    total = at + a->bytes;
  }
  if (total > launch_numbers.smem_max)
    return smem_too_big(e, n, cd, total);
  if (total > launch_numbers.smem_static)
    cd->smem_bytes = ctx_printf(e->ctx, "%lld", total);
  return true;
}

/* a size only the C compiler knows: dynamic, the offsets as C text */
static void smem_plan_text(Emitter *e, CudaDetour *cd)
{
  const char *end = "0";
  for (int i = 0; i < cd->nsmem; i++) {
    SmemArray *a = &cd->smem[i];
    a->offset = i ? ctx_printf(e->ctx, "(%s + %d) / %d * %d", end, SMEM_ALIGN - 1, SMEM_ALIGN, SMEM_ALIGN) : "0";
    end = ctx_printf(e->ctx, "%s%s(pa_size_t)(%s) * sizeof(%s)", i ? a->offset : "", i ? " + " : "",
                     num(e, a->span), a->elem);
    if (i)
      end = ctx_printf(e->ctx, "(%s)", end);
  }
  cd->smem_bytes = end;
}

/* Static or dynamic, and the offsets; false after an error. */
static bool smem_plan(Emitter *e, Node *n, CudaDetour *cd)
{
  for (int i = 0; i < cd->nsmem; i++)
    if (!cd->smem[i].bytes) {
      smem_plan_text(e, cd);
      return true;
    }
  return smem_plan_numbers(e, n, cd);
}

static const char *smem_decl(Emitter *e, CudaDetour *cd, SmemArray *a)
{
  if (!cd->smem_bytes)
    return ctx_printf(e->ctx, "__shared__ %s %s[%s];", a->elem, a->name, dollar_poly_whole(e->ctx, a->span));
  return ctx_printf(e->ctx, "%s *const %s = (%s *)(pa_smem + %s);", a->elem, a->name, a->elem, a->offset);
}

/* the marks in the body replaced by the declarations */
static void smem_declare(Emitter *e, CudaDetour *cd, Out *body)
{
  if (!cd->nsmem)
    return;
  Buf b = {.ctx = e->ctx};
  for (const char *p = body->b.data; *p; p++) {
    /* a mark is exactly "\x01K\x01" with K one of ours: the same byte from the program
       (a string holding it, or a stray byte the fuzzer wrote) is copied as it is */
    char *end = (char *)p;
    long k = *p == SMEM_MARK && isdigit((unsigned char)p[1]) ? strtol(p + 1, &end, 10) : -1;
    if (k < 0 || k >= cd->nsmem || *end != SMEM_MARK) {
      buf_putc(&b, *p);
      continue;
    }
    buf_puts(&b, smem_decl(e, cd, &cd->smem[k]));
    p = end; /* the closing mark */
  }
  buf_free(&body->b);
  body->b = b;
}

/* the dynamic buffer, declared first in the kernel */
static void smem_prologue(CudaDetour *cd, Buf *pro, int *npro)
{
  if (!cd->smem_bytes)
    return;
  Buf b = {.ctx = pro->ctx};
  buf_printf(&b, "  extern __shared__ __align__(%d) unsigned char pa_smem[];%s%s", SMEM_ALIGN, *npro ? "\n" : "",
             pro->data ? pro->data : "");
  buf_free(pro);
  *pro = b;
  ++*npro;
}

/* ---- kernels ---- */

static const char *join_params(Ctx *ctx, Type *t)
{
  Buf b = {.ctx = ctx};
  for (int i = 0; i < t->nparams; i++)
    buf_printf(&b, "%s%s", i ? ", " : "", t->ptypes[i]);
  char *s = ctx_strdup(ctx, b.data ? b.data : "");
  buf_free(&b);
  return s;
}

/* the kernel's first lines: the thread indices the body uses, as ints */
static void prologue(Emitter *e, CudaDetour *cd, Buf *lines, int *nlines)
{
  Shape *sh = &cd->sh;
  Ctx *ctx = e->ctx;
  Type *t = cd->dt.type;
  *nlines = 0;
  if (sh->tiled) {
    if (!cd->used_tid && !sh->guard)
      return;
    if (poly_fits_int(poly_max(ctx, t->root->extent)))
      buf_printf(lines, "  const int pa_tid = blockIdx.x * %lld + threadIdx.x;", sh->tile);
    else /* more than INT_MAX threads */
      buf_printf(lines, "  const long long pa_tid = (long long)blockIdx.x * %lld + threadIdx.x;", sh->tile);
    ++*nlines;
    if (sh->guard) {
      buf_printf(lines, "\n  if (pa_tid >= %s)\n    return; /* the ragged end of the last block */",
                 dollar_poly_whole(e->ctx, t->root->extent));
      *nlines += 2;
    }
    return;
  }
  for (int w = 0; w < 2; w++) {
    bool any = false;
    for (int k = 0; k < sh->lv[w].n; k++) {
      if (!cd->used[w][k])
        continue;
      Axis *a = &sh->lv[w].ax[k];
      if (*nlines || any)
        buf_puts(lines, any ? ", " : "\n");
      buf_printf(lines, "%s%s = %s", any ? "" : "  const int ", a->name, a->builtin);
      any = true;
    }
    if (any) {
      buf_putc(lines, ';');
      ++*nlines;
    }
  }
}

static const char *dim3_text(Emitter *e, Level *lv)
{
  Ctx *ctx = e->ctx;
  if (lv->n == 1)
    return num(e, lv->ax[0].node->extent);
  Buf b = {.ctx = ctx};
  buf_puts(&b, "dim3(");
  for (int k = lv->n - 1; k >= 0; k--)
    buf_printf(&b, "%s%s", k == lv->n - 1 ? "" : ", ", num(e, lv->ax[k].node->extent));
  buf_putc(&b, ')');
  char *s = ctx_strdup(ctx, b.data);
  buf_free(&b);
  return s;
}

/* Writes kernel text (header line, prologue, translated body) to hoist,
 * keeping #line right: the body text starts on the detour's line.  A
 * body that declares a name of caps too (it reads the caller's x, then
 * declares its own) goes in a block of its own, inside the parameter x's
 * scope. */
static void hoist_kernel(Emitter *e, Node *n, const char *header, const char *pro, int npro, Out *body,
                         const Capture *caps, int ncaps)
{
  Ctx *ctx = e->ctx;
  Out k = out_new(e->ctx, -1);
  Out *saved = e->out;
  e->out = &k;
  out_gen(e->out, n->loc, "%s\n{\n", header);
  e->out = saved;
  /* the prologue's last line is the detour's line: the body's first
   * newline ends it */
  int first = n->loc.line - npro + 1;
  if (ctx->opt.line_directives && npro > 0 && first >= 1)
    buf_printf(&k.b, "%s\n", text_line_directive(ctx, first));
  else if (ctx->opt.line_directives)
    buf_printf(&k.b, "%s\n", text_line_directive(ctx, n->loc.line));
  if (npro > 0 && first < 1) {
    /* too near the top of the file for one line each: one line */
    for (const char *p = pro; *p; p++)
      buf_putc(&k.b, *p == '\n' ? ' ' : *p);
  } else {
    buf_puts(&k.b, pro);
  }
  const char *text = text_dedent(ctx, body->b.data ? body->b.data : "", n->text ? n->text : "", false);
  const char *blocked = capture_body_block(ctx, text, caps, ncaps);
  if (text[0] && text[0] != '\n' && !strchr(text, '\n')) {
    /* a one-line body ("#detour T(p) { x[$tid$] = 0; }") gets its own line */
    if (npro > 0)
      buf_putc(&k.b, '\n');
    if (ctx->opt.line_directives && npro > 0)
      buf_printf(&k.b, "%s\n", text_line_directive(ctx, n->loc.line));
    buf_printf(&k.b, blocked == text ? "  %s\n" : "  { %s }\n", util_str_trim(ctx, text));
  } else {
    buf_puts(&k.b, blocked);
  }
  buf_puts(&k.b, "}\n\n");
  k.line = -1;
  out_append(&e->hoist, &k);
  out_free(&k);
}

static Detour *detour_open(Emitter *e, Node *n, Type *t)
{
  Ctx *ctx = e->ctx;
  for (Detour *p = e->detour; p; p = p->parent)
    if (p->type->kind == TK_CUDA) {
      diag_error(ctx, n->loc, "a cuda detour cannot start inside another cuda detour ('%s'): end the kernel first",
                 p->type->name);
      return NULL;
    }
  CudaDetour *cd = ctx_alloc(ctx, sizeof *cd);
  if (!shape_of(e, n, t, &cd->sh))
    return NULL;
  cd->dt.node = n;
  cd->dt.type = t;
  cd->dt.parent = e->detour;
  cd->dt.name = text_gen_name(e->ctx, "kernel", t->cname, n);
  cd->dt.body_line = n->loc.line;
  set_view(ctx, cd, n, t, here(e));
  return &cd->dt;
}

static void detour_close(Emitter *e, Node *n, Detour *dt, Out *body)
{
  Ctx *ctx = e->ctx;
  CudaDetour *cd = (CudaDetour *)dt;
  Type *t = dt->type;
  const char *name = dt->name;
  if (!smem_plan(e, n, cd))
    return;
  smem_declare(e, cd, body);
  for (int i = 0; i < dt->view.ngiven; i++)
    note_used(cd, dt->view.given[i]);
  Buf pro = {.ctx = ctx};
  int npro;
  prologue(e, cd, &pro, &npro);
  smem_prologue(cd, &pro, &npro);
  /* the caller's locals the kernel uses become parameters, by value */
  Capture *caps;
  int ncaps = capture_find(ctx, e->scope, n,
                            ctx_printf(ctx, "%s\n%s", pro.data ? pro.data : "", body->b.data ? body->b.data : ""),
                            t->pnames, t->nparams, &caps);
  bool arrays = false;
  for (int i = 0; i < ncaps; i++)
    if (caps[i].array) {
      diag_error(ctx, n->loc, "the cuda detour body uses '%s', an array of the enclosing function: a kernel cannot "
                 "read host memory; copy it to dmem with #copy, or pass a pointer parameter", caps[i].name);
      arrays = true;
    }
  if (ncaps < 0 || arrays) {
    buf_free(&pro);
    return;
  }
  const char *params = join_params(ctx, t);
  for (int i = 0; i < ncaps; i++)
    params = ctx_printf(ctx, "%s%s%s", params, *params ? ", " : "", caps[i].decl);
  /* a constant block size tells nvcc how many registers a thread may use;
     min_blocks, how many blocks must fit on a multiprocessor at once */
  long long threads = cd->sh.tile;
  const char *bounds = "";
  if ((cd->sh.tiled && threads > 0) || (!cd->sh.tiled && poly_is_const(cd->sh.lv[1].dim->extent, &threads)))
    bounds = cd->min_blocks ? ctx_printf(ctx, "__launch_bounds__(%lld, %d) ", threads, cd->min_blocks)
                               : ctx_printf(ctx, "__launch_bounds__(%lld) ", threads);
  else if (cd->min_blocks)
    diag_error(ctx, n->loc, "'#pragma parray min_blocks' in detour '%s' needs a block size known at translation time",
               t->name);
  hoist_kernel(e, n, ctx_printf(ctx, "__global__ void %s%s(%s)", bounds, name, params),
               pro.data ? pro.data : "", npro, body, caps, ncaps);
  buf_free(&pro);
  /* the launch */
  Buf args = {.ctx = ctx};
  for (int i = 0; i < n->nargs; i++)
    buf_printf(&args, "%s%s", i ? ", " : "", util_str_trim(ctx, frag_text(e, n->args[i])));
  for (int i = 0; i < ncaps; i++)
    buf_printf(&args, "%s%s", args.len ? ", " : "", caps[i].name);
  const char *grid, *block;
  if (cd->sh.tiled) {
    grid = launch_blocks(ctx, t->root->extent, cd->sh.tile);
    block = ctx_printf(ctx, "%lld", cd->sh.tile);
  } else {
    grid = dim3_text(e, &cd->sh.lv[0]);
    block = dim3_text(e, &cd->sh.lv[1]);
  }
  const char *in = text_indent_of(n);
  hostc_launch_checks(e, n, dt);
  if (cd->smem_bytes) {
    out_gen(e->out, n->loc, "%spa_cuda_smem_optin((const void *)%s, %s, \"%s\", %s);\n", in, name, cd->smem_bytes,
            name, where(e, n));
    block = ctx_printf(ctx, "%s, %s", block, cd->smem_bytes);
  }
  out_gen(e->out, n->loc, "%s%s<<<%s, %s>>>(%s);\n", in, name, grid, block, args.data ? args.data : "");
  if (!cd->nowait) {
    out_gen(e->out, n->loc, "%spa_cuda_check_launch(\"%s\", %s);\n", in, name, where(e, n));
  } else if (!*cd->nowait) {
    out_gen(e->out, n->loc, "%spa_cuda_check_queued(\"%s\", %s); /* nowait */\n", in, name, where(e, n));
  } else {
    out_gen(e->out, n->loc, "%sif (%s) /* nowait */\n", in, cd->nowait);
    out_gen(e->out, n->loc, "%s  pa_cuda_check_queued(\"%s\", %s);\n", in, name, where(e, n));
    out_gen(e->out, n->loc, "%selse\n", in);
    out_gen(e->out, n->loc, "%s  pa_cuda_check_launch(\"%s\", %s);\n", in, name, where(e, n));
  }
  buf_free(&args);
}

/* ---- #pragma parray min_blocks(K) ---- */

typedef enum PragmaForm { PRAGMA_OTHER, PRAGMA_NOT_NUMBER, PRAGMA_MIN_BLOCKS } PragmaForm;

/* "min_blocks(K)" (blanks allowed around each part): K in *k; the text
 * between the parentheses in *arg when it is not a decimal number */
static PragmaForm parse_min_blocks(Ctx *ctx, const char *words, long *k, const char **arg)
{
  static const char name[] = "min_blocks";
  if (strncmp(words, name, sizeof name - 1) != 0)
    return PRAGMA_OTHER;
  const char *p = words + sizeof name - 1;
  p += strspn(p, " \t");
  if (*p++ != '(')
    return PRAGMA_OTHER;
  const char *close = strrchr(p, ')');
  if (!close || close[1 + strspn(close + 1, " \t\r\n")] != '\0')
    return PRAGMA_OTHER;
  char *end;
  *k = strtol(p, &end, 10);
  if (end == p || end + strspn(end, " \t") != close) {
    *arg = util_str_trim(ctx, ctx_strndup(ctx, p, (size_t)(close - p)));
    return PRAGMA_NOT_NUMBER;
  }
  return PRAGMA_MIN_BLOCKS;
}

/* "nowait" or "nowait(COND)" (blanks allowed around each part): true,
 * with COND's text in *cond ("" for none; NULL where the parentheses hold
 * nothing), or false where the words are not nowait's */
static bool parse_nowait(Ctx *ctx, const char *words, const char **cond)
{
  static const char name[] = "nowait";
  if (strncmp(words, name, sizeof name - 1) != 0)
    return false;
  const char *p = words + sizeof name - 1;
  p += strspn(p, " \t\r\n");
  if (!*p) {
    *cond = "";
    return true;
  }
  const char *close = strrchr(p, ')');
  if (*p != '(' || !close || close[1 + strspn(close + 1, " \t\r\n")] != '\0')
    return false;
  const char *c = util_str_trim(ctx, ctx_strndup(ctx, p + 1, (size_t)(close - p - 1)));
  *cond = *c ? c : NULL;
  return true;
}

/* "#pragma parray nowait[(COND)]": the kernel of the innermost cuda detour
 * is not waited for after its launch (where COND, a host expression, holds
 * at the launch): the next detour or copy on the GPU waits for it */
static bool pragma_nowait(Emitter *e, Loc at, const char *words)
{
  const char *cond;
  if (!parse_nowait(e->ctx, words, &cond))
    return false;
  Detour *dt = e->detour;
  if (!cond)
    diag_error(e->ctx, at, "'#pragma parray %s': the parentheses hold no condition", util_str_trim(e->ctx, words));
  else if (!dt || dt->type->kind != TK_CUDA)
    diag_error(e->ctx, at, "'#pragma parray nowait' belongs in the body of a cuda detour");
  else if (((CudaDetour *)dt)->nowait)
    diag_error(e->ctx, at, "'#pragma parray nowait': detour '%s' has one already", dt->type->name);
  else
    ((CudaDetour *)dt)->nowait = cond;
  return true;
}

/* "#pragma parray min_blocks(K)": a property of the kernel of the innermost
 * cuda detour, printed as __launch_bounds__(threads, K) (detour_close);
 * "nowait": pragma_nowait */
static bool pragma(Emitter *e, Node *n, const char *words, const char *written)
{
  Loc at = n->loc; /* at the '#' */
  at.col += (int)strspn(n->text, " \t");
  if (pragma_nowait(e, at, words))
    return true;
  long k;
  const char *arg;
  switch (parse_min_blocks(e->ctx, words, &k, &arg)) {
  case PRAGMA_OTHER:
    return false;
  case PRAGMA_NOT_NUMBER:
    diag_error(e->ctx, at, "'#pragma parray %s': K must be a decimal number%s, not '%s'", util_str_trim(e->ctx, written),
               strcmp(written, words) ? " after the subprogram's parameters are substituted" : "", arg);
    return true;
  case PRAGMA_MIN_BLOCKS:
    break;
  }
  if (k < 1 || k > 32) {
    diag_error(e->ctx, at, "'#pragma parray min_blocks(%ld)': K must be between 1 and 32", k);
    return true;
  }
  Detour *dt = e->detour;
  if (!dt || dt->type->kind != TK_CUDA) {
    diag_error(e->ctx, at, "'#pragma parray min_blocks' belongs in the body of a cuda detour");
    return true;
  }
  CudaDetour *cd = (CudaDetour *)dt;
  if (cd->min_blocks && cd->min_blocks != k) {
    diag_error(e->ctx, at, "'#pragma parray min_blocks(%ld)': detour '%s' already asked for %d", k, dt->type->name,
               cd->min_blocks);
    return true;
  }
  cd->min_blocks = (int)k;
  return true;
}

/* ---- #sync ---- */

static void sync(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  Detour *dt = e->detour;
  Type *t = dt->type;
  CudaDetour *cd = (CudaDetour *)dt;
  const char *suffix = n->name ? n->name : "";
  if (*suffix && !dim_resolve(ctx, ctx_printf(ctx, "%s%s", t->name, suffix), n->loc))
    return;
  bool block = !*suffix || (!cd->sh.tiled && !strcmp(suffix, "_1"));
  if (!block && !cd->sh.tiled && !strncmp(suffix, "_1_", 3)) {
    diag_error(ctx, n->loc,
               "'#sync%s' cannot be honoured in a cuda detour: only a whole block synchronises ('#sync' or "
               "'#sync_1'), not a part of one",
               suffix);
    return;
  }
  if (!block) {
    diag_error(ctx, n->loc,
               "'#sync%s' cannot be honoured in a cuda detour: the grid cannot be synchronised inside a kernel, only "
               "one block ('#sync' or '#sync_1'); end the detour and start another instead",
               suffix);
    return;
  }
  if (cd->sh.tiled && cd->sh.guard) {
    diag_error(ctx, n->loc,
               "'#sync' in '%s', a one-dimensional cuda array tiled into blocks with a ragged end: write it as "
               "[grid][block] to synchronise blocks",
               t->name);
    return;
  }
  out_gen(e->out, n->loc, "%s__syncthreads();\n", text_indent_of(n));
}

static void create(Emitter *e, Node *n, Dim *d)
{
  Ctx *ctx = e->ctx;
  MemKind m = d->type->mem;
  const char *elem = d->type->elem;
  char *p = util_str_trim(ctx, frag_text(e, n->args[0]));
  bool in_kernel = false;
  for (Detour *x = e->detour; x; x = x->parent)
    in_kernel |= x->type->kind == TK_CUDA;
  if (m == MEM_SMEM) {
    if (!util_text_is_simple(p) || !util_is_ident_start((unsigned char)p[0])) {
      diag_error(ctx, n->loc, "'#create %s(%s)': shared memory needs a plain name to declare", n->name, p);
      return;
    }
    smem_create(e, n, d, p);
    scope_declare(e->ctx, e->scope, p);
    return;
  }
  if (in_kernel) {
    diag_error(ctx, n->name_loc, "'%s' is in %s memory, which is allocated on the host: create it before the detour",
               n->name, type_mem_name(m));
    return;
  }
  const char *span = hostc_checked_span(e, n, d);
  const char *decl = "";
  if (util_text_is_simple(p) && !scope_name_declared(e->ctx, e->scope, p)) {
    decl = ctx_printf(ctx, "%s *", elem);
    scope_declare_as(e->ctx, e->scope, p, ctx_printf(ctx, "%s%s", decl, p));
  }
  out_gen(e->out, n->loc, "%s%s%s = (%s *)pa_cuda_alloc(%s, %s, sizeof(%s), %s, %s);\n", text_indent_of(n), decl, p, elem,
          hostc_mem_enum(m), span, elem, text_c_string(ctx, d->path), where(e, n));
}

static void destroy(Emitter *e, Node *n, Dim *d)
{
  Ctx *ctx = e->ctx;
  MemKind m = d->type->mem;
  if (m == MEM_SMEM)
    return; /* shared memory ends with its block */
  for (Detour *x = e->detour; x; x = x->parent)
    if (x->type->kind == TK_CUDA) {
      diag_error(ctx, n->name_loc, "'%s' is in %s memory, which is freed on the host: destroy it after the detour",
                 n->name, type_mem_name(m));
      return;
    }
  char *p = util_str_trim(ctx, frag_text(e, n->args[0]));
  out_gen(e->out, n->loc, "%spa_cuda_free(%s, %s, %s);\n", text_indent_of(n), hostc_mem_enum(m), p, where(e, n));
}

/* ---- #copy on the host ---- */

static const char *kind_name(CopyDir dir)
{
  static const char *names[] = {"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost",
                                "cudaMemcpyDeviceToDevice", "cudaMemcpyDefault"};
  return names[dir];
}

/* A #copy each thread of a kernel runs alone.  Extents that may differ
 * are compared before the launch when both types are declared outside the
 * kernel (their sizes mean the same there, and the loop stays as it was);
 * inside it, with a trap, when a type declared in the body has them. */
static void thread_copy(Emitter *e, Node *n, const CopyPlan *p)
{
  Ctx *ctx = e->ctx;
  Detour *dt = e->detour;
  CopyPlan q = *p;
  if (q.check_extent && view_type_outside(q.src->type, dt->view.parent) &&
      view_type_outside(q.dst->type, dt->view.parent)) {
    hostc_check_at_launch(e, dt, ctx_printf(ctx, "pa_check_copy_extent(%s, %s, %s); /* the #copy in the body */",
                                            poly_str(ctx, q.src->extent), poly_str(ctx, q.dst->extent), where(e, n)));
    q.check_extent = false;
  }
  hostc_copy_loop(e, n, &q, "pa_cuda_kernel_copy_extent");
}

/* Host view d's elements fill its span, no gap between them: its digits,
 * in some order, are the places of one mixed radix (a contiguous layout,
 * or one permuted).  False where it has gaps or this cannot tell. */
static bool fills_span(Ctx *ctx, Dim *d)
{
  Stride *s;
  int n;
  if (!dim_strides(ctx, d, &s, &n))
    return false;
  bool *used = ctx_alloc(ctx, sizeof *used * (size_t)n);
  Poly *place = poly_const(ctx, 1);
  for (int found = 0; found < n; found++) {
    int k = 0;
    while (k < n && (used[k] || !poly_equal(s[k].stride, place)))
      k++;
    if (k == n)
      return false;
    used[k] = true;
    place = poly_mul(ctx, place, s[k].extent);
  }
  return true;
}

static void copy(Emitter *e, Node *n, const CopyPlan *p)
{
  if (p->peer) { /* between the GPUs of a team of threads */
    Type *team = (p->side[1].procs ? p->side[1] : p->side[0]).procs;
    cuda_team_copy(e, n, backend_team(e, team->kind), p);
    return;
  }
  if (p->by == COPY_BY_THREAD) {
    /* in a kernel: each thread copies alone */
    thread_copy(e, n, p);
    return;
  }
  Ctx *ctx = e->ctx;
  const char *in = text_indent_of(n);
  Dim *src = p->src, *dst = p->dst;
  const char *elem = src->type->elem;
  const char *sp = p->sp, *dp = p->dp;
  CopyDir dir = p->dir;
  CopyDigit *dg = p->dg;
  if (p->check_extent)
    out_gen(e->out, n->loc, "%spa_check_copy_extent(%s, %s, %s);\n", in, poly_str(e->ctx, src->extent),
            poly_str(e->ctx, dst->extent), where(e, n));
  if (p->parts) {
    /* a thread's part of data over a sub-range of the threads (team_rows) */
    out_gen(e->out, n->loc, "%sif (pa_tid < %s) /* the threads past the parts hold none */\n", in,
            poly_str(ctx, p->parts));
    in = ctx_printf(ctx, "%s  ", in);
  }
  if (p->how == COPY_BLOCK) {
    out_gen(e->out, n->loc, "%spa_cuda_check(cudaMemcpy(%s, %s, (pa_size_t)%s * sizeof(%s), %s), \"cudaMemcpy\", %s);\n", in,
            dp, sp, dollar_poly_text(e->ctx, src->extent), elem, kind_name(dir), where(e, n));
    return;
  }
  if (p->how == COPY_ROWS && poly_is_value(dg[0].extent, 1)) {
    /* one row (a thread's block of distributed data, team_rows) */
    out_gen(e->out, n->loc, "%spa_cuda_check(cudaMemcpy(%s, %s, (pa_size_t)%s * sizeof(%s), %s), \"cudaMemcpy\", %s);\n", in,
            dp, sp, dollar_poly_text(e->ctx, dg[1].extent), elem, kind_name(dir), where(e, n));
    return;
  }
  if (p->how == COPY_ROWS) {
    /* rows of a contiguous width, pitched on both sides */
    out_gen(e->out, n->loc,
            "%spa_cuda_check(cudaMemcpy2D(%s, %s * sizeof(%s), %s, %s * sizeof(%s), %s * sizeof(%s), %s, %s),\n"
            "%s              \"cudaMemcpy2D\", %s);\n",
            in, dp, dollar_poly_text(e->ctx, dg[0].d), elem, sp, dollar_poly_text(e->ctx, dg[0].s), elem, dollar_poly_text(e->ctx, dg[1].extent), elem,
            num(e, dg[0].extent), kind_name(dir), in, where(e, n));
    return;
  }
  const char *launch, *extra;
  const char *kname = kernel_copy(e, n, p, &launch, &extra);
  if (!kname)
    return;
  /* in the body of a pthd, omp or mpi detour the two arrays may be on
   * different GPUs (one thread's, another's): the kernel reaches the other
   * through peer access */
  bool reach = e->detour && e->detour->type->kind != TK_CUDA;
  if (!p->staged) {
    if (reach)
      out_gen(e->out, n->loc, "%spa_cuda_peer_reach(%s, %s, %s);\n", in, sp, dp, where(e, n));
    out_gen(e->out, n->loc, "%s%s<<<%s>>>(%s, %s%s);\n", in, kname, launch, sp, dp, extra);
    /* pitched rows: not waited for, as the cudaMemcpy2D it stands in for */
    out_gen(e->out, n->loc, "%spa_cuda_check_%s(\"%s\", %s);\n", in, p->how == COPY_ROW_KERNEL ? "queued" : "launch",
            kname, where(e, n));
    return;
  }
  /* host memory: staged through a device buffer in the host layout, so
   * that the kernel does the reordering; into a host view with gaps, the
   * buffer holds the view's span first, so that the gaps stay intact */
  Dim *host = dir == COPY_H2D ? src : dst;
  const char *hp = dir == COPY_H2D ? sp : dp;
  const char *span = dollar_poly_text(e->ctx, dim_span(ctx, host));
  char *hc;
  bool gaps = !fills_span(ctx, host) && dim_contiguous(ctx, host, &hc) != 1;
  out_gen(e->out, n->loc, "%s{ /* #copy %s to %s, staged through device memory */\n", in, src->path, dst->path);
  out_gen(e->out, n->loc, "%s  %s%s *pa_host = %s;\n", in, dir == COPY_H2D ? "const " : "", elem, hp);
  out_gen(e->out, n->loc, "%s  %s *pa_stage = (%s *)pa_cuda_alloc(PA_DMEM, %s, sizeof(%s), %s, %s);\n", in, elem, elem,
          dollar_poly_whole(ctx, dim_span(ctx, host)), elem, text_c_string(ctx, host->path), where(e, n));
  const char *bytes = ctx_printf(ctx, "(pa_size_t)%s * sizeof(%s)", span, elem);
  if (dir == COPY_H2D || gaps)
    out_gen(e->out, n->loc, "%s  pa_cuda_check(cudaMemcpy(pa_stage, pa_host, %s, cudaMemcpyHostToDevice), \"cudaMemcpy\", %s);\n",
            in, bytes, where(e, n));
  if (reach)
    out_gen(e->out, n->loc, "%s  pa_cuda_peer_reach(%s, PA_NULL, %s);\n", in, dir == COPY_H2D ? dp : sp, where(e, n));
  if (dir == COPY_H2D)
    out_gen(e->out, n->loc, "%s  %s<<<%s>>>(pa_stage, %s%s);\n", in, kname, launch, dp, extra);
  else
    out_gen(e->out, n->loc, "%s  %s<<<%s>>>(%s, pa_stage%s);\n", in, kname, launch, sp, extra);
  out_gen(e->out, n->loc, "%s  pa_cuda_check_launch(\"%s\", %s);\n", in, kname, where(e, n));
  if (dir == COPY_D2H)
    out_gen(e->out, n->loc, "%s  pa_cuda_check(cudaMemcpy(pa_host, pa_stage, %s, cudaMemcpyDeviceToHost), \"cudaMemcpy\", %s);\n",
            in, bytes, where(e, n));
  out_gen(e->out, n->loc, "%s  pa_cuda_free(PA_DMEM, pa_stage, %s);\n", in, where(e, n));
  out_gen(e->out, n->loc, "%s}\n", in);
}

/* ---- for tests/unit/test_cuda.c: $tid...$ of node d of cuda array t ---- */

Poly *cuda_tid_of(Ctx *ctx, Type *t, Dim *d);

Poly *cuda_tid_of(Ctx *ctx, Type *t, Dim *d)
{
  Emitter e;
  memset(&e, 0, sizeof e);
  e.ctx = ctx;
  Node n;
  memset(&n, 0, sizeof n);
  n.loc = n.name_loc = t->loc;
  CudaDetour *cd = ctx_alloc(ctx, sizeof *cd);
  if (!shape_of(&e, &n, t, &cd->sh))
    return NULL;
  set_view(ctx, cd, &n, t, NULL);
  return view_index(ctx, &cd->dt.view, d);
}

/* cuda thread arrays; on the host, GPU memory and the pinned memory of
 * CUDA programs */
static bool takes(ThreadKind threads, MemKind mem, bool gpu_program)
{
  if (threads != TK_NONE)
    return threads == TK_CUDA;
  return mem == MEM_DMEM || mem == MEM_SMEM || (mem == MEM_PINNED && gpu_program);
}

static bool needed(const Ctx *ctx)
{
  return ctx->uses_gpu;
}

const Backend backend_cuda = {
  .name = "cuda",
  .include = "parray_cuda.h",
  .takes = takes,
  .needed = needed,
  .gpu = true,
  .pragma = pragma,
  .pragma_words = "'min_blocks(K)', 'nowait', 'nowait(COND)'",
  .create = create,
  .destroy = destroy,
  .copy = copy,
  .detour_open = detour_open,
  .detour_close = detour_close,
  .sync = sync,
  .ipc = "CUDA IPC",
  .team_bind = cuda_team_bind,
  .team_launch = cuda_team_launch,
  .team_create = cuda_team_create,
  .team_copy = cuda_team_copy,
  .stage_out = cuda_team_stage_out,
  .stage_in = cuda_team_stage_in,
};
