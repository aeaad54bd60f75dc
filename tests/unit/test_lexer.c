/* test_lexer.c: the lexer (lexer.l) seen through translation: C text passes
 * through unchanged and in order; directives and $...$ are recognised
 * exactly where SPEC.md section 1 says, and nowhere else. */
#include "pa_test.h"

/* C text with no Parray construct comes out byte for byte. */
static void ck_passes_through(const char *src)
{
  char *out = pa_translate(src);
  ck_assert_msg(out != NULL, "does not translate:\n%s", src);
  const char *body = pa_body(out);
  ck_assert_msg(!strcmp(body, src), "changed:\n--- in\n%s--- out\n%s", src, body);
  free(out);
}

START_TEST(c_text_unchanged)
{
  ck_passes_through("int main(void) { return 0; }\n");
  ck_passes_through("/* $A[1]$ and #parray {x} and #create A(x) */\nint x;\n");
  ck_passes_through("// $x$ #create A(x) $\nint y;\n");
  ck_passes_through("const char *s = \"str $A$ #parray \\\" esc $\";\n");
  ck_passes_through("char c = '$', d = '#', e = '\\'', f = '\"';\n");
  ck_passes_through("int f(int a) { return a /2 / 3; } /* a\n * multi-line $ comment\n */\n");
  ck_passes_through("  \t int   spaced  ;   \n\n\n");
  ck_passes_through("no newline at the end");
  ck_passes_through("");
  ck_passes_through("struct s { int a[3]; } v = {{1, 2, 3}};\nint g(void) { { { return 0; } } }\n");
}
END_TEST

START_TEST(preprocessor_lines_unchanged)
{
  ck_passes_through("#include <stdio.h>\n#include \"x.h\"\n");
  ck_passes_through("#define N 1024\n#define M (N / 16)\n");
  ck_passes_through("#define CAT(a, b) a ## b \\\n   /* $not$ */ # b\nint x;\n");
  ck_passes_through("#define LONG \\\n  $still$ \\\n  #parray\nint y;\n");
  ck_passes_through("  #  pragma once\n#pragma unroll\n#if 0\n#parray_like\n#endif\n");
  ck_passes_through("# 12 \"x.c\"\n#\n#error $x$\n");
  /* a name that starts like a keyword is not one */
  ck_passes_through("#createxyz\n#synchronize\n#syncopate\n#endsxyz\n#copying\n");
  /* (one or two edits away, "#createx" and "#sync_a" are errors: test_robust.c) */
}
END_TEST

START_TEST(order_kept_around_constructs)
{
  char *out = pa_translate("int a; /* $x$ */\n#parray {paged int [4]} A\nint b = $A[3]$; // $y$\n"
                           "#define Q \"$\"\nint c = $dim(A)$;\n");
  ck_assert_ptr_nonnull(out);
  ck_assert_str_eq(pa_body(out), "int a; /* $x$ */\nint b = 3; // $y$\n#define Q \"$\"\nint c = 4;\n");
  free(out);
}
END_TEST

START_TEST(directive_with_blanks)
{
  /* blanks between '#' and the keyword, and before '#' */
  char *out = pa_translate("#   parray {paged int [4]} A\n  \t#\tparray {paged int [#A]} B\nint b = $B[2]$;\n");
  ck_assert_ptr_nonnull(out);
  ck_assert_str_eq(pa_body(out), "int b = 2;\n");
  free(out);
}
END_TEST

START_TEST(multi_line_declaration)
{
  /* Fig 21 style: the declaration ends at the matching '}' */
  const char *src = "#parray {paged float\n"
                    "         [[3][2]]\n"
                    "         [4]} A\n"
                    "int x = $A[5][2]$;\n";
  char *out = pa_translate(src);
  ck_assert_ptr_nonnull(out);
  ck_assert_str_eq(pa_body(out), "int x = 22;\n");
  free(out);
  /* a line continuation and comments inside a declaration */
  out = pa_translate("#parray {paged float /* rows */ [3] \\\n [4] // columns\n } A\nint y = $A[1][1]$;\n");
  ck_assert_ptr_nonnull(out);
  ck_assert_str_eq(pa_body(out), "int y = 5;\n");
  free(out);
}
END_TEST

START_TEST(nested_dollars)
{
  const char *decl = "#parray {paged int [4][4]} A\n#parray {paged int [4]} K\n";
  ck_dollar(decl, "$A[$K[1]$][$K[$K[2]$]$]$", "6");
  ck_dollar(decl, "$A[ $K[ i ]$ ][ 0 ]$", "i * 4");
  /* a '$' inside parentheses of an index opens a nested expression too;
   * constant entries fold */
  ck_dollar(decl, "$A[($K[1]$ + 1)][0]$", "8");
}
END_TEST

