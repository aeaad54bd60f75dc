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
