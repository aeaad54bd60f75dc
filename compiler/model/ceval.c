/* ceval.c: C integer constant expressions, evaluated as the C compiler
 * evaluates them (ceval.h).  The text is split into tokens (continued
 * lines joined, comments dropped), its macros are expanded as the
 * preprocessor expands object-like macros, and a recursive descent over
 * the operators by precedence computes each value in its C type: the
 * integer promotions, the usual arithmetic conversions, wrap-around of
 * unsigned types, casts, character constants, sizeof.  Whatever C leaves
 * undefined (signed overflow, a shift past the width) or parrayc cannot
 * know has no value: the text is then the C compiler's.  Prefix operators
 * are gathered in a loop and nesting is bounded, so no input exhausts the
 * stack. */
#include "model/ceval.h"
#include "parrayc.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NEST 256        /* parentheses and ?: inside each other */
#define MAX_PREFIX 256      /* unary operators and casts in a row */
#define MAX_EXPANSION 32    /* macros expanding to macros, this deep */
#define MAX_EXPANDED 1000000 /* tokens that macros expand to, in all */

/* ---- the target's integer types ---- */

typedef enum Ty { TY_BOOL, TY_CHAR, TY_SCHAR, TY_UCHAR, TY_SHORT, TY_USHORT, TY_INT, TY_UINT,
                  TY_LONG, TY_ULONG, TY_LLONG, TY_ULLONG } Ty;

typedef struct TyInfo {
  int bits;
  bool is_unsigned;
  int rank;
} TyInfo;

static TyInfo ty_info(Ty t)
{
  static const TyInfo info[] = {
      [TY_BOOL] = {1, true, 0},    [TY_CHAR] = {CHAR_BIT, CHAR_MIN == 0, 1},
      [TY_SCHAR] = {CHAR_BIT, false, 1}, [TY_UCHAR] = {CHAR_BIT, true, 1},
      [TY_SHORT] = {sizeof(short) * CHAR_BIT, false, 2}, [TY_USHORT] = {sizeof(short) * CHAR_BIT, true, 2},
      [TY_INT] = {sizeof(int) * CHAR_BIT, false, 3}, [TY_UINT] = {sizeof(int) * CHAR_BIT, true, 3},
      [TY_LONG] = {sizeof(long) * CHAR_BIT, false, 4}, [TY_ULONG] = {sizeof(long) * CHAR_BIT, true, 4},
      [TY_LLONG] = {64, false, 5}, [TY_ULLONG] = {64, true, 5},
  };
  return info[t];
}

static int ty_bytes(Ty t)
{
  return t == TY_BOOL ? 1 : ty_info(t).bits / CHAR_BIT;
}

/* A value: its type and its bits, unsigned types zero-extended and
 * signed ones sign-extended to 64 */
typedef struct Val {
  Ty ty;
  unsigned long long u;
  bool is_float; /* a floating constant, allowed only under a cast */
  double f;
} Val;

static long long val_s(Val v)
{
  return (long long)v.u;
}

/* v's bits in type t: modulo 2^bits, then sign-extended where t is
 * signed (C 6.3.1.3; for signed types the implementation's rule, which
 * gcc and clang define so) */
static Val convert(Val v, Ty t)
{
  TyInfo in = ty_info(t);
  unsigned long long u = v.u;
  if (t == TY_BOOL)
    u = u != 0;
  else if (in.bits < 64) {
    unsigned long long mask = (1ULL << in.bits) - 1;
    u &= mask;
    if (!in.is_unsigned && (u >> (in.bits - 1)) & 1)
      u |= ~mask;
  }
  return (Val){.ty = t, .u = u};
}

/* does the exact value x fit in type t? */
static bool fits(__int128 x, Ty t)
{
  TyInfo in = ty_info(t);
  if (in.is_unsigned)
    return x >= 0 && (in.bits == 64 || x < ((__int128)1 << in.bits));
  __int128 lim = (__int128)1 << (in.bits - 1);
  return x >= -lim && x < lim;
}

static __int128 exact(Val v)
{
  return ty_info(v.ty).is_unsigned ? (__int128)v.u : (__int128)val_s(v);
}

static Ty promoted(Ty t)
{
  return ty_info(t).rank < ty_info(TY_INT).rank ? TY_INT : t;
}

static Ty unsigned_of(Ty t)
{
  return t == TY_INT ? TY_UINT : t == TY_LONG ? TY_ULONG : t == TY_LLONG ? TY_ULLONG : t;
}

/* the usual arithmetic conversions (C 6.3.1.8), of promoted types */
static Ty common(Ty a, Ty b)
{
  a = promoted(a), b = promoted(b);
  TyInfo ia = ty_info(a), ib = ty_info(b);
  if (a == b)
    return a;
  if (ia.is_unsigned == ib.is_unsigned)
    return ia.rank > ib.rank ? a : b;
  Ty s = ia.is_unsigned ? b : a, u = ia.is_unsigned ? a : b;
  TyInfo is = ty_info(s), iu = ty_info(u);
  if (iu.rank >= is.rank)
    return u;
  if (is.bits > iu.bits)
    return s;
  return unsigned_of(s);
}

