/* emit_cpu.c: pthd and omp thread arrays.
 *
 * A detour's body becomes a function placed before the top-level item that
 * holds the detour:
 *
 *   struct pa_args_T_L12 { float *a; int n; };      (T's PARAMS)
 *   static void pa_detour_T_L12(pa_thread *pa_self)
 *   {
 *     const struct pa_args_T_L12 *pa_args = ...;
 *     int pa_tid = pa_self->tid;                     (omp_get_thread_num())
 *     float *a = pa_args->a;                          (by value, per thread)
 *     int n = pa_args->n;
 *     BODY
 *   }
 *
 * and the directive becomes a block that evaluates the arguments once, on
 * the calling thread, and hands the function to the runtime
 * (pa_pthd_run, or pa_omp_run from parray_cpu.h), which returns when every
 * thread has finished. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

static const char *kind_word(Type *t)
{
  return t->kind == TK_OMP ? "OpenMP" : "POSIX";
}

/* "pa_detour_T_L12", with the #insert instance when there is one (two
 * insertions of one subprogram put detours on the same source line). */
static char *detour_name(Emitter *e, const char *prefix, Node *n, Type *t)
{
  Ctx *ctx = e->ctx;
  if (ctx->instance)
    return ctx_printf(ctx, "%s_%s_L%d_in%d", prefix, t->cname, n->loc.line, ctx->instance->id);
  return ctx_printf(ctx, "%s_%s_L%d", prefix, t->cname, n->loc.line);
}

static char *c_string(Ctx *ctx, const char *s)
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

/* Does the generated code use identifier `name`?  Comments, strings and
 * #line directives do not count. */
static bool mentions(const char *t, const char *name)
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

/* "(4)" -> "4": poly_text parenthesises every expression */
static char *bare(Ctx *ctx, char *s)
{
  size_t n = strlen(s);
  if (n > 2 && s[0] == '(' && s[n - 1] == ')') {
    char *inner = ctx_strndup(ctx, s + 1, n - 2);
    if (text_is_simple(inner))
      return inner;
  }
  return s;
}

/* The translated body without the blank rest of the '{' line and the
 * indentation of the closing '}'. */
static char *tidy_body(Ctx *ctx, const char *text)
{
  const char *p = text;
  int line = 0;
  char *file = NULL;
  if (!strncmp(p, "#line ", 6)) {
    const char *nl = strchr(p, '\n');
    const char *q = nl;
    while (q && q[1] == ' ')
      q++;
    if (q && q[1] == '\n') {
      /* "#line N F" + blank line: the body really starts at line N + 1 */
      char *end;
      line = (int)strtol(p + 6, &end, 10);
      file = ctx_strndup(ctx, end, (size_t)(nl - end));
      p = q + 2;
    }
  } else {
    while (*p == ' ' || *p == '\t')
      p++;
    if (*p == '\n')
      p++;
    else
      p = text;
  }
  size_t n = strlen(p);
  while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
    n--;
  char *body = ctx_strndup(ctx, p, n);
  if (line)
    return ctx_printf(ctx, "#line %d%s\n%s", line + 1, file, body);
  return body;
}

/* Shifts the body left by the directive's indentation, so that it sits in
 * the function as it sat in the detour; untouched unless every line that
 * is not a preprocessor line has that indentation. */
