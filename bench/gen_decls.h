/* gen_decls.h: the parrayc-generated entry points (samples/perf_*.pa, translated by
 * bench/gen.sh) as benchmark variants, each named with its hand-written twin.
 *
 * Which samples were built at this N is bench/run.sh's finding, not a rule here: it
 * compiles each one with -DN, and a sample that refuses the order stops in its own
 * #error (perf_sgemm.pa: N % 32); run.sh then prints that message and leaves
 * -DGEN_BUILT_<sample> off. A variant of a sample not built keeps its row with no
 * function (GEN_FN: NULL), and bench.cu says it was not run. Within a built sample, the
 * variants' `need` (bench.cu) are the orders each layout takes. */
#define GEN_WRAP3(f) \
  static void gen_##f(const float *a, const float *b, float *c) { f((float *)a, (float *)b, c); }
#define GEN_WRAP2(f) \
  static void gen_##f(const float *a, const float *, float *c) { f((float *)a, c); }
#define GEN_DECL3(f) void f(float *a, float *b, float *c); GEN_WRAP3(f)
#define GEN_DECL2(f) void f(float *in, float *out); GEN_WRAP2(f)

#ifdef GEN_BUILT_perf_fig13
GEN_DECL3(perf_fig13)
#define GEN_FIG13(f) gen_##f
#else
#define GEN_FIG13(f) NULL
#endif
#ifdef GEN_BUILT_perf_fig21
GEN_DECL3(perf_fig21)
#define GEN_FIG21(f) gen_##f
#else
#define GEN_FIG21(f) NULL
#endif
#ifdef GEN_BUILT_perf_sgemm
GEN_DECL3(perf_sgemm_row)
GEN_DECL3(perf_sgemm_fig18a)
GEN_DECL3(perf_sgemm_fig18b)
GEN_DECL3(perf_sgemm_col)
#define GEN_SGEMM(f) gen_##f
#else
#define GEN_SGEMM(f) NULL
#endif
/* perf_sgemm3x: FP32 through three TF32 products (sm_90a), against cuBLAS FP32 */
#ifdef GEN_BUILT_perf_sgemm3x
GEN_DECL3(perf_sgemm3x_row)
GEN_DECL3(perf_sgemm3x_fig18a)
GEN_DECL3(perf_sgemm3x_fig18b)
GEN_DECL3(perf_sgemm3x_col)
#define GEN_SGEMM3X(f) gen_##f
#else
#define GEN_SGEMM3X(f) NULL
#endif
/* its hand-written twin (bench/twin_3xtf32.cu, row-major, N % 128) */
#ifdef GEN_BUILT_twin_3xtf32
void cuda_sgemm3x_row(const float *a, const float *b, float *c);
#define GEN_TWIN3X cuda_sgemm3x_row
#else
#define GEN_TWIN3X NULL
#endif
/* perf_tf32: TF32 tensor cores, against cublas_tf32 (no hand-written twin) */
#ifdef GEN_BUILT_perf_tf32
GEN_DECL3(perf_tf32_row)
GEN_DECL3(perf_tf32_fig18a)
GEN_DECL3(perf_tf32_fig18b)
GEN_DECL3(perf_tf32_col)
#define GEN_TF32(f) gen_##f
#else
#define GEN_TF32(f) NULL
#endif
#ifdef GEN_BUILT_perf_transpose
GEN_DECL2(perf_transpose)
GEN_DECL2(perf_copy_transpose)
#define GEN_TRANSPOSE(f) gen_##f
#else
#define GEN_TRANSPOSE(f) NULL
#endif

#define GEN_VARIANTS_GEMM                                                                             \
  {"parray_fig13", GEMM, ROW, false, GEN_FIG13(perf_fig13), "cuda_fig13", false, PAPER_N},            \
  {"parray_fig21", GEMM, ROW, false, GEN_FIG21(perf_fig21), "cuda_fig21", false, PAPER_N},            \
  {"parray_sgemm_row", GEMM, ROW, false, GEN_SGEMM(perf_sgemm_row), "cuda_fast_row"},                 \
  {"parray_sgemm_fig18a", GEMM, F18A, false, GEN_SGEMM(perf_sgemm_fig18a), "cuda_fast_fig18a"},       \
  {"parray_sgemm_fig18b", GEMM, F18B, false, GEN_SGEMM(perf_sgemm_fig18b), "cuda_fast_fig18b"},       \
  {"parray_sgemm_col", GEMM, COL, false, GEN_SGEMM(perf_sgemm_col), "cuda_fast_col"},                 \
  {"cuda_sgemm3x_row", GEMM, ROW, false, GEN_TWIN3X, NULL},                                           \
  {"parray_sgemm3x_row", GEMM, ROW, false, GEN_SGEMM3X(perf_sgemm3x_row), "cuda_sgemm3x_row"},        \
  {"parray_sgemm3x_fig18a", GEMM, F18A, false, GEN_SGEMM3X(perf_sgemm3x_fig18a), NULL, false, TC_18A_N}, \
  {"parray_sgemm3x_fig18b", GEMM, F18B, false, GEN_SGEMM3X(perf_sgemm3x_fig18b), NULL, false, TC_18B_N}, \
  {"parray_sgemm3x_col", GEMM, COL, false, GEN_SGEMM3X(perf_sgemm3x_col), NULL},                      \
  {"parray_tf32_row", GEMM, ROW, false, GEN_TF32(perf_tf32_row), NULL, true},                         \
  {"parray_tf32_fig18a", GEMM, F18A, false, GEN_TF32(perf_tf32_fig18a), NULL, true, TC_18A_N},        \
  {"parray_tf32_fig18b", GEMM, F18B, false, GEN_TF32(perf_tf32_fig18b), NULL, true, TC_18B_N},        \
  {"parray_tf32_col", GEMM, COL, false, GEN_TF32(perf_tf32_col), NULL, true},
#define GEN_VARIANTS_COPY                                                                             \
  {"parray_transpose", COPY, ROW, true, GEN_TRANSPOSE(perf_transpose), "cuda_transpose_tiled"},        \
  {"parray_copy_transpose", COPY, ROW, true, GEN_TRANSPOSE(perf_copy_transpose), "cuda_transpose_tiled"},

static void gen_init(void) {}
