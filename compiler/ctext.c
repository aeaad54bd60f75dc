/* ctext.c: the one reader of C text (see ctext.h). */
#include "ctext.h"
#include "parrayc.h"

#include <ctype.h>
#include <string.h>

CText ctext(const char *s, const char *end, unsigned flags)
{
  CText c = {s, end ? end : s + strlen(s), flags, true, false};
  return c;
}

/* past a literal opened by quote q at p: escapes skipped, stops at the
 * end of the line when it is not closed */
static const char *skip_literal(const char *p, const char *end, char q)
{
  for (p++; p < end && *p != q && *p != '\n';)
    p += *p == '\\' && p + 1 < end ? 2 : 1;
  return p < end && *p == q ? p + 1 : p;
}

/* to the end of the line (not past its newline), continued lines included */
static const char *skip_line(const char *p, const char *end)
{
  while (p < end && *p != '\n')
    p += *p == '\\' && p + 1 < end ? 2 : 1;
  return p;
}

static CKind scan(CText *c, const char **q)
{
  const char *p = c->p, *end = c->end;
  char ch = *p;
  if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v') {
    while (p < end && strchr(" \t\n\r\f\v", *p) && *p)
      p++;
    *q = p;
    return CT_SPACE;
  }
  if (ch == '/' && p + 1 < end && p[1] == '*') {
    const char *s = p + 2;
    while (s + 1 < end && !(s[0] == '*' && s[1] == '/'))
      s++;
    *q = s + 1 < end ? s + 2 : end;
    return CT_COMMENT;
  }
  if (ch == '/' && p + 1 < end && p[1] == '/') {
    *q = skip_line(p, end);
    return CT_COMMENT;
  }
  if (ch == '#' && c->bol && (c->flags & CT_DIRECTIVES)) {
    *q = skip_line(p, end);
    return CT_PREPROC;
  }
  if (ch == '"' || ch == '\'') {
    *q = skip_literal(p, end, ch);
    return ch == '"' ? CT_STRING : CT_CHAR;
  }
  if (util_is_ident_start((unsigned char)ch)) {
    while (p < end && util_is_ident_char((unsigned char)*p))
      p++;
    *q = p;
    return CT_IDENT;
  }
  if (ch >= '0' && ch <= '9') {
    while (p < end && (util_is_ident_char((unsigned char)*p) || *p == '.'))
      p++;
    *q = p;
    return CT_NUMBER;
  }
  *q = p + (ch == '-' && p + 1 < end && p[1] == '>' ? 2 : 1);
  return CT_PUNCT;
}

CTok ctext_next(CText *c)
{
  CTok t = {CT_END, c->p, 0, false};
  if (c->p >= c->end || !*c->p)
    return t;
  const char *q;
  t.kind = scan(c, &q);
  t.n = (size_t)(q - c->p);
  c->p = q;
  switch (t.kind) {
  case CT_SPACE:
    if (memchr(t.s, '\n', t.n))
      c->bol = true;
    return t;
  case CT_COMMENT:
    return t;
  case CT_PREPROC:
    c->member = false;
    return t;
  case CT_IDENT:
    t.member = c->member;
    break;
  default:
    break;
  }
  c->bol = false;
  c->member = t.kind == CT_PUNCT && (ctok_is(t, '.') || (t.n == 2 && t.s[0] == '-'));
  return t;
}

CTok ctext_code(CText *c)
{
  for (;;) {
    CTok t = ctext_next(c);
    if (t.kind != CT_SPACE && t.kind != CT_COMMENT && t.kind != CT_PREPROC)
      return t;
  }
}

bool ctok_is(CTok t, char punct)
{
  return t.kind == CT_PUNCT && t.n == 1 && t.s[0] == punct;
}

bool ctok_word(CTok t, const char *word)
{
  return t.kind == CT_IDENT && strlen(word) == t.n && !strncmp(t.s, word, t.n);
}

bool ctok_open_comment(CTok t)
{
  return t.kind == CT_COMMENT && t.s[1] == '*' && (t.n < 4 || t.s[t.n - 2] != '*' || t.s[t.n - 1] != '/');
}

const char *ctext_close(const char *open, const char *end)
{
  static const char opens[] = "([{", closes[] = ")]}";
  char stack[64];
  int depth = 0;
  CText c = ctext(open, end, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c)) {
    const char *o = t.kind == CT_PUNCT && t.n == 1 ? strchr(opens, t.s[0]) : NULL;
    const char *k = t.kind == CT_PUNCT && t.n == 1 ? strchr(closes, t.s[0]) : NULL;
    if (o && *o) {
      if (depth == (int)sizeof stack)
        return NULL;
      stack[depth++] = closes[o - opens];
    } else if (k && *k) {
      if (depth == 0 || stack[--depth] != *k)
        return NULL;
      if (depth == 0)
        return t.s;
    }
    if (depth == 0)
      return NULL; /* open was not a bracket */
  }
  return NULL;
}

