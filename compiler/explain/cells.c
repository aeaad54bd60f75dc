/* explain.c: --explain and --explain-access, what a type and an access look
 * like.
 *
 * --explain TYPE prints the dimension tree, the offset functions and a grid
 * of the type: each cell's physical offset for data (or, for distributed
 * data, its owner and local offset), each index's block and thread (or
 * thread, or rank) for a thread array.  --format=svg and --format=html draw
 * the same grid, cells coloured by tile, owner or block, with the memory the
 * type views beside it.  Sizes written with macros are evaluated with the
 * program's own object-like #defines and -D NAME=VALUE; nothing here changes
 * the translation. */
#include "explain/explain.h"
#include "model/ceval.h"
#include "model/launch.h"
#include "model/macros.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TEXT_EDGE 32       /* the text grid: at most 32 x 32 */
#define MAX_DRAW_CELLS 4096    /* a picture: at most 64 x 64 cells */
#define MAX_DEPTH 32           /* #define nesting */
#define MAX_CHECKED (1LL << 16) /* contiguity checked one offset at a time */

/* ---- values: sizes and index texts, evaluated ---- */

typedef struct Binding {
  const char *name;
  long long value;
} Binding;

typedef struct Env {
  Ctx *ctx;
  Binding *bind;       /* thread indices of one lane */
  int nbind;
  Atom *var;           /* the cell index */
  long long var_value;
  bool unknown_is_zero; /* the access explainer: loop variables start at 0 */
  char **used;         /* macros and -D names that were needed, "N = 8" */
  int nused;
  char **zeroed;       /* names taken as 0 */
  int nzeroed;
  char **missing;      /* names without a value */
  int nmissing;
  int depth;
} Env;

static bool eval_text(Env *env, const char *text, long long *out);

static void note_name(Env *env, char ***list, int *n, const char *s)
{
  for (int i = 0; i < *n; i++)
    if (!strcmp((*list)[i], s))
      return;
  char **nl = ctx_alloc(env->ctx, sizeof(char *) * (*n + 1));
  if (*n)
    memcpy(nl, *list, sizeof(char *) * *n);
  nl[(*n)++] = ctx_strdup(env->ctx, s);
  *list = nl;
}

/* The meaning of a name in a size or index text: a thread index of the
 * lane, else a macro (-D, then the program's #define, expanded by the
 * evaluator), else 0 for the access explainer's loop variables; names
 * without one are noted. */
static bool name_value(void *arg, const char *name, CevalMeaning *m)
{
  Env *env = arg;
  for (int i = 0; i < env->nbind; i++)
    if (!strcmp(env->bind[i].name, name)) {
      m->valued = true;
      m->value = env->bind[i].value;
      return true;
    }
  const char *from;
  const char *text = macro_text(env->ctx, name, &from);
  long long v;
  if (text && env->depth < MAX_DEPTH) {
    env->depth++;
    bool ok = eval_text(env, text, &v);
    env->depth--;
    if (ok) {
      note_name(env, &env->used, &env->nused, ctx_printf(env->ctx, "%s = %lld", name, v));
      m->text = text;
      return true;
    }
  }
  if (env->unknown_is_zero) {
    note_name(env, &env->zeroed, &env->nzeroed, name);
    m->valued = true;
    m->value = 0;
    return true;
  }
  note_name(env, &env->missing, &env->nmissing, name);
  return false;
}

/* a size or index text, evaluated (model/ceval.c) */
static bool eval_text(Env *env, const char *text, long long *out)
{
  return ceval(text, CEVAL_SIZE, name_value, env, out, NULL);
}

/* a size or index: its text evaluated, the variable being drawn its value */
static bool eval_leaf(void *arg, const Atom *a, long long *out)
{
  Env *env = arg;
  if (a->kind == A_VAR && a == env->var) {
    *out = env->var_value;
    return true;
  }
  return eval_text(env, a->text, out);
}

static bool eval_poly(Env *env, const Poly *p, long long *out)
{
  return poly_value(p, eval_leaf, env, out);
}

bool explain_size(Ctx *ctx, const Poly *p, long long *out)
{
  Env env = {.ctx = ctx};
  return eval_poly(&env, p, out);
}

/* a size: its value, or -1 */
static long long size_of(Env *env, Poly *p)
{
  long long v;
  return eval_poly(env, p, &v) && v >= 0 ? v : -1;
}

static bool is_symbolic(const Poly *p)
{
  return !poly_is_const(p, NULL);
}

/* ---- the cells of a type ---- */

typedef struct Cell {
  long long off;       /* physical (local) offset, -1 unknown */
  int colour;          /* palette index, -1: none (padding) */
  char *label, *label2; /* drawn in the cell */
  char *info;          /* hover: index path, offset, owner */
} Cell;

typedef struct Grid {
  const char *title;
  const char *rows_name, *cols_name;
  long long rows, cols;
  Cell *c;
} Grid;

typedef struct View {
  Ctx *ctx;
  Env *env;
  Dim *d;
  Grid grid;           /* the type's logical grid */
  Grid mem;            /* the memory it views (data), or rows == 0 */
  char **notes;        /* lines under the picture */
  int nnotes;
} View;

static void add_note(View *v, const char *s)
{
  note_name(v->env, &v->notes, &v->nnotes, s);
}

/* rows x columns: the first top-level dimension down, the others across */
static void grid_shape(Env *env, Dim *d, long long *rows, long long *cols, Dim **rdim, Dim **cdim)
{
  int m = dim_nkids(d);
  *rdim = *cdim = NULL;
  long long n = size_of(env, d->extent);
  if (m <= 1) {
    *rows = 1;
    *cols = n;
    *cdim = d;
    return;
  }
  *cdim = dim_kid(d, m - 1);
  *cols = size_of(env, (*cdim)->extent);
  *rows = *cols > 0 ? n / *cols : -1;
  if (m == 2)
    *rdim = dim_kid(d, 0);
}

/* the extent of the innermost leaf under d: the edge of d's tiles */
static long long tile_edge(Env *env, Dim *d)
{
  if (!d || !dim_nkids(d))
    return 0;
  while (dim_nkids(d))
    d = dim_kid(d, dim_nkids(d) - 1);
  return size_of(env, d->extent);
}

/* "A[[2][1]][3]": the index of linear position i, digit by digit */
static void index_path(Env *env, Buf *b, Dim *d, long long i, bool top)
{
  int m = dim_nkids(d);
  if (!m) {
    buf_printf(b, "[%lld]", i);
    return;
  }
  if (!top)
    buf_putc(b, '[');
  long long rest = 1;
  for (int k = 0; k < m; k++)
    rest *= size_of(env, dim_kid(d, k)->extent);
  for (int k = 0; k < m; k++) {
    long long e = size_of(env, dim_kid(d, k)->extent);
    rest = e > 0 ? rest / e : 1;
    index_path(env, b, dim_kid(d, k), rest > 0 ? i / rest % e : 0, false);
  }
  if (!top)
    buf_putc(b, ']');
}

static char *path_of(Env *env, Dim *d, long long i)
{
  Buf b = {0};
  buf_puts(&b, d->path);
  index_path(env, &b, d, i, true);
  char *s = ctx_strdup(env->ctx, b.data);
  buf_free(&b);
  return s;
}

static bool offset_at(Env *env, Poly *off, long long i, long long *out)
{
  env->var_value = i;
  return eval_poly(env, off, out);
}

/* The process dimensions of distributed data (owner(i) = the sum of the
 * process indices their digits give, dim_process_index). */
static void owner_dims(Dim *d, Dim ***out, int *n, Ctx *ctx)
{
  if (dim_process_selector(d)) {
    Dim **nl = ctx_alloc(ctx, sizeof(Dim *) * (*n + 1));
    if (*n)
      memcpy(nl, *out, sizeof(Dim *) * *n);
    nl[(*n)++] = d;
    *out = nl;
    return;
  }
  for (int k = 0; k < dim_nkids(d); k++)
    owner_dims(dim_kid(d, k), out, n, ctx);
}

/* the data type whose storage d views (d's own type if it views none) */
static Dim *storage_of(Dim *d)
{
  if (d->ref && d->ref->type->kind == TK_NONE && d->ref->type != d->type)
    return storage_of(d->ref->type->root);
  for (int k = 0; k < d->nkids; k++) {
    Dim *s = storage_of(d->kids[k]);
    if (s->type != d->type)
      return s;
  }
  return d->type->root;
}

static bool alloc_grid(View *v, Grid *g, long long rows, long long cols)
{
  long long n;
  g->rows = rows;
  g->cols = cols;
  if (rows <= 0 || cols <= 0 || __builtin_mul_overflow(rows, cols, &n) || n > MAX_DRAW_CELLS)
    return false;
  g->c = ctx_alloc(v->ctx, sizeof(Cell) * rows * cols);
  for (long long k = 0; k < rows * cols; k++)
    g->c[k].off = -1, g->c[k].colour = -1;
  return true;
}

/* v's grid, shaped by its type's rows and columns and named after them */
static bool start_grid(View *v, long long *rows, long long *cols, Dim **rdim, Dim **cdim)
{
  grid_shape(v->env, v->d, rows, cols, rdim, cdim);
  if (!alloc_grid(v, &v->grid, *rows, *cols))
    return false;
  v->grid.rows_name = *rdim ? (*rdim)->path : NULL;
  v->grid.cols_name = (*cdim)->path;
  return true;
}

static bool data_cells(View *v)
{
  Ctx *ctx = v->ctx;
  Env *env = v->env;
  Dim *d = v->d, *rdim = NULL, *cdim = NULL;
  Grid *g = &v->grid;
  long long rows, cols;
  if (!start_grid(v, &rows, &cols, &rdim, &cdim))
    return false;
  Poly *var = poly_var(ctx, "pa_explain_i", d->extent);
  env->var = var->t[0].f[0];
  Poly *off = dim_offset(ctx, d, var);
  Dim **own = NULL;
  int nown = 0;
  owner_dims(d, &own, &nown, ctx);
  long long tr = tile_edge(env, dim_nkids(d) >= 2 ? dim_kid(d, dim_nkids(d) - 2) : NULL);
  long long tc = tile_edge(env, dim_nkids(d) >= 2 ? cdim : NULL);
  bool tiles = (tr > 0 && tr < rows) || (tc > 0 && tc < cols);
  for (long long r = 0; r < rows; r++)
    for (long long c = 0; c < cols; c++) {
      Cell *cell = &g->c[r * cols + c];
      long long i = r * cols + c, o;
      if (!offset_at(env, off, i, &o))
        return false;
      cell->off = o;
      cell->label = ctx_printf(ctx, "%lld", o);
      /* tiles where there are any, else rows: a transposed view shows as stripes */
      long long rr = tr > 0 ? r / tr : 0, cc = tc > 0 ? c / tc : 0;
      cell->colour = (int)((tiles ? rr * 3 + cc : r) % 8);
      char *owner = "";
      if (nown) {
        long long p = 0, v1;
        Poly *iv = poly_var(ctx, "pa_explain_i", d->extent);
        for (int k = 0; k < nown; k++) {
          Poly *digit = dim_index_of(ctx, d, own[k], iv);
          Poly *po = dim_process_index(ctx, dim_process_selector(own[k]), digit);
          env->var = iv->t[0].f[0];
          if (!offset_at(env, po, i, &v1))
            return false;
          p += v1;
        }
        env->var = var->t[0].f[0];
        Type *pt = dim_process_array(dim_process_selector(own[0]));
        cell->colour = (int)(p % 8);
        cell->label = ctx_printf(ctx, "%s%lld", pt->kind == TK_MPI ? "p" : "t", p);
        cell->label2 = ctx_printf(ctx, "%lld", o);
        owner = ctx_printf(ctx, ", owner: %s %lld of %s", pt->kind == TK_MPI ? "process" : "thread", p, pt->name);
      }
      cell->info = ctx_printf(ctx, "%s: %soffset %lld%s", path_of(env, d, i), nown ? "local " : "", o, owner);
    }
  if (nown) {
    g->title = ctx_printf(ctx, "%s: owner and local offset of each element", d->path);
    return true;
  }
  g->title = ctx_printf(ctx, "%s: the physical offset of each element", d->path);
  return true;
}

