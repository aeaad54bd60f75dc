/* test_tid.c: thread indices and the pthd/omp backend.
 *
 * $tid_K$ of every sub-dimension K of several thread-array shapes, for
 * every thread, against brute force: the linear tid's digits in the mixed
 * radix of the leaves (last leaf fastest), and K's index made of the digits
 * of K's leaves.  Then the #sync_K groups the backend emits (weight and
 * extent of pa_sync_sub) against the same model: two threads share a group
 * exactly when their leaf digits outside K agree.  Then the shape of the
 * generated code and the errors the backend reports. */
#include "pa_test.h"

#define MAX_THREADS 512


typedef void (*NodeFn)(Ctx *ctx, const ThreadModel *m, Type *t, Dim *d, const char *suffix, void *arg);

static void each_node(Ctx *ctx, const ThreadModel *m, Type *t, Dim *d, const char *suffix, NodeFn fn, void *arg)
{
  fn(ctx, m, t, d, suffix, arg);
  for (int k = 0; k < dim_nkids(d); k++) {
    char sub[96];
    snprintf(sub, sizeof sub, "%.60s_%d", suffix, k);
    each_node(ctx, m, t, dim_kid(d, k), sub, fn, arg);
  }
}

/* ---- $tid_K$ ---- */

static void check_tid(Ctx *ctx, const ThreadModel *m, Type *t, Dim *d, const char *suffix, void *arg)
{
  (void)arg;
  /* the mapping a pthd detour of t sets up: digits of the linear pa_tid */
  ThreadView view;
  memset(&view, 0, sizeof view);
  view.type = t;
  view_known(ctx, &view, t->root, NULL, "pa_tid");
  Poly *p = view_index(ctx, &view, d);
  Poly *var = poly_var(ctx, "pa_tid", t->root->extent);
  Atom *a = var->t[0].f[0];
  for (long long tid = 0; tid < m->nthreads; tid++) {
    long long digits[MAX_LEAVES], got = -1;
    digits_of(m, tid, digits);
    ck_assert_msg(poly_eval(p, a, tid, &got), "$tid%s$ of %s does not evaluate", suffix, t->name);
    long long want = d == t->root ? tid : brute_index(m, d, digits);
    ck_assert_msg(got == want, "%s: $tid%s$ for tid %lld is %lld, want %lld", t->name, suffix, tid, got, want);
  }
}

static Type *translate_shape(const char *shape, Ctx **ctxp, char **outp, const char *body)
{
  char src[1024];
  snprintf(src, sizeof src, "#parray {pthd %s} T\nvoid f(void)\n{\n  #detour T {\n%s  }\n}\n", shape, body);
  char *out = pa_translate_ctx(src, false, ctxp);
  ck_assert_msg(out != NULL, "%s did not translate:\n%s", shape, src);
  *outp = out;
  Type *t = type_lookup(*ctxp, "T");
  ck_assert_ptr_nonnull(t);
  return t;
}

static const char *shapes[] = {"[2][2]", "[[2][3]][4]", "[8]", "[3][[2][2]]", "[[2][[3][2]]][2][[1][2]]",
                               "[[1][4]][[2][1]]", NULL};

static ThreadModel model_of(Type *t)
{
  ThreadModel m;
  memset(&m, 0, sizeof m);
  collect_leaves(&m, t->root);
  m.nthreads = const_of(t->root->extent);
  ck_assert_int_le(m.nthreads, MAX_THREADS);
  return m;
}

START_TEST(tid_every_subdimension)
{
  for (int s = 0; shapes[s]; s++) {
    Ctx *ctx;
    char *out;
    Type *t = translate_shape(shapes[s], &ctx, &out, "");
    ThreadModel m = model_of(t);
    each_node(ctx, &m, t, t->root, "", check_tid, NULL);
    free(out);
    ctx_free(ctx);
  }
}
END_TEST

/* SPEC Appendix B: pthd [2][2] */
START_TEST(tid_appendix_b)
{
  Ctx *ctx;
  char *out;
  translate_shape("[2][2]", &ctx, &out, "    int x = $tid_0$ + 10 * $tid_1$ + 100 * $tid$;\n");
  ck_contains(out, "int x = (pa_tid / 2) + 10 * (pa_tid % 2) + 100 * pa_tid;");
  free(out);
  ctx_free(ctx);
}
END_TEST

/* ---- #sync_K groups ---- */

/* the (weight, extent) of the pa_sync_sub call the backend writes for K,
 * or (0, 0) for a full barrier and (1, 1) for none */
static void sync_call(const char *shape, const char *suffix, long long *w, long long *e)
{
  Ctx *ctx;
  char *out, body[64];
  snprintf(body, sizeof body, "    #sync%s\n", suffix);
  translate_shape(shape, &ctx, &out, body);
  const char *call = strstr(out, "pa_sync_sub(pa_self, ");
  if (call) {
    ck_assert_int_eq(sscanf(call, "pa_sync_sub(pa_self, %lld, %lld,", w, e), 2);
  } else if (strstr(out, "pa_sync_at(pa_self, ")) {
    *w = *e = 0;
  } else {
    ck_contains(out, "every group is one thread");
    *w = *e = 1;
  }
  free(out);
  ctx_free(ctx);
}

