/* text.c: the output buffer with #line tracking, directive indentation,
 * dedent, C string literals and generated names. */
#include "print/text.h"
#include "ctext.h"

#include <stdlib.h>
#include <string.h>

/* ---- output ---- */

Out out_new(Ctx *ctx, int line)
{
  Out o = {{.ctx = ctx}, line, 0, ctx};
  return o;
}

bool out_at_bol(const Out *o)
{
  return o->b.len == 0 || o->b.data[o->b.len - 1] == '\n';
}

static void sync_line(Out *o, int line)
{
  if (!o->ctx->opt.line_directives || line <= 0 || o->line == line)
    return;
  int fline;
  const char *file = diag_src_file(o->ctx, line, &fline);
  buf_printf(&o->b, "#line %d \"", fline);
  for (const char *p = file; *p; p++) {
    if (*p == '"' || *p == '\\')
      buf_putc(&o->b, '\\');
    buf_putc(&o->b, *p);
  }
  buf_puts(&o->b, "\"\n");
  o->line = line;
}

static void put_char(Out *o, char c)
{
  buf_putc(&o->b, c);
  if (c == '\n' && o->line >= 0)
    o->line++;
}

void out_src(Out *o, const char *text, Loc loc)
{
  int line = loc.line;
  o->gen_line = 0;
  for (const char *p = text; *p; p++) {
    if (out_at_bol(o))
      sync_line(o, line);
    put_char(o, *p);
    if (*p == '\n' && diag_src_seg_start(o->ctx, ++line))
      o->line = -1; /* another file, or a jump: a new #line */
  }
}

void out_gen(Out *o, Loc loc, const char *fmt, ...)
{
  Buf b = {.ctx = o->ctx};
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  /* one #line for all the code of one directive */
  for (size_t i = 0; i < b.len; i++) {
    if (out_at_bol(o) && o->gen_line != loc.line) {
      sync_line(o, loc.line);
      o->gen_line = loc.line;
    }
    put_char(o, b.data[i]);
  }
  buf_free(&b);
}

void out_pin(Out *o)
{
  o->gen_line = 0;
}

void out_append(Out *dst, Out *src)
{
  if (!src->b.len)
    return;
  buf_puts(&dst->b, src->b.data);
  dst->line = -1;
}

void out_free(Out *o)
{
  buf_free(&o->b);
}

/* ---- pieces of text ---- */

const char *text_indent_of(Node *n)
{
  return n->out_indent ? n->out_indent : n->text ? n->text : "";
}

