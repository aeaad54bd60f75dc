/* pa_test.h: helpers shared by the unit tests of the compiler.  Everything
 * is static so that each test file includes this once and links alone.
 * parrayc writes its diagnostics to stderr: in tests that is expected. */
#ifndef PA_TEST_H
#define PA_TEST_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit/emit.h"
#include "parrayc.h"
#include "targets/all.h"


/* not every test file uses every helper */
#define PA_HELPER static __attribute__((unused))

PA_HELPER Ctx *pa_ctx_new(const char *src, bool lines)
{
  Options opt = {.input = "t.pa", .display = "t.pa", .line_directives = lines};
  return ctx_new(&opt, src, strlen(src));
}

/* Translates src; *ctxp keeps the context (types, errors) for inspection.
 * Returns the generated text (malloc'd) or NULL on errors. */
PA_HELPER char *pa_translate_ctx(const char *src, bool lines, Ctx **ctxp)
{
  Ctx *ctx = pa_ctx_new(src, lines);
  Node *tree = parse_source(ctx);
  char *out = tree ? emit_program(ctx, targets_all) : NULL;
  *ctxp = ctx;
  return out;
}

/* Translates without #line directives; NULL on errors. */
PA_HELPER char *pa_translate(const char *src)
{
  Ctx *ctx;
  char *out = pa_translate_ctx(src, false, &ctx);
  ctx_free(ctx);
  return out;
}

/* The number of errors translating src reports (0: it translates). */
PA_HELPER int pa_error_count(const char *src)
{
  Ctx *ctx;
  char *out = pa_translate_ctx(src, false, &ctx);
  int n = ctx->errors;
  if (!out && n == 0)
    n = -1; /* no output and no error: a bug */
  free(out);
  ctx_free(ctx);
  return n;
}

/* Parses src only; NULL on syntax errors.  *ctxp keeps the context. */
PA_HELPER Node *pa_parse(const char *src, Ctx **ctxp)
{
  *ctxp = pa_ctx_new(src, false);
  return parse_source(*ctxp);
}

/* Translates src under opt with stderr captured: returns the number of
 * errors, sets *err to what parrayc printed (malloc'd) and *warnings to
 * the number of warnings. */
PA_HELPER int pa_translate_err_opt(Options opt, const char *src, char **err, int *warnings)
{
  fflush(stderr);
  int saved = dup(2);
  FILE *tmp = tmpfile();
  dup2(fileno(tmp), 2);
  Ctx *ctx = ctx_new(&opt, src, strlen(src));
  Node *tree = parse_source(ctx);
  char *out = tree ? emit_program(ctx, targets_all) : NULL;
  int n = ctx->errors;
  *warnings = ctx->warnings;
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  /* the text went through the descriptor, not the FILE */
  off_t len = lseek(fileno(tmp), 0, SEEK_END);
  *err = calloc(1, (size_t)len + 1);
  if (pread(fileno(tmp), *err, (size_t)len, 0) != (ssize_t)len)
    (*err)[0] = 0;
  fclose(tmp);
  free(out);
  ctx_free(ctx);
  return n;
}

/* Translates src with stderr captured: returns the number of errors and
 * sets *err to what parrayc printed (malloc'd). */
PA_HELPER int pa_translate_err(const char *src, char **err)
{
  int warnings;
  return pa_translate_err_opt((Options){.input = "t.pa", .display = "t.pa"}, src, err, &warnings);
}

/* The generated text after the header lines (the program's own text): the
 * comment every translation begins with, then the runtime headers' includes
 * (none in a program without directives). */
PA_HELPER const char *pa_body(const char *out)
{
  for (int k = 0; out && (k == 0 || !strncmp(out, "#include <parray", 16)); k++) {
    const char *nl = strchr(out, '\n');
    out = nl ? nl + 1 : out + strlen(out);
  }
  return out;
}

/* Translates "DECLS\nint pa_x = EXPR;\n" and returns EXPR's translation
 * (malloc'd), or NULL on errors. */
PA_HELPER char *pa_dollar(const char *decls, const char *expr)
{
  size_t n = strlen(decls) + strlen(expr) + 64;
  char *src = malloc(n);
  snprintf(src, n, "%s\nint pa_x = %s;\n", decls, expr);
  char *out = pa_translate(src);
  free(src);
  if (!out)
    return NULL;
  char *s = strstr(out, "int pa_x = ");
  char *r = NULL;
  if (s) {
    s += strlen("int pa_x = ");
    char *end = strstr(s, ";\n");
    r = strndup(s, end ? (size_t)(end - s) : strlen(s));
  }
  free(out);
  return r;
}

/* ck_assert_msg without check's per-assertion bookkeeping (a pipe write
 * each, in fork mode): for assertions in hot loops. */
