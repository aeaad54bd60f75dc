/* emit.c: the walk over the syntax tree.  C text is copied through with
 * #line directives; each Parray construct goes to the backend of its
 * target.  Detour bodies are outlined into functions placed before the
 * top-level item that holds them. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

/* ---- output ---- */

static bool at_bol(Out *o)
{
  return o->b.len == 0 || o->b.data[o->b.len - 1] == '\n';
}

static void sync_line(Emitter *e, int line)
{
  Out *o = e->out;
  if (!e->ctx->opt.line_directives || line <= 0 || o->line == line)
    return;
  buf_printf(&o->b, "#line %d \"", line);
  for (const char *p = e->ctx->opt.display; *p; p++) {
    if (*p == '"' || *p == '\\')
      buf_putc(&o->b, '\\');
    buf_putc(&o->b, *p);
  }
  buf_puts(&o->b, "\"\n");
  o->line = line;
}

static void put_char(Out *o, char c)
{
  buf_putc(&o->b, c);
  if (c == '\n' && o->line >= 0)
    o->line++;
}

void out_src(Emitter *e, const char *text, Loc loc)
{
  int line = loc.line;
  e->out->gen_line = 0;
  for (const char *p = text; *p; p++) {
    if (at_bol(e->out))
      sync_line(e, line);
    put_char(e->out, *p);
    if (*p == '\n')
      line++;
  }
}

void out_gen(Emitter *e, Loc loc, const char *fmt, ...)
{
  Buf b = {0};
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  /* one #line for all the code of one directive */
  for (size_t i = 0; i < b.len; i++) {
    if (at_bol(e->out) && e->out->gen_line != loc.line) {
      sync_line(e, loc.line);
      e->out->gen_line = loc.line;
    }
    put_char(e->out, b.data[i]);
  }
  buf_free(&b);
}

void out_append(Out *dst, Out *src)
{
  if (!src->b.len)
    return;
  buf_puts(&dst->b, src->b.data);
  dst->line = -1;
}

void out_free(Out *o)
{
  buf_free(&o->b);
}

const char *indent_of(Node *n)
{
  return n->text ? n->text : "";
}

/* ---- scopes: which names a #create may assign ---- */

static void scope_push(Emitter *e, bool function)
{
  Scope *s = ctx_alloc(e->ctx, sizeof *s);
  s->parent = e->scope;
  s->function = function;
  if (e->scope) {
    /* the statement before '{': a function header declares parameters */
    const Buf *t = &e->scope->text;
    size_t start = t->len;
    while (start > 0 && !strchr(";{}", t->data[start - 1]))
      start--;
    s->header = ctx_strndup(e->ctx, t->data ? t->data + start : "", t->len - start);
  }
  e->scope = s;
}

void scope_free(Scope *s)
{
  buf_free(&s->text);
  map_free(&s->names);
  map_free(&s->declared);
}

static void scope_pop(Emitter *e)
{
  Scope *s = e->scope;
  e->scope = s->parent;
  scope_free(s);
}

static bool name_is(const void *item, const void *key)
{
  return !strcmp(item, key);
}

static void names_add(Ctx *ctx, Map *m, const char *name, size_t n)
{
  char *s = ctx_strndup(ctx, name, n);
  unsigned long h = hash_str(s, HASH_SEED);
  if (!map_get(m, h, name_is, s))
    map_put(m, h, s);
}

static bool names_have(const Map *m, const char *name)
{
  return map_get(m, hash_str(name, HASH_SEED), name_is, name) != NULL;
}

void scope_declare(Emitter *e, const char *name)
{
  names_add(e->ctx, &e->scope->names, name, strlen(name));
}

static bool is_decl_word(const char *w, size_t n)
{
  static const char *words[] = {"void", "char", "short", "int", "long", "float", "double", "signed",
                                "unsigned", "_Bool", "bool", "struct", "union", "enum", "const",
                                "volatile", "static", "extern", "register", "restrict", "inline",
                                "__shared__", "__device__", "__constant__", "auto", NULL};
  for (int i = 0; words[i]; i++)
    if (strlen(words[i]) == n && !strncmp(w, words[i], n))
      return true;
  /* size_t, float2, int4, ... */
  if (n > 2 && w[n - 2] == '_' && w[n - 1] == 't')
    return true;
  return n > 1 && w[n - 1] >= '1' && w[n - 1] <= '4' && (!strncmp(w, "float", 5) || !strncmp(w, "int", 3) ||
                                                         !strncmp(w, "double", 6) || !strncmp(w, "uint", 4));
}

/* Calls found(arg, w, n) for each name the statement [s, end) declares: a
 * statement declares when it starts with type words (or two identifiers in
 * a row, a typedef name), and the first identifier of each declarator is
 * the name it declares. */
typedef void NameFound(void *arg, const char *w, size_t n);

