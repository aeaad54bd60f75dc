/* test_codegen.c: the host C the walk (emit.c) and the C target (targets/c.c)
 * write: declare-or-assign for #create, host #copy mechanisms, #subprog and
 * #insert with type parameters and private types, #global hoisting, #line
 * directives, evaluate-once index expressions, and that the output compiles
 * warning-free. */
#include "pa_test.h"
#include "parray_config.h"

#include <sys/wait.h>

/* The generated text compiles with cc -Wall -Wextra -Werror. */
static void ck_compiles(const char *out)
{
  char path[] = "/tmp/pa_codegen_XXXXXX.c";
  int fd = mkstemps(path, 2);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "w");
  fputs(out, f);
  fclose(f);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "cc -std=gnu11 -fsyntax-only -Wall -Wextra -Werror -Wno-unused-parameter -I'%s' '%s'",
           PARRAY_SOURCE_INCLUDE_DIR, path);
  int st = system(cmd);
  unlink(path);
  ck_assert_msg(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "does not compile:\n%s", out);
}

/* The .pa line the C compiler believes the first output line holding
 * needle comes from, following the #line directives; 0 if unknown. */
static int believed_line(const char *out, const char *needle)
{
  int line = 0;
  for (const char *p = out; p && *p;) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    if (!strncmp(p, "#line ", 6)) {
      line = atoi(p + 6);
    } else {
      const char *hit = strstr(p, needle);
      if (hit && hit < p + len)
        return line;
      if (line)
        line++;
    }
    p = nl ? nl + 1 : NULL;
  }
  return -1;
}

#define ck_line(out, needle, want) \
  ck_assert_msg(believed_line(out, needle) == (want), "'%s' is on line %d, want %d:\n%s", needle, \
                believed_line(out, needle), want, out)

#define M43 "#parray {paged float [4][3]} M\n"

/* ---- declare or assign ---- */

START_TEST(create_assigns_a_global)
{
  char *out = pa_translate(M43 "float *a;\n#mainhost {\n#create M(a)\n#destroy M(a)\n}\n");
  ck_contains(out, "\na = (float *)pa_alloc_host(PA_PAGED, 12, sizeof(float), \"M\", \"t.pa\", 4);\n");
  ck_lacks(out, "float *a =");
  ck_contains(out, "pa_destroy_host(PA_PAGED, a, \"M\", \"t.pa\", 5);");
  ck_compiles(out);
  free(out);
}
END_TEST

START_TEST(create_declares_a_new_name)
{
  char *out = pa_translate(M43 "#mainhost {\n  #create M(x)\n  x[0] = 1;\n  #destroy M(x)\n}\n");
  ck_contains(out, "  float *x = (float *)pa_alloc_host(PA_PAGED, 12, sizeof(float), \"M\", \"t.pa\", 3);\n");
  ck_compiles(out);
  free(out);
  /* a second #create of the same name in the same block assigns */
  out = pa_translate(M43 "#mainhost {\n#create M(x)\n#destroy M(x)\n#create M(x)\n#destroy M(x)\n}\n");
  ck_assert_int_eq(pa_count(out, "float *x ="), 1);
  ck_contains(out, "\nx = (float *)pa_alloc_host");
  ck_compiles(out);
  free(out);
}
END_TEST

START_TEST(create_assigns_a_local)
{
  /* declared in the block, or in an enclosing one */
  char *out = pa_translate(M43 "void f(void) {\n  float *q, *r = 0;\n  if (1) {\n    #create M(q)\n"
                                "    #create M(r)\n    #destroy M(q)\n    #destroy M(r)\n  }\n}\n");
  ck_contains(out, "    q = (float *)pa_alloc_host");
  ck_contains(out, "    r = (float *)pa_alloc_host");
  ck_lacks(out, "float *q =");
  ck_compiles(out);
  free(out);
  /* a name declared in a sibling block is not visible */
  out = pa_translate(M43 "void f(void) {\n  { float *q = 0; (void)q; }\n  {\n#create M(q)\n#destroy M(q)\n  }\n}\n");
  ck_contains(out, "float *q = (float *)pa_alloc_host");
  ck_compiles(out);
  free(out);
}
END_TEST

