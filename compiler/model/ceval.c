/* ceval.c: C integer expressions evaluated (ceval.h).  A recursive
 * descent over the binary operators by precedence; prefix operators are
 * gathered in a loop and nesting ((, ?:) is bounded, so that no input
 * exhausts the stack. */
#include "model/ceval.h"
#include "parrayc.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NEST 256   /* parentheses and ?: inside each other */
#define MAX_PREFIX 256 /* unary operators and casts in a row */
#define MAX_NAME 256

typedef struct Parser {
  const char *p;
  bool ok;
  const char *bad;
  int depth;
  CevalName name;
  void *arg;
} Parser;

static long long cond(Parser *ps);

static void skip(Parser *ps)
{
  while (isspace((unsigned char)*ps->p))
    ps->p++;
}

static void fail(Parser *ps, const char *why)
{
  if (ps->ok && why && !ps->bad)
    ps->bad = why;
  ps->ok = false;
}

static void overflow(Parser *ps)
{
  fail(ps, "does not fit in a 64-bit integer");
}

/* operator op next: "<" is not the start of "<<" or "<=", "&" not of "&&",
 * "!" not of "!=" */
static bool eat(Parser *ps, const char *op)
{
  skip(ps);
  size_t n = strlen(op);
  if (strncmp(ps->p, op, n))
    return false;
  if (n == 1 && strchr("<>&|", op[0]) && (ps->p[1] == op[0] || ps->p[1] == '='))
    return false;
  if (n == 1 && strchr("=!", op[0]) && ps->p[1] == '=')
    return false;
  ps->p += n;
  return true;
}

/* after '(': integer type words and ')', a cast */
static bool cast(Parser *ps)
{
  static const char *words[] = {"int", "long", "unsigned", "signed", "short", "char", "size_t", "const", NULL};
  const char *p = ps->p;
  bool any = false;
  for (;;) {
    while (isspace((unsigned char)*p))
      p++;
    int k = 0;
    while (words[k] && !(strncmp(p, words[k], strlen(words[k])) == 0 && !util_is_ident_char(p[strlen(words[k])])))
      k++;
    if (!words[k])
      break;
    p += strlen(words[k]);
    any = true;
  }
  if (!any || *p != ')')
    return false;
  ps->p = p + 1;
  return true;
}

static long long number(Parser *ps)
{
  char *end;
  errno = 0;
  long long v = strtoll(ps->p, &end, 0);
  if (errno == ERANGE)
    overflow(ps);
  while (*end && strchr("uUlL", *end))
    end++;
  if (util_is_ident_char((unsigned char)*end))
    fail(ps, NULL);
  ps->p = end;
  return v;
}

static long long name(Parser *ps)
{
  const char *s = ps->p;
  while (util_is_ident_char((unsigned char)*ps->p) || (*ps->p == '.' && util_is_ident_start((unsigned char)ps->p[1])))
    ps->p++;
  size_t n = (size_t)(ps->p - s);
  char buf[MAX_NAME];
  long long v = 0;
  if (!ps->name || n >= sizeof buf) {
    fail(ps, NULL);
    return 0;
  }
  memcpy(buf, s, n);
  buf[n] = 0;
  if (!ps->name(ps->arg, buf, &v))
    fail(ps, NULL);
  return v;
}

static long long primary(Parser *ps)
{
  skip(ps);
  if (*ps->p == '(') {
    ps->p++;
    if (++ps->depth > MAX_NEST) {
      fail(ps, NULL);
      return 0;
    }
    long long v = cond(ps);
    ps->depth--;
    if (!eat(ps, ")"))
      fail(ps, NULL);
    return v;
  }
  if (isdigit((unsigned char)*ps->p))
    return number(ps);
  if (util_is_ident_start((unsigned char)*ps->p))
    return name(ps);
  fail(ps, NULL);
  return 0;
}

/* prefix operators and casts, gathered (a pair of minus signs cancels),
 * then applied innermost first */