static void statement_names(const char *s, const char *end, NameFound *found, void *arg)
{
  const char *p = s;
  int words = 0;
  bool decl = false;
  /* comments and preprocessor lines (#include ...) before the statement */
  for (;;) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
      p++;
    if (p + 1 < end && p[0] == '/' && p[1] == '*') {
      const char *c = strstr(p + 2, "*/");
      p = c && c + 2 <= end ? c + 2 : end;
    } else if (p < end && (*p == '#' || (p + 1 < end && p[0] == '/' && p[1] == '/'))) {
      while (p < end && *p != '\n')
        p += (*p == '\\' && p + 1 < end) ? 2 : 1;
    } else {
      break;
    }
  }
  for (;;) {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '*'))
      p++;
    if (p >= end || !is_ident_start((unsigned char)*p))
      break;
    const char *w = p;
    while (p < end && is_ident_char((unsigned char)*p))
      p++;
    size_t n = (size_t)(p - w);
    if (is_decl_word(w, n)) {
      decl = true;
      words++;
      continue;
    }
    if (!decl && words == 0) {
      /* a typedef name must be followed by another identifier or '*' */
      const char *q = p;
      while (q < end && (*q == ' ' || *q == '\t'))
        q++;
      if (q < end && (is_ident_start((unsigned char)*q) || *q == '*')) {
        decl = true;
        words++;
        continue;
      }
      return;
    }
    if (!decl)
      return;
    /* w is the first declarator's name */
    p = w;
    break;
  }
  if (!decl)
    return;
  int depth = 0;
  bool want = true;
  while (p < end) {
    if (*p == '(' || *p == '[' || *p == '{')
      depth++;
    else if (*p == ')' || *p == ']' || *p == '}')
      depth--;
    else if (*p == ',' && depth == 0)
      want = true;
    else if (*p == '=' && depth == 0)
      want = false;
    if (is_ident_start((unsigned char)*p)) {
      const char *w = p;
      while (p < end && is_ident_char((unsigned char)*p))
        p++;
      if (want && depth == 0 && !is_decl_word(w, (size_t)(p - w))) {
        found(arg, w, (size_t)(p - w));
        want = false;
      }
      continue;
    }
    p++;
  }
}

typedef struct NameQuery {
  const char *name;
  bool found;
} NameQuery;

static void name_query(void *arg, const char *w, size_t n)
{
  NameQuery *q = arg;
  if (strlen(q->name) == n && !strncmp(w, q->name, n))
    q->found = true;
}

/* Does the statement [s, end) declare name? */
static bool statement_declares(const char *s, const char *end, const char *name)
{
  NameQuery q = {name, false};
  statement_names(s, end, name_query, &q);
  return q.found;
}

typedef struct NameSink {
  Ctx *ctx;
  Map *names;
} NameSink;

static void name_sink(void *arg, const char *w, size_t n)
{
  NameSink *k = arg;
  names_add(k->ctx, k->names, w, n);
}

/* Reads the statements of s->text completed since the last call, adding
 * the names they declare to s->declared (the text only grows, so each
 * statement is read once); returns the incomplete statement at the end. */
static const char *scope_scan(Ctx *ctx, Scope *s)
{
  if (!s->text.data)
    return "";
  NameSink sink = {ctx, &s->declared};
  const char *start = s->text.data + s->scanned;
  int depth = 0;
  for (const char *p = start; *p; p++) {
    /* a ';' in a comment ends no statement */
    if (p[0] == '/' && p[1] == '*') {
      const char *c = strstr(p + 2, "*/");
      p = c ? c + 1 : p + strlen(p) - 1;
      continue;
    }
    if (p[0] == '/' && p[1] == '/') {
      while (p[1] && p[1] != '\n')
        p++;
      continue;
    }
    if (*p == '(')
      depth++;
    if (*p == ')')
      depth--;
    if (depth <= 0 && (*p == ';' || *p == '{' || *p == '}')) {
      statement_names(start, p, name_sink, &sink);
      start = p + 1;
      depth = 0;
    }
  }
  s->scanned = (size_t)(start - s->text.data);
  return start;
}

/* Does the text of scope s declare name? */
static bool text_declares(Ctx *ctx, Scope *s, const char *name)
{
  const char *tail = scope_scan(ctx, s);
  return names_have(&s->declared, name) || statement_declares(tail, tail + strlen(tail), name);
}

/* the parameters of a function header "T f(T1 a, T2 b)" */
static bool header_declares(const char *h, const char *name)
{
  const char *open = strchr(h, '(');
  const char *close = h ? strrchr(h, ')') : NULL;
  if (!open || !close || close < open)
    return false;
  const char *start = open + 1;
  for (const char *p = start; p <= close; p++)
    if (*p == ',' || p == close) {
      if (statement_declares(start, p, name))
        return true;
      start = p + 1;
    }
  return false;
}

bool name_declared(Emitter *e, const char *name)
{
  for (Scope *s = e->scope; s; s = s->parent) {
    if (names_have(&s->names, name) || text_declares(e->ctx, s, name))
      return true;
    if (s->header && header_declares(s->header, name))
      return true;
    if (s->function && !s->file_scope) {
      /* a detour body sees its parameters and the file scope only */
      Scope *f = s;
      while (f->parent)
        f = f->parent;
      if (f != s && text_declares(e->ctx, f, name))
        return true;
      return false;
    }
  }
  return false;
}

/* ---- subprogram parameters in C text ---- */

