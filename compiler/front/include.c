/* include.c: Parray headers.  `#include "NAME.pah"` is spliced into the
 * source before it is parsed, so the header's #parray types, #subprog and
 * #global are declared in every file that includes it.  A segment table
 * keeps, for each line of the spliced text, the file and line it came
 * from: diagnostics and #line directives name the header. */
#include "ctext.h"
#include "parrayc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The end of the line at p (its '\n' or the NUL), keeping track of
 * block comments, which may hide an #include. */
static const char *line_end(const char *p, bool *in_comment)
{
  const char *end = p + strcspn(p, "\n");
  if (*in_comment) {
    while (p + 1 < end && !(p[0] == '*' && p[1] == '/'))
      p++;
    if (p + 1 >= end)
      return end;
    *in_comment = false;
    p += 2;
  }
  CText c = ctext(p, end, 0);
  for (CTok t = ctext_next(&c); t.kind != CT_END; t = ctext_next(&c))
    *in_comment = ctok_open_comment(t);
  return end;
}

/* The NAME of a line `#include "NAME"` (malloc'd), or NULL. */
static char *quoted_include(const char *p, const char **name_at)
{
  p += strspn(p, " \t");
  if (*p++ != '#')
    return NULL;
  p += strspn(p, " \t");
  if (strncmp(p, "include", 7))
    return NULL;
  p += 7;
  p += strspn(p, " \t");
  if (*p != '"')
    return NULL;
  const char *end = strchr(p + 1, '"');
  const char *nl = strchr(p + 1, '\n');
  if (!end || (nl && nl < end) || end == p + 1)
    return NULL;
  *name_at = p + 1;
  return strndup(p + 1, (size_t)(end - p - 1));
}

