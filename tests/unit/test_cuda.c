/* test_cuda.c: the CUDA target.
 *
 * First the thread mapping: for several cuda thread-array shapes, every
 * $tid_K$ the backend produces (a Poly over pa_bx, pa_ty, ..., pa_tid) is
 * evaluated for every thread and compared with brute force: K's index is
 * made of the digits of K's leaves in the thread's linear index (last leaf
 * fastest), and the linear index is block * |block| + thread in block.
 * Then the generated kernels, launches, memory and copies, by substrings,
 * and the compile-time errors. */
#include "pa_test.h"

Poly *cuda_tid_of(Ctx *ctx, Type *t, Dim *d); /* targets/cuda/cuda.c */

/* values of the index variables for one thread */
typedef struct Env {
  const char *name[8];
  long long value[8];
  int n;
} Env;

static long long eval_poly(const Poly *p, const Env *env);

static long long eval_atom(const Atom *a, const Env *env)
{
  switch (a->kind) {
  case A_VAR:
    for (int i = 0; i < env->n; i++)
      if (!strcmp(env->name[i], a->text))
        return env->value[i];
    ck_abort_msg("unknown variable '%s' in a thread index", a->text);
    return 0;
  case A_DIV:
    return eval_poly(a->num, env) / eval_poly(a->den, env);
  case A_MOD:
    return eval_poly(a->num, env) % eval_poly(a->den, env);
  default:
    ck_abort_msg("a size symbol in a constant thread array");
    return 0;
  }
}

static long long eval_poly(const Poly *p, const Env *env)
{
  long long sum = 0;
  for (int i = 0; i < p->n; i++) {
    long long t = p->t[i].coef;
    for (int k = 0; k < p->t[i].nf; k++)
      t *= eval_atom(p->t[i].f[k], env);
    sum += t;
  }
  return sum;
}

static void env_set(Env *env, const char *name, long long v)
{
  env->name[env->n] = name;
  env->value[env->n++] = v;
}

/* The variables of one thread, linear index tid: each axis node's index
 * from the model (the backend's claim: pa_tx is the index of the block's
 * last child, and so on), checked below against every node. */
static void thread_env(Type *t, const ThreadModel *m, long long tid, Env *env)
{
  long long digits[MAX_LEAVES];
  long long rest = tid;
  for (int k = m->nleaves - 1; k >= 0; k--) {
    digits[k] = rest % m->radix[k];
    rest /= m->radix[k];
  }
  env->n = 0;
  Dim *root = t->root;
  if (root->nkids == 1) {
    env_set(env, "pa_tid", tid);
    return;
  }
  static const char *names[2][3] = {{"pa_bz", "pa_by", "pa_bx"}, {"pa_tz", "pa_ty", "pa_tx"}};
  for (int w = 0; w < 2; w++) {
    Dim *lv = root->kids[w];
    int n = dim_nkids(lv);
    if (n < 1 || n > 3) {
      env_set(env, names[w][2], brute_index(m, lv, digits));
      continue;
    }
    for (int k = 0; k < n; k++)
      env_set(env, names[w][3 - n + k], brute_index(m, dim_kid(lv, k), digits));
  }
}

static void check_node(Ctx *ctx, Type *t, const ThreadModel *m, Dim *d)
{
  Poly *p = cuda_tid_of(ctx, t, d);
  ck_assert_msg(p != NULL, "no index for %s", d->path);
  long long n = const_of(t->root->extent);
  for (long long tid = 0; tid < n; tid++) {
    long long digits[MAX_LEAVES], rest = tid;
    for (int k = m->nleaves - 1; k >= 0; k--) {
      digits[k] = rest % m->radix[k];
      rest /= m->radix[k];
    }
    Env env;
    thread_env(t, m, tid, &env);
    long long got = eval_poly(p, &env), want = brute_index(m, d, digits);
    ck_assert_msg(got == want, "%s of thread %lld: got %lld (%s), want %lld", d->path, tid, got, poly_str(ctx, p),
                  want);
  }
  for (int k = 0; k < dim_nkids(d); k++)
    check_node(ctx, t, m, dim_kid(d, k));
}

static void check_shape(const char *dims)
{
  char src[256];
  snprintf(src, sizeof src, "#parray {cuda(int *x) %s} T\n", dims);
  Ctx *ctx;
  char *out = pa_translate_ctx(src, false, &ctx);
  ck_assert_msg(out != NULL, "%s did not translate", dims);
  Type *t = type_lookup(ctx, "T");
  ThreadModel m = {0};
  collect_leaves(&m, t->root);
  check_node(ctx, t, &m, t->root);
  free(out);
  ctx_free(ctx);
}