static const char *param_text(Ctx *ctx, const char *w, size_t n)
{
  Instance *in = ctx->instance;
  if (!in)
    return NULL;
  for (int i = 0; i < in->n; i++)
    if (strlen(in->names[i]) == n && !strncmp(in->names[i], w, n))
      return in->values[i];
  return NULL;
}

/* the text with every parameter of the current #insert replaced */
static char *substitute(Ctx *ctx, const char *text)
{
  if (!ctx->instance)
    return (char *)text;
  Buf b = {0};
  const char *p = text;
  while (*p) {
    if (*p == '"' || *p == '\'') {
      char q = *p;
      buf_putc(&b, *p++);
      while (*p && *p != q) {
        if (*p == '\\' && p[1])
          buf_putc(&b, *p++);
        buf_putc(&b, *p++);
      }
      if (*p)
        buf_putc(&b, *p++);
    } else if (p[0] == '/' && p[1] == '*') {
      const char *end = strstr(p + 2, "*/");
      end = end ? end + 2 : p + strlen(p);
      while (p < end)
        buf_putc(&b, *p++);
    } else if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n')
        buf_putc(&b, *p++);
    } else if (is_ident_start((unsigned char)*p)) {
      const char *w = p;
      while (is_ident_char((unsigned char)*p))
        p++;
      const char *v = param_text(ctx, w, (size_t)(p - w));
      if (v) {
        buf_puts(&b, v);
      } else {
        for (const char *q = w; q < p; q++)
          buf_putc(&b, *q);
      }
    } else if (*p >= '0' && *p <= '9') {
      while (is_ident_char((unsigned char)*p) || *p == '.')
        buf_putc(&b, *p++);
    } else {
      buf_putc(&b, *p++);
    }
  }
  char *s = ctx_strdup(ctx, b.data ? b.data : "");
  buf_free(&b);
  return s;
}

/* ---- $...$ ---- */

Dim *resolve_node(Emitter *e, const char *path, Loc loc)
{
  return dim_resolve(e->ctx, path, loc);
}

static int count_atom(const Poly *p, const Atom *a)
{
  int n = 0;
  for (int i = 0; i < p->n; i++)
    for (int k = 0; k < p->t[i].nf; k++) {
      Atom *f = p->t[i].f[k];
      if (f == a)
        n++;
      else if (f->kind == A_DIV || f->kind == A_MOD)
        n += count_atom(f->num, a) + count_atom(f->den, a);
    }
  return n;
}

/* Prints p; index expressions with side effects that the offset uses other
 * than once are evaluated once into temporaries (a GNU statement
 * expression, which gcc, clang and nvcc accept). */
static char *print_once(Emitter *e, Poly *p, int first_atom)
{
  Ctx *ctx = e->ctx;
  bool wide = !poly_fits_int(p);
  Buf b = {0};
  int slots = 0;
  for (Atom *a = ctx->atoms; a && a->id >= first_atom; a = a->next)
    if (a->kind == A_VAR && text_has_side_effects(a->text) && count_atom(p, a) != 1)
      a->slot = slots++;
  if (slots) {
    buf_puts(&b, "__extension__ ({ ");
    for (int s = slots - 1; s >= 0; s--)
      for (Atom *a = ctx->atoms; a && a->id >= first_atom; a = a->next)
        if (a->kind == A_VAR && a->slot == s)
          buf_printf(&b, "%s pa_ix%d = (%s); ", wide ? "long long" : "int", s, a->text);
    buf_puts(&b, "(");
    poly_print(&b, p, wide);
    for (Atom *a = ctx->atoms; a && a->id >= first_atom; a = a->next)
      if (a->kind == A_VAR && a->slot >= 0 && count_atom(p, a) == 0)
        buf_printf(&b, ") + 0 * (pa_ix%d", a->slot);
    buf_puts(&b, "); })");
    for (Atom *a = ctx->atoms; a && a->id >= first_atom; a = a->next)
      a->slot = -1;
  } else {
    buf_putc(&b, '(');
    poly_print(&b, p, wide);
    buf_putc(&b, ')');
  }
  char *s = ctx_strdup(ctx, b.data);
  buf_free(&b);
  return s;
}

char *poly_text(Emitter *e, Poly *p)
{
  return print_once(e, p, e->ctx->natoms);
}

Poly *tid_linear(Emitter *e, Detour *dt, Dim *d)
{
  Poly *linear = poly_var(e->ctx, dt->tid_var, dt->type->root->extent);
  return dim_index_of(e->ctx, dt->type->root, d, linear);
}

static char *tid_text(Emitter *e, Dx *dx)
{
  Detour *dt = e->detour;
  if (!dt) {
    diag_error(e->ctx, dx->path_loc, "'$%s$' outside a detour: there is no thread index here", dx->path);
    return "0";
  }
  /* tid_1_0 names node T_1_0 of the innermost thread array */
  const char *suffix = dx->path + 3;
  Dim *d = dim_resolve(e->ctx, ctx_printf(e->ctx, "%s%s", dt->type->name, suffix), dx->path_loc);
  if (!d)
    return "0";
  int first = e->ctx->natoms;
  Poly *p = dt->tid(e, dt, d);
  return print_once(e, p, first);
}

