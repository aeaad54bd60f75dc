/* test_robust.c: inputs that once crashed, hung or flooded parrayc (issue
 * 16): over-reads at the end of the input, deep '$' nesting, long chains of
 * unary minus, CR-only line ends, the error limit, names whose
 * declaration failed, the scratch regions that give back a $...$'s
 * memory (issue 55), and a typedef's brackets never closed. */
#include "pa_test.h"

/* The errors of src under opt, with stderr captured; *warnings gets the
 * warnings. */
static int errors_with(Options opt, const char *src, char **err, int *warnings)
{
  return pa_translate_err_opt(opt, src, err, warnings);
}

static int errors_limited(const char *src, int limit, char **err)
{
  int w;
  return errors_with((Options){.input = "t.pa", .display = "t.pa", .error_limit = limit}, src, err, &w);
}

static char *repeat(const char *head, const char *unit, int n, const char *tail)
{
  size_t len = strlen(head) + strlen(unit) * (size_t)n + strlen(tail) + 1;
  char *s = malloc(len), *p = s;
  p = stpcpy(p, head);
  for (int i = 0; i < n; i++)
    p = stpcpy(p, unit);
  strcpy(p, tail);
  return s;
}

/* Scratch regions (util.c, issue 55): the outermost one's end gives back
 * what it took, zeroed for the next; a nested end gives back nothing; a
 * region where ctx_keep was called stays; ctx_kept_strdup's text is made
 * outside the region and outlives it. */
START_TEST(scratch_regions)
{
  Ctx *ctx = ctx_new(&(Options){.input = "t.pa", .display = "t.pa"}, "", 0);
  ScratchMark m = ctx_scratch_begin(ctx);
  char *kept = ctx_kept_strdup(ctx, "kept");
  memset(ctx_alloc(ctx, 64), 1, 64);
  ScratchMark inner = ctx_scratch_begin(ctx);
  ctx_alloc(ctx, 32);
  ctx_scratch_end(ctx, inner);
  ScratchMark after_inner = ctx_scratch_begin(ctx);
  ck_assert(after_inner.block != m.block || after_inner.used > m.used); /* the nested end gave nothing back */
  ctx_scratch_end(ctx, after_inner);
  ctx_scratch_end(ctx, m);
  ScratchMark again = ctx_scratch_begin(ctx);
  ck_assert_ptr_eq(again.block, m.block);
  ck_assert_uint_eq(again.used, m.used);
  unsigned char *p = ctx_alloc(ctx, 64);
  for (int i = 0; i < 64; i++)
    ck_assert_uint_eq(p[i], 0);
  ctx_keep(ctx);
  ctx_scratch_end(ctx, again);
  ScratchMark later = ctx_scratch_begin(ctx);
  ck_assert(later.block != m.block || later.used > m.used); /* the kept region stayed */
  ck_assert_int_eq(ctx->scratch_depth, 1);
  ctx_scratch_end(ctx, later);
  ck_assert_int_eq(ctx->scratch_depth, 0);
  ck_assert_str_eq(kept, "kept");
  ctx_free(ctx);
}
END_TEST

/* a file that ends in a backslash and one character, no newline: the scan
 * for the last declaration once read past the end (ASan) */
START_TEST(backslash_at_the_end)
{
  char *out = pa_translate("int x; // a\\b");
  ck_assert_ptr_nonnull(out);
  free(out);
  out = pa_translate("#define A 1\\x");
  ck_assert_ptr_nonnull(out);
  free(out);
}
END_TEST

/* past 64 nested '$', one error, and the lexer's depth stack never indexed
 * at -1 (ASan/UBSan) */
START_TEST(deep_dollar_nesting)
{
  char *src = repeat("#parray {paged float [4]} A\nint x = ", "$A[", 10000, "\n");
  char *err;
  ck_assert_int_eq(errors_limited(src, 20, &err), 1);
  ck_assert_ptr_nonnull(strstr(err, "nested too deeply"));
  free(err);
  free(src);
}
END_TEST