static long long unary(Parser *ps)
{
  char ops[MAX_PREFIX];
  int n = 0;
  for (;;) {
    skip(ps);
    const char *at = ps->p;
    char op = 0;
    if (eat(ps, "-"))
      op = '-';
    else if (eat(ps, "+"))
      op = '+';
    else if (eat(ps, "!"))
      op = '!';
    else if (eat(ps, "~"))
      op = '~';
    else if (*ps->p == '(') {
      ps->p++;
      if (cast(ps))
        op = 'c';
      else
        ps->p = at;
    }
    if (!op)
      break;
    if (op == '+')
      continue;
    if (op == '-' && n > 0 && ops[n - 1] == '-') { /* two minus signs cancel: a long chain is one */
      n--;
      continue;
    }
    if (n == MAX_PREFIX) {
      fail(ps, NULL);
      return 0;
    }
    ops[n++] = op;
  }
  long long v = primary(ps);
  while (n-- > 0)
    switch (ops[n]) {
    case '-':
      if (__builtin_sub_overflow(0, v, &v))
        overflow(ps);
      break;
    case '!':
      v = !v;
      break;
    case '~':
      v = ~v;
      break;
    }
  return v;
}

/* binary operators by precedence, loosest first */
static const char *levels[][5] = {
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
};
#define NLEVELS (int)(sizeof levels / sizeof levels[0])

static long long apply(Parser *ps, const char *op, long long a, long long b)
{
  long long r = 0;
  switch (op[0]) {
  case '+':
    if (__builtin_add_overflow(a, b, &r))
      overflow(ps);
    return r;
  case '-':
    if (__builtin_sub_overflow(a, b, &r))
      overflow(ps);
    return r;
  case '*':
    if (__builtin_mul_overflow(a, b, &r))
      overflow(ps);
    return r;
  case '/':
  case '%':
    if (b == 0) {
      fail(ps, "divides by zero");
      return 0;
    }
    if (b == -1 && a == LLONG_MIN) {
      overflow(ps);
      return 0;
    }
    return op[0] == '/' ? a / b : a % b;
  case '|': return op[1] ? a || b : a | b;
  case '&': return op[1] ? a && b : a & b;
  case '^': return a ^ b;
  case '=': return a == b;
  case '!': return a != b;
  }
  if (op[1] == op[0]) { /* << >> */
    if (b < 0 || b > 62 || a < 0 || (op[0] == '<' && a > (LLONG_MAX >> b))) {
      overflow(ps);
      return 0;
    }
    return op[0] == '<' ? a << b : a >> b;
  }
  if (op[0] == '<')
    return op[1] == '=' ? a <= b : a < b;
  return op[1] == '=' ? a >= b : a > b;
}

static long long binary(Parser *ps, int level)
{
  if (level == NLEVELS)
    return unary(ps);
  long long v = binary(ps, level + 1);
  for (;;) {
    const char *op = NULL;
    for (int k = 0; k < 5 && levels[level][k]; k++)
      if (eat(ps, levels[level][k])) {
        op = levels[level][k];
        break;
      }
    if (!op)
      return v;
    v = apply(ps, op, v, binary(ps, level + 1));
  }
}

static long long cond(Parser *ps)
{
  long long c = binary(ps, 0);
  if (!eat(ps, "?"))
    return c;
  if (++ps->depth > MAX_NEST) {
    fail(ps, NULL);
    return 0;
  }
  long long a = cond(ps);
  if (!eat(ps, ":"))
    fail(ps, NULL);
  long long b = cond(ps);
  ps->depth--;
  return c ? a : b;
}

bool ceval(const char *text, CevalName name, void *arg, long long *value, const char **bad)
{
  Parser ps = {.p = text, .ok = true, .name = name, .arg = arg};
  *value = cond(&ps);
  skip(&ps);
  bool whole = !*ps.p;
  if (bad)
    *bad = whole ? ps.bad : NULL;
  return ps.ok && whole;
}