START_TEST(dollar_spans_lines)
{
  const char *decl = "#parray {paged int [4][4]} A\n";
  char *got = pa_dollar(decl, "$A[1]\n   [2]$");
  ck_assert_ptr_nonnull(got);
  ck_assert_str_eq(got, "6");
  free(got);
}
END_TEST

START_TEST(sync_forms)
{
  Ctx *ctx;
  Node *t = pa_parse("#sync\n#sync{}\n#sync_1\n  #  sync_1_0\n#sync {}\n", &ctx);
  ck_assert_ptr_nonnull(t);
  const char *want[] = {"", "", "_1", "_1_0", ""};
  int k = 0;
  for (Node *n = t; n; n = n->next)
    if (n->kind == N_SYNC) {
      ck_assert_int_lt(k, 5);
      ck_assert_str_eq(n->name, want[k]);
      k++;
    }
  ck_assert_int_eq(k, 5);
  ctx_free(ctx);
}
END_TEST

START_TEST(line_directives)
{
  const char *src = "#include <stdio.h>\n"      /* 1 */
                    "#parray {paged int\n"      /* 2 */
                    "   [4]} A\n"               /* 3 */
                    "int x = $A[1]$;\n"         /* 4 */
                    "\n"                        /* 5 */
                    "int y;\n";                 /* 6 */
  Ctx *ctx;
  char *out = pa_translate_ctx(src, true, &ctx);
  ck_assert_ptr_nonnull(out);
  ck_contains(out, "#line 1 \"t.pa\"\n#include <stdio.h>\n");
  ck_contains(out, "#line 4 \"t.pa\"\nint x = 1;\n\nint y;\n");
  /* consecutive lines need no directive of their own */
  ck_assert_int_eq(pa_count(out, "#line"), 2);
  free(out);
  ctx_free(ctx);
  /* --no-line: none at all */
  out = pa_translate(src);
  ck_lacks(out, "#line");
  free(out);
}
END_TEST

START_TEST(line_directive_quotes_the_name)
{
  Options opt = {.input = "t.pa", .display = "dir \"x\"\\t.pa", .line_directives = true};
  const char *src = "int x;\n";
  Ctx *ctx = ctx_new(&opt, src, strlen(src));
  ck_assert_ptr_nonnull(parse_source(ctx));
  char *out = emit_program(ctx, targets_all);
  ck_contains(out, "#line 1 \"dir \\\"x\\\"\\\\t.pa\"\n");
  free(out);
  ctx_free(ctx);
}
END_TEST

START_TEST(crlf_and_odd_bytes)
{
  /* CR LF line ends pass through; a NUL byte becomes a blank */
  ck_passes_through("int a;\r\nint b;\r\n");
  const char src[] = "int a;\0int b;\n";
  Options opt = {.input = "t.pa", .display = "t.pa"};
  Ctx *ctx = ctx_new(&opt, src, sizeof src - 1);
  ck_assert_ptr_nonnull(parse_source(ctx));
  char *out = emit_program(ctx, targets_all);
  ck_assert_str_eq(pa_body(out), "int a; int b;\n");
  free(out);
  ctx_free(ctx);
  char *r = pa_dollar("#parray {paged int [4][4]} A\r\n", "$A[1][2]$");
  ck_assert_ptr_nonnull(r);
  ck_assert_str_eq(r, "6");
  free(r);
}
END_TEST

START_TEST(lexical_errors)
{
  char *err;
  ck_assert_int_eq(pa_translate_err("int x;\n/* never closed\n", &err), 1);
  ck_contains(err, "t.pa:2:1: error: unterminated comment");
  free(err);
  ck_assert_int_ge(pa_translate_err("#parray {paged int [4]} A\nint x = $A[1];\n", &err), 1);
  ck_contains(err, "t.pa:2:9: error: unterminated '$' expression");
  free(err);
  ck_assert_int_ge(pa_translate_err("#parray {paged int [4]\n", &err), 1);
  ck_contains(err, "t.pa:1:1: error: unterminated directive");
  free(err);
}
END_TEST

static Suite *make(void)
{
  Suite *s = suite_create("lexer");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, c_text_unchanged);
  tcase_add_test(tc, preprocessor_lines_unchanged);
  tcase_add_test(tc, order_kept_around_constructs);
  tcase_add_test(tc, directive_with_blanks);
  tcase_add_test(tc, multi_line_declaration);
  tcase_add_test(tc, nested_dollars);
  tcase_add_test(tc, dollar_spans_lines);
  tcase_add_test(tc, sync_forms);
  tcase_add_test(tc, line_directives);
  tcase_add_test(tc, line_directive_quotes_the_name);
  tcase_add_test(tc, crlf_and_odd_bytes);
  tcase_add_test(tc, lexical_errors);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  return pa_run_suite(make());
}