/* The memory beside the grid: the storage type's own grid when d is a view
 * of another type, else d's span in rows as wide as d's grid; cells of the
 * view take its colours, the others are padding. */
static void memory_cells(View *v)
{
  Ctx *ctx = v->ctx;
  Env *env = v->env;
  Dim *base = storage_of(v->d), *rdim = NULL, *cdim = NULL;
  long long n = v->grid.rows * v->grid.cols, span = 0;
  for (long long k = 0; k < n; k++)
    if (v->grid.c[k].off + 1 > span)
      span = v->grid.c[k].off + 1;
  long long rows, cols;
  bool other = base->type != v->d->type;
  if (other) {
    grid_shape(env, base, &rows, &cols, &rdim, &cdim);
    if (rows <= 0 || cols <= 0 || rows > MAX_DRAW_CELLS || cols > MAX_DRAW_CELLS || rows * cols < span ||
        rows * cols > MAX_DRAW_CELLS)
      return;
    span = rows * cols;
  } else {
    cols = v->grid.cols;
    rows = (span + cols - 1) / cols;
  }
  if (span > MAX_DRAW_CELLS || !alloc_grid(v, &v->mem, rows, cols))
    return;
  long long *who = ctx_alloc(ctx, sizeof(long long) * span);
  for (long long k = 0; k < span; k++)
    who[k] = -1;
  for (long long k = 0; k < n; k++)
    if (v->grid.c[k].off >= 0 && v->grid.c[k].off < span)
      who[v->grid.c[k].off] = k;
  Poly *var = poly_var(ctx, "pa_explain_i", base->extent);
  env->var = var->t[0].f[0];
  Poly *off = dim_offset(ctx, base, var);
  long long pads = 0;
  for (long long k = 0; k < rows * cols; k++) {
    Cell *cell = &v->mem.c[k];
    long long o = k;
    if (other && !offset_at(env, off, k, &o))
      o = -1;
    if (o < 0 || o >= span) {
      cell->label = "";
      cell->info = ctx_printf(ctx, "%s: outside", path_of(env, base, k));
      continue;
    }
    cell->off = o;
    cell->label = ctx_printf(ctx, "%lld", o);
    const char *at = other ? ctx_printf(ctx, "%s = ", path_of(env, base, k)) : "";
    if (who[o] >= 0) {
      cell->colour = v->grid.c[who[o]].colour;
      cell->info = ctx_printf(ctx, "%soffset %lld: %s", at, o, strtok(ctx_strdup(ctx, v->grid.c[who[o]].info), ":"));
    } else {
      pads++;
      cell->info = ctx_printf(ctx, "%soffset %lld: padding (not in %s)", at, o, v->d->path);
    }
  }
  v->mem.title = other ? ctx_printf(ctx, "%s: the storage %s views (grey: not in the view)", base->path, v->d->path)
                       : ctx_printf(ctx, "memory: offsets 0..%lld in rows of %lld", span - 1, cols);
  if (other) {
    v->mem.rows_name = rdim ? rdim->path : NULL;
    v->mem.cols_name = cdim ? cdim->path : NULL;
  }
  if (pads)
    add_note(v, ctx_printf(ctx, "padding: %lld of the %lld elements of storage are not in %s", pads,
                           rows * cols, v->d->path));
}

/* ---- thread arrays: who each index is ---- */

/* The launch shape of a cuda array (model/launch.c), its [n] sized with
 * the program's macros. */
static bool launch_of(Env *env, Dim *root, LaunchShape *l)
{
  return launch_shape(root, dim_nkids(root) == 1 ? size_of(env, root->extent) : 0, l);
}

/* the coordinates of linear index i of a level, "(y,x)" */
static char *level_coords(Env *env, LaunchShape *l, int w, long long i, long long *digits)
{
  Buf b = {0};
  long long rest = i;
  for (int j = l->nax[w] - 1; j >= 0; j--) {
    long long e = size_of(env, l->ax[w][j]->extent);
    digits[j] = e > 0 ? rest % e : 0;
    rest = e > 0 ? rest / e : 0;
  }
  for (int j = 0; j < l->nax[w]; j++)
    buf_printf(&b, "%s%lld", j ? "," : "", digits[j]);
  char *s = ctx_strdup(env->ctx, b.data);
  buf_free(&b);
  return s;
}

static bool thread_cells(View *v)
{
  Ctx *ctx = v->ctx;
  Env *env = v->env;
  Dim *d = v->d, *rdim = NULL, *cdim = NULL;
  Type *t = d->type;
  Grid *g = &v->grid;
  long long rows, cols;
  if (!start_grid(v, &rows, &cols, &rdim, &cdim))
    return false;
  LaunchShape l;
  bool cuda = t->kind == TK_CUDA && d == t->root && launch_of(env, d, &l);
  long long block = cuda && !l.tiled ? size_of(env, l.lv[1]->extent) : cuda ? l.tile : 0;
  if (cuda && block <= 0)
    return false;
  for (long long i = 0; i < rows * cols; i++) {
    Cell *cell = &g->c[i];
    cell->off = i;
    char *path = path_of(env, d, i);
    if (!cuda) {
      const char *who = t->kind == TK_MPI ? "rank" : "thread";
      cell->label = ctx_printf(ctx, "%s%lld", t->kind == TK_MPI ? "r" : "t", i);
      cell->colour = (int)(i % 8);
      cell->info = ctx_printf(ctx, "%s: %s %lld ($tid$ = %lld)", path, who, i, i);
      continue;
    }
    long long b = i / block, th = i % block, bd[3] = {0}, td[3] = {0};
    cell->colour = (int)(b % 8);
    if (l.tiled) {
      cell->label = ctx_printf(ctx, "b%lld", b);
      cell->label2 = ctx_printf(ctx, "t%lld", th);
      cell->info = ctx_printf(ctx, "%s: blockIdx.x %lld, threadIdx.x %lld", path, b, th);
      continue;
    }
    char *bc = level_coords(env, &l, 0, b, bd), *tc = level_coords(env, &l, 1, th, td);
    cell->label = ctx_printf(ctx, "b%s", bc);
    cell->label2 = ctx_printf(ctx, "t%s", tc);
    Buf info = {0};
    buf_printf(&info, "%s: block %lld, thread %lld;", path, b, th);
    for (int w = 0; w < 2; w++)
      for (int j = 0; j < l.nax[w]; j++)
        buf_printf(&info, " %s.%c %lld", w ? "threadIdx" : "blockIdx", launch_axis_letter(&l, w, j), w ? td[j] : bd[j]);
    cell->info = ctx_strdup(ctx, info.data);
    buf_free(&info);
  }
  if (cuda && !l.tiled)
    for (int w = 0; w < 2; w++)
      for (int j = 0; j < l.nax[w]; j++)
        add_note(v, ctx_printf(ctx, "%s (extent %lld) -> %s.%c", l.ax[w][j]->path, size_of(env, l.ax[w][j]->extent),
                               w ? "threadIdx" : "blockIdx", launch_axis_letter(&l, w, j)));
  if (cuda && l.tiled)
    add_note(v, ctx_printf(ctx, "%s is tiled: blocks of %lld threads on x", d->path, l.tile));
  g->title = cuda ? ctx_printf(ctx, "%s: the block (b) and the thread in it (t) of each index", d->path)
                  : ctx_printf(ctx, "%s: the %s of each index", d->path, t->kind == TK_MPI ? "rank" : "thread");
  return true;
}

/* ---- text ---- */

static const char *value_note(Env *env, Poly *p)
{
  long long v;
  if (!is_symbolic(p) || !eval_poly(env, p, &v))
    return "";
  return ctx_printf(env->ctx, " (= %lld)", v);
}

static void explain_node(Ctx *ctx, Env *env, Dim *d, const char *path, int depth, FILE *out)
{
  Poly *var = poly_var(ctx, "i", d->extent);
  const char *ref = "";
  if (d->ref_kind == REF_FULL)
    ref = ctx_printf(ctx, "  (= #%s)", d->ref->path);
  else if (d->ref_kind == REF_SIZED || d->ref_kind == REF_SPLIT)
    ref = ctx_printf(ctx, "  (view of #%s)", d->ref->path);
  const char *ext = ctx_printf(ctx, "%s%s", poly_math(ctx, d->extent), value_note(env, d->extent));
  fprintf(out, "  %*s%-*s extent %-8s off(i) = %s%s\n", depth * 2, "", 12 - depth * 2, path, ext,
          poly_math(ctx, dim_offset(ctx, d, var)), ref);
  int m = dim_nkids(d);
  for (int k = 0; k < m; k++)
    explain_node(ctx, env, dim_kid(d, k), ctx_printf(ctx, "%s_%d", path, k), depth + 1, out);
}

/* yes / no, evaluated where the sizes are known */
static const char *contiguity(Ctx *ctx, Env *env, Dim *d)
{
  char *c;
  int r = dim_contiguous(ctx, d, &c);
  if (r >= 0)
    return r ? "yes" : "no";
  long long n = size_of(env, d->extent), prev = 0, o;
  Poly *var = poly_var(ctx, "pa_explain_i", d->extent);
  env->var = var->t[0].f[0];
  Poly *off = dim_offset(ctx, d, var);
  bool ok = n > 0 && n <= MAX_CHECKED && offset_at(env, off, 0, &prev);
  for (long long i = 1; ok && i < n; i++) {
    ok = offset_at(env, off, i, &o);
    if (ok && o != prev + 1)
      return "no";
    prev = o;
  }
  if (ok)
    return "yes";
  return "unknown (it depends on the sizes)";
}

static void text_header(View *v, FILE *out)
{
  Ctx *ctx = v->ctx;
  Dim *d = v->d;
  Type *t = d->type;
  if (t->kind != TK_NONE)
    fprintf(out, "%s: %s thread array, %s%s threads\n", d->path, type_kind_name(t->kind), poly_math(ctx, d->extent),
            value_note(v->env, d->extent));
  else
    fprintf(out, "%s: %s %s, extent %s%s, span %s%s, contiguous %s\n", d->path, type_mem_name(t->mem), t->elem,
            poly_math(ctx, d->extent), value_note(v->env, d->extent), poly_math(ctx, dim_span(ctx, d)),
            value_note(v->env, dim_span(ctx, d)), contiguity(ctx, v->env, d));
  explain_node(ctx, v->env, d, d->path, 0, out);
}