/* a function parameter is declared: #create assigns it */
START_TEST(create_assigns_a_parameter)
{
  char *out = pa_translate(M43 "void f(float *p, int n) {\n#create M(p)\n  p[n] = 0;\n#destroy M(p)\n}\n");
  ck_contains(out, "\np = (float *)pa_alloc_host");
  ck_lacks(out, "float *p =");
  ck_compiles(out);
  free(out);
}
END_TEST

START_TEST(create_of_an_expression_assigns)
{
  /* not a simple name: always an assignment */
  char *out = pa_translate(M43 "float *v[2];\nvoid f(void) {\n#create M(v[1])\n#destroy M(v[1])\n}\n");
  ck_contains(out, "\nv[1] = (float *)pa_alloc_host");
  ck_compiles(out);
  free(out);
}
END_TEST

/* ---- host copies ---- */

START_TEST(copy_contiguous_is_memcpy)
{
  char *out = pa_translate(M43 "#parray {paged float [[2][2]][3]} N\n#parray {paged float [3]} R\n"
                                "#mainhost {\n#create M(a)\n#create N(b)\n#create R(r)\n"
                                "#copy M(a) to N(b)\n#copy M_1(a + 3) to R(r)\n"
                                "#destroy M(a)\n#destroy N(b)\n#destroy R(r)\n}\n");
  ck_contains(out, "pa_memcpy(b, a, (pa_size_t)12 * sizeof(float));");
  ck_contains(out, "pa_memcpy(r, a + 3, (pa_size_t)3 * sizeof(float));");
  ck_lacks(out, "for (");
  ck_compiles(out);
  free(out);
}
END_TEST

START_TEST(copy_between_layouts_loops)
{
  char *out = pa_translate(M43 "#parray {paged float [#M_1][#M_0]} T\n"
                                "#parray {paged float [4][5]} P\n#parray {paged float [#P_0][3 #P_1]} PV\n"
                                "#mainhost {\n#create M(a)\n#create T(t)\n#create PV(p)\n"
                                "#copy M(a) to T(t)\n#copy M(a) to PV(p)\n#copy PV(p) to M(a)\n"
                                "#destroy M(a)\n#destroy T(t)\n#destroy PV(p)\n}\n");
  ck_lacks(out, "memcpy");
  ck_assert_int_ge(pa_count(out, "for (int "), 3);
  ck_contains(out, "/* #copy M to T */");
  ck_contains(out, "/* #copy M to PV */");
  /* the padded view: rows of 3 at stride 5; bounds and indices without
   * parentheses of their own */
  ck_contains(out, "    for (int pa_i1 = 0; pa_i1 < 3; pa_i1++)\n      pa_dst[pa_i0 * 5 + pa_i1] = pa_src[pa_i0 * 3 + pa_i1];\n");
  ck_contains(out, "pa_dst[pa_i / 4 + (pa_i % 4) * 3] = pa_src[pa_i];");
  ck_compiles(out);
  free(out);
}
END_TEST

/* digits that line up only if symbolic sizes divide: the nest under that
 * run-time condition, element by element otherwise */
START_TEST(copy_guarded_by_divisibility)
{
  char *out = pa_translate("#define N 64\n#define K 8\n#parray {paged float [N][N]} M\n"
                           "#parray {paged float [[N/32][32]][N]} S\n"
                           "#parray {[#S_1][[#S_0_0][#S_0_1]]} ST\n"
                           "#parray {paged float [[N/K][K]][N]} SK\n#parray {[#SK_1][[#SK_0_0][#SK_0_1]]} STK\n"
                           "#parray {[[2][N/2/K][K] #M_0][#M_1]} MB\n#parray {paged float [2][N/2/K][N][K]} BP\n"
                           "#parray {[[#BP_0][#BP_1][#BP_3]][#BP_2]} BV\n"
                           "void f(float *m, float *s, float *b) {\n#copy M(m) to ST(s)\n#copy M(m) to STK(s)\n"
                           "#copy MB(m) to BV(b)\n}\n");
  ck_contains(out, "if (N % 32 == 0) { /* the sizes let the digits line up */\n");
  /* a transpose: the destination's contiguous digit inside (copy_loop_order) */
  ck_contains(out, "    for (int pa_i0 = 0; pa_i0 < (N/32) * 32; pa_i0++)\n"
                   "      for (int pa_i1 = 0; pa_i1 < N; pa_i1++)\n"
                   "        pa_dst[pa_i0 * N + pa_i1] = pa_src[pa_i1 * N + pa_i0];\n");
  ck_contains(out, "} else {\n");
  ck_contains(out, "    for (int pa_i = 0; pa_i < N * N; pa_i++)\n");
  /* a symbolic divisor (sizes are positive) */
  ck_contains(out, "if (N % K == 0) {");
  /* P * (N/2/K) * K divides by K whatever the sizes: no condition */
  ck_assert_int_eq(pa_count(out, "if ("), 2);
  ck_contains(out, "/* #copy MB to BV */");
  ck_compiles(out);
  free(out);
}
END_TEST

