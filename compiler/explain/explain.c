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

/* The text of macro `name`: -D first, then the program's last object-like
 * #define of it; NULL if neither. */
static const char *macro_text(Ctx *ctx, const char *name, const char **from)
{
  size_t n = strlen(name);
  for (int i = 0; i < ctx->opt.ndefines; i++) {
    const char *d = ctx->opt.defines[i];
    if (!strncmp(d, name, n) && (d[n] == '=' || !d[n])) {
      *from = "-D";
      return d[n] ? d + n + 1 : "1";
    }
  }
  const char *found = NULL;
  for (int l = 0; l < ctx->nlines; l++) {
    const char *p = ctx->lines[l];
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p++ != '#')
      continue;
    while (*p == ' ' || *p == '\t')
      p++;
    if (strncmp(p, "define", 6) || !isspace((unsigned char)p[6]))
      continue;
    for (p += 6; *p == ' ' || *p == '\t';)
      p++;
    if (strncmp(p, name, n) || util_is_ident_char(p[n]) || p[n] == '(')
      continue;
    const char *end = strchr(p, '\n');
    char *body = ctx_strndup(ctx, p + n, end ? (size_t)(end - p - n) : strlen(p + n));
    char *c = strstr(body, "//");
    if (c)
      *c = 0;
    if ((c = strstr(body, "/*")))
      *c = 0;
    found = util_str_trim(ctx, body);
  }
  *from = "#define";
  return found;
}

/* The value of a name in a size or index text: a thread index of the
 * lane, else a macro (-D, then the program's #define), else 0 for the
 * access explainer's loop variables; names without one are noted. */
static bool name_value(void *arg, const char *name, long long *v)
{
  Env *env = arg;
  for (int i = 0; i < env->nbind; i++)
    if (!strcmp(env->bind[i].name, name)) {
      *v = env->bind[i].value;
      return true;
    }
  const char *from;
  const char *text = macro_text(env->ctx, name, &from);
  if (text && env->depth < MAX_DEPTH) {
    env->depth++;
    bool ok = eval_text(env, text, v);
    env->depth--;
    if (ok) {
      note_name(env, &env->used, &env->nused, ctx_printf(env->ctx, "%s = %lld", name, *v));
      return true;
    }
  }
  if (env->unknown_is_zero) {
    note_name(env, &env->zeroed, &env->nzeroed, name);
    *v = 0;
    return true;
  }
  note_name(env, &env->missing, &env->nmissing, name);
  return false;
}

/* a size or index text, evaluated (model/ceval.c) */
static bool eval_text(Env *env, const char *text, long long *out)
{
  return ceval(text, name_value, env, out, NULL);
}

static bool eval_poly(Env *env, const Poly *p, long long *out);

static bool eval_atom(Env *env, const Atom *a, long long *out)
{
  long long n, d;
  switch (a->kind) {
  case A_SYM:
    return eval_text(env, a->text, out);
  case A_VAR:
    if (a == env->var) {
      *out = env->var_value;
      return true;
    }
    return eval_text(env, a->text, out);
  case A_DIV:
  case A_MOD:
    if (!eval_poly(env, a->num, &n) || !eval_poly(env, a->den, &d) || d <= 0)
      return false;
    *out = a->kind == A_DIV ? n / d : n % d;
    return true;
  }
  return false;
}