START_TEST(test_tid_mapping)
{
  check_shape("[2][2]");
  check_shape("[[3][4]][[2][5]]");
  check_shape("[[2][3][2]][[2][4][8]]");
  check_shape("[[2][[2][3]]][[[2][2]][4]]");
  check_shape("[[2][2][2][2]][[3][[2][2]][2][2]]"); /* more than 3 children: linear on x */
  check_shape("[6][[2][[3][2]]]");
  check_shape("[1000]");                           /* tiled, ragged */
  check_shape("[[2][3]]");                         /* tiled, nested */
}
END_TEST

/* ---- generated code ---- */

static char *translate_ok(const char *src)
{
  char *out = pa_translate(src);
  ck_assert_msg(out != NULL, "did not translate:\n%s", src);
  return out;
}

START_TEST(test_kernel_and_launch)
{
  char *out = translate_ok("#parray {dmem float2 [[8][16]][[8][16]]} DATA\n"
                           "#parray {cuda(float2 *wi, float2 *wo) [[8][8]][[16][16]]} MYCUDATA\n"
                           "#parray {smem float2 [16][17]} A\n"
                           "#parray {smem float2 [#A_0][16 #A_1]} B\n"
                           "#mainhost {\n"
                           "  #create DATA(adri)\n"
                           "  #create DATA(adro)\n"
                           "  #detour MYCUDATA(adri, adro) {\n"
                           "    #create A(tile)\n"
                           "    tile[$B[$tid_1_0$][$tid_1_1$]$] = wi[$DATA[[$tid_0_0$][$tid_1_0$]][[$tid_0_1$][$tid_1_1$]]$];\n"
                           "    #sync{}\n"
                           "    wo[$DATA[[$tid_0_1$][$tid_1_0$]][[$tid_0_0$][$tid_1_1$]]$] = tile[$B[$tid_1_1$][$tid_1_0$]$];\n"
                           "  }\n"
                           "  #destroy DATA(adri)\n"
                           "}\n");
  ck_contains(out, "__global__ void __launch_bounds__(256) pa_kernel_MYCUDATA_L8(float2 *wi, float2 *wo)\n{\n");
  ck_contains(out, "const int pa_by = blockIdx.y, pa_bx = blockIdx.x;");
  ck_contains(out, "const int pa_ty = threadIdx.y, pa_tx = threadIdx.x;");
  ck_contains(out, "__shared__ float2 tile[272];");
  ck_contains(out, "__syncthreads();");
  /* the body is dedented to the kernel's level; constant strides */
  ck_contains(out, "\n  tile[");
  ck_contains(out, "* 2048");
  ck_contains(out, "pa_kernel_MYCUDATA_L8<<<dim3(8, 8), dim3(16, 16)>>>(adri, adro);");
  ck_contains(out, "pa_cuda_check_launch(\"pa_kernel_MYCUDATA_L8\", \"t.pa\", 8);");
  ck_contains(out, "float2 *adri = (float2 *)pa_cuda_alloc(PA_DMEM, 16384, sizeof(float2), \"DATA\", \"t.pa\", 6);");
  ck_contains(out, "pa_cuda_free(PA_DMEM, adri, \"t.pa\", 14);");
  /* the kernel comes before the function that launches it */
  ck_assert_msg(strstr(out, "__global__") < strstr(out, "pa_main"), "the kernel must come first");
  free(out);
}
END_TEST

START_TEST(test_axes)
{
  /* z, y, x: the last child is x; three children use z */
  char *out = translate_ok("#parray {cuda(int *x) [[2][3][4]][[2][4][8]]} T\n"
                           "void f(int *p) {\n"
                           "  #detour T(p) {\n"
                           "    x[$tid$] = $tid_0_0$ + $tid_0_1$ + $tid_0_2$ + $tid_1_0$ + $tid_1_1$ + $tid_1_2$;\n"
                           "  }\n"
                           "}\n");
  ck_contains(out, "pa_bz = blockIdx.z, pa_by = blockIdx.y, pa_bx = blockIdx.x");
  ck_contains(out, "pa_tz = threadIdx.z, pa_ty = threadIdx.y, pa_tx = threadIdx.x");
  ck_contains(out, "<<<dim3(4, 3, 2), dim3(8, 4, 2)>>>(p);");
  free(out);
  /* plain [2][2]: grid [2], block [2]; Fig 12's [1024][1024] */
  out = translate_ok("#parray {cuda(int *x) [1024][1024]} T\n"
                     "void f(int *p) {\n"
                     "  #detour T(p) { x[$tid$] = $tid_0$; }\n"
                     "}\n");
  ck_contains(out, "<<<1024, 1024>>>(p);");
  ck_contains(out, "pa_bx * 1024 + pa_tx");
  free(out);
  /* deeper nesting: digits of threadIdx.x, folded by the bounds */
  out = translate_ok("#parray {cuda(int *x) [4][[[2][4]][32]]} T\n"
                     "void f(int *p) {\n"
                     "  #detour T(p) { x[$tid$] = $tid_1_0_1$ + $tid_1_1$; }\n"
                     "}\n");
  ck_contains(out, "pa_ty % 4");
  ck_contains(out, "<<<4, dim3(32, 8)>>>(p);");
  free(out);
}
END_TEST