/* the grid as numbers: offsets, or block.thread / thread / rank */
static void text_grid(View *v, FILE *out)
{
  Grid *g = &v->grid;
  Dim *d = v->d;
  if ((dim_nkids(d) != 2 && d->type->kind == TK_NONE) || g->rows > MAX_TEXT_EDGE || g->cols > MAX_TEXT_EDGE)
    return;
  bool thread = d->type->kind != TK_NONE;
  bool cuda = thread && g->c[0].label2;
  if (thread && dim_nkids(d) <= 1) {
    fprintf(out, "%s of %s[i]:\n ", cuda ? "block.thread" : d->type->kind == TK_MPI ? "ranks" : "threads ($tid$)",
            d->path);
    for (long long c = 0; c < g->cols; c++)
      fprintf(out, " %s", cuda ? ctx_printf(v->ctx, "%s.%s", g->c[c].label + 1, g->c[c].label2 + 1) : g->c[c].label);
    fputc('\n', out);
    return;
  }
  if (!thread)
    fprintf(out, "%s of %s[r][c] (rows r = %s, columns c = %s):\n",
            g->c[0].label2 ? "owner:local offset" : "offsets", d->path, g->rows_name, g->cols_name);
  else
    fprintf(out, "%s of %s[r][c] (rows r = %s, columns c = %s):\n",
            cuda ? "block.thread (linear in each)" : d->type->kind == TK_MPI ? "ranks" : "threads ($tid$)", d->path,
            g->rows_name, g->cols_name);
  int w = 5;
  LaunchShape l;
  long long block = 0;
  if (cuda && launch_of(v->env, d, &l))
    block = l.tiled ? l.tile : size_of(v->env, l.lv[1]->extent);
  for (long long k = 0; k < g->rows * g->cols && (thread || g->c[0].label2); k++) {
    int n = (int)strlen(g->c[k].label) + (g->c[k].label2 ? (int)strlen(g->c[k].label2) + 1 : 0) + 1;
    w = n > w ? n : w;
  }
  if (cuda)
    w = 8;
  for (long long r = 0; r < g->rows; r++) {
    fputs("  ", out);
    for (long long c = 0; c < g->cols; c++) {
      Cell *cell = &g->c[r * g->cols + c];
      if (cuda && block > 0)
        fprintf(out, "%*s", w, ctx_printf(v->ctx, "%lld.%lld", cell->off / block, cell->off % block));
      else if (thread || cell->label2)
        fprintf(out, "%*s", w, cell->label2 ? ctx_printf(v->ctx, "%s:%s", cell->label, cell->label2) : cell->label);
      else
        fprintf(out, "%5lld", cell->off);
    }
    fputc('\n', out);
  }
}

static void text_notes(View *v, FILE *out)
{
  for (int k = 0; k < v->nnotes; k++)
    fprintf(out, "%s\n", v->notes[k]);
  if (v->env->nused) {
    fputs("sizes evaluated with", out);
    for (int k = 0; k < v->env->nused; k++)
      fprintf(out, "%s %s", k ? "," : "", v->env->used[k]);
    fputc('\n', out);
  }
  if (v->env->nmissing) {
    fputs("sizes not known:", out);
    for (int k = 0; k < v->env->nmissing; k++)
      fprintf(out, "%s %s", k ? "," : "", v->env->missing[k]);
    fputs(" (give them with -D NAME=VALUE)\n", out);
  }
}

/* ---- svg and html ---- */

static const char *palette[8] = {"#8ecae6", "#ffb703", "#90be6d", "#f4a261", "#cdb4db", "#e9c46a", "#a8dadc", "#f28482"};

static void xml_text(FILE *out, const char *s)
{
  for (; s && *s; s++) {
    if (*s == '<')
      fputs("&lt;", out);
    else if (*s == '>')
      fputs("&gt;", out);
    else if (*s == '&')
      fputs("&amp;", out);
    else if (*s == '"')
      fputs("&quot;", out);
    else
      fputc(*s, out);
  }
}

typedef struct Layout {
  int cw, ch;          /* cell size */
  int x, y;            /* top left of the cells */
} Layout;

static int grid_width(Grid *g, Layout *lo)
{
  return 30 + (int)g->cols * lo->cw;
}

static void svg_grid(FILE *out, Grid *g, Layout *lo)
{
  fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"t\">", lo->x - 26, lo->y - 26);
  xml_text(out, g->title);
  fputs("</text>\n", out);
  if (g->cols_name) {
    fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"a\">", lo->x, lo->y - 14);
    xml_text(out, g->cols_name);
    fputs(" &#8594;</text>\n", out);
  }
  if (g->rows_name) {
    fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"a\" transform=\"rotate(90 %d %d)\">", lo->x - 36, lo->y,
            lo->x - 36, lo->y);
    xml_text(out, g->rows_name);
    fputs(" &#8594;</text>\n", out);
  }
  for (long long c = 0; c < g->cols; c++)
    fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"n\">%lld</text>\n", lo->x + (int)c * lo->cw + lo->cw / 2, lo->y - 3,
            c);
  for (long long r = 0; r < g->rows; r++) {
    int y = lo->y + (int)r * lo->ch;
    fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"n\">%lld</text>\n", lo->x - 12, y + lo->ch / 2 + 4, r);
    for (long long c = 0; c < g->cols; c++) {
      Cell *cell = &g->c[r * g->cols + c];
      int x = lo->x + (int)c * lo->cw;
      if (!cell->info) { /* an empty place: a plain hatched square */
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"url(#pad)\"/>\n", x, y, lo->cw,
                lo->ch);
        continue;
      }
      fprintf(out, "<g class=\"c\" data-info=\"");
      xml_text(out, cell->info);
      fprintf(out, "\"><title>");
      xml_text(out, cell->info);
      fprintf(out, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", x, y, lo->cw, lo->ch,
              cell->colour >= 0 ? palette[cell->colour] : "url(#pad)");
      if (cell->label2) {
        fprintf(out, "<text x=\"%d\" y=\"%d\">", x + lo->cw / 2, y + lo->ch / 2 - 2);
        xml_text(out, cell->label);
        fprintf(out, "</text><text x=\"%d\" y=\"%d\">", x + lo->cw / 2, y + lo->ch / 2 + 10);
        xml_text(out, cell->label2);
      } else {
        fprintf(out, "<text x=\"%d\" y=\"%d\">", x + lo->cw / 2, y + lo->ch / 2 + 4);
        xml_text(out, cell->label);
      }
      fputs("</text></g>\n", out);
    }
  }
}

static const char *svg_style =
    "<style>text{font:10px monospace;text-anchor:middle;dominant-baseline:auto}"
    " .t{font:bold 12px sans-serif;text-anchor:start} .a{font:italic 11px sans-serif;text-anchor:start}"
    " .n{fill:#666} .note{font:11px sans-serif;text-anchor:start} rect{stroke:#fff;stroke-width:1}"
    " .c:hover rect{stroke:#000;stroke-width:2}</style>\n";

static const char *svg_defs =
    "<defs><pattern id=\"pad\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#e5e5e5\" stroke=\"none\"/>"
    "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#bbb\" stroke-width=\"2\"/></pattern></defs>\n";

/* One or two grids side by side, notes underneath. */
static void svg_picture(FILE *out, Grid **grids, int ngrids, char **notes, int nnotes, int cw, int ch, bool stack)
{
  Layout lo[32]; /* explain_access draws at most 32 grids */
  int width = 20, height = 0;
  if (ngrids > 32)
    ngrids = 32;
  for (int k = 0; k < ngrids; k++) {
    lo[k] = (Layout){cw, ch, stack ? 60 : width + 40, stack ? height + 60 : 60};
    int w = grid_width(grids[k], &lo[k]), tw = (int)strlen(grids[k]->title) * 7 - 10;
    width = stack ? (w + 80 > width ? w + 80 : width) : width + (w > tw ? w : tw) + 40;
    int h = lo[k].y + (int)grids[k]->rows * ch;
    if (h > height)
      height = h;
  }
  int title_w = 0;
  for (int k = 0; k < ngrids; k++)
    if ((int)strlen(grids[k]->title) * 7 + lo[k].x > title_w)
      title_w = (int)strlen(grids[k]->title) * 7 + lo[k].x;
  for (int k = 0; k < nnotes; k++)
    if ((int)strlen(notes[k]) * 6 + 40 > title_w)
      title_w = (int)strlen(notes[k]) * 6 + 40;
  if (title_w > width)
    width = title_w;
  height += 20 + 16 * nnotes;
  fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", width,
          height, width, height);
  fputs(svg_style, out);
  fputs(svg_defs, out);
  fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"none\"/>\n", width, height);
  for (int k = 0; k < ngrids; k++)
    svg_grid(out, grids[k], &lo[k]);
  int y = height - 16 * nnotes - 4;
  for (int k = 0; k < nnotes; k++, y += 16) {
    fprintf(out, "<text x=\"14\" y=\"%d\" class=\"note\">", y);
    xml_text(out, notes[k]);
    fputs("</text>\n", out);
  }
  fputs("</svg>\n", out);
}

/* The page: a title, the picture, the text explanation; hovering a cell
 * shows its data-info in a box that follows the pointer.  No external
 * resource: it works offline. */
static void html_page(FILE *out, const char *title, const char *text, Grid **grids, int ngrids, char **notes,
                      int nnotes, int cw, int ch, bool stack)
{
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
  xml_text(out, title);
  fputs("</title>\n<style>\nbody{font-family:sans-serif;margin:1.5em}\n"
        "#hover{position:fixed;display:none;background:#222;color:#fff;padding:4px 8px;border-radius:4px;"
        "font:12px monospace;pointer-events:none;white-space:pre}\n"
        "#info{font:13px monospace;min-height:1.4em;margin:.5em 0}\npre{background:#f6f6f6;padding:.8em}\n"
        "</style>\n</head>\n<body>\n<h1>", out);
  xml_text(out, title);
  fputs("</h1>\n<p>Hover a cell: its index path, offset and owner.</p>\n<div id=\"info\">&nbsp;</div>\n", out);
  svg_picture(out, grids, ngrids, notes, nnotes, cw, ch, stack);
  fputs("<pre>", out);
  xml_text(out, text);
  fputs("</pre>\n<div id=\"hover\"></div>\n<script>\n"
        "var hover = document.getElementById('hover'), info = document.getElementById('info');\n"
        "document.querySelectorAll('[data-info]').forEach(function (c) {\n"
        "  c.addEventListener('mousemove', function (ev) {\n"
        "    hover.textContent = c.getAttribute('data-info'); hover.style.display = 'block';\n"
        "    hover.style.left = (ev.clientX + 14) + 'px'; hover.style.top = (ev.clientY + 14) + 'px';\n"
        "    info.textContent = c.getAttribute('data-info');\n"
        "  });\n"
        "  c.addEventListener('mouseleave', function () { hover.style.display = 'none'; });\n"
        "});\n"
        "/* page.html#selftest: hover the first cell (tests/check_html.sh) */\n"
        "if (location.hash === '#selftest')\n"
        "  document.querySelector('[data-info]').dispatchEvent(new MouseEvent('mousemove', {clientX: 5, clientY: 5}));\n"
        "</script>\n</body>\n</html>\n",
        out);
}

/* ---- TikZ (--format=tex): a standalone LaTeX document, for papers and
 * slides, as CuTe's print_latex draws layouts: the same grids, colours and
 * notes as the SVG, the text explanation in comments at the top ---- */

static void tex_text(FILE *out, const char *s)
{
  for (; s && *s; s++) {
    switch (*s) {
    case '\\': fputs("\\textbackslash{}", out); break;
    case '~': fputs("\\textasciitilde{}", out); break;
    case '^': fputs("\\textasciicircum{}", out); break;
    case '<': fputs("\\textless{}", out); break;
    case '>': fputs("\\textgreater{}", out); break;
    case '_': case '#': case '$': case '%': case '&': case '{': case '}':
      fputc('\\', out);
      fputc(*s, out);
      break;
    default: fputc(*s, out);
    }
  }
}

/* One grid with its top left corner at (x0, y0): y grows downwards as
 * rows do (y = -row). */