static char *dedent(Ctx *ctx, const char *text, size_t k)
{
  if (!k)
    return (char *)text;
  for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
    size_t sp = strspn(l, " ");
    if (l[sp] != '\n' && l[sp] && l[0] != '#' && sp < k)
      return (char *)text;
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

static bool params_ok(Emitter *e, Node *n, Type *t)
{
  bool ok = true;
  for (int i = 0; i < t->nparams; i++)
    if (strchr(t->ptypes[i], '[')) {
      diag_error(e->ctx, n->loc,
                 "parameter '%s' of thread array '%s' is an array: %s detours take parameters by value, "
                 "declare it as a pointer",
                 t->pnames[i], t->name, thread_kind_name(t->kind));
      ok = false;
    }
  return ok;
}

/* The outlined function: struct of arguments, header, unpacking, body. */
static void write_function(Emitter *e, Node *n, Type *t, const char *fname, const char *sname, const char *body)
{
  Loc loc = n->loc;
  if (t->nparams) {
    out_gen(e, loc, "/* the arguments of '#detour %s' */\n", n->name);
    out_gen(e, loc, "struct %s {\n", sname);
    for (int i = 0; i < t->nparams; i++)
      out_gen(e, loc, "  %s;\n", t->ptypes[i]);
    out_gen(e, loc, "};\n\n");
  }
  out_gen(e, loc, "/* the body of '#detour %s', run by each of the |%s| %s threads */\n", n->name, t->name,
          kind_word(t));
  out_gen(e, loc, "static void %s(pa_thread *pa_self)\n{\n", fname);
  bool tid = mentions(body, "pa_tid");
  bool self = t->kind == TK_PTHD ? tid : false;
  if (t->nparams) {
    out_gen(e, loc, "  const struct %s *pa_args = (const struct %s *)pa_self->args;\n", sname, sname);
    self = true;
  }
  if (tid)
    out_gen(e, loc, "  int pa_tid = %s;\n", t->kind == TK_OMP ? "omp_get_thread_num()" : "pa_self->tid");
  /* a parameter the body never names is still declared (a macro may use
   * it), marked unused in the way the C compiler understands */
  for (int i = 0; i < t->nparams; i++) {
    bool used = mentions(body, t->pnames[i]);
    if (!used && e->cuda)
      out_gen(e, loc, "  %s __attribute__((unused)) = pa_args->%s;\n", t->ptypes[i], t->pnames[i]);
    else
      out_gen(e, loc, "  %s = pa_args->%s;\n", t->ptypes[i], t->pnames[i]);
  }
  for (int i = 0; i < t->nparams; i++)
    if (!e->cuda && !mentions(body, t->pnames[i]))
      out_gen(e, loc, "  (void)%s;\n", t->pnames[i]);
  if (!self && !mentions(body, "pa_self"))
    out_gen(e, loc, "  (void)pa_self;\n");
}

void emit_cpu_detour(Emitter *e, Node *n, Type *t)
{
  Ctx *ctx = e->ctx;
  if (!params_ok(e, n, t))
    return;
  const char *fname = detour_name(e, "pa_detour", n, t);
  const char *sname = detour_name(e, "pa_args", n, t);
  const char *in = indent_of(n);

  /* the launch site: arguments and thread count on the calling thread */
  Buf args = {0};
  for (int i = 0; i < n->nargs; i++)
    buf_printf(&args, "%s%s", i ? ", " : "", str_trim(ctx, fragment_text(e, n->args[i])));
  char *count = bare(ctx, poly_text(e, t->root->extent));
  long long nthreads;
  char *how_many = poly_is_const(t->root->extent, &nthreads) ? ctx_printf(ctx, "%lld", nthreads)
                                                              : ctx_printf(ctx, "|%s|", t->name);
  out_gen(e, n->loc, "%s{ /* #detour %s: %s %s threads */\n", in, n->name, how_many, kind_word(t));
  if (t->nparams)
    out_gen(e, n->loc, "%s  struct %s pa_args = {%s};\n", in, sname, args.data);
  out_gen(e, n->loc, "%s  %s(%s, %s, %s, %s, %d);\n", in, t->kind == TK_OMP ? "pa_omp_run" : "pa_pthd_run", count,
          fname, t->nparams ? "&pa_args" : "NULL", c_string(ctx, ctx->opt.display), n->loc.line);
  out_gen(e, n->loc, "%s}", in);
  buf_free(&args);

  /* the body, translated with $tid$ and #sync answering to this detour */
  Detour dt = {0};
  dt.node = n;
  dt.type = t;
  dt.parent = e->detour;
  dt.name = fname;
  dt.tid = tid_linear;
  dt.tid_var = "pa_tid";
  Out body = {{0}, -1, 0};
  emit_outlined(e, &dt, n->body, &body, t->pnames, t->nparams, "");

  Out fn = {{0}, -1, 0};
  Out *saved = e->out;
  e->out = &fn;
  char *text = dedent(ctx, tidy_body(ctx, body.b.data ? body.b.data : ""), strlen(in));
  write_function(e, n, t, fname, sname, text);
  buf_puts(&fn.b, text);
  if (fn.b.len && fn.b.data[fn.b.len - 1] != '\n')
    buf_putc(&fn.b, '\n');
  buf_puts(&fn.b, "}\n\n");
  e->out = saved;
  out_append(&e->hoist, &fn);
  out_free(&fn);
  out_free(&body);
}

/* W(d, root) as types.c computes it for $tid_K$: the product of the
 * extents of the leaves after d's subtree. */
static Poly *weight_in_root(Ctx *ctx, Dim *d, Dim *root)
{
  Poly *w = poly_const(ctx, 1);
  for (Dim *x = d; x != root && x->parent; x = x->parent)
    for (int k = x->index + 1; k < x->parent->nkids; k++)
      w = poly_mul(ctx, w, x->parent->kids[k]->extent);
  return w;
}

void emit_cpu_sync(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  Detour *dt = e->detour;
  Type *t = dt->type;
  const char *in = indent_of(n);
  const char *suffix = n->name ? n->name : "";
  if (!*suffix) {
    if (t->kind == TK_OMP)
      out_gen(e, n->loc, "%s#pragma omp barrier\n", in);
    else
      out_gen(e, n->loc, "%spa_sync(pa_self);\n", in);
    return;
  }
  /* the suffix must name a node of the innermost thread array */
  char *base;
  int *digits, nd;
  Dim *d = t->root;
  if (!path_split(ctx_printf(ctx, "T%s", suffix), &base, &digits, &nd, ctx) || strcmp(base, "T")) {
    diag_error(ctx, n->loc, "'#sync%s' is not a sub-dimension suffix: write '#sync' or '#sync_K' (e.g. #sync_1_0)",
               suffix);
    return;
  }
  for (int k = 0; k < nd; k++) {
    int have = dim_nkids(d);
    if (digits[k] >= have) {
      diag_error(ctx, n->loc, "'#sync%s' names no sub-dimension of '%s', the thread array of the innermost detour: "
                 "'%s' has %s", suffix, t->name, d == t->root ? t->name : d->path,
                 have ? ctx_printf(ctx, "%d sub-dimension%s (_0 to _%d)", have, have == 1 ? "" : "s", have - 1)
                      : "no sub-dimensions");
      return;
    }
    d = dim_kid(d, digits[k]);
  }
  Poly *ext = d->extent;
  Poly *w = weight_in_root(ctx, d, t->root);
  long long v;
  if (poly_is_const(ext, &v) && v == 1) {
    out_gen(e, n->loc, "%s/* #sync%s: every group is one thread */\n", in, suffix);
    return;
  }
  if (poly_equal(ext, t->root->extent)) {
    /* the sub-array holds every thread */
    if (t->kind == TK_OMP)
      out_gen(e, n->loc, "%s#pragma omp barrier /* #sync%s: all threads */\n", in, suffix);
    else
      out_gen(e, n->loc, "%spa_sync(pa_self); /* #sync%s: all threads */\n", in, suffix);
    return;
  }
  /* groups of |K| threads: those that differ only in $tid_K$ */
  out_gen(e, n->loc, "%spa_sync_sub(pa_self, %s, %s, %s, %d); /* #sync%s: threads differing only in $tid%s$ */\n",
          in, bare(ctx, poly_text(e, w)), bare(ctx, poly_text(e, ext)), c_string(ctx, ctx->opt.display), n->loc.line,
          suffix, suffix);
}
