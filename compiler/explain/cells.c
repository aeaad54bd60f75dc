/* cells.c: the explainer's values and cells (picture.h): sizes and index
 * texts evaluated with the program's macros and -D, the cells of a data
 * type's grid (offsets, owners, the memory it views) and of a thread
 * array's (each index's block and thread, or rank), by the launch rule. */
#include "explain/picture.h"

/* ---- values: sizes and index texts, evaluated ---- */

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

static bool is_known(const Env *env, const char *name)
{
  for (int i = 0; i < env->nknown; i++)
    if (!strcmp(env->known[i], name))
      return true;
  return false;
}

/* The meaning of a name in a size or index text: a thread index of the
 * lane, else a macro (-D, then the program's #define, expanded by the
 * evaluator), else 0 for the access explainer's loop variables; names
 * without one are noted. A macro is evaluated once, for its note ("N =
 * 8"), and then only expanded: evaluating it again at each use made
 * macros of macros exponential in their depth (a sample's Q of QP and QN,
 * each of six ?:, took minutes to draw), unless its value varies (read a
 * thread index, which differs from lane to lane, or a name without a
 * value, which a sweep of the loops may bind next). */
static bool name_value(void *arg, const char *name, CevalMeaning *m)
{
  Env *env = arg;
  for (int i = 0; i < env->nbind; i++)
    if (!strcmp(env->bind[i].name, name)) {
      m->valued = true;
      m->value = env->bind[i].value;
      env->varies = true;
      return true;
    }
  const char *from;
  const char *text = macro_text(env->ctx, name, &from);
  if (text && is_known(env, name)) {
    m->text = text;
    return true;
  }
  long long v;
  if (text && env->depth < MAX_DEPTH) {
    bool outer = env->varies;
    env->varies = false;
    env->depth++;
    bool ok = explain_eval_text(env, text, &v);
    env->depth--;
    bool varies = env->varies;
    env->varies = outer || varies;
    if (ok) {
      note_name(env, &env->used, &env->nused, ctx_printf(env->ctx, "%s = %lld", name, v));
      if (!varies)
        note_name(env, &env->known, &env->nknown, name);
      m->text = text;
      return true;
    }
  }
  env->varies = true;
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
bool explain_eval_text(Env *env, const char *text, long long *out)
{
  return ceval(env->ctx, text, CEVAL_SIZE, name_value, env, out, NULL);
}

/* a size or index: its text evaluated, the variable being drawn its value;
 * a text whose value does not vary is evaluated once, not once a cell */
static bool eval_leaf(void *arg, const Atom *a, long long *out)
{
  Env *env = arg;
  if (a->kind == A_VAR && a == env->var) {
    *out = env->var_value;
    return true;
  }
  for (int i = 0; i < env->nleaf; i++)
    if (env->leaf[i] == a) {
      *out = env->leaf_value[i];
      return true;
    }
  bool outer = env->varies;
  env->varies = false;
  bool ok = explain_eval_text(env, a->text, out);
  bool varies = env->varies;
  env->varies = outer || varies;
  if (ok && !varies) {
    if (env->nleaf == env->leaf_cap) {
      int cap = env->leaf_cap ? 2 * env->leaf_cap : 16;
      const Atom **l = ctx_alloc(env->ctx, sizeof *l * cap);
      long long *v = ctx_alloc(env->ctx, sizeof *v * cap);
      if (env->nleaf) {
        memcpy(l, env->leaf, sizeof *l * env->nleaf);
        memcpy(v, env->leaf_value, sizeof *v * env->nleaf);
      }
      env->leaf = l, env->leaf_value = v, env->leaf_cap = cap;
    }
    env->leaf[env->nleaf] = a;
    env->leaf_value[env->nleaf++] = *out;
  }
  return ok;
}

bool explain_eval_poly(Env *env, const Poly *p, long long *out)
{
  return poly_value(p, eval_leaf, env, out);
}

bool explain_size(Ctx *ctx, const Poly *p, long long *out)
{
  Env env = {.ctx = ctx};
  return explain_eval_poly(&env, p, out);
}

/* a size: its value, or -1 */
long long explain_size_of(Env *env, Poly *p)
{
  long long v;
  return explain_eval_poly(env, p, &v) && v >= 0 ? v : -1;
}

bool explain_is_symbolic(const Poly *p)
{
  return !poly_is_const(p, NULL);
}

/* ---- the cells of a type ---- */

static void add_note(View *v, const char *s)
{
  note_name(v->env, &v->notes, &v->nnotes, s);
}

/* rows x columns: the first top-level dimension down, the others across */
static void grid_shape(Env *env, Dim *d, long long *rows, long long *cols, Dim **rdim, Dim **cdim)
{
  int m = dim_nkids(d);
  *rdim = *cdim = NULL;
  long long n = explain_size_of(env, d->extent);
  if (m <= 1) {
    *rows = 1;
    *cols = n;
    *cdim = d;
    return;
  }
  *cdim = dim_kid(d, m - 1);
  *cols = explain_size_of(env, (*cdim)->extent);
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
  return explain_size_of(env, d->extent);
}

/* "A[[2][1]][3]": the index of linear position i, digit by digit; a
 * sub-dimension of one element is "[0]", its linear index, whatever its
 * own sub-dimensions (types each two references to the last would
 * double the text with each type) */
static void index_path(Env *env, Buf *b, Dim *d, long long i, bool top)
{
  int m = dim_nkids(d);
  if (!m || (!top && explain_size_of(env, d->extent) == 1)) {
    buf_printf(b, "[%lld]", i);
    return;
  }
  if (!top)
    buf_putc(b, '[');
  long long rest = 1;
  for (int k = 0; k < m; k++)
    rest *= explain_size_of(env, dim_kid(d, k)->extent);
  for (int k = 0; k < m; k++) {
    long long e = explain_size_of(env, dim_kid(d, k)->extent);
    rest = e > 0 ? rest / e : 1;
    index_path(env, b, dim_kid(d, k), rest > 0 ? i / rest % e : 0, false);
  }
  if (!top)
    buf_putc(b, ']');
}

static char *path_of(Env *env, Dim *d, long long i)
{
  Buf b = {.ctx = env->ctx};
  buf_puts(&b, d->path);
  index_path(env, &b, d, i, true);
  char *s = ctx_strdup(env->ctx, b.data);
  buf_free(&b);
  return s;
}

bool explain_offset_at(Env *env, Poly *off, long long i, long long *out)
{
  env->var_value = i;
  return explain_eval_poly(env, off, out);
}

/* The process dimensions of distributed data (owner(i) = the sum of the
 * process indices their digits give, dim_process_index). */
static void owner_dims(Env *env, Dim *d, Dim ***out, int *n, Ctx *ctx)
{
  if (dim_process_selector(d)) {
    Dim **nl = ctx_alloc(ctx, sizeof(Dim *) * (*n + 1));
    if (*n)
      memcpy(nl, *out, sizeof(Dim *) * *n);
    nl[(*n)++] = d;
    *out = nl;
    return;
  }
  /* below one element, any selector's digit is 0: it picks no owner (and
   * types each two references to the last would double the walk) */
  if (explain_size_of(env, d->extent) == 1)
    return;
  for (int k = 0; k < dim_nkids(d); k++)
    owner_dims(env, dim_kid(d, k), out, n, ctx);
}

/* the data type whose storage d views (d's own type if it views none) */
Dim *explain_storage_of(Dim *d)
{
  if (d->ref && d->ref->type->kind == TK_NONE && d->ref->type != d->type)
    return explain_storage_of(d->ref->type->root);
  for (int k = 0; k < d->nkids; k++) {
    Dim *s = explain_storage_of(d->kids[k]);
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

bool explain_data_cells(View *v)
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
  owner_dims(env, d, &own, &nown, ctx);
  long long tr = tile_edge(env, dim_nkids(d) >= 2 ? dim_kid(d, dim_nkids(d) - 2) : NULL);
  long long tc = tile_edge(env, dim_nkids(d) >= 2 ? cdim : NULL);
  bool tiles = (tr > 0 && tr < rows) || (tc > 0 && tc < cols);
  for (long long r = 0; r < rows; r++)
    for (long long c = 0; c < cols; c++) {
      Cell *cell = &g->c[r * cols + c];
      long long i = r * cols + c, o;
      if (!explain_offset_at(env, off, i, &o))
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
          if (!explain_offset_at(env, po, i, &v1))
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
void explain_memory_cells(View *v)
{
  Ctx *ctx = v->ctx;
  Env *env = v->env;
  Dim *base = explain_storage_of(v->d), *rdim = NULL, *cdim = NULL;
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
    if (other && !explain_offset_at(env, off, k, &o))
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
bool explain_launch_of(Env *env, Dim *root, LaunchShape *l)
{
  return launch_shape(root, dim_nkids(root) == 1 ? explain_size_of(env, root->extent) : 0, l);
}

/* the coordinates of linear index i of a level, "(y,x)" */
char *explain_level_coords(Env *env, LaunchShape *l, int w, long long i, long long *digits)
{
  Buf b = {.ctx = env->ctx};
  long long rest = i;
  for (int j = l->nax[w] - 1; j >= 0; j--) {
    long long e = explain_size_of(env, l->ax[w][j]->extent);
    digits[j] = e > 0 ? rest % e : 0;
    rest = e > 0 ? rest / e : 0;
  }
  for (int j = 0; j < l->nax[w]; j++)
    buf_printf(&b, "%s%lld", j ? "," : "", digits[j]);
  char *s = ctx_strdup(env->ctx, b.data);
  buf_free(&b);
  return s;
}

bool explain_thread_cells(View *v)
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
  bool cuda = t->kind == TK_CUDA && d == t->root && explain_launch_of(env, d, &l);
  long long block = cuda && !l.tiled ? explain_size_of(env, l.lv[1]->extent) : cuda ? l.tile : 0;
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
    char *bc = explain_level_coords(env, &l, 0, b, bd), *tc = explain_level_coords(env, &l, 1, th, td);
    cell->label = ctx_printf(ctx, "b%s", bc);
    cell->label2 = ctx_printf(ctx, "t%s", tc);
    Buf info = {.ctx = ctx};
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
        add_note(v, ctx_printf(ctx, "%s (extent %lld) -> %s.%c", l.ax[w][j]->path, explain_size_of(env, l.ax[w][j]->extent),
                               w ? "threadIdx" : "blockIdx", launch_axis_letter(&l, w, j)));
  if (cuda && l.tiled)
    add_note(v, ctx_printf(ctx, "%s is tiled: blocks of %lld threads on x", d->path, l.tile));
  g->title = cuda ? ctx_printf(ctx, "%s: the block (b) and the thread in it (t) of each index", d->path)
                  : ctx_printf(ctx, "%s: the %s of each index", d->path, t->kind == TK_MPI ? "rank" : "thread");
  return true;
}