#define pa_check(cond, ...)        \
  do {                             \
    if (!(cond))                   \
      ck_abort_msg(__VA_ARGS__);   \
  } while (0)

/* Asserts that $...$ expression expr (under decls) translates to want. */
#define ck_dollar(decls, expr, want)                                                  \
  do {                                                                                \
    char *got_ = pa_dollar(decls, expr);                                              \
    ck_assert_msg(got_ != NULL, "%s did not translate", expr);                        \
    ck_assert_msg(!strcmp(got_, want), "%s: got '%s', want '%s'", expr, got_, want); \
    free(got_);                                                                       \
  } while (0)

/* Asserts that out contains needle. */
#define ck_contains(out, needle)                                                              \
  ck_assert_msg((out) && strstr((out), (needle)), "'%s' not found in:\n%s", (needle), \
                (out) ? (out) : "(null)")
#define ck_lacks(out, needle)                                                                    \
  ck_assert_msg((out) && !strstr((out), (needle)), "'%s' unexpectedly found in:\n%s", (needle), \
                (out) ? (out) : "(null)")

/* How often needle occurs in s. */
PA_HELPER int pa_count(const char *s, const char *needle)
{
  int n = 0;
  size_t len = strlen(needle);
  for (const char *p = s; p && (p = strstr(p, needle)); p += len)
    n++;
  return n;
}

/* An Index of one C expression (text), for dim_eval. */
PA_HELPER Index *pa_ix_expr(Ctx *ctx, const char *text)
{
  Index *ix = ctx_alloc(ctx, sizeof *ix);
  Node *t = node_new(ctx, N_TEXT, (Loc){1, 1});
  t->text = ctx_strdup(ctx, text);
  ix->expr = t;
  ix->loc = (Loc){1, 1};
  return ix;
}

/* An Index list of n entries. */
PA_HELPER Index *pa_ix_list(Ctx *ctx, Index **items, int n)
{
  Index *ix = ctx_alloc(ctx, sizeof *ix);
  ix->items = ctx_alloc(ctx, sizeof(Index *) * (n + 1));
  memcpy(ix->items, items, sizeof(Index *) * n);
  ix->nitems = n;
  ix->loc = (Loc){1, 1};
  return ix;
}


/* off_d(i) for a constant i, through dim_offset; asserts it folds. */
PA_HELPER long long pa_offset_at(Ctx *ctx, Dim *d, long long i)
{
  Poly *var = poly_var(ctx, "pa_test_i", d->extent);
  Atom *a = var->t[0].f[0];
  long long v = -1;
  ck_assert_msg(poly_eval(dim_offset(ctx, d, var), a, i, &v), "offset of %s does not evaluate", d->path);
  return v;
}

/* Runs a suite built by make(), exits with the test status. */
PA_HELPER int pa_run_suite(Suite *s)
{
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}


/* ---- a thread array as a mixed radix of its leaves (tid tests) ---- */

#define MAX_LEAVES 16

typedef struct ThreadModel {
  Dim *leaves[MAX_LEAVES];
  long long radix[MAX_LEAVES];
  int nleaves;
  long long nthreads;
} ThreadModel;

static inline long long const_of(Poly *p)
{
  long long v = -1;
  ck_assert_msg(poly_is_const(p, &v), "extent is not constant");
  return v;
}

/* the leaves of d in order, slowest first */
static inline void collect_leaves(ThreadModel *m, Dim *d)
{
  int n = dim_nkids(d);
  if (n == 0) {
    ck_assert_int_lt(m->nleaves, MAX_LEAVES);
    m->radix[m->nleaves] = const_of(d->extent);
    m->leaves[m->nleaves++] = d;
    return;
  }
  for (int k = 0; k < n; k++)
    collect_leaves(m, dim_kid(d, k));
}


/* the leaf digits of linear index tid, digits[0] the slowest */
static inline void digits_of(const ThreadModel *m, long long tid, long long *digits)
{
  for (int k = m->nleaves - 1; k >= 0; k--) {
    digits[k] = tid % m->radix[k];
    tid /= m->radix[k];
  }
}

static inline bool leaf_in(Dim *leaf, Dim *d)
{
  if (leaf == d)
    return true;
  for (int k = 0; k < dim_nkids(d); k++)
    if (leaf_in(leaf, dim_kid(d, k)))
      return true;
  return false;
}

/* K's index: its leaves' digits in row-major order */
static inline long long brute_index(const ThreadModel *m, Dim *d, const long long *digits)
{
  long long v = 0;
  for (int k = 0; k < m->nleaves; k++)
    if (leaf_in(m->leaves[k], d))
      v = v * m->radix[k] + digits[k];
  return v;
}

#endif