START_TEST(test_tiled)
{
  char *out = translate_ok("#parray {cuda(int *x, int n) [100000]} T\n"
                           "void f(int *p) {\n"
                           "  #detour T(p, 100000) { x[$tid$] = 2 * $tid$; }\n"
                           "}\n");
  ck_contains(out, "const int pa_tid = blockIdx.x * 256 + threadIdx.x;");
  ck_contains(out, "if (pa_tid >= 100000)");
  ck_contains(out, "<<<391, 256>>>(p, 100000);");
  free(out);
  /* a small constant extent is one block, no guard */
  out = translate_ok("#parray {cuda(int *x) [96]} T\n"
                     "void f(int *p) {\n"
                     "  #detour T(p) { x[$tid$] = 1;\n  #sync\n  }\n"
                     "}\n");
  ck_contains(out, "<<<1, 96>>>(p);");
  ck_lacks(out, "return;");
  ck_contains(out, "__syncthreads();");
  free(out);
  /* a symbolic extent */
  out = translate_ok("#define M 5000\n"
                     "#parray {cuda(int *x) [M]} T\n"
                     "void f(int *p) {\n"
                     "  #detour T(p) { x[$tid$] = 1; }\n"
                     "}\n");
  ck_contains(out, "<<<(M + 255) / 256, 256>>>(p);");
  ck_contains(out, "if (pa_tid >= M)");
  free(out);
}
END_TEST

START_TEST(test_sgemm_fig21)
{
  /* the Fig 21 kernel: constant strides, register array, unrolled copies */
  char *out = translate_ok(
    "#parray {dmem float [2048][2048]} RM\n"
    "#parray {cuda(float *a, float *b, float *c) [[2048/16][2048/256]][[4][32]]} CUDA\n"
    "#parray {dmem float [[2048/16][[4][4]] #RM_0][[2048/32][32] #RM_1]} A\n"
    "#parray {dmem float [[2048/32][32] #RM_0][[2048/256][[128][2]] #RM_1]} B\n"
    "#parray {dmem float [#A_0][#B_1]} C\n"
    "#parray {dmem float [#C_0_1][#C_1_1_1]} C0\n"
    "#parray {smem float [32][17]} S\n"
    "#parray {smem float [32 #S_0][[4][4] #S_1]} S0\n"
    "#parray {rmem float [16][2]} R\n"
    "void sgemm(float *da, float *db, float *dc) {\n"
    "#detour CUDA(da, db, dc) {\n"
    "  #create S(s)\n"
    "  #create R(r)\n"
    "  for (int i = 0; i < $size(R)$; i++) r[i] = 0;\n"
    "  a += $A[[$tid_0_0$][[0][$tid_1_0$]]][[0][$tid_1_1$]]$;\n"
    "  b += $B[0][[$tid_0_1$][[$tid_1$][0]]]$;\n"
    "  for (int i = 0; i < $size(A_1_0)$; i++) {\n"
    "    #copy A_0_1_0(a + $A_1_0[i]$) to S0_1_0(s + $S0[$tid_1_1$][[0][$tid_1_0$]]$)\n"
    "    #sync_1\n"
    "    if ($cnt(B_1_1_1)$) r[0] += s[$S[0][1]$];\n"
    "    #sync_1\n"
    "  }\n"
    "  #copy R(r) to C0(c)\n"
    "}\n"
    "}\n");
  ck_contains(out, "__global__ void __launch_bounds__(128) pa_kernel_CUDA_L11(float *a, float *b, float *c)");
  ck_contains(out, "__shared__ float s[544];");
  ck_contains(out, "float r[32];");
  ck_contains(out, "a += pa_by * 32768 + pa_ty * 2048 + pa_tx;");
  /* the pragma indented with the loop it unrolls */
  ck_contains(out, "    #pragma unroll\n    for (int pa_i0 = 0; pa_i0 < 16; pa_i0++)\n"
                   "      #pragma unroll\n      for (int pa_i1 = 0; pa_i1 < 2; pa_i1++)\n");
  ck_contains(out, "if (1)");
  ck_assert_int_eq(pa_count(out, "__syncthreads();"), 2);
  ck_contains(out, "<<<dim3(8, 128), dim3(32, 4)>>>(da, db, dc);");
  ck_lacks(out, "long long");
  free(out);
}
END_TEST