static void tex_grid(FILE *out, Grid *g, double x0, double y0)
{
  fprintf(out, "  %% %s\n  \\node[title] at (%.1f,%.1f) {", g->title, x0 - 0.6, y0 + 1.5);
  tex_text(out, g->title);
  fputs("};\n", out);
  if (g->cols_name) {
    fprintf(out, "  \\node[axis] at (%.1f,%.1f) {", x0, y0 + 0.75);
    tex_text(out, g->cols_name);
    fputs(" $\\rightarrow$};\n", out);
  }
  if (g->rows_name) {
    fprintf(out, "  \\node[axis,rotate=-90,anchor=south west] at (%.1f,%.1f) {", x0 - 1.0, y0);
    tex_text(out, g->rows_name);
    fputs(" $\\rightarrow$};\n", out);
  }
  for (long long c = 0; c < g->cols; c++)
    fprintf(out, "  \\node[index] at (%.1f,%.1f) {%lld};\n", x0 + c + 0.5, y0 + 0.3, c);
  for (long long r = 0; r < g->rows; r++) {
    fprintf(out, "  \\node[index] at (%.1f,%.1f) {%lld};\n", x0 - 0.35, y0 - r - 0.5, r);
    for (long long c = 0; c < g->cols; c++) {
      Cell *cell = &g->c[r * g->cols + c];
      double x = x0 + c, y = y0 - r;
      if (!cell->info || cell->colour < 0) {
        fprintf(out, "  \\path[pad] (%.1f,%.1f) rectangle ++(1,-1);\n", x, y);
        if (!cell->info)
          continue;
      } else
        fprintf(out, "  \\path[cell,fill=pa%d] (%.1f,%.1f) rectangle ++(1,-1);\n", cell->colour, x, y);
      if (!cell->label || !*cell->label)
        continue;
      fprintf(out, "  \\node[label] at (%.1f,%.1f) {", x + 0.5, y - 0.5);
      tex_text(out, cell->label);
      if (cell->label2) {
        fputs("\\\\", out);
        tex_text(out, cell->label2);
      }
      fputs("};\n", out);
    }
  }
}

static void tex_picture(FILE *out, const char *title, const char *text, Grid **grids, int ngrids, char **notes,
                        int nnotes, bool stack, bool two_lines)
{
  fputs("% ", out);
  fputs(title, out);
  fputs(" --format=tex: a TikZ picture (pdflatex FILE.tex)\n", out);
  for (const char *p = text; p && *p;) {
    const char *e = strchr(p, '\n');
    int n = e ? (int)(e - p) : (int)strlen(p);
    fprintf(out, "%% %.*s\n", n, p);
    p += n + (e ? 1 : 0);
  }
  /* standalone where it is installed (texlive-latex-extra), else article */
  fputs("\\IfFileExists{standalone.cls}{\\documentclass[tikz,border=6pt]{standalone}}\n"
        "  {\\documentclass{article}\\usepackage{tikz}\\pagestyle{empty}}\n", out);
  for (int k = 0; k < 8; k++)
    fprintf(out, "\\definecolor{pa%d}{HTML}{%s}\n", k, palette[k] + 1);
  fprintf(out, "\\begin{document}\n\\begin{tikzpicture}[x=%scm,y=%scm,\n"
               "  cell/.style={draw=white,line width=0.6pt},\n"
               "  pad/.style={fill=black!8,draw=white,line width=0.6pt},\n"
               "  label/.style={font=\\ttfamily\\scriptsize,align=center,inner sep=0pt},\n"
               "  index/.style={font=\\ttfamily\\tiny,text=black!60},\n"
               "  title/.style={font=\\sffamily\\bfseries\\small,anchor=south west},\n"
               "  axis/.style={font=\\sffamily\\itshape\\scriptsize,anchor=south west},\n"
               "  note/.style={font=\\sffamily\\scriptsize,anchor=north west}]\n",
          two_lines ? "1.0" : "0.8", two_lines ? "0.75" : "0.5");
  double x = 0, y = 0, bottom = 0;
  for (int k = 0; k < ngrids; k++) {
    tex_grid(out, grids[k], x, y);
    double b = y - (double)grids[k]->rows;
    bottom = b < bottom ? b : bottom;
    if (stack)
      y = b - 3.0;
    else
      x += (double)grids[k]->cols + 3.0;
  }
  for (int k = 0; k < nnotes; k++) {
    fprintf(out, "  \\node[note] at (-0.6,%.1f) {", bottom - 0.6 - 0.6 * k);
    tex_text(out, notes[k]);
    fputs("};\n", out);
  }
  fputs("\\end{tikzpicture}\n\\end{document}\n", out);
}

/* ---- --explain ---- */

ExplainFormat explain_format(const char *name)
{
  if (!name || !strcmp(name, "text"))
    return FMT_TEXT;
  if (!strcmp(name, "svg"))
    return FMT_SVG;
  if (!strcmp(name, "html"))
    return FMT_HTML;
  if (!strcmp(name, "tex"))
    return FMT_TEX;
  return FMT_BAD;
}

static char *captured(FILE *f)
{
  fflush(f);
  long n = ftell(f);
  char *s = malloc(n + 1);
  rewind(f);
  n = (long)fread(s, 1, n, f);
  s[n] = 0;
  return s;
}

bool explain_type(Ctx *ctx, Dim *d, FILE *out)
{
  Env env = {.ctx = ctx};
  View v = {.ctx = ctx, .env = &env, .d = d};
  ExplainFormat fmt = explain_format(ctx->opt.explain_format);
  bool have = d->type->kind != TK_NONE ? thread_cells(&v) : data_cells(&v);
  if (have && d->type->kind == TK_NONE && !v.grid.c[0].label2 && fmt != FMT_TEXT)
    memory_cells(&v);
  FILE *text = fmt == FMT_TEXT ? out : tmpfile();
  if (!text) {
    diag_error(ctx, (Loc){0, 0}, "cannot create a temporary file for --explain");
    return false;
  }
  text_header(&v, text);
  if (have)
    text_grid(&v, text);
  text_notes(&v, text);
  if (fmt == FMT_TEXT)
    return true;
  char *s = captured(text);
  fclose(text);
  if (!have) {
    fputs(s, stderr);
    if (v.grid.rows > 0 && v.grid.cols > 0)
      diag_error(ctx, (Loc){0, 0}, "'%s' has %lld x %lld elements, too many to draw (at most %d): make it smaller with -D NAME=VALUE",
                 d->path, v.grid.rows, v.grid.cols, MAX_DRAW_CELLS);
    else
      diag_error(ctx, (Loc){0, 0}, "cannot draw '%s': its sizes are not known (give them with -D NAME=VALUE)", d->path);
    free(s);
    return false;
  }
  Grid *grids[2] = {&v.grid, &v.mem};
  int n = v.mem.rows ? 2 : 1;
  int cw = v.grid.c[0].label2 ? 44 : 32, ch = v.grid.c[0].label2 ? 30 : 22;
  if (fmt == FMT_SVG)
    svg_picture(out, grids, n, v.notes, v.nnotes, cw, ch, false);
  else if (fmt == FMT_TEX)
    tex_picture(out, ctx_printf(ctx, "parrayc --explain %s", d->path), s, grids, n, v.notes, v.nnotes, false,
                v.grid.c[0].label2 != NULL);
  else
    html_page(out, ctx_printf(ctx, "parrayc --explain %s", d->path), s, grids, n, v.notes, v.nnotes, cw, ch, false);
  free(s);
  return true;
}

/* ---- --explain-access: one warp of a cuda detour ---- */

#define WARP LAUNCH_WARP       /* CUDA's numbers: model/launch.h */
#define SECTOR LAUNCH_SECTOR   /* bytes: the unit global memory moves in */
#define BANKS LAUNCH_BANKS     /* shared memory: banks of 4-byte words */

typedef enum AccessKind { ACC_LOAD, ACC_STORE, ACC_OFFSET } AccessKind;

/* The source of one access: "tile[$B[...]$]" and whether it is loaded,
 * stored (an '=' follows its ']') or a pointer offset ("a += $A[..]$"). */
static const char *access_text(Ctx *ctx, Node *n, AccessKind *kind)
{
  bool st = false, *store = &st;
  *kind = ACC_OFFSET;
  int line = n->loc.line;
  if (line < 1 || line > ctx->nlines)
    return "?";
  const char *s = ctx->lines[line - 1], *eol = strchr(s, '\n');
  const char *p = s + n->loc.col - 1;
  while (p > s && *p != '$')
    p--;
  const char *start = p;
  while (start > s && start[-1] == ' ')
    start--;
  if (start > s && start[-1] == '[') {
    start--;
    while (start > s && util_is_ident_char(start[-1]))
      start--;
  } else
    start = p;
  /* the closing '$': a '$' after an unclosed [ or ( opens a nested one */
  int depth[16] = {0}, level = 0;
  const char *q = p + 1;
  for (; *q && q != eol; q++) {
    if (*q == '[' || *q == '(')
      depth[level]++;
    else if (*q == ']' || *q == ')')
      depth[level]--;
    else if (*q == '$' && depth[level] > 0 && level < 15)
      depth[++level] = 0;
    else if (*q == '$' && level > 0)
      level--;
    else if (*q == '$')
      break;
  }
  const char *end = *q == '$' ? q + 1 : q;
  if (start < p) {
    while (*end == ' ')
      end++;
    if (*end == ']')
      end++;
    const char *r = end;
    while (*r == ' ')
      r++;
    *store = (r[0] == '=' && r[1] != '=') || (r[0] && strchr("+-*/%&|^", r[0]) && r[1] == '=');
    *kind = *store ? ACC_STORE : ACC_LOAD;
  }
  return ctx_strndup(ctx, start, end - start);
}

typedef struct Lane {
  long long off, addr;
  char *who;           /* "threadIdx.y 1, threadIdx.x 3" */
} Lane;

/* Binds the thread indices of lane t of block 0: pa_tx... (and pa_tid). */
static void bind_lane(Env *env, LaunchShape *l, long long t, Binding *b, char **who)
{
  Ctx *ctx = env->ctx;
  int n = 0;
  Buf w = {0};
  if (l->tiled) {
    b[n++] = (Binding){"pa_tid", t};
    b[n++] = (Binding){"pa_tx", t};
    buf_printf(&w, "threadIdx.x %lld", t);
  } else {
    long long digits[3] = {0};
    level_coords(env, l, 1, t, digits);
    for (int j = 0; j < l->nax[1]; j++) {
      char c = launch_axis_letter(l, 1, j);
      b[n++] = (Binding){ctx_printf(ctx, "pa_t%c", c), digits[j]};
      b[n++] = (Binding){ctx_printf(ctx, "threadIdx.%c", c), digits[j]};
      buf_printf(&w, "%sthreadIdx.%c %lld", j ? ", " : "", c, digits[j]);
    }
    for (int j = 0; j < l->nax[0]; j++) {
      char c = launch_axis_letter(l, 0, j);
      b[n++] = (Binding){ctx_printf(ctx, "pa_b%c", c), 0};
      b[n++] = (Binding){ctx_printf(ctx, "blockIdx.%c", c), 0};
    }
  }
  env->bind = b;
  env->nbind = n;
  *who = ctx_strdup(ctx, w.data);
  buf_free(&w);
}

typedef struct Verdict {
  long long units, ideal; /* sectors or wavefronts, and the fewest possible */
  Grid grid;              /* the picture: banks or sectors */
} Verdict;

