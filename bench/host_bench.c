/* host_bench.c: SGEMM on the CPU at one N (-DBENCH_N=...), OpenBLAS cblas_sgemm as the
 * reference, against the parrayc-generated blocked omp SGEMM (samples/perf_sgemm_host.pa,
 * linked in as perf_sgemm_host) and a naive triple loop. Fresh random inputs per
 * variant, output poisoned with NaN before every run, checked after every run against
 * OpenBLAS on the same inputs (relative norm of the difference) and at sampled
 * elements against a float64 dot product; the median of the repeats.
 * Usage: host_bench [CSV]   (BENCH_REPS=n repeats, default 5; BENCH_NAIVE=1 adds the
 * naive loop, about a minute at N=2048 on 2 cores) */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef BENCH_N
#error "build with -DBENCH_N=<matrix order>" /* not N: cblas.h names a parameter N */
#endif
#define N BENCH_N

void perf_sgemm_host(const float *a, const float *b, float *c);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
static void openblas(const float *a, const float *b, float *c) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1, a, N, b, N, 0, c, N);
}
static void naive(const float *a, const float *b, float *c) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float s = 0;
      for (int k = 0; k < N; k++) s += a[(size_t)i * N + k] * b[(size_t)k * N + j];
      c[(size_t)i * N + j] = s;
    }
}

struct variant {
  const char *name;
  void (*fn)(const float *, const float *, float *);
};
static const struct variant variants[] = {
    {"openblas_sgemm", openblas},
    {"parray_sgemm_host", perf_sgemm_host},
    {"naive_triple_loop", naive},
};

static unsigned rng = 1;
static float frand(void) {
  rng = rng * 1664525u + 1013904223u;
  return (float)(rng >> 8) * (2.0f / 16777216.0f) - 1.0f;
}
static int cmp(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

int main(int argc, char **argv) {
  size_t n2 = (size_t)N * N;
  float *a = malloc(n2 * 4), *b = malloc(n2 * 4), *c = malloc(n2 * 4), *ref = malloc(n2 * 4);
  int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 5;
  FILE *out = argc > 1 ? fopen(argv[1], "a") : NULL;
  double ref_rate = 0;
  int failures = 0;
  for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
    int r_here = strstr(variants[v].name, "naive") ? 1 : reps; /* minutes otherwise */
    if (strstr(variants[v].name, "naive") && !getenv("BENCH_NAIVE")) continue; /* ~1 min */
    rng = 1000u + (unsigned)v;
    for (size_t i = 0; i < n2; i++) a[i] = frand();
    for (size_t i = 0; i < n2; i++) b[i] = frand();
    openblas(a, b, ref);
    double t[64], err = 0;
    const char *bad = NULL;
    if (!strstr(variants[v].name, "naive")) { /* warm-up */
      for (size_t i = 0; i < n2; i++) c[i] = NAN;
      variants[v].fn(a, b, c);
    }
    for (int r = 0; r < r_here && r < 64; r++) {
      for (size_t i = 0; i < n2; i++) c[i] = NAN;
      double t0 = now();
      variants[v].fn(a, b, c);
      t[r] = now() - t0;
      double num = 0, den = 0;
      for (size_t i = 0; i < n2; i++) {
        double d = (double)c[i] - ref[i];
        num += d * d;
        den += (double)ref[i] * ref[i];
      }
      err = sqrt(num / den);
      for (int s = 0; s < 64 && !bad; s++) { /* against float64 */
        int i = (s * 7919) % N, j = (s * 104729 + 17) % N;
        double w = 0;
        for (int k = 0; k < N; k++) w += (double)a[(size_t)i * N + k] * b[(size_t)k * N + j];
        if (!(fabs(c[(size_t)i * N + j] - w) <= 1e-3 * (1 + fabs(w)))) bad = "wrong against float64";
      }
      if (!(err < 1e-5)) bad = "differs from OpenBLAS (or not written)";
    }
    if (bad) {
      printf("%-20s N=%5d  FAILED: %s\n", variants[v].name, N, bad);
      failures++;
      continue;
    }
    qsort(t, r_here, sizeof *t, cmp);
    double med = t[r_here / 2], rate = 2.0 * N * N * (double)N / med / 1e9;
    if (v == 0) ref_rate = rate;
    printf("%-20s N=%5d  %9.2f ms (min %.2f, %d reps)  %8.1f GFLOP/s  %5.3f of OpenBLAS  err %.1e\n",
           variants[v].name, N, med * 1e3, t[0] * 1e3, r_here, rate, rate / ref_rate, err);
    if (out)
      fprintf(out, "%s,%d,GFLOP/s,%.3f,%.3f,%.1f,%.4f,%.2e\n", variants[v].name, N, med * 1e3,
              t[0] * 1e3, rate, rate / ref_rate, err);
  }
  if (out) fclose(out);
  return failures != 0;
}