static bool word_in(const char *w, size_t n, const char *const *words)
{
  for (int i = 0; words[i]; i++)
    if (strlen(words[i]) == n && !strncmp(w, words[i], n))
      return true;
  return false;
}

static const char *const qualifiers[] = {"const", "volatile", "restrict", "__restrict", "__restrict__", "_Atomic",
                                         NULL};
static const char *const storage[] = {"static", "extern", "register", "auto", "inline", "_Thread_local", "__thread",
                                      "__shared__", "__device__", "__constant__", "__managed__", NULL};

bool ctext_scalar_word(const char *w, size_t n)
{
  static const char *const words[] = {"void", "char", "short", "int", "long", "float", "double", "signed",
                                      "unsigned", "_Bool", "bool", "_Complex", NULL};
  return word_in(w, n, words);
}

bool ctext_type_word(const char *w, size_t n)
{
  static const char *const tags[] = {"struct", "union", "enum", NULL};
  if (ctext_scalar_word(w, n) || word_in(w, n, tags) || ctext_qualifier_word(w, n))
    return true;
  /* size_t, float2, int4, ... */
  if (n > 2 && w[n - 2] == '_' && w[n - 1] == 't')
    return true;
  return n > 1 && w[n - 1] >= '1' && w[n - 1] <= '4' && (!strncmp(w, "float", 5) || !strncmp(w, "int", 3) ||
                                                         !strncmp(w, "double", 6) || !strncmp(w, "uint", 4));
}

bool ctext_qualifier_word(const char *w, size_t n)
{
  return word_in(w, n, qualifiers) || word_in(w, n, storage);
}

bool ctext_statement_word(const char *w, size_t n)
{
  static const char *const words[] = {"if", "else", "while", "do", "for", "switch", "case", "default", "return",
                                      "goto", "break", "continue", "sizeof", "_Alignof", "alignof",
                                      "_Static_assert", "static_assert", "_Generic", NULL};
  return word_in(w, n, words);
}

#define DECL_TOKENS 256

CDeclKind ctext_declarator(const char *s, const char *end, const char **name, size_t *len)
{
  CTok t[DECL_TOKENS];
  int n = 0;
  CText c = ctext(s, end, CT_DIRECTIVES);
  for (CTok k = ctext_code(&c); k.kind != CT_END && n < DECL_TOKENS - 1; k = ctext_code(&c))
    t[n++] = k;
  t[n].kind = CT_END;
  /* the type words: keywords, struct/union/enum and a tag (and a body),
   * typedef names (an identifier followed by another, or by '*' or '('
   * before any type word but qualifiers and storage classes) */
  int i = 0;
  bool typed = false, base = false; /* base: a type word other than a qualifier or a storage class */
  while (i < n && t[i].kind == CT_IDENT) {
    if (ctext_statement_word(t[i].s, t[i].n))
      return CD_NONE;
    if (ctok_word(t[i], "struct") || ctok_word(t[i], "union") || ctok_word(t[i], "enum")) {
      typed = base = true;
      i++;
      if (i < n && t[i].kind == CT_IDENT)
        i++;
      if (i < n && ctok_is(t[i], '{')) {
        int depth = 0;
        for (; i < n; i++) {
          depth += ctok_is(t[i], '{') - ctok_is(t[i], '}');
          if (depth == 0)
            break;
        }
        i++;
      }
      continue;
    }
    /* a typedef name: followed by another name, or by '*' or '(' before any type word
       but qualifiers and storage classes ("const real *a") */
    if (ctext_type_word(t[i].s, t[i].n) || (i + 1 < n && t[i + 1].kind == CT_IDENT) ||
        (!base && (ctok_is(t[i + 1], '*') || ctok_is(t[i + 1], '(')))) {
      base = base || !ctext_qualifier_word(t[i].s, t[i].n);
      typed = true;
      i++;
      continue;
    }
    break; /* the name */
  }
  if (!typed)
    return CD_NONE;
  /* the name: the first identifier of the declarator, after '*', '(' and qualifiers */
  int at = i;
  while (at < n && (ctok_is(t[at], '*') || ctok_is(t[at], '(') ||
                    (t[at].kind == CT_IDENT && word_in(t[at].s, t[at].n, qualifiers))))
    at++;
  if (at >= n || t[at].kind != CT_IDENT)
    return CD_NONE;
  *name = t[at].s;
  *len = t[at].n;
  /* what binds to it first: a suffix, else a '*' in front, else the
   * parentheses around it are left for the next level out */
  int l = at - 1, r = at + 1;
  for (;;) {
    if (ctok_is(t[r], '['))
      return CD_ARRAY;
    if (ctok_is(t[r], '('))
      return CD_FUNCTION;
    while (l >= i && t[l].kind == CT_IDENT && word_in(t[l].s, t[l].n, qualifiers))
      l--;
    if (l < i)
      return CD_PLAIN;
    if (ctok_is(t[l], '*'))
      return CD_POINTER;
    if (ctok_is(t[l], '(') && ctok_is(t[r], ')')) {
      l--;
      r++;
      continue;
    }
    return CD_PLAIN;
  }
}