START_TEST(copy_checks)
{
  char *err;
  ck_assert_int_eq(pa_translate_err(M43 "#parray {paged float [5]} F\n"
                                        "void f(float *a, float *b) {\n#copy M(a) to F(b)\n}\n",
                                    &err),
                   1);
  ck_contains(err, "t.pa:4:1: error: #copy extent mismatch: 'M' has 12 elements, 'F' has 5");
  free(err);
  ck_assert_int_eq(pa_translate_err(M43 "#parray {paged int [12]} I\n"
                                        "void f(float *a, int *b) {\n#copy M(a) to I(b)\n}\n",
                                    &err),
                   1);
  ck_contains(err, "t.pa:4:1: error: #copy element types differ");
  free(err);
  /* symbolic extents: a run-time check */
  char *out = pa_translate("#parray {paged float [n]} A\n#parray {paged float [m]} B\n"
                           "void f(float *a, float *b, int n, int m) {\n#copy A(a) to B(b)\n}\n");
  ck_contains(out, "pa_check_copy_extent(n, m, \"t.pa\", 4);");
  free(out);
  /* an argument is printed without parentheses of its own */
  out = pa_translate("#parray {paged float [n][2]} A\n#parray {paged float [m]} B\n"
                     "void f(float *a, float *b, int n, int m) {\n#copy A(a) to B(b)\n}\n");
  ck_contains(out, "pa_check_copy_extent((long long)n * 2, m, \"t.pa\", 4);");
  free(out);
  /* the same symbolic extent on both sides: a check that cannot fail is left out */
  out = pa_translate("#parray {paged float [n][2]} A\n#parray {paged float [#A_1][#A_0]} B\n"
                     "void f(float *a, float *b, int n) {\n#copy A(a) to B(b)\n}\n");
  ck_contains(out, "#copy A to B");
  ck_lacks(out, "pa_check_copy_extent");
  free(out);
}
END_TEST

/* ---- subprograms ---- */

#define SUBPROG                                                 \
  "#subprog FILL(x, type)\n"                                    \
  "#global {\n"                                                 \
  "#parray {paged float [#type_0][#type_1]} L\n"                \
  "int fill_count;\n"                                           \
  "}\n"                                                         \
  "  for (int i = 0; i < $dim(L)$; i++) x[$L[i]$] = i;\n"       \
  "  fill_count += $dim_0(L)$;\n"                               \
  "#end\n"

START_TEST(insert_for_two_layouts)
{
  char *out = pa_translate(M43 "#parray {paged float [#M_1][#M_0]} T\n" SUBPROG
                               "#mainhost {\n#create M(a)\n#create T(t)\n"
                               "#insert FILL(a, M)\n#insert FILL(t, T)\n"
                               "#destroy M(a)\n#destroy T(t)\n}\n");
  ck_assert_ptr_nonnull(out);
  /* natural layout, then the transposed one, each from its own private L */
  ck_contains(out, "for (int i = 0; i < 12; i++) a[i] = i;");
  ck_contains(out, "for (int i = 0; i < 12; i++) t[i / 4 + (i % 4) * 3] = i;");
  ck_contains(out, "fill_count += 4;");
  ck_contains(out, "fill_count += 3;");
  ck_compiles(out);
  free(out);
}
END_TEST