char *text_c_string(Ctx *ctx, const char *s)
{
  Buf b = {.ctx = ctx};
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

/* the title of a #copy's block, for its comment */
char *text_copy_title(Ctx *ctx, Node *n, const char *src, const char *dst)
{
  bool show = !strstr(src, "*/") && !strstr(dst, "*/");
  return ctx_printf(ctx, "#copy %s(%s) to %s(%s)", n->name, show ? src : "..", n->name2, show ? dst : "..");
}

/* Does the generated code use identifier `name`?  Comments, strings and
 * #line directives do not count. */
bool text_mentions(const char *t, const char *name)
{
  if (!strstr(t, name)) /* the common answer, without reading tokens */
    return false;
  CText c = ctext(t, NULL, CT_DIRECTIVES);
  for (CTok k = ctext_next(&c); k.kind != CT_END; k = ctext_next(&c)) {
    if (k.kind == CT_PREPROC && strncmp(k.s, "#line ", 6)) {
      /* #pragma omp ... private(x) mentions x */
      CText d = ctext(k.s + 1, k.s + k.n, 0);
      for (CTok w = ctext_code(&d); w.kind != CT_END; w = ctext_code(&d))
        if (ctok_word(w, name))
          return true;
    }
    if (ctok_word(k, name))
      return true;
  }
  return false;
}

/* The body text without the blank rest of the '{' line (moving a leading
 * #line on by one) and the blanks before the closing '}'. */
char *text_tidy_body(Ctx *ctx, const char *text)
{
  const char *p = text;
  char *head = "";
  if (!strncmp(p, "#line ", 6)) {
    const char *nl = strchr(p, '\n');
    const char *q = nl ? nl + strspn(nl + 1, " \t") + 1 : NULL;
    if (q && *q == '\n') {
      char *rest;
      long line = strtol(p + 6, &rest, 10);
      head = ctx_printf(ctx, "#line %ld%s\n", line + 1, ctx_strndup(ctx, rest, (size_t)(nl - rest)));
      p = q + 1;
    }
  } else {
    const char *q = p + strspn(p, " \t");
    if (*q == '\n')
      p = q + 1;
  }
  size_t n = strlen(p);
  while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
    n--;
  return ctx_printf(ctx, "%s%s", head, ctx_strndup(ctx, p, n));
}

/* every line but preprocessor and blank lines starts with k spaces */
static bool all_indented(const char *text, size_t k)
{
  for (const char *l = text; *l;) {
    size_t sp = strspn(l, " ");
    if (l[0] != '#' && l[sp] != '\n' && l[sp] && sp < k)
      return false;
    const char *nl = strchr(l, '\n');
    l = nl ? nl + 1 : l + strlen(l);
  }
  return true;
}

/* whole: shifts a detour body left by the directive's indentation, so it
 * sits in its function as it sat in the detour (untouched unless every
 * line but preprocessor lines has that indentation).  Otherwise: removes
 * the indentation from each line that starts with it. */
char *text_dedent(Ctx *ctx, const char *text, const char *indent, bool whole)
{
  size_t k = strlen(indent);
  if (whole && (!k || !all_indented(text, k)))
    return (char *)text;
  Buf b = {.ctx = ctx};
  for (const char *l = text; *l;) {
    const char *nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) + 1 : strlen(l);
    size_t skip = 0;
    if (whole) {
      skip = l[0] == '#' ? 0 : strspn(l, " ");
      if (skip > k)
        skip = k;
    } else if (k && !strncmp(l, indent, k)) {
      skip = k;
    }
    for (size_t i = skip; i < len; i++)
      buf_putc(&b, l[i]);
    l += len;
  }
  char *r = ctx_strdup(ctx, b.data ? b.data : "");
  buf_free(&b);
  return r;
}

const char *text_loc_file(Ctx *ctx, Loc loc)
{
  int line;
  return diag_src_file(ctx, loc.line, &line);
}

int text_loc_line(Ctx *ctx, Loc loc)
{
  int line;
  diag_src_file(ctx, loc.line, &line);
  return line;
}

char *text_line_directive(Ctx *ctx, int line)
{
  int fline;
  const char *file = diag_src_file(ctx, line, &fline);
  return ctx_printf(ctx, "#line %d %s", fline, text_c_string(ctx, file));
}

/* ---- generated names ---- */

char *text_gen_name(Ctx *ctx, const char *role, const char *what, Node *n)
{
  char *s = ctx_printf(ctx, "pa_%s_%s", role, what);
  if (!n)
    return s;
  /* the file and line the comments and messages give: a directive of an
   * included file is named after that file's stem */
  const char *file = text_loc_file(ctx, n->loc);
  if (strcmp(file, ctx->opt.display)) {
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    Buf stem = {.ctx = ctx};
    for (const char *c = base; *c && *c != '.'; c++)
      buf_putc(&stem, util_is_ident_char((unsigned char)*c) ? *c : '_');
    s = ctx_printf(ctx, "%s_%s", s, stem.data ? stem.data : "h");
    buf_free(&stem);
  }
  s = ctx_printf(ctx, "%s_L%d", s, text_loc_line(ctx, n->loc));
  if (ctx->instance && !strstr(what, ctx_printf(ctx, "_in%d", ctx->instance->id)))
    s = ctx_printf(ctx, "%s_in%d", s, ctx->instance->id);
  return s;
}

const char *text_dim_cname(Ctx *ctx, Dim *d)
{
  return ctx_printf(ctx, "%s%s", d->type->cname, d->path + strlen(d->type->name));
}