/* dmem: the distinct 32-byte sectors the warp's request touches */
static void global_verdict(Ctx *ctx, Lane *ln, int lanes, int size, Verdict *v, FILE *out)
{
  long long sec[WARP * 4];
  int ns = 0;
  long long lo = -1, hi = -1, bytes = 0;
  for (int k = 0; k < lanes; k++) {
    bool dup = false;
    for (int j = 0; j < k; j++)
      dup |= ln[j].addr == ln[k].addr;
    if (!dup)
      bytes += size;
    for (long long a = ln[k].addr / SECTOR; a <= (ln[k].addr + size - 1) / SECTOR; a++) {
      int j = 0;
      while (j < ns && sec[j] != a)
        j++;
      if (j == ns && ns < WARP * 4)
        sec[ns++] = a;
    }
    lo = lo < 0 || ln[k].addr < lo ? ln[k].addr : lo;
    hi = ln[k].addr + size > hi ? ln[k].addr + size : hi;
  }
  v->units = ns;
  v->ideal = (bytes + SECTOR - 1) / SECTOR;
  fprintf(out, "    global memory: %d lanes x %d bytes, %lld distinct bytes in [%lld, %lld): %d %s of %d bytes "
               "(ideal %lld), %.0f%% of the bytes moved are used%s\n",
          lanes, size, bytes, lo, hi, ns, ns == 1 ? "sector" : "sectors", SECTOR, v->ideal, 100.0 * bytes / (ns * SECTOR),
          ns == v->ideal ? ": coalesced" : ": not coalesced");
  /* the picture: one column per sector, the lanes in it */
  for (int a = 1; a < ns; a++)
    for (int b = a; b > 0 && sec[b - 1] > sec[b]; b--) {
      long long t = sec[b];
      sec[b] = sec[b - 1];
      sec[b - 1] = t;
    }
  Grid *g = &v->grid;
  g->rows = 1;
  g->cols = ns;
  g->c = ctx_alloc(ctx, sizeof(Cell) * (ns ? ns : 1));
  for (int s = 0; s < ns; s++) {
    Buf lanes_in = {0};
    int first = -1, count = 0;
    for (int k = 0; k < lanes; k++)
      if (ln[k].addr / SECTOR <= sec[s] && (ln[k].addr + size - 1) / SECTOR >= sec[s]) {
        buf_printf(&lanes_in, "%s%d", count++ ? "," : "", k);
        first = first < 0 ? k : first;
      }
    Cell *c = &g->c[s];
    c->off = sec[s];
    c->colour = (int)((sec[s] * SECTOR / 128) % 8);
    c->label = ctx_printf(ctx, "%lld", sec[s] * SECTOR);
    bool run = true; /* lanes first .. first + count - 1 */
    for (int k = first; k < first + count && k < lanes; k++)
      run &= ln[k].addr / SECTOR <= sec[s] && (ln[k].addr + size - 1) / SECTOR >= sec[s];
    c->label2 = count == 1 ? ctx_printf(ctx, "l%d", first)
                : run      ? ctx_printf(ctx, "l%d-%d", first, first + count - 1)
                           : ctx_printf(ctx, "%dl", count);
    c->info = ctx_printf(ctx, "sector at byte %lld (128-byte line %lld): lanes %s", sec[s] * SECTOR,
                         sec[s] * SECTOR / 128, lanes_in.data ? lanes_in.data : "");
    buf_free(&lanes_in);
  }
  g->title = "the 32-byte sectors one request touches (label: first byte, lanes in it)";
  g->cols_name = "sectors, by address";
}

/* smem: the accesses of a warp go in phases of 128 bytes (a half warp for
 * 8-byte elements, a quarter for 16); in each phase the lanes that need
 * different words of one bank are served one after the other. */
static void shared_verdict(Ctx *ctx, Lane *ln, int lanes, int size, Verdict *v, FILE *out)
{
  int per_phase = size <= 4 ? WARP : WARP * 4 / size;
  int phases = (lanes + per_phase - 1) / per_phase, depth_max = 1;
  long long wave = 0;
  /* words[phase][bank][k]: the distinct words a bank serves in a phase */
  enum { MAXW = WARP * 4 };
  typedef struct BankUse {
    long long word[MAXW];
    int lane[MAXW];
    int n;
  } BankUse;
  BankUse *use = calloc((size_t)phases * BANKS, sizeof(BankUse));
  for (int p = 0; p < phases; p++) {
    int depth = 1;
    for (int k = p * per_phase; k < lanes && k < (p + 1) * per_phase; k++)
      for (long long w = ln[k].addr / 4; w <= (ln[k].addr + size - 1) / 4; w++) {
        BankUse *b = &use[p * BANKS + (int)(w % BANKS)];
        int j = 0;
        while (j < b->n && b->word[j] != w)
          j++;
        if (j == b->n && b->n < MAXW) {
          b->word[b->n] = w;
          b->lane[b->n++] = k;
        }
        depth = b->n > depth ? b->n : depth;
      }
    wave += depth;
    depth_max = depth > depth_max ? depth : depth_max;
  }
  v->units = wave;
  v->ideal = phases;
  bool uniform = true;
  for (int k = 1; k < lanes; k++)
    uniform &= ln[k].addr == ln[0].addr;
  fprintf(out, "    shared memory: %d lanes x %d bytes in %d phase%s of %d lanes: %lld wavefront%s (ideal %d)%s\n", lanes,
          size, phases, phases == 1 ? "" : "s", per_phase, wave, wave == 1 ? "" : "s", phases,
          wave == phases ? (uniform ? ": no bank conflicts (one word for all: a broadcast)" : ": no bank conflicts")
                         : ctx_printf(ctx, ": bank conflicts, %lld extra wavefront%s (up to %d-way)", wave - phases,
                                      wave - phases == 1 ? "" : "s", depth_max));
  /* the picture: one column per bank, one row per word served in turn */
  Grid *g = &v->grid;
  g->cols = BANKS;
  g->rows = 0;
  for (int p = 0; p < phases; p++) {
    int depth = 1;
    for (int b = 0; b < BANKS; b++)
      depth = use[p * BANKS + b].n > depth ? use[p * BANKS + b].n : depth;
    g->rows += depth;
  }
  g->c = ctx_alloc(ctx, sizeof(Cell) * g->rows * BANKS);
  long long row = 0;
  for (int p = 0; p < phases; p++) {
    int depth = 1;
    for (int b = 0; b < BANKS; b++)
      depth = use[p * BANKS + b].n > depth ? use[p * BANKS + b].n : depth;
    for (int r = 0; r < depth; r++, row++)
      for (int b = 0; b < BANKS; b++) {
        BankUse *u = &use[p * BANKS + b];
        Cell *c = &g->c[row * BANKS + b];
        c->colour = -1;
        c->label = "";
        if (r >= u->n)
          continue;
        c->colour = r ? 7 : (int)(p % 2 ? 2 : 0);
        c->label = ctx_printf(ctx, "l%d", u->lane[r]);
        c->label2 = ctx_printf(ctx, "w%lld", u->word[r]);
        c->info = ctx_printf(ctx, "phase %d, bank %d, turn %d: word %lld (byte %lld) for lane %d%s", p, b, r,
                             u->word[r], u->word[r] * 4, u->lane[r], r ? " (a conflict: waits)" : "");
      }
  }
  free(use);
  g->title = "shared memory banks (columns) and the words each serves in turn (rows; red: conflicts)";
  g->cols_name = "bank";
}

static void print_lanes(FILE *out, Lane *ln, int lanes)
{
  for (int k = 0; k < lanes; k += 8) {
    fprintf(out, "    lanes %2d-%2d offsets:", k, k + 7 < lanes ? k + 7 : lanes - 1);
    for (int j = k; j < k + 8 && j < lanes; j++)
      fprintf(out, " %6lld", ln[j].off);
    fputc('\n', out);
  }
}

/* ---- what the explainer cannot follow: values set in the detour ----
 * A pointer or an index set in the detour's body may differ from thread to
 * thread; the explainer takes an unknown name as 0 and an array pointer as
 * the array's start, which is right only where the value is the same in
 * every thread.  The body's text from the #detour to the access is read
 * for assignments (NAME = ..., NAME += ..., declarations with an
 * initialiser): a value that depends on the thread ($tid...$, threadIdx,
 * pa_tid, omp_get_thread_num or another such value) makes the access
 * unpredictable, except a pointer set once to ARRAY + $T[...]$ (or
 * &ARRAY[$T[...]$]), whose offset is followed lane by lane. */

typedef struct Region {
  Ctx *ctx;
  int from, to, tocol; /* lines from..to, the last up to column tocol */
} Region;

typedef struct Assign {
  int line, col;       /* of the value */
  char op;             /* '=', or the operator of a compound assignment ('+' for +=) */
  const char *rhs;     /* its text */
} Assign;

/* the text of line k of the region (to its end, or to tocol on the last) */
static const char *region_line(Region *r, int k, int *len)
{
  const char *s = r->ctx->lines[k - 1], *e = strchr(s, '\n');
  int n = e ? (int)(e - s) : (int)strlen(s);
  if (k == r->to && r->tocol - 1 < n)
    n = r->tocol - 1 > 0 ? r->tocol - 1 : 0;
  *len = n;
  return s;
}

/* the assignments to name in the region (at most max; returns how many) */
static int assignments(Region *r, const char *name, Assign *out, int max)
{
  size_t nl = strlen(name);
  int n = 0;
  for (int k = r->from; k <= r->to && k <= r->ctx->nlines; k++) {
    int len;
    const char *s = region_line(r, k, &len);
    for (int i = 0; i + (int)nl <= len; i++) {
      if (strncmp(s + i, name, nl) || (i > 0 && (util_is_ident_char(s[i - 1]) || s[i - 1] == '.' || s[i - 1] == '>')) ||
          util_is_ident_char(s[i + nl]))
        continue;
      int j = i + (int)nl;
      while (j < len && s[j] == ' ')
        j++;
      char op = '=';
      if (j + 1 < len && strchr("+-*/%&|^", s[j]) && s[j + 1] == '=')
        op = s[j++];
      else if (j + 2 < len && (s[j] == '<' || s[j] == '>') && s[j + 1] == s[j] && s[j + 2] == '=')
        op = s[j], j += 2;
      if (j >= len || s[j] != '=' || (j + 1 < len && s[j + 1] == '='))
        continue;
      int v = j + 1, e = v, depth = 0;
      for (; e < len; e++) {
        if (s[e] == '(' || s[e] == '[')
          depth++;
        else if ((s[e] == ')' || s[e] == ']') && --depth < 0)
          break;
        else if ((s[e] == ';' || s[e] == ',') && depth == 0)
          break;
      }
      char *rhs = util_str_trim(r->ctx, ctx_strndup(r->ctx, s + v, e - v));
      if (!*rhs) /* the statement of the access itself, cut at it */
        continue;
      if (n < max)
        out[n] = (Assign){k, v + 1, op, rhs};
      n++;
    }
  }
  return n;
}

static bool name_varies(Region *r, const char *name, int depth);

/* does text depend on the thread: a thread index, or a name that does? */
static bool text_varies(Region *r, const char *text, int depth)
{
  static const char *const marks[] = {"$tid", "threadIdx", "pa_tid", "pa_tx", "omp_get_thread_num", "laneid",
                                      NULL};
  for (int k = 0; marks[k]; k++)
    if (strstr(text, marks[k]))
      return true;
  if (depth > 8)
    return true;
  for (const char *p = text; *p;) {
    if (!util_is_ident_start((unsigned char)*p) || (p > text && (util_is_ident_char(p[-1]) || p[-1] == '.'))) {
      p++;
      continue;
    }
    const char *q = p;
    while (util_is_ident_char(*q))
      q++;
    if (name_varies(r, ctx_strndup(r->ctx, p, q - p), depth + 1))
      return true;
    p = q;
  }
  return false;
}

static bool name_varies(Region *r, const char *name, int depth)
{
  Assign as[8];
  int n = assignments(r, name, as, 8);
  for (int k = 0; k < n && k < 8; k++)
    if (text_varies(r, as[k].rhs, depth))
      return true;
  return false;
}