char *dollar_text(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  Dx *dx = n->dx;
  if (dx->kind == DX_TID)
    return tid_text(e, dx);
  Dim *d = dim_resolve(ctx, dx->path, dx->path_loc);
  if (!d)
    return "0";
  int first = ctx->natoms;
  switch (dx->kind) {
  case DX_DIM:
    return print_once(e, d->extent, first);
  case DX_CNT: {
    char *c;
    int r = dim_contiguous(ctx, d, &c);
    if (r >= 0)
      return r ? "1" : "0";
    if (c)
      return ctx_printf(ctx, "(%s)", c);
    diag_error(ctx, dx->path_loc, "cannot decide '$cnt(%s)$': the layout is not strided and its sizes are not constants",
               dx->path);
    return "0";
  }
  case DX_INDEX: {
    if (d->type->kind != TK_NONE && !dim_thread_type(d)) {
      diag_error(ctx, dx->path_loc, "'%s' is a thread array: index it with '$tid$', not '$%s[...]$'", dx->path,
                 dx->path);
      return "0";
    }
    Poly *p = dim_eval(ctx, d, dx->index, e);
    return p ? print_once(e, p, first) : "0";
  }
  default:
    return "0";
  }
}

char *fragment_text(Emitter *e, Node *list)
{
  Buf b = {0};
  for (Node *n = list; n; n = n->next) {
    if (n->kind == N_DOLLAR) {
      if (n->text)
        buf_puts(&b, n->text); /* the blanks before the '$' */
      buf_puts(&b, dollar_text(e, n));
    }
    else if (n->kind == N_TEXT)
      buf_puts(&b, substitute(e->ctx, n->text));
  }
  char *s = ctx_strdup(e->ctx, b.data ? b.data : "");
  buf_free(&b);
  return s;
}

/* ---- the walk ---- */

static void emit_node(Emitter *e, Node *n);

void emit_nodes(Emitter *e, Node *list)
{
  for (Node *n = list; n; n = n->next)
    emit_node(e, n);
}

/* the words after "#pragma parray" in a line of C text, or NULL for any
 * other line */
static const char *parray_pragma_words(const char *s)
{
  static const char *const words[] = {"#", "pragma", "parray"};
  for (int i = 0; i < 3; i++) {
    s += strspn(s, " \t");
    size_t n = strlen(words[i]);
    if (strncmp(s, words[i], n) != 0 || (i > 0 && is_ident_char((unsigned char)s[n])))
      return NULL;
    s += n;
  }
  return s + strspn(s, " \t");
}

/* K of "min_blocks(K)" (blanks allowed around each part), in *k; false when
 * the words are anything else */
static bool parse_min_blocks(const char *words, long *k)
{
  static const char name[] = "min_blocks";
  if (strncmp(words, name, sizeof name - 1) != 0)
    return false;
  const char *p = words + sizeof name - 1;
  p += strspn(p, " \t");
  if (*p++ != '(')
    return false;
  char *end;
  *k = strtol(p, &end, 10);
  if (end == p)
    return false;
  end += strspn(end, " \t");
  if (*end++ != ')')
    return false;
  return end[strspn(end, " \t\r\n")] == '\0';
}

/* "#pragma parray min_blocks(K)": a property of the kernel of the innermost
 * cuda detour, which the backend prints as __launch_bounds__(threads, K) */
static void emit_parray_pragma(Emitter *e, Node *n, const char *words)
{
  Loc at = n->loc; /* at the '#' */
  at.col += (int)strspn(n->text, " \t");
  long k;
  if (!parse_min_blocks(words, &k)) {
    diag_error(e->ctx, at, "unknown '#pragma parray %s': the one parray pragma is 'min_blocks(K)'",
               str_trim(e->ctx, words));
    return;
  }
  if (k < 1 || k > 32) {
    diag_error(e->ctx, at, "'#pragma parray min_blocks(%ld)': K must be between 1 and 32", k);
    return;
  }
  Detour *dt = e->detour;
  if (!dt || dt->type->kind != TK_CUDA) {
    diag_error(e->ctx, at, "'#pragma parray min_blocks' belongs in the body of a cuda detour");
    return;
  }
  if (dt->min_blocks && dt->min_blocks != k) {
    diag_error(e->ctx, at, "'#pragma parray min_blocks(%ld)': detour '%s' already asked for %d", k,
               dt->type->name, dt->min_blocks);
    return;
  }
  dt->min_blocks = (int)k;
}

static void emit_text(Emitter *e, Node *n)
{
  const char *words = parray_pragma_words(n->text);
  if (words) {
    emit_parray_pragma(e, n, words);
    return;
  }
  char *t = substitute(e->ctx, n->text);
  buf_puts(&e->scope->text, t);
  out_src(e, t, n->loc);
}

static void emit_block(Emitter *e, Node *n)
{
  out_src(e, "{", n->loc);
  bool fn = e->scope->file_scope;
  scope_push(e, fn); /* before the '{' joins the text: the header is what precedes it */
  buf_puts(&e->scope->parent->text, "{");
  e->function_depth += fn;
  emit_nodes(e, n->body);
  e->function_depth -= fn;
  scope_pop(e);
  buf_puts(&e->scope->text, "}");
  out_src(e, "}", n->end_loc);
}