START_TEST(insert_binds_text_and_paths)
{
  /* an argument that is an expression, and a type argument that is a path */
  char *out = pa_translate("#parray {paged float [[2][3]][4]} A\n"
                           "#subprog AT(p, k, type)\n  p[$type[k]$] = $dim(type)$;\n#end\n"
                           "void f(float *q) {\n#insert AT(q + 1, 2, A_0)\n#insert AT(q, j, A_0_1)\n}\n");
  ck_contains(out, "q + 1[8] = 6;");
  ck_contains(out, "q[j * 4] = 3;");
  free(out);
  /* errors */
  char *err;
  ck_assert_int_eq(pa_translate_err("void f(void) {\n#insert NOPE(a)\n}\n", &err), 1);
  ck_contains(err, "t.pa:2:9: error: undefined subprogram 'NOPE'");
  free(err);
  ck_assert_int_eq(pa_translate_err("#subprog S(a, b)\nint z;\n#end\n#insert S(1)\n", &err), 1);
  ck_contains(err, "wrong number of arguments to '#insert S': it takes 2, got 1");
  free(err);
}
END_TEST

START_TEST(private_types_per_instance)
{
  /* the same type name in two instances: no redefinition error, and each
   * instance sees its own layout */
  char *out = pa_translate("#parray {paged int [2][5]} A\n#parray {paged int [#A_1][#A_0]} B\n"
                           "#subprog P(type)\n#parray {[#type_0]} ROW\nint r = $ROW[1]$;\n#end\n"
                           "#insert P(A)\n#insert P(B)\n");
  ck_assert_ptr_nonnull(out);
  ck_contains(out, "int r = 5;");
  ck_contains(out, "int r = 1;");
  free(out);
  /* generated names follow one scheme: a private type's name carries the
   * instance once */
  out = pa_translate("#subprog P(n)\nvoid f(void) {\n  #parray {pthd [n]} T\n  #detour T {\n    (void)pa_tid;\n  }\n}\n"
                     "#end\n#insert P(2)\n");
  ck_contains(out, "static void pa_detour_T_in1_L4(pa_thread *pa_self)");
  ck_lacks(out, "_L4_in1");
  free(out);
  /* but not visible after the instance */
  ck_assert_int_eq(pa_error_count("#parray {paged int [2][5]} A\n"
                                  "#subprog P(type)\n#parray {[#type_0]} ROW\n#end\n"
                                  "#insert P(A)\nint s = $ROW[1]$;\n"),
                   1);
}
END_TEST

START_TEST(global_hoisted)
{
  char *out = pa_translate(M43 SUBPROG "#mainhost {\n#create M(a)\n#insert FILL(a, M)\n#destroy M(a)\n}\n");
  ck_assert_ptr_nonnull(out);
  const char *g = strstr(out, "int fill_count;");
  const char *m = strstr(out, "static int pa_main");
  ck_assert_ptr_nonnull(g);
  ck_assert_ptr_nonnull(m);
  ck_assert_msg(g < m, "#global contents not before the function:\n%s", out);
  ck_compiles(out);
  free(out);
}
END_TEST

/* ---- #line ---- */

START_TEST(line_directives_point_to_the_source)
{
  const char *src = M43                             /* 1 */
                    "#include <stdio.h>\n"          /* 2 */
                    "#mainhost {\n"                 /* 3 */
                    "  #create M(a)\n"              /* 4 */
                    "  int k = 0;\n"                /* 5 */
                    "  a[$M[3][2]$] = 1;\n"         /* 6 */
                    "\n"                            /* 7 */
                    "  #destroy M(a)\n"             /* 8 */
                    "  printf(\"%d\\n\", k);\n"     /* 9 */
                    "}\n";                          /* 10 */
  Ctx *ctx;
  char *out = pa_translate_ctx(src, true, &ctx);
  ck_assert_ptr_nonnull(out);
  ck_contains(out, "#line 2 \"t.pa\"\n#include <stdio.h>\n");
  ck_line(out, "#include <stdio.h>", 2);
  ck_line(out, "float *a = (float *)pa_alloc_host", 4);
  ck_line(out, "int k = 0;", 5);
  ck_line(out, "a[11] = 1;", 6);
  ck_line(out, "pa_destroy_host(PA_PAGED, a, \"M\", \"t.pa\", 8);", 8);
  ck_line(out, "printf(", 9);
  /* every directive names the file, with a line inside it */
  for (const char *p = strstr(out, "#line "); p; p = strstr(p + 1, "#line ")) {
    int line = atoi(p + 6);
    ck_assert_msg(line >= 1 && line <= 10, "bad %.20s", p);
  }
  free(out);
  ctx_free(ctx);
}
END_TEST