/* 200,000 unary minus signs: no recursion per sign (a stack overflow
 * without optimisation) */
START_TEST(long_unary_minus_chain)
{
  char *src = repeat("#parray {paged float [", "-", 200000, "5]} A\n");
  ck_assert_int_eq(pa_error_count(src), 0);
  free(src);
  src = repeat("#parray {paged float [", "-", 200001, "5]} A\n");
  ck_assert_int_eq(pa_error_count(src), 1); /* extent -5 is not positive */
  free(src);
  /* negating LLONG_MIN is an overflow, not undefined behaviour */
  ck_assert_int_eq(pa_error_count("#parray {paged float [-(-9223372036854775807-1)]} A\n"), 1);
}
END_TEST

/* CR-only line ends: each CR ends a line, so directives are recognised */
START_TEST(cr_line_ends)
{
  Ctx *ctx;
  char *out = pa_translate_ctx("#parray {paged float [4]} A\r#mainhost {\r  #create A(x)\r  #destroy A(x)\r}\r",
                               false, &ctx);
  ck_assert_ptr_nonnull(out);
  ck_assert_int_eq(ctx->nlines, 6);
  ck_assert_ptr_nonnull(strstr(out, "pa_alloc_host"));
  ck_assert_ptr_null(strstr(out, "#create"));
  free(out);
  ctx_free(ctx);
}
END_TEST

/* the error limit: 20 errors, then one line, and nothing more */
START_TEST(error_limit_stops)
{
  char *src = repeat("", "int x = $B[1]$;\n#parray {paged float [0]} Z\n", 100, "");
  char *err;
  ck_assert_int_eq(errors_limited(src, 20, &err), 20);
  ck_assert_ptr_nonnull(strstr(err, "too many errors emitted, stopping now [-ferror-limit=]"));
  free(err);
  ck_assert_int_eq(errors_limited(src, 0, &err), 101); /* 'B' once, each bad Z once */
  ck_assert_ptr_null(strstr(err, "too many errors"));
  free(err);
  free(src);
}
END_TEST

/* an mpi body's parameter of a typedef'd array whose brackets never close
 * (libFuzzer, tests/fuzz/crashes/capture_typedef_unclosed_bracket.pa): the
 * capture's decay read past a NULL close; the declaration goes through as
 * written, for the C compiler to reject */
START_TEST(typedef_brackets_never_closed)
{
  char *err;
  int n = pa_translate_err("typedef int triple[ ;\n#parray {mpi [2]} P\n"
                           "static int run(triple par)\n{\n  int s = 0;\n  #detour P {\n    s += par[0];\n  }\n"
                           "  return s;\n}\n#mainhost {\n  return run(0);\n}\n",
                           &err);
  ck_assert_int_eq(n, 0);
  free(err);
}
END_TEST

/* a #parray that failed is poisoned: its uses add no "undefined type" */
START_TEST(failed_type_is_poisoned)
{
  ck_assert_int_eq(pa_error_count("#parray {paged float [0]} A\nint a = $A[1]$;\nint b = $dim(A)$;\n"), 1);
  ck_assert_int_eq(pa_error_count("int a = $B[1]$;\nint b = $B[2]$;\nint c = $C[0]$;\n"), 2);
  /* three independent mistakes, three errors */
  ck_assert_int_eq(pa_error_count("#parray {paged float [0]} A\n#parray {paged float [4]} B\n"
                                  "int a = $A[1]$ + $B[1][2]$;\n#mainhost {\n  #create C(c)\n  #create A(a)\n}\n"),
                   3);
}
END_TEST