START_TEST(test_memory)
{
  char *out = translate_ok("#parray {pinned float [64]} P\n"
                           "#parray {dmem float [64]} D\n"
                           "float *g;\n"
                           "#mainhost {\n"
                           "  INIT_GPU(0);\n"
                           "  #create P(h)\n"
                           "  #create D(g)\n"
                           "  #copy P(h) to D(g)\n"
                           "  #copy D(g) to P(h)\n"
                           "  #destroy D(g)\n"
                           "  #destroy P(h)\n"
                           "}\n");
  ck_contains(out, "#include <parray_cuda.h>");
  ck_contains(out, "float *h = (float *)pa_cuda_alloc(PA_PINNED, 64, sizeof(float), \"P\", \"t.pa\", 6);");
  /* g is global: assigned, not declared */
  ck_contains(out, "  g = (float *)pa_cuda_alloc(PA_DMEM, 64, sizeof(float), \"D\", \"t.pa\", 7);");
  ck_contains(out, "cudaMemcpy(g, h, (pa_size_t)64 * sizeof(float), cudaMemcpyHostToDevice)");
  ck_contains(out, "cudaMemcpy(h, g, (pa_size_t)64 * sizeof(float), cudaMemcpyDeviceToHost)");
  ck_contains(out, "pa_cuda_free(PA_DMEM, g, \"t.pa\", 10);");
  ck_contains(out, "pa_cuda_free(PA_PINNED, h, \"t.pa\", 11);");
  free(out);
}
END_TEST

/* A transposing all-to-all between two distributions over the GPUs of a
 * pthd or mpi array (issue 29): in packets where the destination's GPU is
 * a digit of the source (columns split [G][NG]), each GPU packing its
 * rectangle for q at base NG * pa_tid of q's block, pitch G * NG; from a
 * source whose columns are one digit [G * NG] the peer kernel stays.  Each #create of the
 * distribution reserves what the copies need. */
static void check_packets(const char *kind)
{
  char src[2048];
  snprintf(src, sizeof src,
           "#define NG 64\n#define G 4\n"
           "#parray {%s(float *x) [G]} P\n"
           "#parray {dmem float [[#P][NG]][[G][NG]]} X\n"
           "#parray {dmem float [[#P][NG]][[G][NG]]} Y\n"
           "#parray {float [#Y_1][#Y_0]} YT\n"
           "#parray {dmem float [[#P][NG]][G * NG]} Z\n"
           "#parray {float [#X_1][#X_0]} XT\n"
           "#mainhost {\n  float *x = 0;\n  #detour P(x) {\n    #create X(dx)\n    #create Y(dy)\n"
           "    #create Z(dz)\n    #copy X(dx) to YT(dy)\n    #copy Z(dz) to XT(dx)\n  }\n}\n", kind);
  char *out = translate_ok(src);
  const char *me = strcmp(kind, "mpi") ? "pa_tid" : "pa_rank";
  char want[256];
  ck_contains(out, "__global__ void pa_pack_X_to_YT(");
  ck_contains(out, "pa_out[pa_a * pa_pitch + pa_b] = pa_tile[threadIdx.x][pa_k];");
  snprintf(want, sizeof want, "pa_cuda_packets_begin(%s, %s, NG, NG, G * NG, NG * %s, sizeof(float), ",
           strcmp(kind, "mpi") ? "G" : "pa_mpi_size()", me, me);
  ck_contains(out, want);
  ck_contains(out, "pa_cuda_packets_end(&pa_pk, \"pa_pack_X_to_YT\"");
  ck_contains(out, "pa_cuda_preload((const void *)pa_pack_X_to_YT);");
  /* Z's columns one digit [G * NG]: X's GPU is a quotient of it, no digit: the peer kernel */
  ck_contains(out, "__global__ void pa_copy_Z_to_XT(");
  ck_lacks(out, "pa_pack_Z_to_XT");
  ck_contains(out, "pa_cuda_packets_reserve(");
  free(out);
}

START_TEST(test_packets)
{
  check_packets("pthd");
  check_packets("mpi");
}
END_TEST

