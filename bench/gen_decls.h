/* gen_decls.h: the parrayc-generated entry points (samples/perf_*.pa, translated by
 * bench/gen.sh) as benchmark variants, each named with its hand-written twin. */
void perf_fig13(float *a, float *b, float *c);
void perf_fig21(float *a, float *b, float *c);
void perf_sgemm_row(float *a, float *b, float *c);
void perf_sgemm_fig18a(float *a, float *b, float *c);
void perf_sgemm_fig18b(float *a, float *b, float *c);
void perf_sgemm_col(float *a, float *b, float *c);
/* perf_tf32 needs N % 128 == 0: at other N (the clipped-tile runs) it is not built */
#define GEN_HAVE_TF32 (N % 128 == 0)
#if GEN_HAVE_TF32
void perf_tf32_row(float *a, float *b, float *c);
void perf_tf32_fig18a(float *a, float *b, float *c);
void perf_tf32_fig18b(float *a, float *b, float *c);
void perf_tf32_col(float *a, float *b, float *c);
#endif
/* perf_sgemm3x (FP32 through three TF32 products, sm_90a) and its hand-written twin
   (bench/twin_3xtf32.cu, row-major), at the N perf_tf32 takes */
#if GEN_HAVE_TF32
void perf_sgemm3x_row(float *a, float *b, float *c);
void perf_sgemm3x_fig18a(float *a, float *b, float *c);
void perf_sgemm3x_fig18b(float *a, float *b, float *c);
void perf_sgemm3x_col(float *a, float *b, float *c);
void cuda_sgemm3x_row(const float *a, const float *b, float *c);
#endif
/* perf_transpose needs N % 64 == 0 (its tile) */
#define GEN_HAVE_TRANSPOSE (N % 64 == 0)
#if GEN_HAVE_TRANSPOSE
void perf_transpose(float *in, float *out);
void perf_copy_transpose(float *in, float *out);
#endif

#define GEN_WRAP3(f) \
  static void gen_##f(const float *a, const float *b, float *c) { f((float *)a, (float *)b, c); }
#define GEN_WRAP2(f) \
  static void gen_##f(const float *a, const float *, float *c) { f((float *)a, c); }
GEN_WRAP3(perf_fig13)
GEN_WRAP3(perf_fig21)
GEN_WRAP3(perf_sgemm_row)
GEN_WRAP3(perf_sgemm_fig18a)
GEN_WRAP3(perf_sgemm_fig18b)
GEN_WRAP3(perf_sgemm_col)
#if GEN_HAVE_TF32
GEN_WRAP3(perf_tf32_row)
GEN_WRAP3(perf_tf32_fig18a)
GEN_WRAP3(perf_tf32_fig18b)
GEN_WRAP3(perf_tf32_col)
GEN_WRAP3(perf_sgemm3x_row)
GEN_WRAP3(perf_sgemm3x_fig18a)
GEN_WRAP3(perf_sgemm3x_fig18b)
GEN_WRAP3(perf_sgemm3x_col)
#endif
#if GEN_HAVE_TRANSPOSE
GEN_WRAP2(perf_transpose)
GEN_WRAP2(perf_copy_transpose)
#endif

#define GEN_VARIANTS_GEMM                                                        \
  {"parray_fig13", GEMM, ROW, false, gen_perf_fig13, "cuda_fig13"},              \
  {"parray_fig21", GEMM, ROW, false, gen_perf_fig21, "cuda_fig21"},              \
  {"parray_sgemm_row", GEMM, ROW, false, gen_perf_sgemm_row, "cuda_fast_row"},   \
  {"parray_sgemm_fig18a", GEMM, F18A, false, gen_perf_sgemm_fig18a, "cuda_fast_fig18a"}, \
  {"parray_sgemm_fig18b", GEMM, F18B, false, gen_perf_sgemm_fig18b, "cuda_fast_fig18b"}, \
  {"parray_sgemm_col", GEMM, COL, false, gen_perf_sgemm_col, "cuda_fast_col"},  \
  GEN_VARIANTS_SGEMM3X                                                           \
  GEN_VARIANTS_TF32
/* FP32 SGEMM through three TF32 products: against cuBLAS FP32 (pedantic), the FP32 limit */
#if GEN_HAVE_TF32
#define GEN_VARIANTS_SGEMM3X                                                     \
  {"cuda_sgemm3x_row", GEMM, ROW, false, cuda_sgemm3x_row, NULL},                \
  {"parray_sgemm3x_row", GEMM, ROW, false, gen_perf_sgemm3x_row, "cuda_sgemm3x_row"}, \
  {"parray_sgemm3x_fig18a", GEMM, F18A, false, gen_perf_sgemm3x_fig18a, NULL},   \
  {"parray_sgemm3x_fig18b", GEMM, F18B, false, gen_perf_sgemm3x_fig18b, NULL},   \
  {"parray_sgemm3x_col", GEMM, COL, false, gen_perf_sgemm3x_col, NULL},
#else
#define GEN_VARIANTS_SGEMM3X
#endif
/* TF32 tensor cores, against cublas_tf32 (no hand-written twin) */
#if GEN_HAVE_TF32
#define GEN_VARIANTS_TF32                                                        \
  {"parray_tf32_row", GEMM, ROW, false, gen_perf_tf32_row, NULL, true},          \
  {"parray_tf32_fig18a", GEMM, F18A, false, gen_perf_tf32_fig18a, NULL, true},   \
  {"parray_tf32_fig18b", GEMM, F18B, false, gen_perf_tf32_fig18b, NULL, true},   \
  {"parray_tf32_col", GEMM, COL, false, gen_perf_tf32_col, NULL, true},
#else
#define GEN_VARIANTS_TF32
#endif
#if GEN_HAVE_TRANSPOSE
#define GEN_VARIANTS_COPY                                                        \
  {"parray_transpose", COPY, ROW, true, gen_perf_transpose, "cuda_transpose_tiled"}, \
  {"parray_copy_transpose", COPY, ROW, true, gen_perf_copy_transpose, "cuda_transpose_tiled"},
#else
#define GEN_VARIANTS_COPY
#endif

static void gen_init(void) {}
