/* test_types.c: the type model (types.c, expr.c) through translated $...$
 * expressions and the Dim/Poly interface: SPEC.md Appendix B, extents,
 * spans, contiguity, symbolic sizes, 64-bit offsets, and the simplified
 * shape of the printed offsets. */
#include "pa_test.h"

/* ---- SPEC.md Appendix B, every value ---- */

#define FIG1 "#parray {pinned float [[3][2]][4]} A\n"
#define FIG4 "#parray {pinned float [4][3]} A\n#parray {pinned float [#A_1][#A_0]} B\n"
#define PAD "#parray {paged float [16][17]} S\n#parray {paged float [#S_0][16 #S_1]} V\n"
#define FIG17 "#parray {paged float [2][8][4]} A\n#parray {float [#A_1][[#A_0][#A_2]]} M\n"
#define FIG18B "#parray {paged float [2][2][4][4]} A\n#parray {float [[#A_0][#A_2]][[#A_1][#A_3]]} M\n"
#define SPLIT "#parray {paged float [6][8]} A\n#parray {float [[2][3] #A_0][[2][4] #A_1]} T\n"

START_TEST(appendix_b_natural)
{
  ck_dollar(FIG1, "$A[5][2]$", "22");
  ck_dollar(FIG1, "$A[[2][1]][3]$", "23");
  ck_dollar(FIG1, "$dim(A)$", "24");
  ck_dollar(FIG1, "$dim(A_0)$", "6");
  ck_dollar(FIG1, "$dim(A_0_1)$", "2");
}
END_TEST

START_TEST(appendix_b_transposed)
{
  ck_dollar(FIG4, "$B[2][3]$", "11");
  ck_dollar(FIG4, "$dim(B_0)$", "3");
  ck_dollar(FIG4, "$cnt(B_1)$", "0");
  ck_dollar(FIG4, "$cnt(A_1)$", "1");
}
END_TEST

START_TEST(appendix_b_padded)
{
  ck_dollar(PAD, "$V[3][5]$", "56");
  ck_dollar(PAD, "$dim(V)$", "256");
  ck_dollar(PAD, "$cnt(V_1)$", "1");
}
END_TEST

START_TEST(appendix_b_fig17)
{
  ck_dollar(FIG17, "$M[3][5]$", "45");
  ck_dollar(FIG17, "$dim(M_1)$", "8");
}
END_TEST

START_TEST(appendix_b_fig18b)
{
  ck_dollar(FIG18B, "$M[5][6]$", "54");
  ck_dollar(FIG18B, "$M[13]$", "21");
  ck_dollar(FIG18B, "$M_0_1[3]$", "12");
}
END_TEST

START_TEST(appendix_b_split)
{
  ck_dollar(SPLIT, "$T[[1][2]][[1][3]]$", "47");
  ck_dollar(SPLIT, "$T_0_0[1]$", "24");
  ck_dollar(SPLIT, "$T_1_0[1]$", "4");
}
END_TEST

/* pthd [2][2]: $tid_0$ and $tid_1$ of threads 0..3, through the default
 * mapping (digit of the linear thread index) */
START_TEST(appendix_b_thread_digits)
{
  Ctx *ctx;
  char *out = pa_translate_ctx("#parray {pthd [2][2]} P\n", false, &ctx);
  ck_assert_ptr_nonnull(out);
  Dim *root = dim_resolve(ctx, "P", (Loc){0, 0});
  Dim *p0 = dim_resolve(ctx, "P_0", (Loc){0, 0});
  Dim *p1 = dim_resolve(ctx, "P_1", (Loc){0, 0});
  ck_assert_ptr_nonnull(root);
  Poly *t = poly_var(ctx, "pa_tid", root->extent);
  Atom *a = t->t[0].f[0];
  Poly *d0 = dim_index_of(ctx, root, p0, t), *d1 = dim_index_of(ctx, root, p1, t);
  long long want0[] = {0, 0, 1, 1}, want1[] = {0, 1, 0, 1};
  for (int tid = 0; tid < 4; tid++) {
    long long v0, v1;
    ck_assert(poly_eval(d0, a, tid, &v0) && poly_eval(d1, a, tid, &v1));
    ck_assert_int_eq(v0, want0[tid]);
    ck_assert_int_eq(v1, want1[tid]);
  }
  free(out);
  ctx_free(ctx);
}
END_TEST

