/* touch.c: who touches what: the element each thread of the detour
 * reaches through one access, drawn on the grid of the type's storage,
 * with the loops around the access swept. */
#include "explain/picture.h"

/* ---- who touches what: the element each thread of the detour reaches
 * through one access (cuda: every block where the grid has at most 1024
 * threads, else block 0; pthd and omp: every thread), drawn on the grid of
 * the type's storage (or on a window of memory around the offsets when
 * that grid is too large to draw) ---- */

/* the offset through the pointer: the sum of the offsets it carries */
bool explain_via_offset(Env *env, Via *via, long long *out)
{
  *out = 0;
  for (int k = 0; k < via->n; k++) {
    long long v;
    if (!explain_eval_poly(env, via->v[k]->off, &v))
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
  explain_bind_lane(env, l, th, b, &who);
  int n = env->nbind;
  if (l->tiled) {
    b[0].value = blk * l->tile + th;
    b[n++] = (Binding){"pa_bx", blk};
    b[n++] = (Binding){"blockIdx.x", blk};
  } else {
    long long digits[3] = {0};
    explain_level_coords(env, l, 0, blk, digits);
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
  bool logical = explain_data_cells(&v) && !v.grid.c[0].label2;
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
    Buf who = {.ctx = ctx};
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

/* ---- the thread map's loops: a loop counter in the offset whose loop
 * encloses the access and has constant bounds is swept, so that the map
 * shows each thread's whole footprint, not its first iteration ---- */

#define MAX_SWEEPS 4
#define MAX_SWEPT (16 * MAX_TOUCH) /* threads x iterations drawn */

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
    return d && explain_eval_poly(&env, dim_extent(d), v) && !env.nmissing;
  }
  return !strchr(t, '$') && explain_eval_text(&env, t, v) && !env.nmissing;
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
bool explain_find_loop(Region *r, const char *name, Sweep *sw)
{
  Buf b = {.ctx = r->ctx};
  int *line_at = NULL, nlines = 0;
  for (int k = r->from; k <= r->to && k <= r->ctx->nlines; k++) {
    int len;
    const char *s = explain_region_line(r, k, &len);
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
  Region reg = {ctx, a->detour ? a->detour->loc.line : 1, a->loc.line, a->loc.col};
  int n = 0;
  long long total = threads;
  for (int k = 0; k < env->nzeroed; k++) {
    Sweep s = {0};
    if (!explain_find_loop(&reg, env->zeroed[k], &s))
      continue;
    long long trips = s.why ? 0 : (s.to - s.from + s.step - 1) / s.step;
    if (!s.why && (n == MAX_SWEEPS || total * trips > MAX_SWEPT))
      s.why = ctx_printf(ctx, "sweeping its %lld iterations too would draw more than %d accesses", trips, MAX_SWEPT);
    if (s.why) {
      fprintf(out, "    the map takes %s as 0: %s (line %d)\n", s.name, s.why, explain_src_line(ctx, s.line));
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
bool explain_touch_map(Ctx *ctx, Access *a, Via *via, Grid *g, int *ng, FILE *out)
{
  Type *t = a->threads;
  Env env = {.ctx = ctx, .unknown_is_zero = true};
  LaunchShape l = {0};
  long long block, nblocks;
  if (t->kind == TK_CUDA) {
    if (!explain_launch_of(&env, t->root, &l))
      return false;
    long long all = explain_size_of(&env, t->root->extent);
    block = l.tiled ? l.tile : explain_size_of(&env, l.lv[1]->extent);
    if (block <= 0 || all <= 0)
      return false;
    nblocks = all <= MAX_TOUCH ? (all + block - 1) / block : 1;
    if (block > MAX_TOUCH)
      block = MAX_TOUCH;
  } else {
    block = explain_size_of(&env, t->root->extent);
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
  explain_eval_poly(&env, a->off, &off); /* which names are taken as 0 */
  explain_via_offset(&env, via, &base);
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
      if (t->kind == TK_CUDA && l.tiled && blk * l.tile + k >= explain_size_of(&env, t->root->extent))
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
        if (!explain_eval_poly(&env, a->off, &off) || !explain_via_offset(&env, via, &base))
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
  Dim *root = a->dim->type->root, *store = explain_storage_of(root);
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
