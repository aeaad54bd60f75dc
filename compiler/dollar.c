/* dollar.c: C fragments as C text: $...$ translated into folded offset
 * expressions and the parameters of the current #insert replaced. */
#include "emit.h"

#include <string.h>

/* ---- subprogram parameters in C text ---- */

static const char *param_text(Ctx *ctx, const char *w, size_t n)
{
  Instance *in = ctx->instance;
  if (!in)
    return NULL;
  for (int i = 0; i < in->n; i++)
    if (strlen(in->names[i]) == n && !strncmp(in->names[i], w, n))
      return in->values[i];
  return NULL;
}

/* the text with every parameter of the current #insert replaced */
char *substitute(Ctx *ctx, const char *text)
{
  if (!ctx->instance)
    return (char *)text;
  Buf b = {0};
  const char *p = text;
  while (*p) {
    if (*p == '"' || *p == '\'') {
      char q = *p;
      buf_putc(&b, *p++);
      while (*p && *p != q) {
        if (*p == '\\' && p[1])
          buf_putc(&b, *p++);
        buf_putc(&b, *p++);
      }
      if (*p)
        buf_putc(&b, *p++);
    } else if (p[0] == '/' && p[1] == '*') {
      const char *end = strstr(p + 2, "*/");
      end = end ? end + 2 : p + strlen(p);
      while (p < end)
        buf_putc(&b, *p++);
    } else if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n')
        buf_putc(&b, *p++);
    } else if (is_ident_start((unsigned char)*p)) {
      const char *w = p;
      while (is_ident_char((unsigned char)*p))
        p++;
      const char *v = param_text(ctx, w, (size_t)(p - w));
      if (v) {
        buf_puts(&b, v);
      } else {
        for (const char *q = w; q < p; q++)
          buf_putc(&b, *q);
      }
    } else if (*p >= '0' && *p <= '9') {
      while (is_ident_char((unsigned char)*p) || *p == '.')
        buf_putc(&b, *p++);
    } else {
      buf_putc(&b, *p++);
    }
  }
  char *s = ctx_strdup(ctx, b.data ? b.data : "");
  buf_free(&b);
  return s;
}

/* ---- $...$ ---- */

Dim *resolve_node(Emitter *e, const char *path, Loc loc)
{
  return dim_resolve(e->ctx, path, loc);
}

static int count_atom(const Poly *p, const Atom *a)
{
  int n = 0;
  for (int i = 0; i < p->n; i++)
    for (int k = 0; k < p->t[i].nf; k++) {
      Atom *f = p->t[i].f[k];
      if (f == a)
        n++;
      else if (f->kind == A_DIV || f->kind == A_MOD)
        n += count_atom(f->num, a) + count_atom(f->den, a);
    }
  return n;
}

/* Prints p; index expressions with side effects that the offset uses other
 * than once are evaluated once into temporaries (a GNU statement
 * expression, which gcc, clang and nvcc accept). */
static char *print_once(Emitter *e, Poly *p, int first_atom)
{
  Ctx *ctx = e->ctx;
  bool wide = !poly_fits_int(p);
  Buf b = {0};
  int slots = 0;
  for (Atom *a = ctx->atoms; a && a->id >= first_atom; a = a->next)
    if (a->kind == A_VAR && text_has_side_effects(a->text) && count_atom(p, a) != 1)
      a->slot = slots++;
  if (slots) {
    buf_puts(&b, "__extension__ ({ ");
    for (int s = slots - 1; s >= 0; s--)
      for (Atom *a = ctx->atoms; a && a->id >= first_atom; a = a->next)
        if (a->kind == A_VAR && a->slot == s)
          buf_printf(&b, "%s pa_ix%d = (%s); ", wide ? "long long" : "int", s, a->text);
    buf_puts(&b, "(");
    poly_print(&b, p, wide);
    for (Atom *a = ctx->atoms; a && a->id >= first_atom; a = a->next)
      if (a->kind == A_VAR && a->slot >= 0 && count_atom(p, a) == 0)
        buf_printf(&b, ") + 0 * (pa_ix%d", a->slot);
    buf_puts(&b, "); })");
    for (Atom *a = ctx->atoms; a && a->id >= first_atom; a = a->next)
      a->slot = -1;
  } else {
    buf_putc(&b, '(');
    poly_print(&b, p, wide);
    buf_putc(&b, ')');
  }
  char *s = ctx_strdup(ctx, b.data);
  buf_free(&b);
  return s;
}

char *poly_text(Emitter *e, Poly *p)
{
  return print_once(e, p, e->ctx->natoms);
}

Poly *tid_linear(Emitter *e, Detour *dt, Dim *d)
{
  Poly *linear = poly_var(e->ctx, dt->tid_var, dt->type->root->extent);
  return dim_index_of(e->ctx, dt->type->root, d, linear);
}

static char *tid_text(Emitter *e, Dx *dx)
{
  Detour *dt = e->detour;
  if (!dt) {
    diag_error(e->ctx, dx->path_loc, "'$%s$' outside a detour: there is no thread index here", dx->path);
    return "0";
  }
  /* tid_1_0 names node T_1_0 of the innermost thread array */
  const char *suffix = dx->path + 3;
  Dim *d = dim_resolve(e->ctx, ctx_printf(e->ctx, "%s%s", dt->type->name, suffix), dx->path_loc);
  if (!d)
    return "0";
  int first = e->ctx->natoms;
  Poly *p = dt->tid(e, dt, d);
  return print_once(e, p, first);
}

char *dollar_text(Emitter *e, Node *n)
{
  Ctx *ctx = e->ctx;
  Dx *dx = n->dx;
  if (dx->kind == DX_TID)
    return tid_text(e, dx);
  Dim *d = dim_resolve(ctx, dx->path, dx->path_loc);
  if (!d)
    return "0";
  int first = ctx->natoms;
  switch (dx->kind) {
  case DX_DIM:
    return print_once(e, d->extent, first);
  case DX_CNT: {
    char *c;
    int r = dim_contiguous(ctx, d, &c);
    if (r >= 0)
      return r ? "1" : "0";
    if (c)
      return ctx_printf(ctx, "(%s)", c);
    diag_error(ctx, dx->path_loc, "cannot decide '$cnt(%s)$': the layout is not strided and its sizes are not constants",
               dx->path);
    return "0";
  }
  case DX_INDEX: {
    if (d->type->kind != TK_NONE && !dim_thread_type(d)) {
      diag_error(ctx, dx->path_loc, "'%s' is a thread array: index it with '$tid$', not '$%s[...]$'", dx->path,
                 dx->path);
      return "0";
    }
    Poly *p = dim_eval(ctx, d, dx->index, e);
    return p ? print_once(e, p, first) : "0";
  }
  default:
    return "0";
  }
}

char *fragment_text(Emitter *e, Node *list)
{
  Buf b = {0};
  for (Node *n = list; n; n = n->next) {
    if (n->kind == N_DOLLAR) {
      if (n->text)
        buf_puts(&b, n->text); /* the blanks before the '$' */
      buf_puts(&b, dollar_text(e, n));
    }
    else if (n->kind == N_TEXT)
      buf_puts(&b, substitute(e->ctx, n->text));
  }
  char *s = ctx_strdup(e->ctx, b.data ? b.data : "");
  buf_free(&b);
  return s;
}