START_TEST(test_copies)
{
  const char *decls = "#parray {dmem float [512][512]} D\n"
                      "#parray {dmem float [#D_1][#D_0]} T\n"
                      "#parray {dmem float [256][1024]} P\n"
                      "#parray {dmem float [200 #P_0][300 #P_1]} PV\n"
                      "#parray {paged float [200][300]} PH\n"
                      "#parray {paged float [512][512]} H\n"
                      "#parray {paged float [#H_1][#H_0]} HT\n"
                      "#parray {dmem float [300][200]} DS\n"
                      "#parray {dmem float [200][300]} DP\n"
                      "#parray {paged float [300 #P_1][200 #P_0]} HW\n" /* a window of P's shape, transposed */
                      "#parray {dmem float [2][512][256]} A17\n"
                      "#parray {float [#A17_1][[#A17_0][#A17_2]]} M17\n";
  char src[4096];
  /* a transpose: the tiled shared-memory kernel */
  snprintf(src, sizeof src, "%svoid f(float *x, float *y) {\n  #copy D(x) to T(y)\n}\n", decls);
  char *out = translate_ok(src);
  ck_contains(out, "__global__ void pa_copy_D_to_T(const float *pa_src, float *pa_dst)");
  ck_contains(out, "__shared__ float pa_tile[64][65];");  /* 64 x 64: elements of at most 8 bytes */
  ck_contains(out, "pa_copy_D_to_T<<<dim3(8, 8, 1), dim3(32, 8)>>>(x, y);");
  ck_lacks(out, "if (pa_a <"); /* 512 is a multiple of the tile */
  free(out);
  /* 16-byte elements keep 32 x 32 tiles (64 x 65 of them would pass 48 KB) */
  out = translate_ok("#parray {dmem float4 [512][512]} D4\n"
                     "#parray {float4 [#D4_1][#D4_0]} T4\n"
                     "void f(float4 *x, float4 *y) {\n  #copy D4(x) to T4(y)\n}\n");
  ck_contains(out, "__shared__ float4 pa_tile[32][33];");
  ck_contains(out, "<<<dim3(16, 16, 1), dim3(32, 8)>>>(x, y);");
  free(out);
  /* one kernel per pair of layouts: the second copy D to T shares it, and so
   * does T to D (a 512 x 512 transpose either way) */
  snprintf(src, sizeof src,
           "%svoid f(float *x, float *y) {\n  #copy D(x) to T(y)\n  #copy D(y) to T(x)\n  #copy T(x) to D(y)\n}\n",
           decls);
  out = translate_ok(src);
  ck_assert_int_eq(pa_count(out, "__global__ void pa_copy_"), 1);
  ck_assert_int_eq(pa_count(out, "pa_copy_D_to_T<<<"), 3);
  ck_contains(out, "pa_copy_D_to_T<<<dim3(8, 8, 1), dim3(32, 8)>>>(y, x);");
  free(out);
  /* another pair of layouts, another kernel */
  snprintf(src, sizeof src, "%svoid f(float *x, float *y) {\n  #copy D(x) to T(y)\n  #copy A17(x) to M17(y)\n}\n",
           decls);
  out = translate_ok(src);
  ck_assert_int_eq(pa_count(out, "__global__ void pa_copy_"), 2);
  ck_contains(out, "__global__ void pa_copy_A17_to_M17(");
  free(out);
  /* pitched on both sides: cudaMemcpy2D */
  snprintf(src, sizeof src, "%svoid f(float *x, float *y) {\n  #copy PH(x) to PV(y)\n}\n", decls);
  out = translate_ok(src);
  ck_contains(out, "cudaMemcpy2D(y, 1024 * sizeof(float), x, 300 * sizeof(float), 300 * sizeof(float), 200, "
                   "cudaMemcpyHostToDevice)");
  free(out);
  /* pitched on both sides on one GPU: the rows kernel, not waited for (as a
   * device-to-device cudaMemcpy2D is not) */
  snprintf(src, sizeof src, "%svoid f(float *x, float *y) {\n  #copy PV(x) to DP(y)\n}\n", decls);
  out = translate_ok(src);
  ck_lacks(out, "cudaMemcpy2D");
  ck_contains(out, "  const int pa_j = blockIdx.x * 32 + threadIdx.x;\n  if (pa_j >= 300)\n    return;\n"
                   "  for (int pa_r0 = blockIdx.y * 32 + threadIdx.y; pa_r0 < 200; pa_r0 += gridDim.y * 32) {\n");
  ck_contains(out, "        pa_v[pa_k] = pa_src[pa_r * 1024 + pa_j];\n");
  ck_contains(out, "        pa_dst[pa_r * 300 + pa_j] = pa_v[pa_k];\n");
  ck_contains(out, "pa_copy_PV_to_DP<<<dim3(10, 7), dim3(32, 8)>>>(x, y);");
  ck_contains(out, "pa_cuda_check_queued(\"pa_copy_PV_to_DP\"");
  free(out);
  /* a non-contiguous host side: staged through device memory, the
   * destination's span written whole: read first only where it has gaps */
  snprintf(src, sizeof src, "%svoid f(float *x, float *y) {\n  #copy D(x) to HT(y)\n}\n", decls);
  out = translate_ok(src);
  ck_contains(out, "staged through device memory");
  ck_lacks(out, "cudaMemcpy(pa_stage, pa_host,"); /* HT, H permuted, has none */
  ck_contains(out, "cudaMemcpy(pa_host, pa_stage,");
  free(out);
  snprintf(src, sizeof src, "%svoid f(float *x, float *y) {\n  #copy DS(x) to HW(y)\n}\n", decls);
  out = translate_ok(src);
  ck_contains(out, "staged through device memory");
  ck_contains(out, "cudaMemcpy(pa_stage, pa_host,"); /* the host's gaps survive */
  ck_contains(out, "cudaMemcpy(pa_host, pa_stage,");
  free(out);
  /* a layout change where the fast digit agrees: the element kernel */
  snprintf(src, sizeof src, "%svoid f(float *x, float *y) {\n  #copy D(x) to M17(y)\n}\n", decls);
  out = translate_ok(src);
  ck_contains(out, "const int pa_i = blockIdx.x * 256 + threadIdx.x;");
  ck_contains(out, "pa_dst[");
  ck_contains(out, "<<<1024, 256>>>(x, y);");
  free(out);
  /* a run-time extent check when extents are not known */
  out = translate_ok("#parray {dmem float [n]} V\n#parray {dmem float [m]} W\n"
                     "void f(float *x, float *y, int n, int m) {\n  #copy V(x) to W(y)\n}\n");
  ck_contains(out, "pa_check_copy_extent(n, m, \"t.pa\", 4);");
  free(out);
}
END_TEST