/* ---- extents ---- */

START_TEST(extents)
{
  ck_dollar(FIG17, "$dim_1_0(M)$", "2");
  ck_dollar(FIG17, "$size_1(M)$", "8");
  ck_dollar(FIG17, "$size(M)$", "64");
  ck_dollar(FIG17, "$dim(M_1_1)$", "4");
  ck_dollar(SPLIT, "$dim(T_0)$", "6");
  ck_dollar(SPLIT, "$dim_1_1(T)$", "4");
  ck_dollar(PAD, "$dim(V_1)$", "16");
  /* a reference imports the target's sub-dimensions: B_1_1 is A_0_1 */
  ck_dollar("#parray {paged float [[3][2]][4]} A\n#parray {paged float [#A_1][#A_0]} B\n", "$dim(B_1_1)$", "2");
  ck_dollar("#parray {paged float [[3][2]][4]} A\n#parray {paged float [#A_1][#A_0]} B\n", "$B_1_1[1]$", "4");
}
END_TEST

/* ---- spans: #create allocates 1 + max offset ---- */

static long long span_of(const char *decls, const char *path)
{
  Ctx *ctx;
  char *out = pa_translate_ctx(decls, false, &ctx);
  ck_assert_msg(out != NULL, "does not translate:\n%s", decls);
  Dim *d = dim_resolve(ctx, path, (Loc){0, 0});
  ck_assert_ptr_nonnull(d);
  long long v = -1;
  Poly *s = dim_span(ctx, d);
  ck_assert_msg(poly_is_const(s, &v), "span of %s is not constant: %s", path, poly_str(ctx, s));
  free(out);
  ctx_free(ctx);
  return v;
}

START_TEST(spans)
{
  ck_assert_int_eq(span_of(FIG1, "A"), 24);
  ck_assert_int_eq(span_of(FIG4, "B"), 12);   /* a permutation spans the whole */
  ck_assert_int_eq(span_of(FIG4, "B_0"), 3);
  ck_assert_int_eq(span_of(FIG4, "B_1"), 10); /* stride 3, 4 elements */
  ck_assert_int_eq(span_of(PAD, "V"), 15 * 17 + 16);
  ck_assert_int_eq(span_of(PAD, "V_0"), 15 * 17 + 1);
  ck_assert_int_eq(span_of(FIG17, "M"), 64);
  ck_assert_int_eq(span_of(FIG17, "M_1"), 32 + 4); /* A_0 and A_2: 0..35 */
  ck_assert_int_eq(span_of(SPLIT, "T_0_0"), 2 * 3 * 8 - 8 * 3 + 1);
  /* a full reference beside a sized one of the same extent (regression:
   * the sized view once truncated its sibling's digits: span 3) */
  ck_assert_int_eq(span_of("#parray {paged float [4][3]} X\n#parray {paged float [#X_0][3 #X_1]} Y\n", "Y"), 12);
  /* a sub-range of a padded row */
  ck_assert_int_eq(span_of("#parray {paged int [5][9]} P\n#parray {paged int [#P_0][7 #P_1]} Q\n", "Q"), 4 * 9 + 7);
}
END_TEST

START_TEST(create_allocates_the_span)
{
  char *out = pa_translate(PAD "void f(void) {\n#create V(v)\n#create S(s)\n}\n");
  ck_contains(out, "float *v = (float *)pa_alloc_host(PA_PAGED, 271, sizeof(float), \"V\"");
  ck_contains(out, "float *s = (float *)pa_alloc_host(PA_PAGED, 272, sizeof(float), \"S\"");
  free(out);
  out = pa_translate(FIG4 "void f(void) {\n#create B(b)\n}\n");
  ck_contains(out, "pa_alloc_host(PA_PINNED, 12, sizeof(float), \"B\"");
  free(out);
}
END_TEST

/* ---- $cnt$ ---- */

