/* capture.c: the locals of the enclosing function that a detour body uses.
 *
 * A detour's body is outlined into a function of its own (a thread
 * function, a kernel, an mpi body), which cannot see the locals of the
 * function its #detour stands in.  The body may name them anyway, as the
 * block it is written as could: pthd and omp bodies share them with the
 * caller (by reference, as OpenMP shares them), cuda kernels and mpi
 * bodies receive copies (by value, like their parameters), since they run
 * in another memory.  The extents of thread arrays and data types sized by
 * locals ($tid_0$ of a [rows][2] array is (pa_tid / 2) % rows) reach the
 * body the same way, since they are found in the translated body. */
#include "print/capture.h"
#include "ctext.h"

#include <string.h>

/* Calls f on every identifier of C text t that is not a member name
 * (after '.' or '->'), skipping comments, literals and preprocessor
 * lines. */
static void each_identifier(const char *t, void (*f)(void *arg, const char *w, size_t n), void *arg)
{
  CText c = ctext(t, NULL, CT_DIRECTIVES); /* #line, #pragma: not the body's C */
  for (CTok k = ctext_code(&c); k.kind != CT_END; k = ctext_code(&c))
    if (k.kind == CT_IDENT && !k.member)
      f(arg, k.s, k.n);
}

typedef struct Finder {
  Ctx *ctx;
  Scope *scope;      /* where the #detour stands */
  const char *body;
  char **params;
  int nparams;
  Capture *caps;
  int n, cap;
  char **seen;
  int nseen, capseen;
  Loc at;
  bool ok;
  bool globals;      /* host variables declared at file scope too (host_global) */
} Finder;

static bool seen_before(Finder *f, const char *name)
{
  for (int i = 0; i < f->nseen; i++)
    if (!strcmp(f->seen[i], name))
      return true;
  if (f->nseen == f->capseen) {
    f->capseen = f->capseen ? 2 * f->capseen : 16;
    char **s = ctx_alloc(f->ctx, sizeof(char *) * f->capseen);
    if (f->nseen)
      memcpy(s, f->seen, sizeof(char *) * f->nseen);
    f->seen = s;
  }
  f->seen[f->nseen++] = (char *)name;
  return false;
}

/* The declaration of name when it is a variable at file scope that device
 * code cannot read (not const, __device__, __constant__ or __managed__;
 * not a type or a function), else NULL. */
static const char *host_global(Ctx *ctx, Scope *scope, const char *name)
{
  const char *decl = scope_file_declaration(ctx, scope, name);
  if (!decl || !*decl)
    return NULL;
  static const char *device[] = {"typedef", "const", "constexpr", "__device__", "__constant__", "__managed__", NULL};
  CText c = ctext(decl, NULL, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c)) {
    if (ctok_is(t, '('))
      return NULL; /* a function (or a pointer to one) */
    for (int i = 0; device[i]; i++)
      if (ctok_word(t, device[i]))
        return NULL;
  }
  return decl;
}

static void consider(void *arg, const char *w, size_t len)
{
  Finder *f = arg;
  Ctx *ctx = f->ctx;
  if (len > 3 && !strncmp(w, "pa_", 3))
    return; /* generated */
  char *name = ctx_strndup(ctx, w, len);
  if (seen_before(f, name))
    return;
  for (int i = 0; i < f->nparams; i++)
    if (!strcmp(f->params[i], name))
      return;
  if (scope_text_declares(f->body, name))
    return; /* the body's own */
  const char *decl = scope_local_declaration(ctx, f->scope, name);
  if (!decl && f->globals)
    decl = host_global(ctx, f->scope, name);
  if (!decl)
    return;
  if (!*decl) {
    diag_error(ctx, f->at,
               "the detour body uses '%s', a local of the enclosing function, whose declaration parrayc cannot "
               "read: declare it as 'TYPE %s;' on a statement of its own, at file scope, or pass it as a "
               "parameter of the thread array",
               name, name);
    f->ok = false;
    return;
  }
  if (strchr(decl, '{')) {
    diag_error(ctx, f->at,
               "the detour body uses '%s', a local of the enclosing function whose type is defined in its "
               "declaration: the body, outlined into a function of its own, cannot name that type; define the "
               "type at file scope",
               name);
    f->ok = false;
    return;
  }
  if (f->n == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 8;
    Capture *c = ctx_alloc(ctx, sizeof(Capture) * f->cap);
    if (f->n)
      memcpy(c, f->caps, sizeof(Capture) * f->n);
    f->caps = c;
  }
  f->caps[f->n].name = name;
  f->caps[f->n].decl = decl;
  f->caps[f->n].array = capture_decl_is_array(decl);
  f->n++;
}

int capture_find(Ctx *ctx, Scope *scope, Node *n, const char *text, char **params, int nparams, Capture **out)
{
  Finder f = {ctx, scope, text, params, nparams, NULL, 0, 0, NULL, 0, 0, n->loc, true, false};
  each_identifier(text, consider, &f);
  *out = f.caps;
  return f.ok ? f.n : -1;
}

int capture_find_kernel(Ctx *ctx, Scope *scope, Node *n, const char *text, Capture **out)
{
  Finder f = {ctx, scope, text, NULL, 0, NULL, 0, 0, NULL, 0, 0, n->loc, true, true};
  each_identifier(text, consider, &f);
  *out = f.caps;
  return f.ok ? f.n : -1;
}

bool capture_decl_is_array(const char *decl)
{
  const char *name;
  size_t len;
  return ctext_declarator(decl, NULL, &name, &len) == CD_ARRAY;
}

bool capture_decl_is_unsized_array(const char *decl)
{
  const char *name;
  size_t len;
  if (ctext_declarator(decl, NULL, &name, &len) != CD_ARRAY)
    return false;
  CText c = ctext(name + len, NULL, 0);
  CTok t = ctext_code(&c);
  return ctok_is(t, '[') && ctok_is(ctext_code(&c), ']');
}

/* "int (*rows)" for "int rows", "double (*x)[10]" for "double x[10]",
 * "int (*(*grid))[4]" for "int (*grid)[4]" */
char *capture_pointer_decl(Ctx *ctx, const Capture *c)
{
  const char *d = c->decl, *at;
  size_t nl;
  if (ctext_declarator(d, NULL, &at, &nl) == CD_NONE || nl != strlen(c->name) || strncmp(at, c->name, nl))
    return ctx_printf(ctx, "%s (*%s)", d, c->name);
  if (!at[nl]) /* nothing follows: no parentheses needed */
    return ctx_printf(ctx, "%.*s*%s", (int)(at - d), d, c->name);
  return ctx_printf(ctx, "%.*s(*%s)%s", (int)(at - d), d, c->name, at + nl);
}

typedef struct Rewriter {
  const char *t;
  Buf b;
  const char *done;
  const Capture *caps;
  int n;
} Rewriter;

static void rewrite_one(void *arg, const char *w, size_t len)
{
  Rewriter *r = arg;
  for (int i = 0; i < r->n; i++)
    if (strlen(r->caps[i].name) == len && !strncmp(r->caps[i].name, w, len)) {
      buf_printf(&r->b, "%.*s(*%s)", (int)(w - r->done), r->done, r->caps[i].name);
      r->done = w + len;
      return;
    }
}

char *capture_by_reference(Ctx *ctx, const char *text, const Capture *caps, int n)
{
  Rewriter r = {text, {0}, text, caps, n};
  each_identifier(text, rewrite_one, &r);
  buf_puts(&r.b, r.done);
  char *s = ctx_strdup(ctx, r.b.data ? r.b.data : "");
  buf_free(&r.b);
  return s;
}