/* ---- errors ---- */

START_TEST(test_errors)
{
  /* block over 1024 threads, blockDim.z over 64 */
  ck_assert_int_eq(pa_error_count("#parray {cuda(int *x) [4][[32][64]]} T\n"
                                  "void f(int *p) {\n  #detour T(p) { x[0] = 1; }\n}\n"),
                   1);
  ck_assert_int_eq(pa_error_count("#parray {cuda(int *x) [4][[128][2][2]]} T\n"
                                  "void f(int *p) {\n  #detour T(p) { x[0] = 1; }\n}\n"),
                   1);
  /* grid synchronisation */
  ck_assert_int_eq(pa_error_count("#parray {cuda(int *x) [4][32]} T\n"
                                  "void f(int *p) {\n  #detour T(p) {\n    #sync_0\n    x[0] = 1;\n  }\n}\n"),
                   1);
  /* three top-level dimensions */
  ck_assert_int_eq(pa_error_count("#parray {cuda(int *x) [4][4][4]} T\n"
                                  "void f(int *p) {\n  #detour T(p) { x[0] = 1; }\n}\n"),
                   1);
  /* a cuda detour inside a cuda detour */
  ck_assert_int_eq(pa_error_count("#parray {cuda(int *x) [4][32]} T\n"
                                  "void f(int *p) {\n  #detour T(p) {\n    #detour T(x) { x[0] = 1; }\n  }\n}\n"),
                   1);
  /* dmem allocated inside a kernel */
  ck_assert_int_eq(pa_error_count("#parray {cuda(int *x) [4][32]} T\n#parray {dmem int [4]} D\n"
                                  "void f(int *p) {\n  #detour T(p) {\n    #create D(q)\n  }\n}\n"),
                   1);
  /* #sync in a tiled array with a ragged end */
  ck_assert_int_eq(pa_error_count("#parray {cuda(int *x) [1000000]} T\n"
                                  "void f(int *p) {\n  #detour T(p) {\n    #sync\n  }\n}\n"),
                   1);
  /* min_blocks: outside a cuda detour, out of range, misspelt, with a block
     size known only at run time */
  ck_assert_int_eq(pa_error_count("#parray {cuda(int *x) [4][32]} T\n"
                                  "void f(int *p) {\n#pragma parray min_blocks(2)\n  #detour T(p) { x[0] = 1; }\n}\n"),
                   1);
  ck_assert_int_eq(pa_error_count("#parray {cuda(int *x) [4][32]} T\n"
                                  "void f(int *p) {\n  #detour T(p) {\n#pragma parray min_blocks(33)\n  }\n}\n"),
                   1);
  ck_assert_int_eq(pa_error_count("#parray {cuda(int *x) [4][32]} T\n"
                                  "void f(int *p) {\n  #detour T(p) {\n#pragma parray min_block(2)\n  }\n}\n"),
                   1);
  ck_assert_int_eq(pa_error_count("#parray {cuda(int *x) [4][n]} T\n"
                                  "void f(int *p, int n) {\n  #detour T(p) {\n#pragma parray min_blocks(2)\n  }\n}\n"),
                   1);
}
END_TEST