void emit_outlined(Emitter *e, Detour *dt, Node *body, Out *o, char **params, int nparams, const char *indent)
{
  Out *saved_out = e->out;
  Scope *saved_scope = e->scope;
  Detour *saved_dt = e->detour;
  e->out = o;
  /* the body sees the file scope and its parameters */
  Scope *file = e->scope;
  while (file->parent)
    file = file->parent;
  e->scope = file;
  scope_push(e, true);
  for (int i = 0; i < nparams; i++)
    scope_declare(e, params[i]);
  e->detour = dt;
  e->function_depth++;
  (void)indent;
  emit_nodes(e, body);
  e->function_depth--;
  scope_pop(e);
  e->scope = saved_scope;
  e->out = saved_out;
  e->detour = saved_dt;
}

static Dim *resolve_data(Emitter *e, const char *name, Loc loc)
{
  Dim *d = resolve_node(e, name, loc);
  if (d && d->type->kind != TK_NONE && !dim_thread_type(d)) {
    diag_error(e->ctx, loc, "'%s' is a thread array, not a data type", name);
    return NULL;
  }
  return d;
}

static bool mem_allowed(Emitter *e, Node *n, Dim *d)
{
  MemKind m = d->type->mem;
  Ctx *ctx = e->ctx;
  if (m == MEM_SMEM && (!e->detour || e->detour->type->kind != TK_CUDA)) {
    diag_error(ctx, n->name_loc, "'%s' is in smem (GPU shared memory), which exists only inside a cuda detour",
               n->name);
    return false;
  }
  if (m == MEM_RMEM && !e->detour && e->function_depth == 0) {
    diag_error(ctx, n->name_loc, "'%s' is in rmem (registers), which exists only inside a function or detour",
               n->name);
    return false;
  }
  return true;
}

static bool on_gpu(Dim *d)
{
  MemKind m = d->type->mem;
  return m == MEM_DMEM || m == MEM_SMEM;
}

/* #create and #destroy: GPU memory (and pinned memory of CUDA programs)
 * belongs to the CUDA backend, the rest to the host */
static void emit_memory(Emitter *e, Node *n)
{
  bool create = n->kind == N_CREATE;
  Dim *d = resolve_data(e, n->name, n->name_loc);
  if (!d || !mem_allowed(e, n, d))
    return;
  if (n->nargs != 1 || !n->args[0]) {
    diag_error(e->ctx, n->loc, "'#%s %s(...)' needs the name of a pointer", create ? "create" : "destroy", n->name);
    return;
  }
  bool cuda = on_gpu(d) || (e->cuda && d->type->mem == MEM_PINNED);
  if (create)
    (cuda ? emit_cuda_create : emit_c_create)(e, n, d);
  else
    (cuda ? emit_cuda_destroy : emit_c_destroy)(e, n, d);
}

static void emit_copy(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
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
  if (dim_thread_type(s) || dim_thread_type(d) ||
      (e->detour && e->detour->type->kind == TK_MPI && !on_gpu(s) && !on_gpu(d))) {
    /* distributed data, or host data in an mpi body (process 0's arrays) */
    emit_mpi_copy(e, n, s, d);
  } else if (e->detour) {
    if ((on_gpu(s) || on_gpu(d)) && e->detour->type->kind != TK_CUDA) {
      diag_error(ctx, n->loc, "GPU memory cannot be copied inside a %s detour", thread_kind_name(e->detour->type->kind));
      return;
    }
    emit_copy_loop(e, n, s, fragment_text(e, n->args[0]), d, fragment_text(e, n->args[1]),
                   e->detour->type->kind == TK_CUDA);
  } else if (on_gpu(s) || on_gpu(d)) {
    emit_cuda_copy(e, n, s, d);
  } else {
    emit_c_copy(e, n, s, d);
  }
}

static void emit_detour(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  Type *t = type_lookup(ctx, n->name);
  Dim *d = t ? t->root : resolve_node(e, n->name, n->name_loc);
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
  switch (t->kind) {
  case TK_PTHD:
  case TK_OMP:
    emit_cpu_detour(e, n, t);
    break;
  case TK_CUDA:
    emit_cuda_detour(e, n, t);
    break;
  case TK_MPI:
    emit_mpi_detour(e, n, t);
    break;
  default:
    break;
  }
}

static void emit_sync(Emitter *e, Node *n)
{
  if (!e->detour) {
    diag_error(e->ctx, n->loc, "'#sync' outside a detour: there are no threads to synchronise");
    return;
  }
  switch (e->detour->type->kind) {
  case TK_PTHD:
  case TK_OMP:
    emit_cpu_sync(e, n);
    break;
  case TK_CUDA:
    emit_cuda_sync(e, n);
    break;
  case TK_MPI:
    emit_mpi_sync(e, n);
    break;
  default:
    break;
  }
}

