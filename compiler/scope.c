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

void scope_declare(Ctx *ctx, Scope *s, const char *name)
{
  char **names = ctx_alloc(ctx, sizeof(char *) * (s->nnames + 1));
  if (s->nnames)
    memcpy(names, s->names, sizeof(char *) * s->nnames);
  names[s->nnames++] = ctx_strdup(ctx, name);
  s->names = names;
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

/* Does this statement declare `name`?  It does when it starts with type
 * words (or two identifiers in a row, a typedef name) and `name` is the
 * first identifier of one of its declarators. */
static bool statement_declares(const char *s, const char *end, const char *name)
{
  size_t nl = strlen(name);
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
      return false;
    }
    if (!decl)
      return false;
    /* w is the first declarator's name */
    p = w;
    break;
  }
  if (!decl)
    return false;
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
        if ((size_t)(p - w) == nl && !strncmp(w, name, nl))
          return true;
        want = false;
      }
      continue;
    }
    p++;
  }
  return false;
}

static bool text_declares(const char *t, const char *name)
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
      if (statement_declares(start, p, name))
        return true;
      if (!*p)
        return false;
      start = p + 1;
      depth = 0;
    }
  }
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