START_TEST(cnt_static)
{
  ck_dollar(PAD, "$cnt(V)$", "0");
  ck_dollar(PAD, "$cnt(V_0)$", "0");
  ck_dollar(PAD, "$cnt(S)$", "1");
  ck_dollar(PAD, "$cnt(S_1)$", "1");
  ck_dollar(PAD, "$cnt(S_0)$", "0");
  ck_dollar(FIG4, "$cnt(B)$", "0");
  ck_dollar(FIG4, "$cnt(B_0)$", "1");
  ck_dollar(FIG17, "$cnt(M)$", "0");
  ck_dollar(FIG17, "$cnt(M_1_1)$", "1");
  /* [2][1] rows of one element: contiguous although strided */
  ck_dollar("#parray {paged int [3][1]} A\n#parray {paged int [#A_1][#A_0]} B\n", "$cnt(B)$", "1");
  /* a split that keeps the order is contiguous */
  ck_dollar(SPLIT, "$cnt(T_1)$", "1");
}
END_TEST

#define MACROS                                        \
  "#define N 64\n"                                    \
  "#parray {paged float [N/16][N]} Q\n"               \
  "#parray {paged float [#Q_1][#Q_0]} QT\n"           \
  "#parray {paged float [N][N+1]} P\n"                \
  "#parray {paged float [#P_0][N #P_1]} PV\n"

START_TEST(cnt_symbolic)
{
  ck_dollar(MACROS, "$cnt(Q)$", "1");
  ck_dollar(MACROS, "$cnt(Q_1)$", "1");
  ck_dollar(MACROS, "$cnt(PV_1)$", "1");
  /* undecidable at translation: a C expression of the sizes */
  char *c = pa_dollar(MACROS, "$cnt(QT_1)$");
  ck_assert_ptr_nonnull(c);
  ck_contains(c, "N/16");
  ck_contains(c, "==");
  free(c);
  c = pa_dollar(MACROS, "$cnt(PV)$");
  ck_assert_ptr_nonnull(c);
  ck_contains(c, "N+1");
  free(c);
}
END_TEST

/* ---- sizes the C compiler knows ---- */

START_TEST(symbolic_sizes)
{
  ck_dollar(MACROS, "$dim(Q)$", "(N/16) * N");
  ck_dollar(MACROS, "$dim(Q_0)$", "N/16");
  ck_dollar(MACROS, "$Q[i][j]$", "i * N + j");
  ck_dollar(MACROS, "$QT[i][j]$", "j * N + i");
  ck_dollar(MACROS, "$PV[i][j]$", "i * (N+1) + j");
  ck_dollar(MACROS, "$Q[i]$", "i");
  /* the span of a padded view with symbolic sizes: (N-1)(N+1) + N */
  char *out = pa_translate(MACROS "void f(void) {\n#create PV(pv)\n#create QT(qt)\n}\n");
  ck_assert_ptr_nonnull(out);
  ck_contains(out, "\"PV\"");
  /* computed in 64 bits, after a run-time check of each size (issue 16) */
  ck_contains(out, "pa_check_sizes(\"QT\", \"t.pa\", 8, 1LL, 2, \"N/16\", (long long)(N/16), 1, \"N\", (long long)N, 1);");
  ck_contains(out, "pa_alloc_host(PA_PAGED, (long long)(N/16) * N, sizeof(float), \"QT\"");
  free(out);
  /* a size with a variable is text too, and 64-bit: it may pass 2^31
   * (issue 35); a macro's stays int */
  ck_dollar("#parray {paged float [n][m]} A\n", "$A[i][j]$", "(long long)i * m + (long long)j");
  ck_dollar("#parray {paged char [n * n]} A\n", "$A[n * n - 1]$", "(long long)n * (long long)n - 1");
}
END_TEST

/* The span with symbolic sizes, checked numerically: N = 64 in the poly. */
START_TEST(symbolic_span_value)
{
  Ctx *ctx;
  char *out = pa_translate_ctx(MACROS, false, &ctx);
  ck_assert_ptr_nonnull(out);
  Dim *d = dim_resolve(ctx, "PV", (Loc){0, 0});
  ck_assert_ptr_nonnull(d);
  char *s = poly_str(ctx, dim_span(ctx, d));
  /* no division left: the strides give the span exactly */
  ck_assert_msg(!strchr(s, '/'), "span of PV: %s", s);
  free(out);
  ctx_free(ctx);
}
END_TEST