/* the access on line/columns of a value ARRAY + $T[...]$ in the same
 * #insert as `of`, or NULL */
static Access *access_in(Ctx *ctx, Assign *as, Access *of)
{
  for (Access *a = ctx->accesses; a; a = a->next)
    if (a->instance == of->instance && a->node->loc.line == as->line && a->node->loc.col >= as->col &&
        a->node->loc.col < as->col + (int)strlen(as->rhs) + 2)
      return a;
  return NULL;
}

/* rhs is P + $...$, $...$ + P or &P[$...$]: P, else NULL */
static const char *pointer_plus_access(Region *r, const char *rhs)
{
  const char *p = rhs;
  char *name = NULL;
  if (*p == '&') {
    p++;
    while (*p == ' ')
      p++;
    const char *q = p;
    while (util_is_ident_char(*q))
      q++;
    if (q == p || *q != '[' || q[1] != '$')
      return NULL;
    name = ctx_strndup(r->ctx, p, q - p);
  } else if (util_is_ident_start((unsigned char)*p)) {
    const char *q = p;
    while (util_is_ident_char(*q))
      q++;
    const char *t = q;
    while (*t == ' ')
      t++;
    if (*t != '+' || !strchr(t, '$'))
      return NULL;
    t++;
    while (*t == ' ')
      t++;
    if (*t != '$' || strchr(t + 1, '$') == NULL || strrchr(t, '$')[1] != 0)
      return NULL;
    name = ctx_strndup(r->ctx, p, q - p);
  } else if (*p == '$') {
    const char *e = strrchr(p, '$'), *t = e + 1;
    while (*t == ' ')
      t++;
    if (*t != '+')
      return NULL;
    t++;
    while (*t == ' ')
      t++;
    const char *q = t;
    while (util_is_ident_char(*q))
      q++;
    if (q == t || *q)
      return NULL;
    name = ctx_strndup(r->ctx, t, q - t);
  }
  return name;
}

/* ---- who touches what: the element each thread of the detour reaches
 * through one access (cuda: every block where the grid has at most 1024
 * threads, else block 0; pthd and omp: every thread), drawn on the grid of
 * the type's storage (or on a window of memory around the offsets when
 * that grid is too large to draw) ---- */

#define MAX_TOUCH 1024

/* The offsets a pointer carries: the $T[...]$ of the assignments that set
 * it, followed. */
typedef struct Via {
  Access *v[8];
  const char *how[8];  /* "pb = b + $M[0][$tid_1$]$ (line 45)" */
  int n;
} Via;

/* the offset through the pointer: the sum of the offsets it carries */
static bool via_offset(Env *env, Via *via, long long *out)
{
  *out = 0;
  for (int k = 0; k < via->n; k++) {
    long long v;
    if (!eval_poly(env, via->v[k]->off, &v))
      return false;
    *out += v;
  }
  return true;
}


typedef struct Toucher {
  long long off, block, thread;
} Toucher;

/* binds thread th of block blk (cuda; blk is 0 for pthd and omp) */
static void bind_thread(Env *env, LaunchShape *l, Type *t, long long blk, long long th, Binding *b)
{
  Ctx *ctx = env->ctx;
  if (t->kind != TK_CUDA) {
    b[0] = (Binding){"pa_tid", th};
    env->bind = b;
    env->nbind = 1;
    return;
  }
  char *who;
  bind_lane(env, l, th, b, &who);
  int n = env->nbind;
  if (l->tiled) {
    b[0].value = blk * l->tile + th;
    b[n++] = (Binding){"pa_bx", blk};
    b[n++] = (Binding){"blockIdx.x", blk};
  } else {
    long long digits[3] = {0};
    level_coords(env, l, 0, blk, digits);
    for (int k = 0; k < n; k++)
      for (int j = 0; j < l->nax[0]; j++) {
        char c = launch_axis_letter(l, 0, j);
        if (!strcmp(b[k].name, ctx_printf(ctx, "pa_b%c", c)) || !strcmp(b[k].name, ctx_printf(ctx, "blockIdx.%c", c)))
          b[k].value = digits[j];
      }
  }
  env->nbind = n;
}

/* g: the grid of type root (its storage offsets, as --explain draws it),
 * or memory in rows of 32 around [lo, hi] when that is too large, each
 * cell labelled with the first thread of th that reaches it ("+": more);
 * printed when it fits 32 x 32.  g->title: what the grid is. */
static void touch_grid(Ctx *ctx, Dim *root, Toucher *th, int n, bool cuda, bool blocks, long long lo, long long hi,
                       Grid *g, FILE *out)
{
  Env genv = {.ctx = ctx};
  View v = {.ctx = ctx, .env = &genv, .d = root};
  bool logical = data_cells(&v) && !v.grid.c[0].label2;
  if (logical) {
    *g = v.grid;
    g->title = ctx_printf(ctx, "%s[r][c]", root->path);
  } else {
    long long first = lo - lo % 32, rows = (hi - first) / 32 + 1;
    if (rows > 64)
      rows = 64;
    memset(g, 0, sizeof *g);
    g->rows = rows;
    g->cols = 32;
    g->c = ctx_alloc(ctx, sizeof(Cell) * (size_t)(rows * 32));
    for (long long k = 0; k < rows * 32; k++)
      g->c[k].off = first + k;
    g->title = ctx_printf(ctx, "offsets %lld.. of %s in rows of 32", first, root->path);
  }
  long long touched = 0;
  for (long long k = 0; k < g->rows * g->cols; k++) {
    Cell *c = &g->c[k];
    int first = -1, count = 0;
    Buf who = {0};
    for (int j = 0; j < n; j++)
      if (th[j].off == c->off) {
        if (first >= 0 && th[j].block == th[first].block && th[j].thread == th[first].thread)
          continue; /* the same thread again, in another iteration */
        if (count < 8)
          buf_printf(&who, "%s%s", count ? ", " : "",
                     cuda ? ctx_printf(ctx, "block %lld thread %lld", th[j].block, th[j].thread)
                          : ctx_printf(ctx, "thread %lld", th[j].thread));
        first = first < 0 ? j : first;
        count++;
      }
    const char *where = logical && c->info ? c->info : ctx_printf(ctx, "offset %lld", c->off);
    c->label2 = NULL;
    if (first < 0) {
      c->colour = -1;
      c->label = "";
      c->info = ctx_printf(ctx, "%s: no thread", where);
      buf_free(&who);
      continue;
    }
    touched++;
    Toucher *f = &th[first];
    c->colour = (int)((cuda ? (blocks ? f->block : f->thread / WARP) : f->thread) % 8);
    c->label = blocks ? ctx_printf(ctx, "%lld.%lld%s", f->block, f->thread, count > 1 ? "+" : "")
                      : ctx_printf(ctx, "t%lld%s", f->thread, count > 1 ? "+" : "");
    c->info = ctx_printf(ctx, "%s: %s%s", where, who.data, count > 8 ? ctx_printf(ctx, " and %d more", count - 8) : "");
    buf_free(&who);
  }
  fprintf(out, " reach %lld element%s of %s", touched, touched == 1 ? "" : "s", g->title);
  if (g->rows > MAX_TEXT_EDGE || g->cols > MAX_TEXT_EDGE) {
    fputs(" (too many to print: --format=svg, html or tex draws them)\n", out);
    return;
  }
  fprintf(out, "; %s, . none:\n", blocks ? "block.thread" : "tN thread N");
  int w = 3;
  for (long long k = 0; k < g->rows * g->cols; k++)
    w = (int)strlen(g->c[k].label) + 1 > w ? (int)strlen(g->c[k].label) + 1 : w;
  for (long long r = 0; r < g->rows; r++) {
    fputs("     ", out);
    for (long long c = 0; c < g->cols; c++)
      fprintf(out, "%*s", w, *g->c[r * g->cols + c].label ? g->c[r * g->cols + c].label : ".");
    fputc('\n', out);
  }
}

static int src_line(Ctx *ctx, int line);

/* ---- the thread map's loops: a loop counter in the offset whose loop
 * encloses the access and has constant bounds is swept, so that the map
 * shows each thread's whole footprint, not its first iteration ---- */

#define MAX_SWEEPS 4
#define MAX_SWEPT (16 * MAX_TOUCH) /* threads x iterations drawn */

/* for (NAME = from; NAME < to; NAME += step), or why it is not swept */
typedef struct Sweep {
  const char *name;
  long long from, to, step;
  int line;
  const char *why;
} Sweep;