/* Conservative: calls, increments and assignments may have effects; a
 * literal has none. */
bool ctext_has_side_effects(const char *s)
{
  CText c = ctext(s, NULL, 0);
  CTok prev = {CT_END, s, 0, false};
  for (CTok t = ctext_code(&c); t.kind != CT_END; prev = t, t = ctext_code(&c)) {
    if (t.kind != CT_PUNCT)
      continue;
    const char *p = t.s;
    if ((p[0] == '+' && p[1] == '+') || (p[0] == '-' && p[1] == '-'))
      return true;
    if (*p == '=' && p[1] != '=' && (p == s || !strchr("=!<>", p[-1])))
      return true;
    if (*p == '(' && (prev.kind == CT_IDENT || ctok_is(prev, ')') || ctok_is(prev, ']')))
      return true; /* a call */
  }
  return false;
}

char *ctext_sum_operand(Ctx *ctx, const char *s)
{
  int depth = 0;
  CText c = ctext(s, NULL, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c)) {
    if (t.kind != CT_PUNCT)
      continue;
    char ch = t.s[0];
    if (strchr("([{", ch))
      depth++;
    else if (strchr(")]}", ch))
      depth--;
    /* '?', ',', '=', '<', '>', '|', '^' and '!=' bind looser than '+' ('->' is one token); a
     * binary '&' cannot be told from the unary one here: parenthesised too */
    else if (depth == 0 && t.n == 1 && strchr("?,=<>|^&", ch))
      return ctx_printf(ctx, "(%s)", s);
    else if (depth == 0 && ch == '!' && t.s[1] == '=')
      return ctx_printf(ctx, "(%s)", s);
  }
  return ctx_strdup(ctx, s);
}

/* ---- parentheses a sum or product does not need ---- */

/* the text ends in a token after which an operand of + or * stands alone */
static bool bare_after(const char *s, size_t n)
{
  while (n > 0 && isspace((unsigned char)s[n - 1]))
    n--;
  if (n == 0)
    return false;
  char c = s[n - 1], b = n > 1 ? s[n - 2] : 0;
  if (strchr("[(,{;?=", c))
    return true;
  if (c == ':')
    return b != ':';
  if (c == '<' || c == '>') /* a comparison, not a shift or -> */
    return b != c && !(c == '>' && b == '-');
  if (c == '&' || c == '|')
    return b == c;
  size_t w = n;
  while (w > 0 && util_is_ident_char((unsigned char)s[w - 1]))
    w--;
  return n - w == 6 && !strncmp(s + w, "return", 6) && (w == 0 || !util_is_ident_char((unsigned char)s[w - 1]));
}

/* the text starts with a token before which an operand of + or * stands
 * alone */
static bool bare_before(const char *s)
{
  s += strspn(s, " \t\r\n");
  char c = s[0], d = c ? s[1] : 0;
  if (strchr("]),;}?", c) && c)
    return true;
  if (c == ':')
    return d != ':';
  if (c == '=' || c == '!')
    return d == '=';
  if (c == '<' || c == '>')
    return d != c;
  if (c == '&' || c == '|')
    return d == c;
  return false;
}

char *ctext_strip_parens(Ctx *ctx, char *text)
{
  for (const char *close; text[0] == '(' && (close = ctext_close(text, NULL)) && !close[1];)
    text = util_str_trim(ctx, ctx_strndup(ctx, text + 1, strlen(text) - 2));
  return text;
}

char *ctext_bare_operand(Ctx *ctx, char *text, const char *before, size_t nbefore, const char *after)
{
  if (text[0] != '(' || !before || !after || !bare_after(before, nbefore) || !bare_before(after))
    return text;
  return ctext_strip_parens(ctx, text);
}

/* the words after "#pragma parray" in a line of C text, or NULL for any
 * other line */
const char *ctext_parray_pragma(const char *s)
{
  static const char *const words[] = {"#", "pragma", "parray"};
  for (int i = 0; i < 3; i++) {
    s += strspn(s, " \t");
    size_t n = strlen(words[i]);
    if (strncmp(s, words[i], n) != 0 || (i > 0 && util_is_ident_char((unsigned char)s[n])))
      return NULL;
    s += n;
  }
  return s + strspn(s, " \t");
}