/* ---- the printed offsets: '/' and '%' only where they are needed ---- */

START_TEST(no_needless_division)
{
  ck_dollar(FIG1, "$A[i]$", "i");
  ck_dollar(FIG1, "$A[i][j]$", "i * 4 + j");
  ck_dollar(FIG1, "$A[[i][j]][k]$", "i * 8 + j * 4 + k");
  ck_dollar(FIG1, "$A_0[i]$", "i * 4");
  ck_dollar(FIG1, "$A_0_1[i]$", "i * 4");
  ck_dollar(FIG1, "$A[i][0]$", "i * 4");
  ck_dollar(FIG4, "$B[i][j]$", "i + j * 3");
  ck_dollar(PAD, "$V[i][j]$", "i * 17 + j");
  ck_dollar(SPLIT, "$T[i][j]$", "i * 8 + j");
  ck_dollar(SPLIT, "$T[[i][j]][[k][l]]$", "i * 24 + j * 8 + k * 4 + l");
  ck_dollar(FIG18B, "$M[[a][b]][[c][d]]$", "a * 32 + b * 4 + c * 16 + d");
  /* composite references need them */
  char *s = pa_dollar(FIG17, "$M[i][j]$");
  ck_assert_ptr_nonnull(s);
  ck_contains(s, "j / 4");
  ck_contains(s, "j % 4");
  ck_lacks(s, "i /");
  free(s);
  s = pa_dollar(PAD, "$V[i]$");
  ck_contains(s, "i / 16");
  ck_contains(s, "i % 16");
  free(s);
}
END_TEST

/* SPEC 2.5: 64-bit arithmetic when a constant extent product exceeds INT_MAX */
START_TEST(wide_offsets)
{
  const char *big = "#parray {paged float [65536][65536]} G\n";
  char *s = pa_dollar(big, "$G[i][j]$");
  ck_assert_ptr_nonnull(s);
  ck_contains(s, "(long long)i * 65536");
  free(s);
  ck_dollar(big, "$dim(G)$", "4294967296LL");
  ck_dollar(big, "$G[65535][65535]$", "4294967295LL");
  /* small types stay int */
  ck_dollar(FIG1, "$A[i][j]$", "i * 4 + j");
}
END_TEST

/* ---- index expressions ---- */

START_TEST(index_expressions)
{
  /* C expressions are parenthesised unless simple */
  ck_dollar(FIG1, "$A[f(i)][j+1]$", "(f(i)) * 4 + (j+1)");
  /* side effects: evaluated once even when the offset uses them twice */
  ck_dollar(PAD, "$V[i++]$", "__extension__ ({ int pa_ix0 = (i++); ((pa_ix0 / 16) * 17 + pa_ix0 % 16); })");
  ck_dollar(FIG1, "$A[i++][j]$", "(i++) * 4 + j");
  /* nested $...$ inside an index */
  ck_dollar(FIG1 "#parray {paged int [3]} K\n", "$A[$K[i]$][1]$", "i * 4 + 1");
}
END_TEST

/* ---- errors of the type model ---- */

