/* region.c: what the explainer cannot follow: values set in the detour's
 * body before the access, read as text (assignments, names whose value
 * depends on the thread, pointers set to ARRAY + $T[...]$). */
#include "explain/picture.h"

/* the line of the source file that line of the spliced source is */
int explain_src_line(Ctx *ctx, int line)
{
  int l;
  diag_src_file(ctx, line, &l);
  return l;
}

/* ---- what the explainer cannot follow: values set in the detour ----
 * A pointer or an index set in the detour's body may differ from thread to
 * thread; the explainer takes an unknown name as 0 and an array pointer as
 * the array's start, which is right only where the value is the same in
 * every thread.  The body's text from the #detour to the access is read
 * for assignments (NAME = ..., NAME += ..., declarations with an
 * initialiser): a value that depends on the thread ($tid...$, threadIdx,
 * pa_tid, omp_get_thread_num or another such value) makes the access
 * unpredictable, except a pointer set once to ARRAY + $T[...]$ (or
 * &ARRAY[$T[...]$]), whose offset is followed lane by lane. */

/* the text of line k of the region (to its end, or to tocol on the last) */
const char *explain_region_line(Region *r, int k, int *len)
{
  const char *s = r->ctx->lines[k - 1], *e = strchr(s, '\n');
  int n = e ? (int)(e - s) : (int)strlen(s);
  if (k == r->to && r->tocol - 1 < n)
    n = r->tocol - 1 > 0 ? r->tocol - 1 : 0;
  *len = n;
  return s;
}

/* the assignments to name in the region (at most max; returns how many) */
int explain_assignments(Region *r, const char *name, Assign *out, int max)
{
  size_t nl = strlen(name);
  int n = 0;
  for (int k = r->from; k <= r->to && k <= r->ctx->nlines; k++) {
    int len;
    const char *s = explain_region_line(r, k, &len);
    for (int i = 0; i + (int)nl <= len; i++) {
      if (strncmp(s + i, name, nl) || (i > 0 && (util_is_ident_char(s[i - 1]) || s[i - 1] == '.' || s[i - 1] == '>')) ||
          util_is_ident_char(s[i + nl]))
        continue;
      int j = i + (int)nl;
      while (j < len && s[j] == ' ')
        j++;
      char op = '=';
      if (j + 1 < len && strchr("+-*/%&|^", s[j]) && s[j + 1] == '=')
        op = s[j++];
      else if (j + 2 < len && (s[j] == '<' || s[j] == '>') && s[j + 1] == s[j] && s[j + 2] == '=')
        op = s[j], j += 2;
      if (j >= len || s[j] != '=' || (j + 1 < len && s[j + 1] == '='))
        continue;
      int v = j + 1, e = v, depth = 0;
      for (; e < len; e++) {
        if (s[e] == '(' || s[e] == '[')
          depth++;
        else if ((s[e] == ')' || s[e] == ']') && --depth < 0)
          break;
        else if ((s[e] == ';' || s[e] == ',') && depth == 0)
          break;
      }
      char *rhs = util_str_trim(r->ctx, ctx_strndup(r->ctx, s + v, e - v));
      if (!*rhs) /* the statement of the access itself, cut at it */
        continue;
      if (n < max)
        out[n] = (Assign){k, v + 1, op, rhs};
      n++;
    }
  }
  return n;
}

/* does text depend on the thread: a thread index, or a name that does? */
bool explain_text_varies(Region *r, const char *text, int depth)
{
  static const char *const marks[] = {"$tid", "threadIdx", "pa_tid", "pa_tx", "omp_get_thread_num", "laneid",
                                      NULL};
  for (int k = 0; marks[k]; k++)
    if (strstr(text, marks[k]))
      return true;
  if (depth > 8)
    return true;
  for (const char *p = text; *p;) {
    if (!util_is_ident_start((unsigned char)*p) || (p > text && (util_is_ident_char(p[-1]) || p[-1] == '.'))) {
      p++;
      continue;
    }
    const char *q = p;
    while (util_is_ident_char(*q))
      q++;
    if (explain_name_varies(r, ctx_strndup(r->ctx, p, q - p), depth + 1))
      return true;
    p = q;
  }
  return false;
}

bool explain_name_varies(Region *r, const char *name, int depth)
{
  Assign as[8];
  int n = explain_assignments(r, name, as, 8);
  for (int k = 0; k < n && k < 8; k++)
    if (explain_text_varies(r, as[k].rhs, depth))
      return true;
  return false;
}

/* the access on line/columns of a value ARRAY + $T[...]$ in the same
 * #insert as `of`, or NULL */
Access *explain_access_in(Ctx *ctx, Assign *as, Access *of)
{
  for (Access *a = ctx->accesses; a; a = a->next)
    if (a->instance == of->instance && a->loc.line == as->line && a->loc.col >= as->col &&
        a->loc.col < as->col + (int)strlen(as->rhs) + 2)
      return a;
  return NULL;
}

/* rhs is P + $...$, $...$ + P or &P[$...$]: P, else NULL */
const char *explain_pointer_plus_access(Region *r, const char *rhs)
{
  const char *p = rhs;
  char *name = NULL;
  if (*p == '&') {
    p++;
    while (*p == ' ')
      p++;
    const char *q = p;
    while (util_is_ident_char(*q))
      q++;
    if (q == p || *q != '[' || q[1] != '$')
      return NULL;
    name = ctx_strndup(r->ctx, p, q - p);
  } else if (util_is_ident_start((unsigned char)*p)) {
    const char *q = p;
    while (util_is_ident_char(*q))
      q++;
    const char *t = q;
    while (*t == ' ')
      t++;
    if (*t != '+' || !strchr(t, '$'))
      return NULL;
    t++;
    while (*t == ' ')
      t++;
    if (*t != '$' || strchr(t + 1, '$') == NULL || strrchr(t, '$')[1] != 0)
      return NULL;
    name = ctx_strndup(r->ctx, p, q - p);
  } else if (*p == '$') {
    const char *e = strrchr(p, '$'), *t = e + 1;
    while (*t == ' ')
      t++;
    if (*t != '+')
      return NULL;
    t++;
    while (*t == ' ')
      t++;
    const char *q = t;
    while (util_is_ident_char(*q))
      q++;
    if (q == t || *q)
      return NULL;
    name = ctx_strndup(r->ctx, t, q - t);
  }
  return name;
}