START_TEST(line_directives_in_instances)
{
  const char *src = "#parray {paged int [4]} A\n"   /* 1 */
                    "#subprog S(x)\n"               /* 2 */
                    "  x[$A[1]$] = 0;\n"            /* 3 */
                    "#end\n"                        /* 4 */
                    "void f(int *p) {\n"            /* 5 */
                    "#insert S(p)\n"                /* 6 */
                    "  p[0] = 1;\n"                 /* 7 */
                    "}\n";                          /* 8 */
  Ctx *ctx;
  char *out = pa_translate_ctx(src, true, &ctx);
  ck_assert_ptr_nonnull(out);
  ck_line(out, "p[1] = 0;", 3);
  ck_line(out, "p[0] = 1;", 7);
  ck_line(out, "void f(int *p)", 5);
  free(out);
  ctx_free(ctx);
}
END_TEST

/* ---- evaluate once ---- */

START_TEST(side_effects_once)
{
  const char *decl = "#parray {paged float [4][3]} A\n#parray {paged float [16][17]} S\n"
                     "#parray {paged float [#S_0][16 #S_1]} V\n";
  char *s = pa_dollar(decl, "$A[i++][j]$");
  ck_assert_int_eq(pa_count(s, "i++"), 1);
  free(s);
  s = pa_dollar(decl, "$A[[i++]][f(j)]$");
  ck_assert_int_eq(pa_count(s, "i++"), 1);
  ck_assert_int_eq(pa_count(s, "f(j)"), 1);
  free(s);
  /* the offset uses the index twice (quotient and remainder): a temporary */
  s = pa_dollar(decl, "$V[i++]$");
  ck_assert_int_eq(pa_count(s, "i++"), 1);
  ck_contains(s, "pa_ix0");
  free(s);
  s = pa_dollar(decl, "$V[g()][h()]$");
  ck_assert_int_eq(pa_count(s, "g()"), 1);
  ck_assert_int_eq(pa_count(s, "h()"), 1);
  free(s);
  /* an index the offset does not use is still evaluated */
  s = pa_dollar("#parray {paged float [1][4]} O\n", "$O[i++][j]$");
  ck_assert_int_eq(pa_count(s, "i++"), 1);
  free(s);
  /* two occurrences of the same side effect are two evaluations */
  s = pa_dollar(decl, "$A[i++][i++]$");
  ck_assert_int_eq(pa_count(s, "i++"), 2);
  free(s);
}
END_TEST

START_TEST(side_effects_run_once)
{
  /* compile and run: i advances by exactly one per $...$ */
  char *out = pa_translate("#include <stdio.h>\n#parray {paged float [16][17]} S\n"
                           "#parray {paged float [#S_0][16 #S_1]} V\n"
                           "#parray {paged float [1][4]} O\n"
                           "int main(void) {\n  int i = 20, j = 0;\n"
                           "  int a = $V[i++]$;\n  int b = $O[i++][j]$;\n  int c = $V[[i++]][j++]$;\n"
                           "  printf(\"%d %d %d %d %d\\n\", a, b, c, i, j);\n  return 0;\n}\n");
  ck_assert_ptr_nonnull(out);
  char dir[] = "/tmp/pa_once_XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char path[256], cmd[1024];
  snprintf(path, sizeof path, "%s/p.c", dir);
  FILE *f = fopen(path, "w");
  fputs(out, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "cc -std=gnu11 -w -I'%s' -o '%s/p' '%s' && '%s/p' > '%s/out'", PARRAY_SOURCE_INCLUDE_DIR,
           dir, path, dir, dir);
  ck_assert_int_eq(system(cmd), 0);
  snprintf(path, sizeof path, "%s/out", dir);
  f = fopen(path, "r");
  char line[128] = "";
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  fclose(f);
  /* a = off(20) = 17 + 4; b = $O[21][0]$ = 21 * 4; c = $V[22][0]$ = 22 * 17 */
  ck_assert_str_eq(line, "21 84 374 23 1\n");
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
  free(out);
}
END_TEST