START_TEST(type_errors)
{
  ck_assert_int_eq(pa_error_count("int x = $Nope[1]$;\n"), 1);
  ck_assert_int_eq(pa_error_count(FIG1 "int x = $A_2[1]$;\n"), 1);
  ck_assert_int_eq(pa_error_count(FIG1 "int x = $A_0_1_0[1]$;\n"), 1);
  ck_assert_int_eq(pa_error_count(FIG1 "int x = $A[1][2][3]$;\n"), 1);
  ck_assert_int_eq(pa_error_count(FIG1 "int x = $A[[1][2][3]][0]$;\n"), 1);
  ck_assert_int_eq(pa_error_count("#parray {paged float [4]} A_1\n"), 1);
  ck_assert_int_eq(pa_error_count("#parray {paged float [4]} A\n#parray {paged float [5 #A]} B\n"), 1);
  ck_assert_int_eq(pa_error_count("#parray {paged float [4]} A\n#parray {paged float [[3][2] #A]} B\n"), 1);
  ck_assert_int_eq(pa_error_count("#parray {paged float [4]} A\n#parray {paged int [2]} A\n"), 1);
  ck_assert_int_eq(pa_error_count("#parray {[4]} A\n"), 1);
  ck_assert_int_eq(pa_error_count("#parray {paged float [0]} A\n"), 1);
  ck_assert_int_eq(pa_error_count("#parray {paged float [#B]} A\n"), 1);
  ck_assert_int_eq(pa_error_count("#parray {paged float [4]} tid\n"), 1);
  /* extents that do not fit in 64 bits */
  ck_assert_int_eq(pa_error_count("#parray {paged float [1000000][1000000][1000000][1000000]} A\n"), 1);
  ck_assert_int_eq(pa_error_count("#parray {paged float [n][3037000500][3037000500]} A\n"), 1);
  ck_assert_int_eq(pa_error_count("#parray {paged float [3037000499][3037000499]} A\n"), 0);
  /* constant folding never traps (LLONG_MIN / -1 once raised SIGFPE); a
   * constant size that does not fit in 64 bits is an error */
  ck_assert_int_eq(pa_error_count("#parray {paged float [(-9223372036854775807 - 1) / -1]} A\n"), 1);
  ck_assert_int_eq(pa_error_count("#parray {paged float [(-9223372036854775807 - 1) % -1]} A\n"), 1);
  ck_dollar("#parray {paged float [4]} A\n", "$A[99999999999999999999]$", "99999999999999999999");
  /* element type and memory inherited from the first reference */
  ck_assert_int_eq(pa_error_count("#parray {pinned double [4]} A\n#parray {[#A]} B\n"), 0);
}
END_TEST

START_TEST(inherited_mem_and_elem)
{
  Ctx *ctx;
  char *out = pa_translate_ctx("#parray {dmem double [4][2]} A\n#parray {[#A_1][#A_0]} B\n"
                               "#parray {int [#A_1]} C\n#parray {float [3]} D\n",
                               false, &ctx);
  ck_assert_ptr_nonnull(out);
  Type *b = type_lookup(ctx, "B"), *c = type_lookup(ctx, "C"), *d = type_lookup(ctx, "D");
  ck_assert_int_eq(b->mem, MEM_DMEM);
  ck_assert_str_eq(b->elem, "double");
  ck_assert_int_eq(c->mem, MEM_DMEM);
  ck_assert_str_eq(c->elem, "int");
  ck_assert_int_eq(d->mem, MEM_PAGED);
  free(out);
  ctx_free(ctx);
}
END_TEST

/* ---- Poly algebra (expr.c) ---- */