static bool is_word_at(const char *start, const char *p, const char *w)
{
  size_t n = strlen(w);
  return !strncmp(p, w, n) && (p == start || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
         !(isalnum((unsigned char)p[n]) || p[n] == '_');
}

/* Does the body that starts at p (after a for's ')') hold position q? */
static bool body_holds(const char *p, const char *q)
{
  while (p < q && isspace((unsigned char)*p))
    p++;
  bool braced = p < q && *p == '{';
  int braces = 0, parens = 0;
  for (; p < q; p++) {
    if (*p == '{')
      braces++;
    else if (*p == '}' && (--braces < 0 || (braced && braces == 0)))
      return false;
    else if (*p == '(')
      parens++;
    else if (*p == ')')
      parens--;
    else if (*p == ';' && braces == 0 && parens == 0)
      return false;
  }
  return true;
}

/* s..e without the spaces around it */
static void trim(const char **s, const char **e)
{
  while (*s < *e && isspace((unsigned char)**s))
    (*s)++;
  while (*e > *s && isspace((unsigned char)(*e)[-1]))
    (*e)--;
}

/* $dim(T)$, $dim_1_0(T)$ (= $dim(T_1_0)$), $size(T)$: the extent, or NULL */
static Dim *dim_of_extent(Ctx *ctx, const char *t)
{
  char fn[8], path[128];
  int used = 0;
  if (sscanf(t, "$%7[a-z]%127[_0-9](%n", fn, path, &used) != 2 &&
      (path[0] = 0, sscanf(t, "$%7[a-z](%n", fn, &used) != 1))
    return NULL;
  if ((strcmp(fn, "dim") && strcmp(fn, "size")) || (!strcmp(fn, "size") && path[0]))
    return NULL;
  char name[128];
  int k = 0;
  while (t[used] == ' ')
    used++;
  while (k < 127 && (isalnum((unsigned char)t[used]) || t[used] == '_'))
    name[k++] = t[used++];
  name[k] = 0;
  while (t[used] == ' ')
    used++;
  if (strcmp(t + used, ")$"))
    return NULL;
  /* the type, then the digits of the name and of the function */
  char *full = ctx_printf(ctx, "%s%s", name, path), *digits = strchr(full, '_');
  Type *ty = NULL;
  for (char *u = digits; !ty; u = strchr(u + 1, '_')) {
    char *type_name = ctx_strndup(ctx, full, u ? (size_t)(u - full) : strlen(full));
    ty = type_lookup(ctx, type_name);
    if (ty || !u) {
      digits = u;
      break;
    }
  }
  if (!ty)
    return NULL;
  Dim *d = ty->root;
  for (char *u = digits; d && u && *u; ) {
    char *end;
    long i = strtol(u + 1, &end, 10);
    if (end == u + 1 || i < 0 || i >= dim_nkids(d))
      return NULL;
    d = dim_kid(d, (int)i);
    u = end;
  }
  return d;
}

/* the value of a loop bound: numbers, macros (-D, #define) and the
 * extents of types ($dim_0_1(M)$) only */
static bool constant_text(Ctx *ctx, const char *s, size_t n, long long *v)
{
  Env env = {.ctx = ctx};
  const char *e = s + n;
  trim(&s, &e);
  char *t = ctx_strndup(ctx, s, (size_t)(e - s));
  if (*t == '$') {
    Dim *d = dim_of_extent(ctx, t);
    return d && eval_poly(&env, dim_extent(d), v) && !env.nmissing;
  }
  return !strchr(t, '$') && eval_text(&env, t, v) && !env.nmissing;
}

/* The header for (init; cond; step) of name, read into *sw; false when it
 * is not that of a counter of name. */
static bool read_loop(Ctx *ctx, const char *name, const char *h, const char *end, Sweep *sw)
{
  const char *semi1 = memchr(h, ';', (size_t)(end - h)), *semi2 = semi1 ? memchr(semi1 + 1, ';', (size_t)(end - semi1 - 1)) : NULL;
  if (!semi2)
    return false;
  size_t nl = strlen(name);
  /* init: [type] name = FROM */
  const char *p = h, *from = NULL;
  for (; p + nl < semi1; p++)
    if (is_word_at(h, p, name)) {
      const char *q = p + nl;
      while (q < semi1 && isspace((unsigned char)*q))
        q++;
      if (q < semi1 && *q == '=' && q[1] != '=')
        from = q + 1;
      break;
    }
  if (!from)
    return false;
  /* cond: name < TO, name <= TO */
  const char *c = semi1 + 1, *ce = semi2;
  trim(&c, &ce);
  if (!is_word_at(c, c, name))
    return false;
  c += nl;
  while (c < ce && isspace((unsigned char)*c))
    c++;
  bool le = c + 1 < ce && c[0] == '<' && c[1] == '=';
  if (!(c < ce && c[0] == '<' && c[1] != '<'))
    return false;
  c += le ? 2 : 1;
  /* step: name++, ++name, name += STEP */
  const char *s = semi2 + 1, *se = end;
  trim(&s, &se);
  char *step = ctx_strndup(ctx, s, (size_t)(se - s));
  long long by = 0;
  if (!strcmp(step, ctx_printf(ctx, "%s++", name)) || !strcmp(step, ctx_printf(ctx, "++%s", name)))
    by = 1;
  else if (!strncmp(step, name, nl) && (step[nl] == ' ' || step[nl] == '+')) {
    const char *v = step + nl;
    while (*v == ' ')
      v++;
    if (strncmp(v, "+=", 2) || !constant_text(ctx, v + 2, strlen(v + 2), &by))
      by = 0;
  }
  const char *fe = semi1;
  trim(&from, &fe);
  sw->name = name;
  if (by <= 0 || !constant_text(ctx, from, (size_t)(fe - from), &sw->from) ||
      !constant_text(ctx, c, (size_t)(ce - c), &sw->to)) {
    const char *b = c, *be = ce;
    trim(&b, &be);
    sw->why = ctx_printf(ctx, "its loop (from %.*s to %.*s, step %s) has bounds that are not constant",
                         (int)(fe - from), from, (int)(be - b), b, step);
    return true;
  }
  sw->to += le;
  sw->step = by;
  sw->why = sw->to <= sw->from ? "its loop runs no iteration" : NULL;
  return true;
}

/* The innermost for loop of name around the access at the end of r's
 * text, read into *sw; false when name is no loop's counter there. */
static bool find_loop(Region *r, const char *name, Sweep *sw)
{
  Buf b = {0};
  int *line_at = NULL, nlines = 0;
  for (int k = r->from; k <= r->to && k <= r->ctx->nlines; k++) {
    int len;
    const char *s = region_line(r, k, &len);
    line_at = realloc(line_at, sizeof(int) * (size_t)(nlines + 1));
    line_at[nlines++] = (int)b.len;
    buf_printf(&b, "%.*s\n", len, s);
  }
  bool found = false;
  const char *text = b.data ? b.data : "", *q = text + b.len;
  for (const char *p = text; p < q; p++) {
    if (!is_word_at(text, p, "for"))
      continue;
    const char *h = p + 3;
    while (h < q && isspace((unsigned char)*h))
      h++;
    if (h >= q || *h != '(')
      continue;
    int depth = 0;
    const char *e = h;
    for (; e < q; e++)
      if (*e == '(')
        depth++;
      else if (*e == ')' && --depth == 0)
        break;
    Sweep s = {0};
    if (e < q && body_holds(e + 1, q) && read_loop(r->ctx, name, h + 1, e, &s)) {
      int k = 0;
      while (k + 1 < nlines && line_at[k + 1] <= p - text)
        k++;
      s.line = r->from + k;
      *sw = s;
      found = true;
    }
  }
  free(line_at);
  buf_free(&b);
  return found;
}

/* The loops the map sweeps for access a (the names env has taken as 0,
 * threads threads): at most MAX_SWEEPS, said on out. */
static int sweeps_of(Ctx *ctx, Access *a, Env *env, long long threads, Sweep *sw, FILE *out)
{
  Region reg = {ctx, a->detour ? a->detour->loc.line : 1, a->node->loc.line, a->node->loc.col};
  int n = 0;
  long long total = threads;
  for (int k = 0; k < env->nzeroed; k++) {
    Sweep s = {0};
    if (!find_loop(&reg, env->zeroed[k], &s))
      continue;
    long long trips = s.why ? 0 : (s.to - s.from + s.step - 1) / s.step;
    if (!s.why && (n == MAX_SWEEPS || total * trips > MAX_SWEPT))
      s.why = ctx_printf(ctx, "sweeping its %lld iterations too would draw more than %d accesses", trips, MAX_SWEPT);
    if (s.why) {
      fprintf(out, "    the map takes %s as 0: %s (line %d)\n", s.name, s.why, src_line(ctx, s.line));
      continue;
    }
    total *= trips;
    sw[n++] = s;
  }
  if (n) {
    fputs("    the map sweeps the loops of", out);
    for (int k = 0; k < n; k++)
      fprintf(out, "%s %s from %lld to %lld%s", k ? "," : "", sw[k].name, sw[k].from, sw[k].to - 1,
              sw[k].step > 1 ? ctx_printf(ctx, " step %lld", sw[k].step) : "");
    fputs(" (constant bounds): each thread's whole footprint\n", out);
  }
  return n;
}

/* the threads of a's detour and the element each reaches: g[0] on the
 * accessed type's grid, g[1] on its storage's where it views another */
static bool touch_map(Ctx *ctx, Access *a, Via *via, Grid *g, int *ng, FILE *out)
{
  Type *t = a->threads;
  Env env = {.ctx = ctx, .unknown_is_zero = true};
  LaunchShape l = {0};
  long long block, nblocks;
  if (t->kind == TK_CUDA) {
    if (!launch_of(&env, t->root, &l))
      return false;
    long long all = size_of(&env, t->root->extent);
    block = l.tiled ? l.tile : size_of(&env, l.lv[1]->extent);
    if (block <= 0 || all <= 0)
      return false;
    nblocks = all <= MAX_TOUCH ? (all + block - 1) / block : 1;
    if (block > MAX_TOUCH)
      block = MAX_TOUCH;
  } else {
    block = size_of(&env, t->root->extent);
    nblocks = 1;
    if (block <= 0) {
      fprintf(out, "    the number of threads of '%s' is not known (give it with -D NAME=VALUE)\n", t->name);
      return false;
    }
    if (block > MAX_TOUCH)
      block = MAX_TOUCH;
  }
  Binding b[32];
  long long off, base = 0;
  bind_thread(&env, &l, t, 0, 0, b);
  eval_poly(&env, a->off, &off); /* which names are taken as 0 */
  via_offset(&env, via, &base);
  Sweep sw[MAX_SWEEPS];
  int nsw = sweeps_of(ctx, a, &env, block * nblocks, sw, out);
  long long iters = 1;
  for (int s = 0; s < nsw; s++)
    iters *= (sw[s].to - sw[s].from + sw[s].step - 1) / sw[s].step;
  int n = 0, threads = 0;
  Toucher *th = ctx_alloc(ctx, sizeof(Toucher) * (size_t)(block * nblocks * iters));
  long long lo = LLONG_MAX, hi = LLONG_MIN;
  for (long long blk = 0; blk < nblocks; blk++)
    for (long long k = 0; k < block; k++) {
      if (t->kind == TK_CUDA && l.tiled && blk * l.tile + k >= size_of(&env, t->root->extent))
        break;
      bind_thread(&env, &l, t, blk, k, b);
      int nb = env.nbind;
      for (int s = 0; s < nsw; s++)
        b[nb + s] = (Binding){sw[s].name, sw[s].from};
      env.nbind = nb + nsw;
      threads++;
      for (long long it = 0; it < iters; it++) {
        for (int s = nsw - 1, carry = it > 0; s >= 0 && carry; s--) { /* the next iteration, the last loop fastest */
          b[nb + s].value += sw[s].step;
          carry = b[nb + s].value >= sw[s].to;
          if (carry)
            b[nb + s].value = sw[s].from;
        }
        if (!eval_poly(&env, a->off, &off) || !via_offset(&env, via, &base))
          return false;
        th[n++] = (Toucher){off + base, blk, k};
        lo = off + base < lo ? off + base : lo;
        hi = off + base > hi ? off + base : hi;
      }
    }
  if (!n)
    return false;
  bool cuda = t->kind == TK_CUDA, blocks = nblocks > 1;
  fprintf(out, "    who touches what: %d thread%s (%s)", threads, threads == 1 ? "" : "s",
          cuda ? (blocks ? "every block" : "block 0") : type_kind_name(t->kind));
  Dim *root = a->dim->type->root, *store = storage_of(root);
  touch_grid(ctx, root, th, n, cuda, blocks, lo, hi, &g[0], out);
  g[0].title = ctx_printf(ctx, "%s: the thread that touches each element (%s)", t->name, g[0].title);
  *ng = 1;
  if (store != root) {
    fputs("      in the storage it views:", out);
    touch_grid(ctx, store, th, n, cuda, blocks, lo, hi, &g[1], out);
    g[1].title = ctx_printf(ctx, "%s: the same threads in the storage %s views (%s)", t->name, root->path, g[1].title);
    *ng = 2;
  }
  return true;
}

static int src_line(Ctx *ctx, int line)
{
  int l;
  diag_src_file(ctx, line, &l);
  return l;
}

static bool same_size(Access *x, Access *y)
{
  return type_elem_bytes(x->dim->type->elem) == type_elem_bytes(y->dim->type->elem);
}

/* Follows pointer name back through the region, in the order written: an
 * array never set there is its start; `name = P + $T[...]$` (or $T[...]$ +
 * P, &P[$T[...]$]) is P followed plus that offset; `name += $T[...]$` adds
 * the offset; any other value the same in every thread keeps what it had
 * (*alike notes it).  Returns false, with *why the assignment, where a value
 * differs per thread in another way. */
static bool follow(Region *r, Access *a, const char *name, Via *via, int depth, int *alike, Assign *why)
{
  Assign as[8];
  int n = assignments(r, name, as, 8);
  if (n > 8 || depth > 4) {
    for (int k = 0; k < n && k < 8; k++)
      if (text_varies(r, as[k].rhs, 0)) {
        *why = as[k];
        return false;
      }
    *alike = as[0].line;
    return true;
  }
  for (int k = 0; k < n; k++) {
    const char *how = ctx_printf(r->ctx, "%s %s= %s (line %d)", name, as[k].op == '=' ? "" :
                                 ctx_printf(r->ctx, "%c", as[k].op), as[k].rhs, src_line(r->ctx, as[k].line));
    Access *d = access_in(r->ctx, &as[k], a);
    bool usable = d && d != a && same_size(d, a) && via->n < 8;
    if (as[k].op == '=') {
      const char *p = pointer_plus_access(r, as[k].rhs);
      if (p && usable && strcmp(p, name)) {
        Via inner = {{0}, {0}, 0};
        if (!follow(r, a, p, &inner, depth + 1, alike, why))
          return false;
        *via = inner;
        if (via->n < 8) {
          via->how[via->n] = how;
          via->v[via->n++] = d;
        }
        continue;
      }
      via->n = 0;
    } else if (as[k].op == '+' && usable && as[k].rhs[0] == '$' && as[k].rhs[strlen(as[k].rhs) - 1] == '$') {
      via->how[via->n] = how;
      via->v[via->n++] = d;
      continue;
    }
    if (text_varies(r, as[k].rhs, 0)) {
      *why = as[k];
      return false;
    }
    *alike = as[k].line;
  }
  return true;
}

/* The array an access goes through, "pa" of pa[$M[0][k]$], followed (its
 * offsets in *via); false, with the reason, where it cannot be. */
static bool resolvable(Ctx *ctx, Region *reg, Access *a, const char *text, AccessKind kind, Via *via, FILE *out)
{
  via->n = 0;
  char *base = NULL;
  if (kind == ACC_OFFSET) {
    /* P + $T[...]$ or P += $T[...]$: the element reached is P's plus this */
    const char *line = ctx->lines[a->node->loc.line - 1], *p = line + a->node->loc.col - 1;
    while (p > line && *p != '$')
      p--;
    const char *q = p;
    while (q > line && q[-1] == ' ')
      q--;
    if (q > line + 1 && q[-1] == '=' && q[-2] == '+')
      q -= 2;
    else if (q > line && q[-1] == '+' && (q - 1 == line || q[-2] != '+'))
      q--;
    else
      return true;
    while (q > line && q[-1] == ' ')
      q--;
    const char *e = q;
    while (q > line && util_is_ident_char(q[-1]))
      q--;
    if (q == e || !util_is_ident_start((unsigned char)*q))
      return true;
    base = ctx_strndup(ctx, q, e - q);
  } else {
    if (!util_is_ident_start((unsigned char)text[0]))
      return true;
    const char *e = text;
    while (util_is_ident_char(*e))
      e++;
    if (*e != '[')
      return true;
    base = ctx_strndup(ctx, text, e - text);
  }
  Assign why;
  int alike = 0;
  if (!follow(reg, a, base, via, 0, &alike, &why)) {
    fprintf(out, "    not predicted: '%s' is set to a value that differs from thread to thread (line %d: %s %s= %s), "
            "and parrayc does not follow it\n", base, src_line(ctx, why.line), base,
            why.op == '=' ? "" : ctx_printf(ctx, "%c", why.op), why.rhs);
    via->n = 0;
    return false;
  }
  if (via->n) {
    fprintf(out, "    '%s' is followed in each lane:", base);
    for (int k = 0; k < via->n; k++)
      fprintf(out, "%s %s", k ? "," : "", via->how[k]);
    fputc('\n', out);
  }
  if (alike)
    fprintf(out, "    '%s' is set in the detour (line %d) to a value alike in every thread: the pattern is the one "
            "at the start of %s\n", base, src_line(ctx, alike), a->dim->path);
  return true;
}

/* the names taken as 0 must be the same in every thread */
static bool zeroed_uniform(Ctx *ctx, Region *reg, Env *env, FILE *out)
{
  for (int k = 0; k < env->nzeroed; k++) {
    Assign as[1];
    if (name_varies(reg, env->zeroed[k], 0) && assignments(reg, env->zeroed[k], as, 1)) {
      fprintf(out, "    not predicted: '%s' differs from thread to thread (line %d: %s = %s), and parrayc does not "
              "follow it\n", env->zeroed[k], src_line(ctx, as[0].line), env->zeroed[k], as[0].rhs);
      return false;
    }
  }
  return true;
}

/* pthd and omp: the names the offsets take as 0, checked as for a warp */
static bool varies_checked(Ctx *ctx, Region *reg, Access *a, Via *via, FILE *out)
{
  Env env = {.ctx = ctx, .unknown_is_zero = true};
  Binding b[1] = {{"pa_tid", 0}};
  env.bind = b;
  env.nbind = 1;
  long long v;
  eval_poly(&env, a->off, &v);
  via_offset(&env, via, &v);
  if (!zeroed_uniform(ctx, reg, &env, out))
    return false;
  int said = 0;
  for (int k = 0; k < env.nzeroed; k++) {
    Sweep s = {0};
    if (find_loop(reg, env.zeroed[k], &s) && !s.why)
      continue; /* the map sweeps its loop */
    fprintf(out, "%s %s", said++ ? "," : "    taken as 0:", env.zeroed[k]);
  }
  if (said)
    fputs(" (set them with -D NAME=VALUE)\n", out);
  return true;
}

/* one access: false when it is not one the explainer can predict */
static bool explain_one(Ctx *ctx, Access *a, FILE *out, Grid *pics, char **notes, int *npics)
{
  AccessKind kind;
  const char *text = access_text(ctx, a->node, &kind);
  Type *t = a->dim->type;
  const char *inst = "";
  if (a->instance) {
    Buf b = {0};
    buf_printf(&b, " (in #insert %s(", a->instance->insert->name);
    for (int k = 0; k < a->instance->n; k++)
      buf_printf(&b, "%s%s", k ? ", " : "", util_str_trim(ctx, a->instance->values[k]));
    buf_printf(&b, ") at line %d)", a->instance->insert->loc.line);
    inst = ctx_strdup(ctx, b.data);
    buf_free(&b);
  }
  if (kind == ACC_OFFSET)
    fprintf(out, "  %s%s: an offset into %s %s (%s): the element each lane reaches at it\n", text, inst,
            type_mem_name(t->mem), t->elem, a->dim->path);
  else
    fprintf(out, "  %s%s: %s of %s %s through %s\n", text, inst, kind == ACC_STORE ? "store" : "load",
            type_mem_name(t->mem), t->elem, a->dim->path);
  Region reg = {ctx, a->detour ? a->detour->loc.line : 1, a->node->loc.line, a->node->loc.col};
  Via via = {{0}, {0}, 0}; /* the offsets the pointer carries, followed */
  bool cpu = a->threads && (a->threads->kind == TK_PTHD || a->threads->kind == TK_OMP);
  int ng = 0;
  if (cpu) { /* pthd, omp: no warp; who touches what */
    if (!resolvable(ctx, &reg, a, text, kind, &via, out) || !varies_checked(ctx, &reg, a, &via, out) ||
        !touch_map(ctx, a, &via, &pics[*npics], &ng, out))
      return false;
    while (ng--)
      notes[(*npics)++] = ctx_printf(ctx, "%s%s: the element each thread of %s reaches", text, inst, a->threads->name);
    return true;
  }
  if (t->mem != MEM_DMEM && t->mem != MEM_SMEM) {
    fprintf(out, "    %s memory: not predicted (only dmem and smem are)\n", type_mem_name(t->mem));
    return false;
  }
  if (!a->threads || a->threads->kind != TK_CUDA) {
    fputs("    not in a cuda, pthd or omp detour: there are no threads to predict\n", out);
    return false;
  }
  int size = type_elem_bytes(t->elem);
  if (!size) {
    fprintf(out, "    the size of '%s' is unknown to parrayc: not predicted\n", t->elem);
    return false;
  }
  Env env = {.ctx = ctx, .unknown_is_zero = true};
  LaunchShape l;
  if (!launch_of(&env, a->threads->root, &l))
    return false;
  long long block = l.tiled ? l.tile : size_of(&env, l.lv[1]->extent);
  if (block <= 0) {
    fprintf(out, "    the block size of '%s' is not known (give it with -D NAME=VALUE)\n", a->threads->name);
    return false;
  }
  int lanes = block < WARP ? (int)block : WARP;
  if (!resolvable(ctx, &reg, a, text, kind, &via, out))
    return false;
  Lane ln[WARP];
  Binding b[16];
  for (int k = 0; k < lanes; k++) {
    bind_lane(&env, &l, k, b, &ln[k].who);
    long long base = 0;
    if (!eval_poly(&env, a->off, &ln[k].off) || !via_offset(&env, &via, &base)) {
      fputs("    the offsets cannot be evaluated\n", out);
      return false;
    }
    ln[k].off += base;
    ln[k].addr = ln[k].off * size;
  }
  if (!zeroed_uniform(ctx, &reg, &env, out))
    return false;
  fprintf(out, "    warp 0 of block 0: lane 0 is %s, lane %d is %s\n", ln[0].who, lanes - 1, ln[lanes - 1].who);
  if (env.nzeroed) {
    fputs("    taken as 0:", out);
    for (int k = 0; k < env.nzeroed; k++)
      fprintf(out, "%s %s", k ? "," : "", env.zeroed[k]);
    fputs(" (set them with -D NAME=VALUE)\n", out);
  }
  print_lanes(out, ln, lanes);
  Verdict v = {0};
  if (t->mem == MEM_DMEM)
    global_verdict(ctx, ln, lanes, size, &v, out);
  else
    shared_verdict(ctx, ln, lanes, size, &v, out);
  pics[*npics] = v.grid;
  pics[*npics].title = ctx_printf(ctx, "%s%s: %s", text, inst, v.grid.title);
  notes[(*npics)++] = ctx_printf(ctx, "%s: %lld %s (ideal %lld)", text, v.units,
                                 t->mem == MEM_DMEM ? "sectors" : "wavefronts", v.ideal);
  if (ctx->opt.thread_map && touch_map(ctx, a, &via, &pics[*npics], &ng, out))
    while (ng--)
      notes[(*npics)++] = ctx_printf(ctx, "%s%s: the element each thread of %s reaches", text, inst, a->threads->name);
  return true;
}

bool explain_access(Ctx *ctx, FILE *out)
{
  ExplainFormat fmt = explain_format(ctx->opt.explain_format);
  FILE *text = fmt == FMT_TEXT ? out : tmpfile();
  if (!text) {
    diag_error(ctx, (Loc){0, 0}, "cannot create a temporary file for --explain-access");
    return false;
  }
  bool any = false;
  for (Access *a = ctx->accesses; a; a = a->next)
    any |= a->node->loc.line == ctx->opt.access_line;
  if (!any) {
    diag_error(ctx, (Loc){ctx->opt.access_line, 1}, "no '$T[...]$' access on line %d to explain", ctx->opt.access_line);
    if (text != out)
      fclose(text);
    return false;
  }
  fprintf(text, "%s:%d:\n", ctx->opt.display, ctx->opt.access_line);
  Grid pics[32];
  char *notes[32];
  int npics = 0;
  for (Access *a = ctx->accesses; a; a = a->next)
    if (a->node->loc.line == ctx->opt.access_line && npics < 30)
      explain_one(ctx, a, text, pics, notes, &npics);
  if (fmt == FMT_TEXT)
    return true;
  char *s = captured(text);
  fclose(text);
  Grid *grids[32];
  for (int k = 0; k < npics; k++)
    grids[k] = &pics[k];
  /* one picture per access, stacked */
  if (fmt == FMT_HTML)
    html_page(out, ctx_printf(ctx, "parrayc --explain-access %s:%d", ctx->opt.display, ctx->opt.access_line), s,
              grids, npics, notes, npics, 40, 30, true);
  else if (fmt == FMT_TEX)
    tex_picture(out, ctx_printf(ctx, "parrayc --explain-access %s:%d", ctx->opt.display, ctx->opt.access_line), s,
                grids, npics, notes, npics, true, true);
  else
    svg_picture(out, grids, npics, notes, npics, 40, 30, true);
  free(s);
  return npics > 0;
}