static bool has_suffix(const char *s, const char *suffix)
{
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

static bool readable(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (f)
    fclose(f);
  return f != NULL;
}

/* NAME searched next to `from`, then in the -I directories (an absolute
 * NAME as it is); NULL when not found. */
static char *find_header(Ctx *ctx, const char *from, const char *name)
{
  if (name[0] == '/')
    return readable(name) ? ctx_strdup(ctx, name) : NULL;
  const char *slash = strrchr(from, '/');
  char *path = slash ? ctx_printf(ctx, "%.*s/%s", (int)(slash - from), from, name) : ctx_strdup(ctx, name);
  if (readable(path))
    return path;
  for (int i = 0; i < ctx->opt.ninclude_dirs; i++) {
    const char *d = ctx->opt.include_dirs[i];
    path = ctx_printf(ctx, "%s%s%s", d, has_suffix(d, "/") ? "" : "/", name);
    if (readable(path))
      return path;
  }
  return NULL;
}

/* A file already listed (headers are spliced once; the real path decides). */
static bool seen(Ctx *ctx, const char *path)
{
  char *real = realpath(path, NULL);
  bool found = false;
  for (int i = 0; i < ctx->ndeps && !found; i++) {
    char *r = realpath(ctx->deps[i], NULL);
    found = r && real ? !strcmp(r, real) : !strcmp(ctx->deps[i], path);
    free(r);
  }
  free(real);
  return found;
}

static void add_dep(Ctx *ctx, const char *path)
{
  const char **v = ctx_alloc(ctx, sizeof(char *) * (ctx->ndeps + 1));
  if (ctx->ndeps)
    memcpy(v, ctx->deps, sizeof(char *) * ctx->ndeps);
  v[ctx->ndeps++] = path;
  ctx->deps = v;
}

/* C headers: listed for -M with the files they include in turn. */
static void scan_c_header(Ctx *ctx, const char *path)
{
  add_dep(ctx, path);
  size_t len;
  char *text = util_file_read(path, &len);
  if (!text)
    return;
  bool in_comment = false;
  for (const char *p = text; *p;) {
    const char *at;
    char *name = in_comment ? NULL : quoted_include(p, &at);
    if (name) {
      char *found = find_header(ctx, path, name);
      if (found && !seen(ctx, found))
        scan_c_header(ctx, found);
      free(name);
    }
    p = line_end(p, &in_comment);
    if (*p)
      p++;
  }
  free(text);
}

/* Replaces line `line` of src (the #include) with text, n lines ending in
 * '\n', that are lines 1.. of file. */
static void splice(Ctx *ctx, int line, const char *text, int n, const char *file)
{
  int fline;
  const char *outer = diag_src_file(ctx, line, &fline);
  const char *from = ctx->lines[line - 1];
  const char *rest = strchr(from, '\n');
  rest = rest ? rest + 1 : from + strlen(from);
  Buf b = {.ctx = ctx};
  buf_printf(&b, "%.*s%s%s", (int)(from - ctx->src), ctx->src, text, rest);
  size_t len = b.len;
  char *s = buf_detach(&b);
  ctx_set_source(ctx, s, len);
  free(s);

  SrcSeg *v = ctx_alloc(ctx, sizeof(SrcSeg) * (ctx->nsegs + 2));
  int k = 0;
  for (int i = 0; i < ctx->nsegs; i++)
    if (ctx->segs[i].line < line)
      v[k++] = ctx->segs[i];
  int first_after = k;
  v[k++] = (SrcSeg){line, file, 1};
  v[k++] = (SrcSeg){line + n, outer, fline + 1};
  for (int i = first_after; i < ctx->nsegs; i++)
    if (ctx->segs[i].line > line)
      v[k++] = (SrcSeg){ctx->segs[i].line + n - 1, ctx->segs[i].file, ctx->segs[i].file_line};
  ctx->segs = v;
  ctx->nsegs = k;
}

bool include_headers(Ctx *ctx)
{
  add_dep(ctx, ctx->opt.display);
  /* most inputs have no `#include "..."`: a look at each line's start
   * finds none without tracking comments */
  bool any = false;
  for (int line = 1; line <= ctx->nlines && !any; line++) {
    const char *at;
    char *name = quoted_include(ctx->lines[line - 1], &at);
    any = name != NULL;
    free(name);
  }
  if (!any)
    return true;
  bool in_comment = false;
  for (int line = 1; line <= ctx->nlines; line++) {
    const char *p = ctx->lines[line - 1], *at;
    char *name = in_comment ? NULL : quoted_include(p, &at);
    if (!name) {
      line_end(p, &in_comment);
      continue;
    }
    int fline;
    const char *from = diag_src_file(ctx, line, &fline);
    char *path = find_header(ctx, from, name);
    Loc loc = {line, (int)(at - p) + 1};
    bool parray = has_suffix(name, ".pah");
    free(name);
    if (!parray) {
      if (path && !seen(ctx, path))
        scan_c_header(ctx, path);
      else if (!path && ctx->opt.deps_missing) /* -MG: generated later, as written */
        add_dep(ctx, ctx_strndup(ctx, at, strcspn(at, "\"")));
      continue;
    }
    if (!path) {
      diag_error(ctx, loc, "Parray header '%.*s' not found (searched next to '%s'%s)",
                 (int)strcspn(at, "\""), at, from, ctx->opt.ninclude_dirs ? " and in the -I directories" : "");
      return false;
    }
    if (seen(ctx, path)) { /* once: the line stays, blank */
      for (char *q = (char *)p; *q && *q != '\n'; q++)
        *q = ' ';
      continue;
    }
    size_t len;
    char *text = util_file_read(path, &len);
    if (!text) {
      diag_error(ctx, loc, "cannot read '%s': %s", path, strerror(errno));
      return false;
    }
    add_dep(ctx, path);
    Buf b = {.ctx = ctx};
    buf_puts(&b, text);
    if (!b.len || b.data[b.len - 1] != '\n')
      buf_putc(&b, '\n');
    int n = 0;
    for (size_t i = 0; i < b.len; i++)
      n += b.data[i] == '\n';
    splice(ctx, line, b.data, n, path);
    buf_free(&b);
    free(text);
    line--; /* the header's first line is now line `line`: scan it */
  }
  return true;
}