/* ---- tokens ---- */

typedef enum TokKind { TK_NUM, TK_CHAR, TK_IDENT, TK_PUNCT, TK_VALUE } TokKind;

typedef struct Tok {
  TokKind kind;
  const char *s; /* into the text (or a macro's), n bytes */
  int n;
  long long value; /* TK_VALUE: a name's value */
} Tok;

/* An active macro: the names being expanded, innermost first */
typedef struct Active {
  const char *name;
  int n;
  const struct Active *up;
} Active;

typedef struct Ev {
  const Ctx *ctx; /* where running out of memory is reported */
  CevalMode mode;
  CevalName name;
  void *arg;
  Tok *toks;
  int ntoks, cap;
  int pos;
  bool ok;
  const char *bad;
  bool live;  /* the operand is evaluated (not under 0 &&, 1 || or ?:'s other arm) */
  int depth;
  int expanded; /* tokens from macros so far */
  char **texts; /* joined copies of texts with continuations */
  int ntexts;
} Ev;

/* a value C leaves undefined or rejects (why: the C compiler's words for
 * it, or NULL), unless the operand is one C does not evaluate */
static void fail(Ev *ev, const char *why)
{
  if (!ev->live)
    return;
  if (ev->ok && why && !ev->bad)
    ev->bad = why;
  ev->ok = false;
}

/* a failure C would not excuse in an unevaluated operand either */
static void fail_always(Ev *ev)
{
  ev->ok = false;
}

/* C's constraints, broken: a floating value where an integer is needed
 * (not the operand of a cast), a number that is no constant */
static void not_integer(Ev *ev)
{
  if (ev->ok && !ev->bad)
    ev->bad = "has a floating value where C needs an integer (a cast of a floating constant is one)";
  ev->ok = false;
}

static void bad_number(Ev *ev)
{
  if (ev->ok && !ev->bad)
    ev->bad = "has a number that is not an integer constant";
  ev->ok = false;
}

static void push(Ev *ev, Tok t)
{
  if (ev->ntoks == ev->cap) {
    ev->cap = ev->cap ? 2 * ev->cap : 32;
    ev->toks = util_realloc(ev->ctx, ev->toks, sizeof *ev->toks * ev->cap);
  }
  ev->toks[ev->ntoks++] = t;
}

static bool ident_start(int c)
{
  return isalpha(c) || c == '_' || c == '$';
}

static bool ident_char(int c)
{
  return isalnum(c) || c == '_' || c == '$';
}

/* text with its "\\\n" continuations joined (a copy kept until the end),
 * or text itself */
static const char *joined(Ev *ev, const char *text)
{
  if (!strstr(text, "\\\n") && !strstr(text, "\\\r\n"))
    return text;
  size_t n = strlen(text);
  char *out = util_malloc(ev->ctx, n + 1), *o = out;
  for (const char *p = text; *p; p++) {
    if (p[0] == '\\' && p[1] == '\n') {
      p++;
      continue;
    }
    if (p[0] == '\\' && p[1] == '\r' && p[2] == '\n') {
      p += 2;
      continue;
    }
    *o++ = *p;
  }
  *o = 0;
  ev->texts = util_realloc(ev->ctx, ev->texts, sizeof *ev->texts * (ev->ntexts + 1));
  ev->texts[ev->ntexts++] = out;
  return out;
}

static bool is_active(const Active *a, const char *s, int n)
{
  for (; a; a = a->up)
    if (a->n == n && !strncmp(a->name, s, n))
      return true;
  return false;
}

static void expand(Ev *ev, const char *text, const Active *active, int depth);

/* a name: its macro's tokens, its value, or the name */
static void name_token(Ev *ev, Tok t, const Active *active, int depth)
{
  CevalMeaning m = {0};
  if (ev->name && !is_active(active, t.s, t.n) && t.n < 256) {
    char buf[256];
    memcpy(buf, t.s, t.n);
    buf[t.n] = 0;
    if (ev->name(ev->arg, buf, &m)) {
      if (m.valued) {
        push(ev, (Tok){.kind = TK_VALUE, .s = t.s, .n = t.n, .value = m.value});
        return;
      }
      if (m.text) {
        if (depth >= MAX_EXPANSION) {
          fail_always(ev);
          return;
        }
        Active a = {t.s, t.n, active};
        expand(ev, m.text, &a, depth + 1);
        return;
      }
      fail_always(ev);
      return;
    }
  }
  if (depth > 0 && ++ev->expanded > MAX_EXPANDED) {
    fail_always(ev);
    return;
  }
  push(ev, t);
}