static void check_groups(Ctx *ctx, const ThreadModel *m, Type *t, Dim *d, const char *suffix, void *arg)
{
  (void)ctx;

  if (d == t->root)
    return;
  long long w, e;
  sync_call(*(const char **)arg, suffix, &w, &e);
  for (long long x = 0; x < m->nthreads; x++)
    for (long long y = 0; y < m->nthreads; y++) {
      long long dx[MAX_LEAVES], dy[MAX_LEAVES];
      digits_of(m, x, dx);
      digits_of(m, y, dy);
      bool same = true;
      for (int k = 0; k < m->nleaves; k++)
        if (!leaf_in(m->leaves[k], d) && dx[k] != dy[k])
          same = false;
      bool got;
      if (w == 0)
        got = true;
      else
        got = x / (w * e) * w + x % w == y / (w * e) * w + y % w;
      ck_assert_msg(got == same, "%s #sync%s: threads %lld and %lld %s share a group", t->name, suffix, x, y,
                    same ? "must" : "must not");
    }
}

START_TEST(sync_groups)
{
  for (int s = 0; shapes[s]; s++) {
    Ctx *ctx;
    char *out;
    Type *t = translate_shape(shapes[s], &ctx, &out, "");
    ThreadModel m = model_of(t);
    each_node(ctx, &m, t, t->root, "", check_groups, &shapes[s]);
    free(out);
    ctx_free(ctx);
  }
}
END_TEST

/* ---- the generated code ---- */

START_TEST(code_pthd)
{
  char *out = pa_translate("int g;\n"
                           "#parray {pthd(int n, float *x) [2][2]} T\n"
                           "void f(float *y)\n"
                           "{\n"
                           "  #detour T(3, y) {\n"
                           "    x[$tid$] = g;\n"
                           "    #sync\n"
                           "  }\n"
                           "}\n");
  ck_contains(out, "struct pa_args_T_L5 {\n  int n;\n  float *x;\n};");
  ck_contains(out, "static void pa_detour_T_L5(pa_thread *pa_self)\n{\n");
  ck_contains(out, "  const struct pa_args_T_L5 *pa_args = (const struct pa_args_T_L5 *)pa_self->args;\n");
  ck_contains(out, "  int pa_tid = pa_self->tid;\n  int n = pa_args->n;\n  float *x = pa_args->x;\n  (void)n;\n");
  ck_contains(out, "  x[pa_tid] = g;\n  pa_sync_at(pa_self, 7);\n}\n");
  ck_contains(out, "  { /* #detour T: 4 POSIX threads */\n"
                   "    struct pa_args_T_L5 pa_args = {3, y};\n"
                   "    pa_pthd_run(4, pa_detour_T_L5, &pa_args, \"t.pa\", 5);\n"
                   "  }\n");
  /* the function comes before the function that launches it */
  ck_assert_msg(strstr(out, "pa_detour_T_L5(pa_thread") < strstr(out, "void f(float *y)"), "order:\n%s", out);
  free(out);
}
END_TEST

START_TEST(code_omp_and_nesting)
{
  char *out = pa_translate("int n;\n"
                           "#parray {pthd [n]} P\n"
                           "#parray {omp(int p) [2][3]} O\n"
                           "void f(void)\n"
                           "{\n"
                           "  #detour P {\n"
                           "    #detour O($tid$) {\n"
                           "      int v = p + $tid_1$;\n"
                           "      #sync\n"
                           "      #sync_1\n"
                           "      (void)v;\n"
                           "    }\n"
                           "  }\n"
                           "}\n");
  ck_contains(out, "pa_pthd_run(n, pa_detour_P_L6, PA_NULL, \"t.pa\", 6);");
  ck_contains(out, "struct pa_args_O_L7 pa_args = {pa_tid};");
  ck_contains(out, "pa_omp_run(6, pa_detour_O_L7, &pa_args, \"t.pa\", 7);");
  ck_contains(out, "int pa_tid = omp_get_thread_num();");
  ck_contains(out, "int v = p + (pa_tid % 3);");
  ck_contains(out, "pa_sync_at(pa_self, 9);\n"); /* the team's barrier, as pthd's: a skipped #sync is seen */
  ck_contains(out, "pa_sync_sub(pa_self, 1, 3, \"t.pa\", 10);");
  /* inner before outer */
  ck_assert_msg(strstr(out, "static void pa_detour_O_L7") < strstr(out, "static void pa_detour_P_L6"), "order:\n%s",
                out);
  free(out);
}
END_TEST

/* ---- errors ---- */

START_TEST(errors)
{
  /* no such sub-dimension */
  ck_assert_int_eq(pa_error_count("#parray {pthd [2][2]} T\nvoid f(void)\n{\n  #detour T {\n    #sync_2\n  }\n}\n"),
                   1);
  /* an array parameter */
  ck_assert_int_eq(
      pa_error_count("#parray {pthd(int a[4]) [2]} T\nvoid f(int *x)\n{\n  #detour T(x) {\n    a[0] = 1;\n  }\n}\n"),
      1);
  /* $tid$ outside any detour, #sync outside any detour */
  ck_assert_int_eq(pa_error_count("int x = $tid$;\n"), 1);
  ck_assert_int_eq(pa_error_count("void f(void)\n{\n  #sync\n}\n"), 1);
  /* $tid_K$ beyond the innermost array */
  ck_assert_int_eq(pa_error_count("#parray {pthd [2]} T\nvoid f(void)\n{\n  #detour T {\n    int x = $tid_1$;\n"
                                  "    (void)x;\n  }\n}\n"),
                   1);
}
END_TEST

static Suite *suite(void)
{
  Suite *s = suite_create("tid");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, tid_every_subdimension);
  tcase_add_test(tc, tid_appendix_b);
  tcase_add_test(tc, sync_groups);
  tcase_add_test(tc, code_pthd);
  tcase_add_test(tc, code_omp_and_nesting);
  tcase_add_test(tc, errors);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  return pa_run_suite(suite());
}