/* ---- #mainhost ---- */

/* A $...$ result loses its outer parentheses where the C text around
 * makes it whole (an index, an argument, a right-hand side, a condition),
 * keeps them next to an operator, and inside the arguments of one of the
 * program's function-like macros, which paste them as text. */
START_TEST(bare_whole_operands)
{
  char *out = pa_translate("#define SQ(a) a * a\n#parray {paged int [3][4]} A\n"
                           "int f(int *r, int i, int j) {\n"
                           "  int x = $A[i][j]$;\n  x += r[$A[i][j]$] + g($A[i][j]$, 1);\n"
                           "  if ($A[i][j]$ < 3 && x)\n    x = 2 * $A[i][j]$ - $A[i][j]$;\n"
                           "  return SQ($A[i][j]$) + x << $A[i][j]$;\n}\n");
  ck_contains(out, "int x = i * 4 + j;");
  ck_contains(out, "x += r[i * 4 + j] + g(i * 4 + j, 1);");
  ck_contains(out, "if (i * 4 + j < 3 && x)");
  ck_contains(out, "x = 2 * (i * 4 + j) - (i * 4 + j);");
  ck_contains(out, "return SQ((i * 4 + j)) + x << (i * 4 + j);");
  free(out);
}
END_TEST

START_TEST(mainhost_is_main)
{
  char *out = pa_translate("#mainhost {\n  if (argc > 1) return 3;\n}\n");
  ck_contains(out, "int main(int argc, char **argv)");
  ck_contains(out, "pa_init(&argc, &argv);");
  ck_contains(out, "pa_finalize();");
  ck_contains(out, "if (argc > 1) return 3;");
  /* argc is used, argv is not; a return inside an if is no last return */
  ck_contains(out, "static int pa_main(int argc, char **argv)\n{\n  (void)argv;\n");
  ck_lacks(out, "(void)argc");
  ck_contains(out, "  return 0;\n}\n");
  ck_compiles(out);
  free(out);
  /* a body that ends in its own return gets no dead "return 0;" after it */
  out = pa_translate("#mainhost {\n  int bad = 0;\n  return bad != 0; /* done */\n}\n");
  ck_contains(out, "{\n  (void)argc;\n  (void)argv;\n");
  ck_contains(out, "  return bad != 0; /* done */\n}\n");
  ck_lacks(out, "return 0;");
  ck_compiles(out);
  free(out);
  out = pa_translate("#mainhost {\n  if (argv[0]) { return 1; }\n}\n");
  ck_contains(out, "  return 0;\n}\n");
  ck_compiles(out);
  free(out);
}
END_TEST

static Suite *make(void)
{
  Suite *s = suite_create("codegen");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 30);
  tcase_add_test(tc, create_assigns_a_global);
  tcase_add_test(tc, create_declares_a_new_name);
  tcase_add_test(tc, create_assigns_a_local);
  tcase_add_test(tc, create_of_an_expression_assigns);
  tcase_add_test(tc, copy_contiguous_is_memcpy);
  tcase_add_test(tc, copy_between_layouts_loops);
  tcase_add_test(tc, copy_guarded_by_divisibility);
  tcase_add_test(tc, copy_checks);
  tcase_add_test(tc, insert_for_two_layouts);
  tcase_add_test(tc, insert_binds_text_and_paths);
  tcase_add_test(tc, bare_whole_operands);
  tcase_add_test(tc, private_types_per_instance);
  tcase_add_test(tc, global_hoisted);
  tcase_add_test(tc, line_directives_point_to_the_source);
  tcase_add_test(tc, line_directives_in_instances);
  tcase_add_test(tc, side_effects_once);
  tcase_add_test(tc, side_effects_run_once);
  tcase_add_test(tc, mainhost_is_main);
  tcase_add_test(tc, create_assigns_a_parameter);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  return pa_run_suite(make());
}
