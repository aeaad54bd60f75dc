/* parrayc_web.c: parrayc's entry point in WebAssembly (the playground,
 * web/index.html).  The driver is left out: no files are written and no
 * compiler is run.  One call translates a program held in memory, or
 * explains a type or the accesses of a line, and returns everything as one
 * JSON object for the page:
 *
 *   {"status": 0|1, "output": TEXT, "cuda": BOOL, "backends": "cuda mpi omp pthd",
 *    "types": [{"name", "kind", "line"}...], "diagnostics": [gcc's JSON]}
 *
 * output is what native parrayc prints on standard output for the same
 * request (-o -, --explain, --explain-access), diagnostics what it prints
 * with -fdiagnostics-format=json on standard error. */
#include "emit/emit.h"
#include "explain/explain.h"
#include "targets/all.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#define EMSCRIPTEN_KEEPALIVE
#endif

/* qsort as native parrayc's C library (glibc) has it: a merge sort that
 * keeps equal elements in order, halves split as glibc's msort splits
 * them.  Emscripten's (musl's) smoothsort does not keep them, and the
 * compiler sorts with comparators that call some elements equal (the
 * copy loops of model/copy_plan.c where strides are symbols): the same
 * sort keeps the outputs the native compiler's.  Defined here, it
 * replaces the library's in the link. */
static void merge_sort(char *a, char *tmp, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
  if (n < 2)
    return;
  size_t n1 = n / 2, i = 0, j = n1, k = 0;
  merge_sort(a, tmp, n1, size, cmp);
  merge_sort(a + n1 * size, tmp, n - n1, size, cmp);
  while (i < n1 && j < n) {
    bool left = cmp(a + i * size, a + j * size) <= 0;
    memcpy(tmp + k++ * size, a + (left ? i++ : j++) * size, size);
  }
  memcpy(tmp + k * size, a + i * size, (n1 - i) * size);
  k += n1 - i;
  memcpy(tmp + k * size, a + j * size, (n - j) * size);
  memcpy(a, tmp, n * size);
}

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
  if (n < 2)
    return;
  char *tmp = malloc(n * size);
  merge_sort(base, tmp, n, size, cmp);
  free(tmp);
}

enum { WEB_TRANSLATE, WEB_EXPLAIN, WEB_ACCESS };
enum { WEB_NO_LINE = 1, WEB_THREAD_MAP = 2, WEB_NO_WARNINGS = 4 };

/* s as a JSON string */
static void json_str(FILE *f, const char *s)
{
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p == '\n')
      fputs("\\n", f);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

static const char *kind_name(const Type *t)
{
  static const char *const kinds[] = {"data", "pthd", "omp", "cuda", "mpi"};
  return kinds[t->kind];
}

/* The file-wide types, in the order written: the words the page explains. */
static void put_types(FILE *f, Ctx *ctx)
{
  int n = 0;
  for (Type *t = ctx->types; t; t = t->next)
    n++;
  Type **v = calloc((size_t)n + 1, sizeof *v);
  n = 0;
  for (Type *t = ctx->types; t; t = t->next)
    if (t->scope == 0)
      v[n++] = t;
  fputc('[', f);
  for (int i = n - 1; i >= 0; i--) {
    fputs(i < n - 1 ? ", {\"name\": " : "{\"name\": ", f);
    json_str(f, v[i]->name);
    fputs(", \"kind\": ", f);
    json_str(f, kind_name(v[i]));
    fprintf(f, ", \"line\": %d}", v[i]->loc.line);
  }
  fputc(']', f);
  free(v);
}

/* Splits "NAME=VALUE\nNAME\n..." (-D) into the words Options wants. */
static int split_defines(char *defs, const char **out, int max)
{
  int n = 0;
  for (char *save = NULL, *w = strtok_r(defs, "\n", &save); w && n < max; w = strtok_r(NULL, "\n", &save))
    if (*w)
      out[n++] = w;
  return n;
}

/* Runs one request (mode: WEB_TRANSLATE, WEB_EXPLAIN with arg the type,
 * WEB_ACCESS with line); returns the JSON object, malloc'd. */
EMSCRIPTEN_KEEPALIVE
char *parrayc_web(const char *path, const char *src, int mode, const char *arg, const char *format,
                  const char *defines, int line, int flags)
{
  char *defs = strdup(defines ? defines : "");
  const char *dv[64];
  DiagLog log = {0};
  Options opt = {
    .input = path, .display = path, .line_directives = !(flags & WEB_NO_LINE),
    .explain = mode == WEB_EXPLAIN ? arg : NULL, .explain_format = format && *format ? format : NULL,
    .defines = dv, .ndefines = split_defines(defs, dv, 64),
    .access_line = mode == WEB_ACCESS ? line : 0, .thread_map = flags & WEB_THREAD_MAP,
    .error_limit = 20, .no_warnings = flags & WEB_NO_WARNINGS, .log = &log,
  };
  Ctx *ctx = ctx_new(&opt, src, strlen(src));
  char *text = NULL, *out = NULL, *json = NULL;
  size_t outlen = 0, jsonlen = 0;
  FILE *o = open_memstream(&out, &outlen);
  if (include_headers(ctx) && parse_source(ctx))
    text = emit_program(ctx, targets_all);
  bool ok = text != NULL;
  if (ok && mode == WEB_TRANSLATE) {
    fputs(text, o);
  } else if (ok && mode == WEB_EXPLAIN) {
    Dim *d = dim_resolve(ctx, arg, (Loc){0, 0});
    ok = d && explain_type(ctx, d, o);
  } else if (ok && mode == WEB_ACCESS) {
    ok = explain_access(ctx, o);
  }
  fclose(o);
  FILE *j = open_memstream(&json, &jsonlen);
  fprintf(j, "{\"status\": %d, \"output\": ", ok ? 0 : 1);
  json_str(j, out);
  fprintf(j, ", \"cuda\": %s, \"backends\": \"%s%s%s%s\", \"types\": ", ctx->uses_gpu ? "true" : "false",
          ctx->uses_gpu ? "cuda " : "", ctx->uses_mpi ? "mpi " : "", ctx->uses_omp ? "omp " : "",
          ctx->uses_pthd ? "pthd" : "");
  put_types(j, ctx);
  fputs(", \"diagnostics\": ", j);
  diag_log_json(&log, j);
  fputs("}", j);
  fclose(j);
  free(out);
  free(text);
  free(defs);
  diag_log_free(&log);
  ctx_free(ctx);
  return json;
}

EMSCRIPTEN_KEEPALIVE
void parrayc_web_free(char *p)
{
  free(p);
}