START_TEST(test_min_blocks)
{
  /* "#pragma parray min_blocks(K)" becomes the kernel's second launch bound
     and leaves no trace in the body */
  char *out = translate_ok("#parray {cuda(float *x) [[16][256]]} T\n"
                           "void f(float *p) {\n"
                           "  #detour T(p) {\n"
                           "    #pragma parray min_blocks(2)\n"
                           "    x[$tid$] = 0;\n"
                           "  }\n"
                           "  #detour T(p) {\n"
                           "    #pragma unroll\n"
                           "    for (int i = 0; i < 4; i++) x[$tid$] += i;\n"
                           "  }\n"
                           "}\n");
  ck_contains(out, "__global__ void __launch_bounds__(256, 2) pa_kernel_T_L3(float *x)");
  ck_contains(out, "__global__ void __launch_bounds__(256) pa_kernel_T_L7(float *x)");
  ck_lacks(out, "parray min_blocks");
  ck_assert_int_eq(pa_count(out, "#pragma unroll"), 1);
  free(out);
  /* K a subprogram's parameter: substituted like the rest of the body */
  out = translate_ok("#parray {cuda(float *x) [[16][256]]} T\n"
                     "#subprog ZERO(p, blocks)\n"
                     "  #detour T(p) {\n"
                     "    #pragma parray min_blocks(blocks)\n"
                     "    x[$tid$] = 0;\n"
                     "  }\n"
                     "#end\n"
                     "void f(float *p) {\n"
                     "  #insert ZERO(p, 3)\n"
                     "}\n");
  ck_contains(out, "__launch_bounds__(256, 3)");
  ck_lacks(out, "parray min_blocks");
  free(out);
}
END_TEST

START_TEST(test_thread_copy_extent)
{
  /* a #copy each thread runs, extents that differ only at run time: types
     declared outside the kernel are compared before the launch (the loop
     in the kernel has no check), a type of the body inside the kernel */
  char *out = translate_ok("#parray {cuda(float *x) [2][32]} K\n"
                           "void f(float *p, int n) {\n"
                           "  #parray {dmem float [n]} A\n"
                           "  #parray {rmem float [4]} R\n"
                           "  #detour K(p) {\n"
                           "    #create R(r)\n"
                           "    #copy A(x) to R(r)\n"
                           "    int k = $tid$ % 4 + 1;\n"
                           "    #parray {rmem float [k]} Q\n"
                           "    #copy Q(r) to R(r)\n"
                           "    #copy R(x) to R(r)\n"
                           "  }\n"
                           "}\n");
  const char *launch = strstr(out, "pa_kernel_K_L5<<<");
  const char *check = strstr(out, "pa_check_copy_extent(n, 4, \"t.pa\", 7);");
  ck_assert_msg(launch && check && check < launch && check > strstr(out, "f(float *p, int n)"),
                "the check of line 7 is not before the launch:\n%s", out);
  ck_assert_int_eq(pa_count(out, "pa_check_copy_extent"), 1);
  ck_assert_int_eq(pa_count(out, "pa_cuda_kernel_copy_extent(k, 4, \"t.pa\", 10);"), 2); /* both branches of the guard */
  ck_assert_int_eq(pa_count(out, "pa_cuda_kernel_copy_extent"), 2);
  free(out);
}
END_TEST

START_TEST(test_copy_kernel_globals)
{
  /* a copy kernel sized by host globals receives them by value (device
     code cannot read a host variable); const and __device__ globals, types
     and functions stay names */
  char *out = translate_ok("int n, m;\n"
                           "const int k = 4;\n"
                           "__device__ int d;\n"
                           "#parray {dmem float [n][m * k]} A\n"
                           "#parray {dmem float [#A_1][#A_0]} AT\n"
                           "#parray {dmem float [m * k][n]} B\n"
                           "#mainhost {\n"
                           "  n = argc;\n"
                           "  #create A(a)\n"
                           "  #create B(b)\n"
                           "  #copy AT(a) to B(b)\n"
                           "}\n");
  ck_contains(out, "__global__ void pa_copy_AT_to_B(const float *pa_src, float *pa_dst, int m, int n)");
  ck_contains(out, ">>>(a, b, m, n);");
  free(out);
  /* a global array cannot be read by the kernel: an error naming it */
  ck_assert_int_eq(pa_error_count("int dims[2];\n"
                                  "#parray {dmem float [dims[0]][dims[1]]} A\n"
                                  "#parray {dmem float [#A_1][#A_0]} AT\n"
                                  "#parray {dmem float [dims[1]][dims[0]]} B\n"
                                  "void f(float *a, float *b) {\n  #copy AT(a) to B(b)\n}\n"),
                   1);
}
END_TEST