static bool eval_poly(Env *env, const Poly *p, long long *out)
{
  long long sum = 0;
  for (int i = 0; i < p->n; i++) {
    long long t = p->t[i].coef, v;
    for (int k = 0; k < p->t[i].nf; k++) {
      if (!eval_atom(env, p->t[i].f[k], &v) || __builtin_mul_overflow(t, v, &t))
        return false;
    }
    if (__builtin_add_overflow(sum, t, &sum))
      return false;
  }
  *out = sum;
  return true;
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

/* The process dimensions of distributed data, and the offset functions of
 * the thread-array nodes they reference (owner(i) = sum off_R(digit)). */
static void owner_dims(Dim *d, Dim ***out, int *n, Ctx *ctx)
{
  if (d->ref && d->ref->type->kind != TK_NONE) {
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
          Poly *po = dim_offset(ctx, own[k]->ref, digit);
          env->var = iv->t[0].f[0];
          if (!offset_at(env, po, i, &v1))
            return false;
          p += v1;
        }
        env->var = var->t[0].f[0];
        Type *pt = own[0]->ref->type;
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
  const char *ext = ctx_printf(ctx, "%s%s", poly_str(ctx, d->extent), value_note(env, d->extent));
  fprintf(out, "  %*s%-*s extent %-8s off(i) = %s%s\n", depth * 2, "", 12 - depth * 2, path, ext,
          poly_str(ctx, dim_offset(ctx, d, var)), ref);
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
    fprintf(out, "%s: %s thread array, %s%s threads\n", d->path, type_kind_name(t->kind), poly_str(ctx, d->extent),
            value_note(v->env, d->extent));
  else
    fprintf(out, "%s: %s %s, extent %s%s, span %s%s, contiguous %s\n", d->path, type_mem_name(t->mem), t->elem,
            poly_str(ctx, d->extent), value_note(v->env, d->extent), poly_str(ctx, dim_span(ctx, d)),
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
  Layout lo[16];
  int width = 20, height = 0;
  for (int k = 0; k < ngrids && k < 16; k++) {
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

/* ---- --explain ---- */

ExplainFormat explain_format(const char *name)
{
  if (!name || !strcmp(name, "text"))
    return FMT_TEXT;
  if (!strcmp(name, "svg"))
    return FMT_SVG;
  if (!strcmp(name, "html"))
    return FMT_HTML;
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
  else
    html_page(out, ctx_printf(ctx, "parrayc --explain %s", d->path), s, grids, n, v.notes, v.nnotes, cw, ch, false);
  free(s);
  return true;
}

/* ---- --explain-access: one warp of a cuda detour ---- */

#define WARP 32
#define SECTOR 32              /* bytes: the unit global memory moves in */
#define BANKS 32               /* shared memory: 32 banks of 4-byte words */

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

/* one access: false when it is not one the explainer can predict */
static bool explain_one(Ctx *ctx, Access *a, FILE *out, Grid *pic, char **note)
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
  if (t->mem != MEM_DMEM && t->mem != MEM_SMEM) {
    fprintf(out, "    %s memory: not predicted (only dmem and smem are)\n", type_mem_name(t->mem));
    return false;
  }
  if (!a->threads || a->threads->kind != TK_CUDA) {
    fputs("    not in a cuda detour: there is no warp to predict\n", out);
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
  Lane ln[WARP];
  Binding b[16];
  for (int k = 0; k < lanes; k++) {
    bind_lane(&env, &l, k, b, &ln[k].who);
    if (!eval_poly(&env, a->off, &ln[k].off)) {
      fputs("    the offsets cannot be evaluated\n", out);
      return false;
    }
    ln[k].addr = ln[k].off * size;
  }
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
  *pic = v.grid;
  pic->title = ctx_printf(ctx, "%s%s: %s", text, inst, pic->title);
  *note = ctx_printf(ctx, "%s: %lld %s (ideal %lld)", text, v.units, t->mem == MEM_DMEM ? "sectors" : "wavefronts",
                     v.ideal);
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
  if (!ctx->accesses) {
    diag_error(ctx, (Loc){ctx->opt.access_line, 1}, "no '$T[...]$' access on line %d to explain", ctx->opt.access_line);
    if (text != out)
      fclose(text);
    return false;
  }
  fprintf(text, "%s:%d:\n", ctx->opt.display, ctx->opt.access_line);
  Grid pics[16];
  char *notes[16];
  int npics = 0;
  for (Access *a = ctx->accesses; a; a = a->next)
    if (explain_one(ctx, a, text, &pics[npics], &notes[npics]) && npics < 15)
      npics++;
  if (fmt == FMT_TEXT)
    return true;
  char *s = captured(text);
  fclose(text);
  Grid *grids[16];
  for (int k = 0; k < npics; k++)
    grids[k] = &pics[k];
  /* one picture per access, stacked */
  if (fmt == FMT_HTML)
    html_page(out, ctx_printf(ctx, "parrayc --explain-access %s:%d", ctx->opt.display, ctx->opt.access_line), s,
              grids, npics, notes, npics, 40, 30, true);
  else
    svg_picture(out, grids, npics, notes, npics, 40, 30, true);
  free(s);
  return npics > 0;
}
