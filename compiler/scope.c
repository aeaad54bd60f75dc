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
    const char *t = parent->text.data ? parent->text.data : "";
    const char *start = t;
    for (const char *p = t; *p; p++)
      if (*p == ';' || *p == '{' || *p == '}')
        start = p + 1;
    s->header = ctx_strdup(ctx, start);
  }
  return s;
}

void scope_close(Scope *s)
{
  buf_free(&s->text);
}

Scope *scope_file(Scope *s)
{
  while (s->parent)
    s = s->parent;
  return s;
}

void scope_declare_as(Ctx *ctx, Scope *s, const char *name, const char *decl)
{
  char **names = ctx_alloc(ctx, sizeof(char *) * (s->nnames + 1));
  char **decls = ctx_alloc(ctx, sizeof(char *) * (s->nnames + 1));
  if (s->nnames) {
    memcpy(names, s->names, sizeof(char *) * s->nnames);
    memcpy(decls, s->decls, sizeof(char *) * s->nnames);
  }
  names[s->nnames] = ctx_strdup(ctx, name);
  decls[s->nnames++] = decl ? ctx_strdup(ctx, decl) : NULL;
  s->names = names;
  s->decls = decls;
}

void scope_declare(Ctx *ctx, Scope *s, const char *name)
{
  scope_declare_as(ctx, s, name, NULL);
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

/* Finds the declarator of `name` in a statement: a declaration starts with
 * type words (or two identifiers in a row, a typedef name), and `name` is
 * the first identifier of one of its declarators.  On success, [*spec,
 * *spec_end) holds the type words and [*decl, *decl_end) the declarator
 * ("*a", "x[10]"), initialiser excluded. */
static bool find_declarator(const char *s, const char *end, const char *name, const char **spec,
                            const char **spec_end, const char **decl, const char **decl_end)
{
  size_t nl = strlen(name);
  const char *p = s;
  int words = 0;
  bool is_decl = false;
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
  *spec = *spec_end = p;
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
      *spec_end = p;
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
        *spec_end = p;
        continue;
      }
      return false;
    }
    if (!is_decl)
      return false;
    /* w is the first declarator's name */
    p = w;
    break;
  }
  if (!is_decl)
    return false;
  int depth = 0;
  bool want = true, found = false;
  const char *start = *spec_end;
  while (p < end) {
    if (*p == '(' || *p == '[' || *p == '{')
      depth++;
    else if (*p == ')' || *p == ']' || *p == '}')
      depth--;
    else if ((*p == ',' || *p == '=') && depth == 0) {
      if (found) {
        *decl_end = p;
        return true;
      }
      want = *p == ',';
      start = p + 1;
    }
    if (is_ident_start((unsigned char)*p)) {
      const char *w = p;
      while (p < end && is_ident_char((unsigned char)*p))
        p++;
      if (want && depth == 0 && !is_decl_word(w, (size_t)(p - w))) {
        if ((size_t)(p - w) == nl && !strncmp(w, name, nl)) {
          found = true;
          *decl = start;
        }
        want = false;
      }
      continue;
    }
    p++;
  }
  if (found)
    *decl_end = end;
  return found;
}

static bool statement_declares(const char *s, const char *end, const char *name)
{
  const char *a, *b, *c, *d;
  return find_declarator(s, end, name, &a, &b, &c, &d);
}

/* "int rows" from "static const int cols = 2, rows = 3" (storage class
 * dropped), or NULL */
static char *statement_declaration(Ctx *ctx, const char *s, const char *end, const char *name)
{
  const char *spec, *spec_end, *decl, *decl_end;
  if (!find_declarator(s, end, name, &spec, &spec_end, &decl, &decl_end))
    return NULL;
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

const char *local_declaration(Ctx *ctx, Scope *in, const char *name)
{
  for (Scope *s = in; s && !s->file_scope; s = s->function ? s->launch : s->parent) {
    for (int i = s->nnames - 1; i >= 0; i--)
      if (!strcmp(s->names[i], name))
        return s->decls[i] ? s->decls[i] : "";
    const char *st, *end, *decl;
    if (s->text.data && (st = declaring_statement(s->text.data, name, &end)))
      return (decl = statement_declaration(ctx, st, end, name)) ? decl : "";
    if (s->header && (st = declaring_parameter(s->header, name, &end)))
      return (decl = statement_declaration(ctx, st, end, name)) ? decl : "";
  }
  return NULL;
}

bool name_declared(Scope *in, const char *name)
{
  for (Scope *s = in; s; s = s->parent) {
    for (int i = 0; i < s->nnames; i++)
      if (!strcmp(s->names[i], name))
        return true;
    if (s->text.data && text_declares(s->text.data, name))
      return true;
    if (s->header && header_declares(s->header, name))
      return true;
    if (s->function && !s->file_scope) {
      /* a detour body sees its parameters and the file scope only */
      Scope *f = scope_file(s);
      if (f != s && f->text.data && text_declares(f->text.data, name))
        return true;
      return false;
    }
  }
  return false;
}