START_TEST(poly_algebra)
{
  Options opt = {.input = "t.pa", .display = "t.pa"};
  Ctx *ctx = ctx_new(&opt, "", 0);
  Poly *n = poly_sym(ctx, "N");
  Poly *i = poly_var(ctx, "i", poly_const(ctx, 8));
  Poly *c4 = poly_const(ctx, 4);
  /* (i / 4) * 4 + i % 4 == i */
  Poly *x = poly_add(ctx, poly_mul(ctx, poly_div(ctx, i, c4), c4), poly_mod(ctx, i, c4));
  ck_assert(poly_equal(x, i));
  /* (i * N + 3) / N == i when 3 < N is unknown: stays a quotient */
  Poly *q = poly_div(ctx, poly_add(ctx, poly_mul(ctx, i, c4), poly_const(ctx, 3)), c4);
  ck_assert(poly_equal(q, i)); /* 4i + 3 < 4(i+1) */
  ck_assert_str_eq(poly_str(ctx, poly_mod(ctx, poly_add(ctx, poly_mul(ctx, i, c4), poly_const(ctx, 3)), c4)), "3");
  /* i < 8: i / 8 is 0 and i % 8 is i */
  ck_assert_str_eq(poly_str(ctx, poly_div(ctx, i, poly_const(ctx, 8))), "0");
  ck_assert(poly_equal(poly_mod(ctx, i, poly_const(ctx, 8)), i));
  /* symbols */
  ck_assert_str_eq(poly_str(ctx, poly_mul(ctx, n, n)), "N * N");
  ck_assert_str_eq(poly_str(ctx, poly_sub(ctx, n, n)), "0");
  ck_assert(poly_equal(poly_div(ctx, poly_mul(ctx, n, i), n), i));
  long long v;
  ck_assert(poly_is_const(poly_add(ctx, c4, poly_const(ctx, -4)), &v) && v == 0);
  ck_assert(!poly_is_const(n, NULL));
  ck_assert(poly_eval(poly_add(ctx, poly_mul(ctx, i, c4), poly_mod(ctx, i, poly_const(ctx, 3))), i->t[0].f[0], 7,
                      &v));
  ck_assert_int_eq(v, 29);
  ck_assert(!poly_eval(n, i->t[0].f[0], 1, &v)); /* a symbol has no value */
  /* j < N/G: j < G * (N/G), since G >= 1 (the samples written for G GPUs, issue 29) */
  Poly *g = poly_sym(ctx, "G"), *ng = poly_div(ctx, n, g);
  Poly *j = poly_var(ctx, "j", ng);
  ck_assert(poly_equal(poly_mod(ctx, j, poly_mul(ctx, g, ng)), j));
  ck_assert_str_eq(poly_str(ctx, poly_div(ctx, j, poly_mul(ctx, g, ng))), "0");
  /* but j % (N/G - 1) is not j: j reaches N/G - 1 */
  ck_assert(!poly_equal(poly_mod(ctx, j, poly_sub(ctx, ng, poly_const(ctx, 1))), j));
  ck_assert(poly_fits_int(poly_const(ctx, 2147483647)));
  ck_assert(!poly_fits_int(poly_const(ctx, 2147483648LL)));
  ctx_free(ctx);
}
END_TEST

/* size text computed in 64 bits, each operand converted where it stands */
START_TEST(wide_size_text)
{
  static const char *const cases[][2] = {
      {"n * n", "(long long)n * (long long)n"},
      {"m.rows * m.cols", "(long long)m.rows * (long long)m.cols"},
      {"p->rows * (n + 1)", "(long long)p->rows * ((long long)n + 1)"},
      {"f(n) * v[i * j]", "(long long)f(n) * (long long)v[i * j]"},
      {"n << 16", "(long long)n << 16"},
      {"(size_t)n * n", "(long long)(size_t)n * (long long)n"},
      {"sizeof(int) * K", "(long long)sizeof(int) * (long long)K"},
      {"-n * -(a * b)", "-(long long)n * -((long long)a * (long long)b)"},
      {"c ? n * n : 4", "(long long)c ? (long long)n * (long long)n : 4"},
      {"(int){3} * n", "(long long)(int){3} * (long long)n"},
      {"(long long)(n) * n", "(long long)(n) * n"}, /* converted already */
      {"n /* rows */ * n", "(long long)n /* rows */ * (long long)n"},
      {"x++ + 1", "(long long)x++ + 1"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    Buf b = {0};
    print_wide_text(&b, cases[i][0], false);
    ck_assert_str_eq(b.data, cases[i][1]);
    buf_free(&b);
  }
}
END_TEST

static Suite *make(void)
{
  Suite *s = suite_create("types");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, appendix_b_natural);
  tcase_add_test(tc, appendix_b_transposed);
  tcase_add_test(tc, appendix_b_padded);
  tcase_add_test(tc, appendix_b_fig17);
  tcase_add_test(tc, appendix_b_fig18b);
  tcase_add_test(tc, appendix_b_split);
  tcase_add_test(tc, appendix_b_thread_digits);
  tcase_add_test(tc, extents);
  tcase_add_test(tc, spans);
  tcase_add_test(tc, create_allocates_the_span);
  tcase_add_test(tc, cnt_static);
  tcase_add_test(tc, cnt_symbolic);
  tcase_add_test(tc, symbolic_sizes);
  tcase_add_test(tc, symbolic_span_value);
  tcase_add_test(tc, no_needless_division);
  tcase_add_test(tc, wide_offsets);
  tcase_add_test(tc, index_expressions);
  tcase_add_test(tc, type_errors);
  tcase_add_test(tc, inherited_mem_and_elem);
  tcase_add_test(tc, poly_algebra);
  tcase_add_test(tc, wide_size_text);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  return pa_run_suite(make());
}
