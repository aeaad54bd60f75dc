/* diag.c: diagnostics.  Every message names FILE:LINE:COL, shows the source
 * line and puts a caret under the column. */
#include "parrayc.h"

#include <string.h>

static void show_line(Ctx *ctx, Loc loc)
{
  if (loc.line < 1 || loc.line > ctx->nlines)
    return;
  const char *s = ctx->lines[loc.line - 1];
  const char *end = s;
  while (*end && *end != '\n')
    end++;
  int len = (int)(end - s);
  if (len > 0 && s[len - 1] == '\r')
    len--;
  fprintf(stderr, "  %.*s\n  ", len, s);
  for (int i = 1; i < loc.col && i <= len; i++)
    fputc(s[i - 1] == '\t' ? '\t' : ' ', stderr);
  fputs("^\n", stderr);
}

/* The names of the kinds of warning, in Warn's order. */
static const char *const warn_names[NWARN] = {
  "size-reference", "thread-extent", "reshape", "unused-command-line-argument",
};

const char *diag_warn_name(Warn w)
{
  return warn_names[w];
}

int diag_warn_find(const char *name)
{
  for (int w = 0; w < NWARN; w++)
    if (!strcmp(warn_names[w], name))
      return w;
  return -1;
}

/* As gcc: -w silences all; -Wno-NAME its kind; -Werror=NAME and
 * -Wno-error=NAME decide over -Werror. */
const char *diag_warn_kind(bool none, bool all_errors, WarnFlags f, Warn w, char option[64])
{
  unsigned bit = 1u << w;
  if (none || (f.off & bit))
    return NULL;
  bool error = f.error & bit ? true : f.noerror & bit ? false : all_errors;
  snprintf(option, 64, "-W%s%s", error ? "error=" : "", warn_names[w]);
  return error ? "error" : "warning";
}

static void report(Ctx *ctx, Loc loc, const char *kind, const char *option, const char *fmt, va_list ap)
{
  /* gcc's colours: bold location, red errors, magenta warnings, cyan notes */
  if (ctx->opt.log) {
    char msg[2048];
    int line = 0;
    const char *file = diag_src_file(ctx, loc.line, &line);
    vsnprintf(msg, sizeof msg, fmt, ap);
    diag_log_add(ctx->opt.log, kind, file, loc.line > 0 ? line : 0, loc.line > 0 ? loc.col : 0, msg, option);
    return;
  }
  bool c = ctx->opt.color;
  const char *hue = kind[0] == 'e' ? "\033[01;31m" : kind[0] == 'w' ? "\033[01;35m" : "\033[01;36m";
  int line;
  const char *file = diag_src_file(ctx, loc.line, &line);
  if (loc.line > 0)
    fprintf(stderr, "%s%s:%d:%d:%s ", c ? "\033[01m" : "", file, line, loc.col, c ? "\033[m" : "");
  else
    fprintf(stderr, "%s%s:%s ", c ? "\033[01m" : "", file, c ? "\033[m" : "");
  fprintf(stderr, "%s%s:%s ", c ? hue : "", kind, c ? "\033[m" : "");
  vfprintf(stderr, fmt, ap);
  if (option) /* gcc's [-Wname], coloured as the kind */
    fprintf(stderr, " [%s%s%s]", c ? hue : "", option, c ? "\033[m" : "");
  fputc('\n', stderr);
  show_line(ctx, loc);
}

/* After opt.error_limit errors, one last line; the stages see ctx->stopped
 * and wind down, and every later message is dropped. */
static void count_error(Ctx *ctx)
{
  ctx->errors++;
  if (ctx->opt.error_limit > 0 && ctx->errors >= ctx->opt.error_limit && !ctx->stopped) {
    if (!ctx->opt.log)
      fprintf(stderr, "%s: fatal error: too many errors emitted, stopping now [-ferror-limit=]\n", ctx->opt.display);
    ctx->stopped = true;
  }
}

/* Has this error (same line, same instance, same text) just been said?
 * Two uses of one bad name in one statement are one mistake. */
static bool repeated(Ctx *ctx, Loc loc, const char *fmt, va_list ap)
{
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  unsigned long h = util_hash_str(msg, HASH_SEED ^ (unsigned long)loc.line);
  h = util_hash_str(ctx->instance ? "i" : "", h ^ (unsigned long)(ctx->instance ? ctx->instance->id : 0));
  int n = ctx->nrecent < 16 ? ctx->nrecent : 16;
  for (int i = 0; i < n; i++)
    if (ctx->recent[i] == h)
      return true;
  ctx->recent[ctx->nrecent++ % 16] = h;
  return false;
}

void diag_error(Ctx *ctx, Loc loc, const char *fmt, ...)
{
  if (ctx->stopped || ctx->muted)
    return;
  va_list ap;
  va_start(ap, fmt);
  ctx->repeating = loc.line > 0 && repeated(ctx, loc, fmt, ap);
  va_end(ap);
  if (ctx->repeating)
    return;
  /* inside a subprogram instance, the error is in the inserted text */
  va_start(ap, fmt);
  report(ctx, loc, "error", NULL, fmt, ap);
  va_end(ap);
  for (Instance *in = ctx->instance; in; in = in->parent)
    diag_note(ctx, in->insert->loc, "in the subprogram inserted here");
  count_error(ctx);
}

void diag_note(Ctx *ctx, Loc loc, const char *fmt, ...)
{
  if (ctx->stopped || ctx->repeating || ctx->muted)
    return;
  va_list ap;
  va_start(ap, fmt);
  report(ctx, loc, "note", NULL, fmt, ap);
  va_end(ap);
}

void diag_warning(Ctx *ctx, Warn w, Loc loc, const char *fmt, ...)
{
  char option[64];
  const char *kind = diag_warn_kind(ctx->opt.no_warnings, ctx->opt.werror, ctx->opt.warn, w, option);
  if (!kind || ctx->stopped || ctx->muted)
    return;
  ctx->repeating = false;
  va_list ap;
  va_start(ap, fmt);
  report(ctx, loc, kind, option, fmt, ap);
  va_end(ap);
  if (kind[0] == 'e')
    count_error(ctx);
  else
    ctx->warnings++;
}

const char *diag_src_file(Ctx *ctx, int line, int *file_line)
{
  int i = ctx->nsegs;
  while (i > 0 && ctx->segs[i - 1].line > line)
    i--;
  if (i == 0) {
    *file_line = line;
    return ctx->opt.display;
  }
  SrcSeg *s = &ctx->segs[i - 1];
  *file_line = s->file_line + (line - s->line);
  return s->file;
}

bool diag_src_seg_start(Ctx *ctx, int line)
{
  for (int i = 0; i < ctx->nsegs; i++)
    if (ctx->segs[i].line == line)
      return true;
  return false;
}