START_TEST(test_smem_dynamic)
{
  /* 48 KB of smem in all: static arrays, the launch as before */
  const char *small = "#parray {cuda(float *x) [4][128]} T\n"
                      "#parray {smem float [8192]} A\n"
                      "#parray {smem float [4096]} B\n"
                      "void f(float *p) {\n"
                      "  #detour T(p) {\n"
                      "    #create A(a)\n"
                      "    #create B(b)\n"
                      "    a[$tid_1$] = b[$tid_1$] = 0;\n"
                      "  }\n"
                      "}\n";
  char *out = translate_ok(small);
  ck_contains(out, "\n  __shared__ float a[8192];\n  __shared__ float b[4096];\n");
  ck_contains(out, "pa_kernel_T_L5<<<4, 128>>>(p);");
  ck_lacks(out, "pa_smem");
  free(out);
  /* 4 bytes more: one dynamic buffer, b at the next multiple of 16, and a
     launch that opts in and passes the bytes */
  const char *big = "#parray {cuda(float *x) [4][128]} T\n"
                    "#parray {smem float [8193]} A\n"
                    "#parray {smem double [2048]} B\n"
                    "void f(float *p) {\n"
                    "  #detour T(p) {\n"
                    "    #create A(a)\n"
                    "    if ($tid_0$) {\n"
                    "      #create B(b)\n"
                    "      a[$tid_1$] = b[$tid_1$] = 0;\n"
                    "    }\n"
                    "  }\n"
                    "}\n";
  out = translate_ok(big);
  ck_contains(out, "{\n  extern __shared__ __align__(16) unsigned char pa_smem[];\n  const int pa_bx = blockIdx.x;\n  const int pa_tx = threadIdx.x;\n");
  ck_contains(out, "\n  float *const a = (float *)(pa_smem + 0);\n");
  ck_contains(out, "\n    double *const b = (double *)(pa_smem + 32784);\n");
  ck_lacks(out, "__shared__ float");
  ck_contains(out, "pa_cuda_smem_optin((const void *)pa_kernel_T_L5, 49168, \"pa_kernel_T_L5\", \"t.pa\", 5);\n"
                   "  pa_kernel_T_L5<<<4, 128, 49168>>>(p);");
  free(out);
  /* a size the C compiler knows: dynamic, sized there */
  out = translate_ok("#define M 100\n"
                     "#parray {cuda(float *x) [4][128]} T\n"
                     "#parray {smem char [M]} A\n"
                     "#parray {smem float [M][2]} B\n"
                     "void f(float *p) {\n"
                     "  #detour T(p) {\n"
                     "    #create A(a)\n"
                     "    #create B(b)\n"
                     "    a[$tid_1$] = b[$tid_1$] = 0;\n"
                     "  }\n"
                     "}\n");
  ck_contains(out, "float *const b = (float *)(pa_smem + ((pa_size_t)(M) * sizeof(char) + 15) / 16 * 16);");
  ck_contains(out, "<<<4, 128, (((pa_size_t)(M) * sizeof(char) + 15) / 16 * 16 + (pa_size_t)(M * 2) * sizeof(float))>>>(p);");
  free(out);
  /* the mark's byte in the program itself (here in a string) is the program's: kept, and
     no declaration put in its place (it was taken for a mark, and a stray one read past
     the end of the text: found by fuzz_libfuzzer, tests/fuzz/crashes/smem_mark_byte.pa) */
  out = translate_ok("#parray {cuda(float *x) [4][128]} T\n"
                     "#parray {smem float [64]} A\n"
                     "void f(float *p) {\n"
                     "  #detour T(p) {\n"
                     "    #create A(a)\n"
                     "    const char *s = \"\x01\" \"0\x01\";\n"
                     "    a[$tid_1$] = s[0];\n"
                     "  }\n"
                     "}\n");
  ck_contains(out, "const char *s = \"\x01\" \"0\x01\";");
  ck_contains(out, "\n  __shared__ float a[64];\n");
  free(out);
  /* more than a block can have: an error at the detour */
  ck_assert_int_eq(pa_error_count("#parray {cuda(float *x) [4][128]} T\n"
                                  "#parray {smem float [40000]} A\n"
                                  "#parray {smem float [20000]} B\n"
                                  "void f(float *p) {\n  #detour T(p) {\n    #create A(a)\n    #create B(b)\n  }\n}\n"),
                   1);
}
END_TEST

static Suite *make(void)
{
  Suite *s = suite_create("cuda");
  TCase *tc = tcase_create("cuda");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_tid_mapping);
  tcase_add_test(tc, test_kernel_and_launch);
  tcase_add_test(tc, test_axes);
  tcase_add_test(tc, test_tiled);
  tcase_add_test(tc, test_sgemm_fig21);
  tcase_add_test(tc, test_memory);
  tcase_add_test(tc, test_copies);
  tcase_add_test(tc, test_thread_copy_extent);
  tcase_add_test(tc, test_copy_kernel_globals);
  tcase_add_test(tc, test_errors);
  tcase_add_test(tc, test_min_blocks);
  tcase_add_test(tc, test_smem_dynamic);
  tcase_add_test(tc, test_packets);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  return pa_run_suite(make());
}