static void emit_global(Emitter *e, Node *n)
{
  if (e->scope->file_scope) {
    emit_nodes(e, n->body);
    return;
  }
  /* contents go to file scope, before the code that uses them */
  Out o = {{0}, -1, 0};
  Out *saved_out = e->out;
  Scope *saved_scope = e->scope;
  Detour *saved_dt = e->detour;
  int saved_depth = e->function_depth;
  Scope *file = e->scope;
  while (file->parent)
    file = file->parent;
  e->scope = file;
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

static void emit_subprog(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  for (Subprog *s = ctx->subprogs; s; s = s->next)
    if (!strcmp(s->node->name, n->name)) {
      diag_error(ctx, n->name_loc, "subprogram '%s' is already defined", n->name);
      diag_note(ctx, s->node->name_loc, "'%s' was defined here", n->name);
      return;
    }
  for (int i = 0; i < n->nargs; i++) {
    char *p = n->args[i] ? str_trim(ctx, fragment_text(e, n->args[i])) : "";
    if (!text_is_simple(p) || !is_ident_start((unsigned char)p[0]))
      diag_error(ctx, n->loc, "subprogram parameter %d of '%s' must be a name", i + 1, n->name);
  }
  Subprog *s = ctx_alloc(ctx, sizeof *s);
  s->node = n;
  s->next = ctx->subprogs;
  ctx->subprogs = s;
}

static void emit_insert(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  Subprog *s = ctx->subprogs;
  while (s && strcmp(s->node->name, n->name))
    s = s->next;
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
  int depth = 0;
  for (Instance *in = ctx->instance; in; in = in->parent)
    if (++depth > 32 || in->insert->name == n->name) {
      diag_error(ctx, n->loc, "'#insert %s' inserts itself", n->name);
      return;
    }
  Instance *in = ctx_alloc(ctx, sizeof *in);
  in->id = ++ctx->ninstances;
  in->insert = n;
  in->n = n->nargs;
  in->names = ctx_alloc(ctx, sizeof(char *) * (n->nargs + 1));
  in->values = ctx_alloc(ctx, sizeof(char *) * (n->nargs + 1));
  for (int i = 0; i < n->nargs; i++) {
    in->names[i] = str_trim(ctx, fragment_text(e, sp->args[i]));
    in->values[i] = str_trim(ctx, n->args[i] ? fragment_text(e, n->args[i]) : "");
  }
  in->parent = ctx->instance;
  ctx->instance = in;
  emit_nodes(e, sp->body);
  ctx->instance = in->parent;
  /* the next source text needs a #line again */
  e->out->line = -1;
}

static void emit_node(Emitter *e, Node *n)
{
  switch (n->kind) {
  case N_TEXT:
    emit_text(e, n);
    break;
  case N_BLOCK:
    emit_block(e, n);
    break;
  case N_DOLLAR: {
    char *t = dollar_text(e, n);
    buf_puts(&e->scope->text, t);
    out_src(e, t, n->loc);
    break;
  }
  case N_PARRAY:
    type_declare(e->ctx, e, n);
    break;
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
  case N_MAINHOST:
    if (!e->scope->file_scope) {
      diag_error(e->ctx, n->loc, "'#mainhost' must stand at file scope");
      break;
    }
    if (e->mpi)
      emit_mpi_main(e, n);
    else
      emit_c_main(e, n);
    break;
  case N_GLOBAL:
    emit_global(e, n);
    break;
  case N_SUBPROG:
    emit_subprog(e, n);
    break;
  case N_INSERT:
    emit_insert(e, n);
    break;
  }
}

/* ---- the whole program ---- */

/* The kinds the program's #parray declarations start with, found in one
 * walk over the tree (a long program has many nodes). */
typedef struct Kinds {
  bool cuda, mpi, pthd, omp;
} Kinds;

static void declared_kinds(Node *list, Kinds *k)
{
  for (Node *n = list; n; n = n->next) {
    if (n->kind == N_PARRAY && n->nwords > 0) {
      const char *w = n->words[0];
      k->cuda |= !strcmp(w, "cuda") || !strcmp(w, "dmem") || !strcmp(w, "smem");
      k->mpi |= !strcmp(w, "mpi");
      k->pthd |= !strcmp(w, "pthd");
      k->omp |= !strcmp(w, "omp");
    }
    if (n->body)
      declared_kinds(n->body, k);
  }
}

bool program_uses_cuda(Ctx *ctx, Node *tree)
{
  (void)ctx;
  Kinds k = {0};
  declared_kinds(tree, &k);
  return k.cuda;
}

/* The end of the last complete top-level declaration (';' or '}') or
 * preprocessor line in text, or -1: hoisted code goes there, never between
 * a function's header (a text item) and its body (a block item). */
static long decl_boundary(const char *t)
{
  long cut = -1;
  bool line_start = true;
  for (long i = 0; t[i]; i++) {
    if (t[i] == '/' && t[i + 1] == '*') {
      const char *c = strstr(t + i + 2, "*/");
      i = c ? (long)(c - t) + 1 : (long)strlen(t) - 1;
      continue;
    }
    if ((t[i] == '/' && t[i + 1] == '/') || (line_start && t[i] == '#')) {
      bool directive = t[i] == '#';
      while (t[i + 1] && t[i + 1] != '\n')
        i += t[i] == '\\' ? 2 : 1;
      if (directive && t[i + 1])
        cut = i + 2;
      continue;
    }
    if (t[i] == '"' || t[i] == '\'') {
      char q = t[i];
      while (t[i + 1] && t[i + 1] != q && t[i + 1] != '\n')
        i += t[i + 1] == '\\' && t[i + 2] ? 2 : 1;
      if (t[i + 1] == q)
        i++;
      continue;
    }
    if (t[i] == ';' || t[i] == '}')
      cut = i + 1;
    if (t[i] == '\n')
      line_start = true;
    else if (t[i] != ' ' && t[i] != '\t')
      line_start = false;
  }
  return cut;
}

/* Puts hoisted code at offset cut of whole, then a #line for the text
 * that follows (the line the C compiler would have given it). */
static void insert_hoist(Ctx *ctx, Out *whole, size_t cut, Out *hoist)
{
  Buf b = {0};
  const char *w = whole->b.data ? whole->b.data : "";
  /* rather after the end of that line, when nothing else is on it */
  size_t end = cut;
  while (w[end] == ' ' || w[end] == '\t')
    end++;
  if (w[end] == '\n')
    cut = end + 1;
  for (size_t i = 0; i < cut; i++)
    buf_putc(&b, w[i]);
  if (cut > 0 && w[cut - 1] != '\n')
    buf_putc(&b, '\n');
  buf_puts(&b, hoist->b.data);
  if (b.data[b.len - 1] != '\n')
    buf_putc(&b, '\n');
  /* the line of offset cut: the last #line before it plus the newlines since */
  int line = 0;
  for (size_t i = cut; i-- > 0;)
    if ((i == 0 || w[i - 1] == '\n') && !strncmp(w + i, "#line ", 6)) {
      const char *nl = strchr(w + i, '\n');
      line = atoi(w + i + 6);
      for (const char *p = nl ? nl + 1 : w + cut; p < w + cut; p++)
        line += *p == '\n';
      break;
    }
  if (line > 0 && ctx->opt.line_directives)
    buf_printf(&b, "#line %d \"%s\"\n", line, ctx->opt.display);
  buf_puts(&b, w + cut);
  buf_free(&whole->b);
  whole->b = b;
}

char *emit_program(Ctx *ctx)
{
  Emitter e = {0};
  e.ctx = ctx;
  Kinds k = {0};
  declared_kinds(ctx->tree, &k);
  e.cuda = ctx->uses_cuda = k.cuda;
  e.mpi = ctx->uses_mpi = k.mpi;
  ctx->uses_pthd = k.pthd;
  ctx->uses_omp = k.omp;
  e.hoist.line = -1;
  Scope file = {0};
  file.file_scope = true;
  e.scope = &file;
  Out whole = {{0}, -1, 0};
  size_t cut = 0; /* where the current top-level declaration starts in whole */
  for (Node *n = ctx->tree; n; n = n->next) {
    Out item = {{0}, whole.line, 0};
    e.out = &item;
    emit_node(&e, n);
    if (e.hoist.b.len)
      insert_hoist(ctx, &whole, cut, &e.hoist);
    out_free(&e.hoist);
    e.hoist.line = -1;
    int after = item.line;
    size_t before = whole.b.len;
    out_append(&whole, &item);
    whole.line = after;
    if (n->kind == N_TEXT) {
      long b = item.b.data ? decl_boundary(item.b.data) : -1;
      if (b >= 0)
        cut = before + (size_t)b;
    } else if (n->kind != N_DOLLAR) {
      cut = whole.b.len;
    }
    out_free(&item);
  }
  scope_free(&file);
  if (ctx->errors) {
    out_free(&whole);
    return NULL;
  }
  Buf head = {0};
  buf_printf(&head, "/* Generated by parrayc %s from %s.  Edit the .pa file, not this one. */\n", PARRAY_VERSION,
             ctx->opt.display);
  buf_puts(&head, "#include <parray.h>\n");
  if (ctx->uses_pthd || ctx->uses_omp)
    buf_puts(&head, "#include <parray_cpu.h>\n");
  if (e.cuda)
    buf_puts(&head, "#include <parray_cuda.h>\n");
  if (e.mpi)
    buf_puts(&head, "#include <parray_mpi.h>\n");
  if (whole.b.data)
    buf_puts(&head, whole.b.data);
  out_free(&whole);
  return buf_detach(&head);
}

/* ---- helpers the backends share ---- */

/* Translates the body of detour n over thread array t (whose linear index
 * is tid_var) for an outlined function named fname; returns its text,
 * shifted left by the directive's indentation. */
char *outline_detour(Emitter *e, Node *n, Type *t, const char *fname, const char *tid_var)
{
  Detour dt = {0};
  dt.node = n;
  dt.type = t;
  dt.parent = e->detour;
  dt.name = fname;
  dt.tid = tid_linear;
  dt.tid_var = tid_var;
  Out body = {{0}, -1, 0};
  emit_outlined(e, &dt, n->body, &body, t->pnames, t->nparams, "");
  char *text = dedent_body(e->ctx, tidy_body(e->ctx, body.b.data ? body.b.data : ""), strlen(indent_of(n)));
  out_free(&body);
  return text;
}

char *c_string(Ctx *ctx, const char *s)
{
  Buf b = {0};
  buf_putc(&b, '"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      buf_putc(&b, '\\');
    buf_putc(&b, *s);
  }
  buf_putc(&b, '"');
  char *r = ctx_strdup(ctx, b.data);
  buf_free(&b);
  return r;
}

/* "pa_detour_T_L12", with the #insert instance when there is one (two
 * insertions of one subprogram put detours on the same source line). */
char *detour_name(Emitter *e, const char *prefix, Node *n, Type *t)
{
  Ctx *ctx = e->ctx;
  if (ctx->instance)
    return ctx_printf(ctx, "%s_%s_L%d_in%d", prefix, t->cname, n->loc.line, ctx->instance->id);
  return ctx_printf(ctx, "%s_%s_L%d", prefix, t->cname, n->loc.line);
}

/* Does the generated code use identifier `name`?  Comments, strings and
 * #line directives do not count. */
bool mentions(const char *t, const char *name)
{
  size_t n = strlen(name);
  bool line_start = true;
  for (const char *p = t; *p; p++) {
    if (p[0] == '/' && p[1] == '*') {
      const char *c = strstr(p + 2, "*/");
      if (!c)
        return false;
      p = c + 1;
    } else if ((p[0] == '/' && p[1] == '/') || (line_start && p[0] == '#' && !strncmp(p, "#line ", 6))) {
      while (p[1] && p[1] != '\n')
        p++;
    } else if (*p == '"' || *p == '\'') {
      char q = *p;
      while (p[1] && p[1] != q && p[1] != '\n')
        p += p[1] == '\\' && p[2] ? 2 : 1;
      if (p[1] == q)
        p++;
    } else if (is_ident_start((unsigned char)*p)) {
      const char *w = p;
      while (is_ident_char((unsigned char)p[1]))
        p++;
      if ((size_t)(p + 1 - w) == n && !strncmp(w, name, n))
        return true;
    }
    line_start = *p == '\n' || (line_start && (*p == ' ' || *p == '\t'));
  }
  return false;
}

/* Do the parentheses at s[0] and s[n - 1] match each other? */
static bool enclosed(const char *s, size_t n)
{
  if (n < 2 || s[0] != '(' || s[n - 1] != ')')
    return false;
  int depth = 0;
  for (size_t i = 0; i < n; i++) {
    depth += s[i] == '(';
    depth -= s[i] == ')';
    if (depth == 0 && i < n - 1)
      return false;
  }
  return true;
}

/* "(4)" -> "4", "((N/4))" -> "(N/4)" */
char *bare(Ctx *ctx, char *s)
{
  size_t n = strlen(s);
  if (enclosed(s, n)) {
    char *inner = ctx_strndup(ctx, s + 1, n - 2);
    if (text_is_simple(inner) || enclosed(inner, n - 2))
      return inner;
  }
  return s;
}

/* The body text without the blank rest of the '{' line (moving a leading
 * #line on by one) and the blanks before the closing '}'. */
char *tidy_body(Ctx *ctx, const char *text)
{
  const char *p = text;
  char *head = "";
  if (!strncmp(p, "#line ", 6)) {
    const char *nl = strchr(p, '\n');
    const char *q = nl ? nl + strspn(nl + 1, " \t") + 1 : NULL;
    if (q && *q == '\n') {
      char *rest;
      long line = strtol(p + 6, &rest, 10);
      head = ctx_printf(ctx, "#line %ld%s\n", line + 1, ctx_strndup(ctx, rest, (size_t)(nl - rest)));
      p = q + 1;
    }
  } else {
    const char *q = p + strspn(p, " \t");
    if (*q == '\n')
      p = q + 1;
  }
  size_t n = strlen(p);
  while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
    n--;
  return ctx_printf(ctx, "%s%s", head, ctx_strndup(ctx, p, n));
}

/* Shifts the body left by k columns (the directive's indentation), so it
 * sits in its function as it sat in the detour; untouched unless every
 * line but preprocessor lines has that indentation. */
char *dedent_body(Ctx *ctx, const char *text, size_t k)
{
  if (!k)
    return (char *)text;
  for (const char *l = text; *l;) {
    size_t sp = strspn(l, " ");
    if (l[0] != '#' && l[sp] != '\n' && l[sp] && sp < k)
      return (char *)text;
    const char *nl = strchr(l, '\n');
    l = nl ? nl + 1 : l + strlen(l);
  }
  Buf b = {0};
  for (const char *l = text; *l;) {
    const char *nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) + 1 : strlen(l);
    size_t skip = l[0] == '#' ? 0 : strspn(l, " ");
    if (skip > k)
      skip = k;
    for (size_t i = skip; i < len; i++)
      buf_putc(&b, l[i]);
    l += len;
  }
  char *r = ctx_strdup(ctx, b.data ? b.data : "");
  buf_free(&b);
  return r;
}

const char *mem_enum(MemKind m)
{
  static const char *names[] = {"PA_PAGED", "PA_PAGED", "PA_PINNED", "PA_DMEM", "PA_SMEM", "PA_RMEM"};
  return names[m];
}