/* the warnings: on by default, off with -w, errors with -Werror */
START_TEST(warning_flags)
{
  const char *src = "#parray {paged float [3][4]} B\n#parray {paged float [4][3]} C\n"
                    "#parray {paged float [B_0]} E\n"
                    "void f(float *b, float *c) {\n#copy B(b) to C(c)\n}\n";
  Options opt = {.input = "t.pa", .display = "t.pa"};
  char *err;
  int w;
  ck_assert_int_eq(errors_with(opt, src, &err, &w), 0);
  ck_assert_int_eq(w, 2);
  ck_assert_ptr_nonnull(strstr(err, "did you mean the reference '#B_0'?"));
  ck_assert_ptr_nonnull(strstr(err, "for a transpose copy from a view '[#B_1][#B_0]'"));
  free(err);
  opt.no_warnings = true;
  ck_assert_int_eq(errors_with(opt, src, &err, &w), 0);
  ck_assert_int_eq(w, 0);
  ck_assert_str_eq(err, "");
  free(err);
  opt.no_warnings = false;
  opt.werror = true;
  ck_assert_int_eq(errors_with(opt, src, &err, &w), 2);
  ck_assert_ptr_nonnull(strstr(err, "error: 'B_0' is taken as a size"));
  free(err);
  /* a misspelt directive is an error, warnings or not: the C compiler
   * would reject the line */
  opt.werror = false;
  opt.no_warnings = true;
  ck_assert_int_eq(errors_with(opt, "#craete A(x)\n", &err, &w), 1);
  ck_assert_ptr_nonnull(strstr(err, "t.pa:1:2: error: unknown directive '#craete'"));
  ck_assert_ptr_nonnull(strstr(err, "did you mean '#create'?"));
  free(err);
  opt.no_warnings = false;
  /* no false alarms: C directives, other words, real types */
  opt.werror = false;
  ck_assert_int_eq(errors_with(opt, "#if 0\n#endif\n#define S(x) #x\n#pragma once\n#parray {paged unsigned int [4]} A\n"
                   "#parray {paged float [2][2]} B\n#parray {paged float [2][2]} C\n"
                   "void f(float *b, float *c) {\n#copy B(b) to C(c)\n}\n", &err, &w), 0);
  ck_assert_int_eq(w, 0);
  free(err);
}
END_TEST

/* the C compiler's errors for a misspelt element type or an undeclared
 * size name the #parray's line, not the #create's */
START_TEST(type_errors_at_the_declaration)
{
  Ctx *ctx;
  char *out = pa_translate_ctx("#parray {paged flaot [nn]} A\nvoid f(void)\n{\n  #create A(a)\n}\n", true, &ctx);
  ck_assert_ptr_nonnull(out);
  ck_assert_ptr_nonnull(strstr(out, "#line 1 \"t.pa\"\n  (void)sizeof(flaot);\n"
                                    "  pa_check_sizes(\"A\", \"t.pa\", 4, 1LL, 1, \"nn\", (long long)nn, 1);\n"
                                    "#line 4 \"t.pa\"\n  flaot *a = "));
  free(out);
  ctx_free(ctx);
  /* C's own types need no check */
  out = pa_translate("#parray {paged unsigned int [4]} A\n#parray {paged float4 [4]} B\nvoid f(void)\n{\n"
                     "  #create A(a)\n  #create B(b)\n}\n");
  ck_assert_ptr_nonnull(out);
  ck_assert_ptr_null(strstr(out, "(void)sizeof("));
  free(out);
}
END_TEST

static Suite *make(void)
{
  Suite *s = suite_create("robust");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, backslash_at_the_end);
  tcase_add_test(tc, deep_dollar_nesting);
  tcase_add_test(tc, long_unary_minus_chain);
  tcase_add_test(tc, cr_line_ends);
  tcase_add_test(tc, error_limit_stops);
  tcase_add_test(tc, typedef_brackets_never_closed);
  tcase_add_test(tc, failed_type_is_poisoned);
  tcase_add_test(tc, warning_flags);
  tcase_add_test(tc, type_errors_at_the_declaration);
  tcase_add_test(tc, scratch_regions);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  return pa_run_suite(make());
}
