/* scope.c: names declared by the C text (a light reading of declarations,
 * function headers, comments and preprocessor lines) and by #create. */
#include "scope.h"

#include <string.h>

Scope *scope_open(Ctx *ctx, Scope *parent, bool function)
{
  Scope *s = ctx_alloc(ctx, sizeof *s);
  s->parent = parent;
  s->function = function;
  if (parent) {
    /* the statement before '{': a function header declares parameters */
    const Buf *t = &parent->text;
    size_t start = t->len;
    while (start > 0 && !strchr(";{}", t->data[start - 1]))
      start--;
    s->header = ctx_strndup(ctx, t->data ? t->data + start : "", t->len - start);
  }
  return s;
}

void scope_close(Scope *s)
{
  buf_free(&s->text);
  map_free(&s->names);
  map_free(&s->declared);
  map_free(&s->created);
}

Scope *scope_file(Scope *s)
{
  while (s->parent)
    s = s->parent;
  return s;
}

/* A name declared by #create or as a parameter, with its declaration. */
typedef struct Named {
  const char *name;
  const char *decl;
} Named;

static bool named_is(const void *item, const void *key)
{
  return !strcmp(((const Named *)item)->name, key);
}

static Named *named(const Scope *s, const char *name)
{
  return map_get(&s->names, hash_str(name, HASH_SEED), named_is, name);
}

void scope_declare_as(Ctx *ctx, Scope *s, const char *name, const char *decl)
{
  Named *x = named(s, name);
  if (!x) {
    x = ctx_alloc(ctx, sizeof *x);
    x->name = ctx_strdup(ctx, name);
    map_put(&s->names, hash_str(name, HASH_SEED), x);
  }
  x->decl = decl ? ctx_strdup(ctx, decl) : NULL;
}

void scope_declare(Ctx *ctx, Scope *s, const char *name)
{
  scope_declare_as(ctx, s, name, NULL);
}

/* ---- #create of plain names: a second one without #destroy is an error ---- */

typedef struct Created {
  const char *name;
  Node *node; /* NULL once destroyed */
} Created;

static bool created_is(const void *item, const void *key)
{
  return !strcmp(((const Created *)item)->name, key);
}

static Created *creation(Scope *in, const char *p)
{
  /* up to the enclosing function: an outlined detour body has its own names */
  for (Scope *s = in; s; s = s->function ? NULL : s->parent) {
    Created *c = map_get(&s->created, hash_str(p, HASH_SEED), created_is, p);
    if (c && c->node)
      return c;
  }
  return NULL;
}

Node *scope_creation(Scope *s, const char *p)
{
  Created *c = creation(s, p);
  return c ? c->node : NULL;
}

void scope_created(Ctx *ctx, Scope *s, const char *p, Node *n)
{
  Created *c = map_get(&s->created, hash_str(p, HASH_SEED), created_is, p);
  if (!c) {
    c = ctx_alloc(ctx, sizeof *c);
    c->name = ctx_strdup(ctx, p);
    map_put(&s->created, hash_str(p, HASH_SEED), c);
  }
  c->node = n;
}

void scope_destroyed(Scope *s, const char *p)
{
  Created *c = creation(s, p);
  if (c)
    c->node = NULL;
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

/* One declarator of a declaration statement: [spec, spec_end) holds the
 * type words, [decl, decl_end) the declarator ("*a", "x[10]",
 * initialiser excluded), [name, name + len) the name it declares. */
typedef struct Declarator {
  const char *spec, *spec_end, *decl, *decl_end, *name;
  size_t len;
} Declarator;

/* Calls found(arg, d) for each declarator of the statement [s, end): a
 * declaration starts with type words (or two identifiers in a row, a
 * typedef name), and the first identifier of each declarator is the name
 * it declares.  Stops early when found returns true. */
static void statement_declarators(const char *s, const char *end, bool (*found)(void *, const Declarator *),
                                  void *arg)
{
  const char *p = s;
  int words = 0;
  bool is_decl = false;
  Declarator d = {0};
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
  d.spec = d.spec_end = p;
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
      is_decl = true;
      words++;
      d.spec_end = p;
      continue;
    }
    if (!is_decl && words == 0) {
      /* a typedef name must be followed by another identifier or '*' */
      const char *q = p;
      while (q < end && (*q == ' ' || *q == '\t'))
        q++;
      if (q < end && (is_ident_start((unsigned char)*q) || *q == '*')) {
        is_decl = true;
        words++;
        d.spec_end = p;
        continue;
      }
      return;
    }
    if (!is_decl)
      return;
    /* w is the first declarator's name */
    p = w;
    break;
  }
  if (!is_decl)
    return;
  int depth = 0;
  bool want = true;
  const char *start = d.spec_end;
  while (p < end) {
    if (*p == '(' || *p == '[' || *p == '{')
      depth++;
    else if (*p == ')' || *p == ']' || *p == '}')
      depth--;
    else if ((*p == ',' || *p == '=') && depth == 0) {
      if (d.name) {
        d.decl_end = p;
        if (found(arg, &d))
          return;
        d.name = NULL;
      }
      want = *p == ',';
      start = p + 1;
    }
    if (is_ident_start((unsigned char)*p)) {
      const char *w = p;
      while (p < end && is_ident_char((unsigned char)*p))
        p++;
      if (want && depth == 0 && !is_decl_word(w, (size_t)(p - w))) {
        d.name = w;
        d.len = (size_t)(p - w);
        d.decl = start;
        want = false;
      }
      continue;
    }
    p++;
  }
  if (d.name) {
    d.decl_end = end;
    found(arg, &d);
  }
}