/* The end of the pp-number at p (C 6.4.8) */
static const char *number_end(const char *p)
{
  p++;
  for (;;) {
    if ((*p == 'e' || *p == 'E' || *p == 'p' || *p == 'P') && (p[1] == '+' || p[1] == '-'))
      p += 2;
    else if (ident_char((unsigned char)*p) || *p == '.')
      p++;
    else
      return p;
  }
}

/* text's tokens onto ev->toks, names expanded */
static void expand(Ev *ev, const char *text, const Active *active, int depth)
{
  static const char *puncts[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", NULL};
  const char *p = joined(ev, text);
  while (ev->ok && *p) {
    unsigned char c = (unsigned char)*p;
    if (isspace(c)) {
      p++;
      continue;
    }
    if (p[0] == '/' && p[1] == '*') {
      const char *e = strstr(p + 2, "*/");
      p = e ? e + 2 : p + strlen(p);
      continue;
    }
    if (p[0] == '/' && p[1] == '/')
      break;
    const char *s = p;
    TokKind kind = TK_PUNCT;
    if (isdigit(c) || (c == '.' && isdigit((unsigned char)p[1]))) {
      p = number_end(p);
      kind = TK_NUM;
    } else if (c == '\'' || ((c == 'L' || c == 'u' || c == 'U') && p[1] == '\'')) {
      p += c == '\'' ? 1 : 2;
      while (*p && *p != '\'' && *p != '\n')
        p += p[0] == '\\' && p[1] ? 2 : 1;
      if (*p != '\'') {
        fail_always(ev);
        return;
      }
      p++;
      kind = TK_CHAR;
    } else if (ident_start(c)) {
      while (ident_char((unsigned char)*p) || (*p == '.' && ident_start((unsigned char)p[1])))
        p++;
      name_token(ev, (Tok){.kind = TK_IDENT, .s = s, .n = (int)(p - s)}, active, depth);
      continue;
    } else if (c == '"') {
      fail_always(ev); /* a string has no integer value */
      return;
    } else {
      int k = 0;
      while (puncts[k] && strncmp(p, puncts[k], 2))
        k++;
      p += puncts[k] ? 2 : 1;
    }
    if (depth > 0 && ++ev->expanded > MAX_EXPANDED) { /* #define A B B, #define B C C, ... */
      fail_always(ev);
      return;
    }
    push(ev, (Tok){.kind = kind, .s = s, .n = (int)(p - s)});
  }
}

/* ---- the parser ---- */

static const Tok *peek(Ev *ev)
{
  static const Tok end = {TK_PUNCT, "", 0, 0};
  return ev->pos < ev->ntoks ? &ev->toks[ev->pos] : &end;
}

static bool tok_is(const Tok *t, const char *s)
{
  return (t->kind == TK_PUNCT || t->kind == TK_IDENT) && t->n == (int)strlen(s) && !strncmp(t->s, s, t->n);
}

static bool eat(Ev *ev, const char *s)
{
  if (!tok_is(peek(ev), s))
    return false;
  ev->pos++;
  return true;
}

/* an operand as its mode takes it */
static Val operand(Ev *ev, Val v)
{
  if (v.is_float)
    return v;
  if (ev->mode == CEVAL_IF)
    return convert(v, ty_info(v.ty).is_unsigned && v.ty != TY_BOOL && ty_info(v.ty).bits >= ty_info(TY_INT).bits
                          ? TY_ULLONG : TY_LLONG);
  if (ev->mode == CEVAL_SIZE && ty_info(v.ty).bits < 64)
    return convert(v, TY_LLONG);
  return v;
}

static Val cond(Ev *ev);

/* An integer constant (C 6.4.4.1): its value and type; an #if's as cpp
 * takes it (signed unless suffixed u or past INTMAX_MAX) */
static Val integer(Ev *ev, const char *s, int n)
{
  int base = 10;
  const char *p = s, *end = s + n;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    base = 16, p += 2;
  else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
    base = 2, p += 2;
  else if (p[0] == '0')
    base = 8;
  unsigned __int128 x = 0;
  const char *digits = p;
  for (; p < end; p++) {
    int d = isdigit((unsigned char)*p) ? *p - '0' : isxdigit((unsigned char)*p) && base == 16 ? tolower(*p) - 'a' + 10 : -1;
    if (d < 0)
      break;
    if (d >= base) {
      bad_number(ev);
      return (Val){TY_INT, 0, false, 0};
    }
    x = x * base + d;
    if (x > ULLONG_MAX) {
      if (ev->ok && !ev->bad)
        ev->bad = "does not fit in a 64-bit integer";
      ev->ok = false;
      return (Val){TY_INT, 0, false, 0};
    }
  }
  if (p == digits && base != 8) {
    bad_number(ev);
    return (Val){TY_INT, 0, false, 0};
  }
  /* the suffix: u, l, ll in either order and case (not lL) */
  bool u = false;
  int l = 0;
  for (; p < end; p++) {
    if ((*p == 'u' || *p == 'U') && !u)
      u = true;
    else if ((*p == 'l' || *p == 'L') && !l) {
      l = 1;
      if (p + 1 < end && p[1] == *p)
        l = 2, p++;
    } else {
      bad_number(ev); /* 1.5, 1e3 reach here only as floats: this is junk */
      return (Val){TY_INT, 0, false, 0};
    }
  }
  if (ev->mode == CEVAL_IF) {
    Ty t = u || x > LLONG_MAX ? TY_ULLONG : TY_LLONG;
    if (t == TY_ULLONG && !u && base == 10)
      fail_always(ev); /* "so large that it is unsigned": gcc's guess, not C */
    return (Val){t, (unsigned long long)x, false, 0};
  }
  static const Ty signed_list[] = {TY_INT, TY_LONG, TY_LLONG}, unsigned_list[] = {TY_UINT, TY_ULONG, TY_ULLONG};
  for (int k = l; k < 3; k++) {
    if (!u && fits((__int128)x, signed_list[k]))
      return (Val){signed_list[k], (unsigned long long)x, false, 0};
    if ((u || base != 10) && fits((__int128)x, unsigned_list[k]))
      return (Val){unsigned_list[k], (unsigned long long)x, false, 0};
  }
  fail_always(ev); /* a decimal constant past LLONG_MAX has no standard type */
  return (Val){TY_INT, 0, false, 0};
}

static bool is_float_text(const char *s, int n)
{
  bool hex = n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  for (int i = 0; i < n; i++)
    if (s[i] == '.' || (!hex && (s[i] == 'e' || s[i] == 'E')) || (hex && (s[i] == 'p' || s[i] == 'P')))
      return true;
  return false;
}

/* A floating constant (allowed only as the operand of a cast) */
static Val floating(Ev *ev, const char *s, int n)
{
  char buf[128];
  if (n >= (int)sizeof buf) {
    fail_always(ev);
    return (Val){TY_INT, 0, false, 0};
  }
  memcpy(buf, s, n);
  buf[n] = 0;
  char *end;
  double f = strtod(buf, &end);
  if (*end && strchr("fFlL", *end))
    end++;
  if (*end)
    bad_number(ev);
  else if (!isfinite(f))
    fail_always(ev);
  return (Val){TY_INT, 0, true, f};
}

/* The value of one character of a character constant at *p (an escape
 * or a byte), *p moved past it */
static unsigned long long char_unit(Ev *ev, const char **p, bool wide)
{
  const char *q = *p;
  unsigned long long v;
  if (*q != '\\') {
    v = (unsigned char)*q++;
    if (wide && v >= 0x80) { /* a UTF-8 sequence is one character */
      int more = v >= 0xF0 ? 3 : v >= 0xE0 ? 2 : v >= 0xC0 ? 1 : -1;
      if (more < 0) {
        fail_always(ev);
        more = 0;
      }
      v &= 0x3F >> more;
      for (; more > 0; more--) {
        if (((unsigned char)*q & 0xC0) != 0x80) {
          fail_always(ev);
          break;
        }
        v = v << 6 | ((unsigned char)*q++ & 0x3F);
      }
    }
    *p = q;
    return v;
  }
  q++;
  static const char simple[] = "'\"?\\abfnrtveE", value[] = {'\'', '"', '?', '\\', 7, 8, 12, 10, 13, 9, 11, 27, 27};
  const char *k = *q ? strchr(simple, *q) : NULL;
  if (k) {
    *p = q + 1;
    return (unsigned char)value[k - simple];
  }
  v = 0;
  if (*q >= '0' && *q <= '7') {
    for (int i = 0; i < 3 && *q >= '0' && *q <= '7'; i++)
      v = v * 8 + (unsigned)(*q++ - '0');
  } else if (*q == 'x' && isxdigit((unsigned char)q[1])) {
    for (q++; isxdigit((unsigned char)*q); q++) {
      v = v * 16 + (unsigned)(isdigit((unsigned char)*q) ? *q - '0' : tolower(*q) - 'a' + 10);
      if (v > 0xFFFFFFFFu)
        fail_always(ev);
    }
  } else {
    fail_always(ev); /* \u, \U and unknown escapes: the C compiler's */
    q++;
  }
  *p = q;
  return v;
}

/* A character constant (C 6.4.4.4), valued as gcc and clang do: a plain
 * one in char, several characters packed into an int, L in wchar_t (int),
 * u in char16_t, U in char32_t */
static Val character(Ev *ev, const char *s, int n)
{
  char prefix = s[0] == '\'' ? 0 : s[0];
  const char *p = s + (prefix ? 2 : 1), *end = s + n - 1;
  int count = 0;
  unsigned long long acc = 0;
  Ty t = prefix == 'L' ? TY_INT : prefix == 'u' ? TY_USHORT : prefix == 'U' ? TY_UINT : TY_CHAR;
  int width = ty_info(t).bits;
  while (p < end) {
    unsigned long long c = char_unit(ev, &p, prefix != 0);
    if (c >> width)
      fail_always(ev); /* out of range for its type: a warning and a guess */
    acc = (acc << width | c) & 0xFFFFFFFFu;
    count++;
  }
  if (count == 0 || (prefix && count > 1) || count > 4)
    fail_always(ev);
  Val v = {t, acc, false, 0};
  if (count > 1)
    return convert(v, TY_INT);
  return convert(convert(v, t), promoted(t));
}

/* The type a list of type words names (C 6.7.2), at the tokens from
 * ev->pos; ev->pos after them; *bytes its size, *floating for float,
 * double and long double (sizeof only).  False when they name no type. */
static bool type_name(Ev *ev, Ty *out, int *bytes, bool *floating)
{
  int nlong = 0, nint = 0, nchar = 0, nshort = 0, nsigned = 0, nunsigned = 0, nbool = 0, nfloat = 0, ndouble = 0;
  int any = 0;
  Ty named = TY_INT;
  bool typedef_name = false;
  static const struct {
    const char *name;
    Ty ty;
  } typedefs[] = {
      {"size_t", TY_ULONG},    {"ssize_t", TY_LONG},    {"ptrdiff_t", TY_LONG},  {"intptr_t", TY_LONG},
      {"uintptr_t", TY_ULONG}, {"intmax_t", TY_LONG},   {"uintmax_t", TY_ULONG}, {"int8_t", TY_SCHAR},
      {"uint8_t", TY_UCHAR},   {"int16_t", TY_SHORT},   {"uint16_t", TY_USHORT}, {"int32_t", TY_INT},
      {"uint32_t", TY_UINT},   {"int64_t", TY_LONG},    {"uint64_t", TY_ULONG},  {"bool", TY_BOOL},
  };
  for (;; ev->pos++, any++) {
    const Tok *t = peek(ev);
    if (t->kind != TK_IDENT)
      break;
    if (tok_is(t, "long"))
      nlong++;
    else if (tok_is(t, "int"))
      nint++;
    else if (tok_is(t, "char"))
      nchar++;
    else if (tok_is(t, "short"))
      nshort++;
    else if (tok_is(t, "signed") || tok_is(t, "__signed__"))
      nsigned++;
    else if (tok_is(t, "unsigned"))
      nunsigned++;
    else if (tok_is(t, "_Bool"))
      nbool++;
    else if (tok_is(t, "float"))
      nfloat++;
    else if (tok_is(t, "double"))
      ndouble++;
    else if (tok_is(t, "const") || tok_is(t, "volatile"))
      continue;
    else {
      size_t k = 0, nk = sizeof typedefs / sizeof typedefs[0];
      while (k < nk && !tok_is(t, typedefs[k].name))
        k++;
      if (k == nk || typedef_name || any)
        break;
      typedef_name = true;
      named = typedefs[k].ty;
    }
  }
  int words = nlong + nint + nchar + nshort + nsigned + nunsigned + nbool + nfloat + ndouble;
  if (typedef_name && words)
    return false;
  if (!typedef_name && !words)
    return false;
  *bytes = 0;
  *floating = nfloat || ndouble;
  if (nfloat || ndouble) { /* sizeof only */
    if (nfloat + ndouble > 1 || nint || nchar || nshort || nsigned || nunsigned || nbool || nlong > (ndouble ? 1 : 0))
      return false;
    *bytes = nfloat ? 4 : nlong ? 16 : 8;
    *out = TY_INT;
    return true;
  }
  if (!typedef_name) {
    if (nsigned + nunsigned > 1 || nint > 1 || nlong > 2 || nchar + nshort + nbool > 1 ||
        ((nchar || nbool) && (nint || nlong)) || (nshort && nlong) || (nbool && (nsigned || nunsigned)))
      return false;
    named = nbool ? TY_BOOL
          : nchar ? (nunsigned ? TY_UCHAR : nsigned ? TY_SCHAR : TY_CHAR)
          : nshort ? (nunsigned ? TY_USHORT : TY_SHORT)
          : nlong == 2 ? (nunsigned ? TY_ULLONG : TY_LLONG)
          : nlong == 1 ? (nunsigned ? TY_ULONG : TY_LONG)
          : nunsigned ? TY_UINT : TY_INT;
  }
  *out = named;
  *bytes = ty_bytes(named);
  return true;
}

/* after '(': a type name and ')' (a cast, or sizeof's operand); ev->pos
 * past the ')' when so, unchanged when not.  *pointer: a pointer or
 * floating type, no integer type. */
static bool paren_type(Ev *ev, Ty *t, int *bytes, bool *pointer)
{
  int at = ev->pos;
  bool floating;
  *pointer = false;
  if (!type_name(ev, t, bytes, &floating)) {
    ev->pos = at;
    return false;
  }
  while (eat(ev, "*"))
    *pointer = true;
  if (*pointer)
    *bytes = sizeof(void *);
  else if (floating)
    *pointer = true; /* neither is an integer type: a cast to it is the C compiler's */
  if (!eat(ev, ")")) {
    ev->pos = at;
    return false;
  }
  return true;
}

static Val unary(Ev *ev);

/* sizeof TYPE or sizeof EXPR, which C does not evaluate */
static Val size_of(Ev *ev)
{
  Ty t;
  int bytes;
  bool pointer;
  if (eat(ev, "(")) {
    if (paren_type(ev, &t, &bytes, &pointer))
      return (Val){TY_ULONG, (unsigned long long)bytes, false, 0};
    ev->pos--;
  }
  bool live = ev->live;
  ev->live = false;
  CevalMode mode = ev->mode;
  ev->mode = CEVAL_C; /* the operand's own type, not widened */
  Val v = unary(ev);
  ev->mode = mode;
  ev->live = live;
  if (v.is_float)
    fail_always(ev); /* 1.5 is a double: its size is known, but rare enough to leave */
  return (Val){TY_ULONG, (unsigned long long)ty_bytes(v.ty), false, 0};
}

static Val primary(Ev *ev)
{
  const Tok *t = peek(ev);
  Val zero = {TY_INT, 0, false, 0};
  if (eat(ev, "(")) {
    if (++ev->depth > MAX_NEST) {
      fail_always(ev);
      return zero;
    }
    Val v = cond(ev);
    ev->depth--;
    if (!eat(ev, ")"))
      fail_always(ev);
    return v;
  }
  ev->pos++;
  switch (t->kind) {
  case TK_NUM:
    return is_float_text(t->s, t->n) ? floating(ev, t->s, t->n) : operand(ev, integer(ev, t->s, t->n));
  case TK_CHAR:
    return operand(ev, character(ev, t->s, t->n));
  case TK_VALUE:
    return operand(ev, (Val){TY_LLONG, (unsigned long long)t->value, false, 0});
  case TK_IDENT:
    if (ev->mode == CEVAL_IF)
      return operand(ev, zero); /* a name no macro gives a value is 0 in #if */
    if ((tok_is(t, "sizeof") || tok_is(t, "_Alignof")) && ev->mode != CEVAL_IF)
      return operand(ev, size_of(ev));
    break;
  default:
    break;
  }
  fail_always(ev);
  return zero;
}

/* an exact result r of type t, or a failure where it does not fit */
static Val result(Ev *ev, __int128 r, Ty t)
{
  if (ty_info(t).is_unsigned) /* wraps */
    return convert((Val){TY_ULLONG, (unsigned long long)r, false, 0}, t);
  if (!fits(r, t)) { /* signed overflow: undefined; a size's is past 64 bits */
    fail(ev, ev->mode == CEVAL_SIZE ? "does not fit in a 64-bit integer" : NULL);
    return (Val){t, 0, false, 0};
  }
  return (Val){t, (unsigned long long)(long long)r, false, 0};
}

static Val cast_float(Ev *ev, double f, Ty t)
{
  if (t == TY_BOOL)
    return (Val){t, f != 0, false, 0};
  double lo = ty_info(t).is_unsigned ? -1.0 : -ldexp(1.0, ty_info(t).bits - 1) - 1.0;
  double hi = ldexp(1.0, ty_info(t).bits - (ty_info(t).is_unsigned ? 0 : 1));
  if (!(f > lo && f < hi)) {
    fail_always(ev); /* out of range: undefined */
    return (Val){t, 0, false, 0};
  }
  double w = trunc(f);
  return ty_info(t).is_unsigned ? (Val){t, (unsigned long long)w, false, 0} : (Val){t, (unsigned long long)(long long)w, false, 0};
}

/* prefix operators and casts, gathered, then applied innermost first */
static Val unary(Ev *ev)
{
  struct {
    char op;
    Ty ty;
  } ops[MAX_PREFIX];
  int n = 0;
  for (;;) {
    char op = 0;
    Ty ty = TY_INT;
    if (eat(ev, "-"))
      op = '-';
    else if (eat(ev, "+"))
      op = '+';
    else if (eat(ev, "!"))
      op = '!';
    else if (eat(ev, "~"))
      op = '~';
    else if (ev->mode != CEVAL_IF && tok_is(peek(ev), "(")) {
      int bytes;
      bool pointer;
      ev->pos++;
      if (paren_type(ev, &ty, &bytes, &pointer)) {
        if (pointer) { /* a cast to a pointer or floating type */
          fail_always(ev);
          return (Val){TY_INT, 0, false, 0};
        }
        op = 'c';
      } else
        ev->pos--;
    }
    if (!op)
      break;
    if (op == '-' && n > 0 && ops[n - 1].op == '-') {
      /* - - x is x promoted, where x is not its type's least value: one
       * step for a pair, and for pairs in a row, so a long chain is short */
      ops[n - 1].op = '=';
      if (n > 1 && ops[n - 2].op == '=')
        n--;
      continue;
    }
    if (n == MAX_PREFIX) {
      fail_always(ev);
      return (Val){TY_INT, 0, false, 0};
    }
    ops[n].op = op;
    ops[n++].ty = ty;
  }
  Val v = primary(ev);
  while (n-- > 0) {
    char op = ops[n].op;
    if (v.is_float) {
      if (op == '-')
        v.f = -v.f;
      else if (op == 'c')
        v = operand(ev, cast_float(ev, v.f, ops[n].ty));
      else if (op != '+')
        not_integer(ev);
      continue;
    }
    Ty t = promoted(v.ty);
    switch (op) {
    case 'c':
      v = operand(ev, convert(v, ops[n].ty));
      break;
    case '+':
      v = convert(v, t);
      break;
    case '-':
      v = result(ev, -exact(convert(v, t)), t);
      break;
    case '=':
      v = convert(v, t);
      if (!ty_info(t).is_unsigned)
        (void)result(ev, -exact(v), t);
      break;
    case '~':
      v = convert((Val){t, ~convert(v, t).u, false, 0}, t);
      break;
    case '!':
      v = operand(ev, (Val){TY_INT, v.u == 0, false, 0});
      break;
    }
  }
  return v;
}

/* binary operators by precedence, loosest first */
static const char *const levels[][5] = {
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
};
#define NLEVELS (int)(sizeof levels / sizeof levels[0])

/* A shift in #if by n >= 0, as the preprocessors of gcc and clang define it: past
 * the width, a right shift gives the sign and a left one 0 (of a value
 * that is not signed and not 0: an overflow); a left shift of a negative
 * value is fine while shifting back gives it again */
static Val shift_pp(Ev *ev, const char *op, Val a, long long n)
{
  bool is_unsigned = ty_info(a.ty).is_unsigned;
  if (op[0] == '>') {
    if (n >= 64)
      return (Val){a.ty, is_unsigned || val_s(a) >= 0 ? 0 : ~0ULL, false, 0};
    return (Val){a.ty, is_unsigned ? a.u >> n : (unsigned long long)(val_s(a) >> n), false, 0};
  }
  if (n >= 64) {
    if (!is_unsigned && a.u)
      fail(ev, NULL);
    return (Val){a.ty, 0, false, 0};
  }
  Val r = {a.ty, a.u << n, false, 0};
  if (!is_unsigned && val_s(r) >> n != val_s(a))
    fail(ev, NULL);
  return r;
}

static Val shift(Ev *ev, const char *op, Val a, Val b)
{
  Ty t = promoted(a.ty);
  a = convert(a, t);
  long long n = ty_info(b.ty).is_unsigned ? (b.u > 1000 ? 1000 : (long long)b.u) : val_s(b);
  /* an unsigned count past the width is one past it, not negative */
  int bits = ty_info(t).bits;
  if (ev->mode == CEVAL_IF) /* a negative count shifts the other way, as gcc's cpp has it */
    return shift_pp(ev, n < 0 ? (op[0] == '<' ? ">>" : "<<") : op, a, n < 0 ? (n == LLONG_MIN ? 64 : -n) : n);
  if (n < 0 || n >= bits) {
    fail(ev, NULL); /* undefined: the C compiler's */
    return (Val){t, 0, false, 0};
  }
  if (op[0] == '>') /* of a negative value: arithmetic, as gcc and clang define it */
    return ty_info(t).is_unsigned ? (Val){t, a.u >> n, false, 0} : (Val){t, (unsigned long long)(val_s(a) >> n), false, 0};
  if (ty_info(t).is_unsigned)
    return convert((Val){t, a.u << n, false, 0}, t);
  if (val_s(a) < 0) {
    fail(ev, NULL);
    return (Val){t, 0, false, 0};
  }
  return result(ev, (__int128)val_s(a) << n, t);
}

static Val apply(Ev *ev, const char *op, Val a, Val b)
{
  if (a.is_float || b.is_float) {
    not_integer(ev);
    return (Val){TY_INT, 0, false, 0};
  }
  if (!strcmp(op, "&&") || !strcmp(op, "||"))
    return operand(ev, (Val){TY_INT, op[0] == '&' ? a.u && b.u : a.u || b.u, false, 0});
  if (op[0] == op[1] && (op[0] == '<' || op[0] == '>'))
    return shift(ev, op, a, b);
  Ty t = common(a.ty, b.ty);
  a = convert(a, t), b = convert(b, t);
  __int128 x = exact(a), y = exact(b);
  bool is_unsigned = ty_info(t).is_unsigned;
  switch (op[0]) {
  case '+': return result(ev, x + y, t);
  case '-': return result(ev, x - y, t);
  case '*':
    if (is_unsigned) /* the low 64 bits are the product's modulo 2^64 */
      return convert((Val){TY_ULLONG, a.u * b.u, false, 0}, t);
    return result(ev, x * y, t);
  case '/':
  case '%':
    if (y == 0) {
      fail(ev, "divides by zero");
      return (Val){t, 0, false, 0};
    }
    if (!fits(x / y, t)) { /* INT_MIN / -1: undefined, and so is INT_MIN % -1 */
      fail(ev, ev->mode == CEVAL_SIZE ? "does not fit in a 64-bit integer" : NULL);
      return (Val){t, 0, false, 0};
    }
    return (Val){t, (unsigned long long)(long long)(op[0] == '/' ? x / y : x % y), false, 0};
  case '&': return (Val){t, a.u & b.u, false, 0};
  case '|': return (Val){t, a.u | b.u, false, 0};
  case '^': return (Val){t, a.u ^ b.u, false, 0};
  }
  int truth;
  if (!strcmp(op, "=="))
    truth = x == y;
  else if (!strcmp(op, "!="))
    truth = x != y;
  else if (op[0] == '<')
    truth = op[1] ? x <= y : x < y;
  else
    truth = op[1] ? x >= y : x > y;
  return operand(ev, (Val){TY_INT, (unsigned long long)truth, false, 0});
}

static Val binary(Ev *ev, int level)
{
  if (level == NLEVELS)
    return unary(ev);
  Val v = binary(ev, level + 1);
  for (;;) {
    const char *op = NULL;
    for (int k = 0; k < 5 && levels[level][k]; k++)
      if (eat(ev, levels[level][k])) {
        op = levels[level][k];
        break;
      }
    if (!op)
      return v;
    bool live = ev->live;
    if (!strcmp(op, "&&") && !v.is_float && v.u == 0)
      ev->live = false; /* 0 && x: x is not evaluated */
    if (!strcmp(op, "||") && !v.is_float && v.u != 0)
      ev->live = false;
    Val w = binary(ev, level + 1);
    v = apply(ev, op, v, w);
    ev->live = live;
  }
}

static Val cond(Ev *ev)
{
  Val c = binary(ev, 0);
  if (!eat(ev, "?"))
    return c;
  if (c.is_float)
    not_integer(ev);
  if (c.is_float || ++ev->depth > MAX_NEST) {
    fail_always(ev);
    return c;
  }
  bool live = ev->live;
  ev->live = live && c.u != 0;
  Val a = cond(ev);
  if (!eat(ev, ":"))
    fail_always(ev);
  ev->live = live && c.u == 0;
  Val b = cond(ev);
  ev->live = live;
  ev->depth--;
  if (a.is_float || b.is_float) {
    not_integer(ev);
    return c;
  }
  Ty t = common(a.ty, b.ty);
  return operand(ev, convert(c.u ? a : b, t));
}

/* A decimal literal below 10^9, most indices' whole text ("0", " 12 "):
 * an int of that value in every mode, read without the tokens and the
 * macro table an expression needs. */
static bool small_decimal(const char *text, unsigned long long *value)
{
  const char *p = text + strspn(text, " \t\n");
  size_t n = strspn(p, "0123456789");
  if (n == 0 || n > 9 || (n > 1 && p[0] == '0') || p[n + strspn(p + n, " \t\n")])
    return false;
  *value = strtoull(p, NULL, 10);
  return true;
}

bool ceval_value(const Ctx *ctx, const char *text, CevalMode mode, CevalName name, void *arg, CevalValue *value,
                 const char **bad)
{
  if (small_decimal(text, &value->bits)) {
    value->is_unsigned = false;
    if (bad)
      *bad = NULL;
    return true;
  }
  Ev ev = {.ctx = ctx, .mode = mode, .name = name, .arg = arg, .ok = true, .live = true};
  expand(&ev, text, NULL, 0);
  Val v = {TY_INT, 0, false, 0};
  if (ev.ok && ev.ntoks)
    v = cond(&ev);
  else
    ev.ok = false;
  bool whole = ev.pos == ev.ntoks;
  if (v.is_float)
    not_integer(&ev);
  for (int i = 0; i < ev.ntexts; i++)
    free(ev.texts[i]);
  free(ev.texts);
  free(ev.toks);
  value->bits = v.u;
  value->is_unsigned = ty_info(v.ty).is_unsigned && v.ty != TY_BOOL;
  if (bad)
    *bad = whole ? ev.bad : NULL;
  return ev.ok && whole;
}

bool ceval(const Ctx *ctx, const char *text, CevalMode mode, CevalName name, void *arg, long long *value,
           const char **bad)
{
  CevalValue v;
  bool ok = ceval_value(ctx, text, mode, name, arg, &v, bad);
  *value = (long long)v.bits;
  if (ok && v.is_unsigned && v.bits > LLONG_MAX) {
    if (bad)
      *bad = "does not fit in a 64-bit integer";
    return false;
  }
  return ok;
}