typedef struct NameQuery {
  const char *name;
  Declarator d;
  bool found;
} NameQuery;

static bool name_query(void *arg, const Declarator *d)
{
  NameQuery *q = arg;
  if (strlen(q->name) != d->len || strncmp(d->name, q->name, d->len))
    return false;
  q->d = *d;
  q->found = true;
  return true;
}

/* Finds the declarator of `name` in the statement [s, end). */
static bool find_declarator(const char *s, const char *end, const char *name, Declarator *d)
{
  NameQuery q = {name, {0}, false};
  statement_declarators(s, end, name_query, &q);
  *d = q.d;
  return q.found;
}

static bool statement_declares(const char *s, const char *end, const char *name)
{
  Declarator d;
  return find_declarator(s, end, name, &d);
}

/* "int rows" from "static const int cols = 2, rows = 3" (storage class
 * dropped), or NULL */
static char *statement_declaration(Ctx *ctx, const char *s, const char *end, const char *name)
{
  Declarator dc;
  if (!find_declarator(s, end, name, &dc))
    return NULL;
  const char *spec = dc.spec, *spec_end = dc.spec_end, *decl = dc.decl, *decl_end = dc.decl_end;
  Buf b = {0};
  for (const char *p = spec; p < spec_end;) {
    while (p < spec_end && !is_ident_char((unsigned char)*p))
      p++;
    const char *w = p;
    while (p < spec_end && is_ident_char((unsigned char)*p))
      p++;
    size_t n = (size_t)(p - w);
    static const char *storage[] = {"static", "extern", "register", "auto", "inline", NULL};
    bool drop = n == 0;
    for (int i = 0; storage[i] && !drop; i++)
      drop = strlen(storage[i]) == n && !strncmp(w, storage[i], n);
    if (!drop)
      buf_printf(&b, "%s%.*s", b.len ? " " : "", (int)n, w);
  }
  char *d = str_trim(ctx, ctx_strndup(ctx, decl, (size_t)(decl_end - decl)));
  buf_printf(&b, " %s", d);
  char *r = ctx_strdup(ctx, b.data);
  buf_free(&b);
  return r;
}

/* The init clause of a statement "for (INIT; ...", or NULL. */
static const char *for_init(const char *s, const char *end)
{
  for (;;) { /* blanks and preprocessor lines (#line) before it */
    while (s < end && strchr(" \t\r\n", *s))
      s++;
    if (s >= end || *s != '#')
      break;
    while (s < end && *s != '\n')
      s++;
  }
  if (end - s < 4 || strncmp(s, "for", 3) || is_ident_char((unsigned char)s[3]))
    return NULL;
  s += 3;
  while (s < end && strchr(" \t\r\n", *s))
    s++;
  if (s >= end || *s != '(')
    return NULL;
  const char *semi = memchr(s, ';', (size_t)(end - s));
  return semi ? s + 1 : NULL;
}

/* The statement of text t that declares `name`: its start (*end its end),
 * or NULL. */
static const char *declaring_statement(const char *t, const char *name, const char **end)
{
  const char *start = t;
  int depth = 0;
  for (const char *p = t;; p++) {
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
    if (!*p || (depth <= 0 && (*p == ';' || *p == '{' || *p == '}'))) {
      if (statement_declares(start, p, name)) {
        *end = p;
        return start;
      }
      const char *init = for_init(start, p);
      if (init && statement_declares(init, strchr(init, ';'), name)) {
        *end = strchr(init, ';');
        return init;
      }
      if (!*p)
        return NULL;
      start = p + 1;
      depth = 0;
    }
  }
}

bool text_declares(const char *t, const char *name)
{
  const char *end;
  return declaring_statement(t, name, &end) != NULL;
}

/* The parameter of a function header "T f(T1 a, T2 b)" that declares
 * `name` (*end its end), or NULL. */
static const char *declaring_parameter(const char *h, const char *name, const char **end)
{
  /* the header may follow comments and preprocessor lines */
  const char *open = NULL;
  for (const char *p = h; p && *p && !open; p++) {
    if (p[0] == '/' && p[1] == '*') {
      const char *c = strstr(p + 2, "*/");
      p = c ? c + 1 : p + strlen(p) - 1;
    } else if ((p[0] == '/' && p[1] == '/') || (*p == '#' && (p == h || p[-1] == '\n'))) {
      while (p[1] && p[1] != '\n')
        p++;
    } else if (*p == '(') {
      open = p;
    }
  }
  const char *close = open ? strrchr(open, ')') : NULL;
  if (!open || !close || close < open)
    return NULL;
  const char *start = open + 1;
  for (const char *p = start; p <= close; p++)
    if (*p == ',' || p == close) {
      if (statement_declares(start, p, name)) {
        *end = p;
        return start;
      }
      start = p + 1;
    }
  return NULL;
}

static bool header_declares(const char *h, const char *name)
{
  const char *end;
  return declaring_parameter(h, name, &end) != NULL;
}

/* ---- the text of a scope, read once ---- */

static bool name_is(const void *item, const void *key)
{
  return !strcmp(item, key);
}

static bool add_declared(void *arg, const Declarator *d)
{
  void **a = arg;
  Ctx *ctx = a[0];
  Scope *s = a[1];
  char *name = ctx_strndup(ctx, d->name, d->len);
  unsigned long h = hash_str(name, HASH_SEED);
  if (!map_get(&s->declared, h, name_is, name))
    map_put(&s->declared, h, name);
  return false;
}

/* Reads the statements of s->text completed since the last call into
 * s->declared (the text only grows, so each is read once); returns the
 * incomplete statement at the end. */
static const char *scope_scan(Ctx *ctx, Scope *s)
{
  if (!s->text.data)
    return "";
  void *arg[2] = {ctx, s};
  const char *start = s->text.data + s->scanned;
  int depth = 0;
  for (const char *p = start; *p; p++) {
    /* a ';' in a comment ends no statement */
    if (p[0] == '/' && p[1] == '*') {
      const char *c = strstr(p + 2, "*/");
      if (!c)
        break; /* the comment goes on in text still to come */
      p = c + 1;
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
      statement_declarators(start, p, add_declared, arg);
      const char *init = for_init(start, p);
      if (init)
        statement_declarators(init, strchr(init, ';'), add_declared, arg);
      start = p + 1;
      depth = 0;
    }
  }
  s->scanned = (size_t)(start - s->text.data);
  return start;
}

/* Does the text of scope s declare name? */
static bool scope_text_declares(Ctx *ctx, Scope *s, const char *name)
{
  const char *tail = scope_scan(ctx, s);
  return map_get(&s->declared, hash_str(name, HASH_SEED), name_is, name) ||
         statement_declares(tail, tail + strlen(tail), name);
}

const char *local_declaration(Ctx *ctx, Scope *in, const char *name)
{
  for (Scope *s = in; s && !s->file_scope; s = s->function ? s->launch : s->parent) {
    Named *x = named(s, name);
    if (x)
      return x->decl ? x->decl : "";
    const char *st, *end, *decl;
    if (scope_text_declares(ctx, s, name) && (st = declaring_statement(s->text.data, name, &end)))
      return (decl = statement_declaration(ctx, st, end, name)) ? decl : "";
    if (s->header && (st = declaring_parameter(s->header, name, &end)))
      return (decl = statement_declaration(ctx, st, end, name)) ? decl : "";
  }
  return NULL;
}

bool name_declared(Ctx *ctx, Scope *in, const char *name)
{
  for (Scope *s = in; s; s = s->parent) {
    if (named(s, name) || scope_text_declares(ctx, s, name))
      return true;
    if (s->header && header_declares(s->header, name))
      return true;
    if (s->function && !s->file_scope) {
      /* a detour body sees its parameters and the file scope only */
      Scope *f = scope_file(s);
      if (f != s && scope_text_declares(ctx, f, name))
        return true;
      return false;
    }
  }
  return false;
}
