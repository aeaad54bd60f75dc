/* host_bench.c: SGEMM on the CPU at one N (-DBENCH_N=...), OpenBLAS cblas_sgemm as the
 * reference, against the parrayc-generated blocked omp SGEMM (samples/perf_sgemm_host.pa,
 * linked in as perf_sgemm_host) and a naive triple loop. Random inputs, output poisoned
 * with NaN before every call, checked after every call against OpenBLAS on the same
 * inputs (relative norm of the difference) and at sampled elements against a float64
 * dot product. One warm-up call each, then rounds: each round calls OpenBLAS and the
 * Parray SGEMM, every other round in the reverse order, so that a load that comes and
 * goes on the shared cores falls on both alike. The table gives medians, the ratio of
 * the medians, and the median and range of the per-round ratios (OpenBLAS's time over
 * the variant's, in the same round).
 * Usage: host_bench [CSV]   (BENCH_REPS=n rounds, default 11, at most 64; BENCH_NAIVE=1
 * adds the naive loop once, about a minute at N=2048 on 2 cores; BENCH_CPUTIME=1 times
 * by the calling thread's CPU time, which leaves out preemption on a loaded machine and
 * means something for single-threaded calls only; BENCH_CALLS=n calls timed together
 * in a round, default one, or as many as last 1 ms with BENCH_CPUTIME=1; BENCH_C_OFFSET=bytes places C that far
 * past a page). Built with -DBENCH_AB, a third variant in the same rounds: the sample of
 * another revision, its function renamed perf_sgemm_host_ab (host_bench.sh's BENCH_AB);
 * each round then also rotates the order. */
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
#define MAX_REPS 64

void perf_sgemm_host(const float *a, const float *b, float *c);
#ifdef BENCH_AB
void perf_sgemm_host_ab(const float *a, const float *b, float *c);
#endif

static clockid_t clock_id = CLOCK_MONOTONIC;
static double now(void) {
  struct timespec t;
  clock_gettime(clock_id, &t);
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
#ifdef BENCH_AB
    {"parray_sgemm_host_ab", perf_sgemm_host_ab},
#endif
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
static double median(const double *t, int n) {
  double s[MAX_REPS];
  memcpy(s, t, sizeof *t * n);
  qsort(s, n, sizeof *s, cmp);
  return s[n / 2];
}

/* Calls timed together in a round: one, or with BENCH_CPUTIME=1 (one thread) where a
 * call is short, as many as last 1 ms (a call of a few microseconds, timed alone, is
 * mostly the clock's own granularity and the wake-up around it: at N = 64 the per-round
 * ratios ran from 0.6 to 1.05). Not with several threads: back to back, OpenBLAS's
 * threads and the sample's, each spinning after its call, took the 2 cores from each
 * other (N = 64, 2 threads: 8 ms a call). BENCH_CALLS=n sets it. */
static int calls = 1;

/* A round's timed calls on NaN-poisoned output (each writes all of C), the time per
 * call, then the checks: the relative norm of the difference from OpenBLAS (ref), and
 * 64 sampled elements against float64. */
static double timed_call(const struct variant *v, const float *a, const float *b, float *c,
                         const float *ref, double *err, const char **bad) {
  size_t n2 = (size_t)N * N;
  for (size_t i = 0; i < n2; i++) c[i] = NAN;
  double t0 = now();
  for (int k = 0; k < calls; k++)
    v->fn(a, b, c);
  double t = (now() - t0) / calls;
  double num = 0, den = 0;
  for (size_t i = 0; i < n2; i++) {
    double d = (double)c[i] - ref[i];
    num += d * d;
    den += (double)ref[i] * ref[i];
  }
  *err = sqrt(num / den);
  for (int s = 0; s < 64 && !*bad; s++) {
    int i = (s * 7919) % N, j = (s * 104729 + 17) % N;
    double w = 0;
    for (int k = 0; k < N; k++) w += (double)a[(size_t)i * N + k] * b[(size_t)k * N + j];
    if (!(fabs(c[(size_t)i * N + j] - w) <= 1e-3 * (1 + fabs(w)))) *bad = "wrong against float64";
  }
  if (!(*err < 1e-5)) *bad = "differs from OpenBLAS (or not written)";
  return t;
}

static void report(FILE *out, const char *name, const double *t, int reps, double ref_ms,
                   const double *ratios, double err) {
  double med = median(t, reps), lo = t[0];
  for (int r = 1; r < reps; r++) lo = t[r] < lo ? t[r] : lo;
  double rate = 2.0 * N * N * (double)N / med / 1e9, ratio = ref_ms / (med * 1e3);
  double rlo = ratios[0], rhi = ratios[0];
  for (int r = 1; r < reps; r++) {
    rlo = ratios[r] < rlo ? ratios[r] : rlo;
    rhi = ratios[r] > rhi ? ratios[r] : rhi;
  }
  double rmed = median(ratios, reps);
  printf("%-20s N=%5d  %9.4f ms (min %.4f, %d reps of %d calls)  %8.1f GFLOP/s  %5.3f of OpenBLAS"
         " (per round: median %.3f, %.3f..%.3f)  err %.1e\n",
         name, N, med * 1e3, lo * 1e3, reps, calls, rate, ratio, rmed, rlo, rhi, err);
  if (out)
    fprintf(out, "%s,%d,GFLOP/s,%.5f,%.5f,%.1f,%.4f,%.2e,%.4f,%.4f,%.4f\n", name, N, med * 1e3,
            lo * 1e3, rate, ratio, err, rmed, rlo, rhi);
}

int main(int argc, char **argv) {
  size_t n2 = (size_t)N * N;
  float *a = malloc(n2 * 4), *b = malloc(n2 * 4), *c = malloc(n2 * 4), *ref = malloc(n2 * 4), *c_block = NULL;
  if (!a || !b || !c || !ref) {
    fprintf(stderr, "host_bench: cannot allocate four %d x %d float arrays\n", N, N);
    return 2;
  }
  /* BENCH_C_OFFSET=bytes: C that many bytes past a page (a multiple of 4, below 4096)
     instead of malloc's (16 past 64 with glibc): the Parray SGEMM's speed once followed
     C's address (bench/results/host.md) */
  if (getenv("BENCH_C_OFFSET")) {
    const char *text = getenv("BENCH_C_OFFSET");
    char *end;
    const long off = strtol(text, &end, 10);
    if (end == text || *end || off < 0 || off >= 4096 || off % 4) {
      fprintf(stderr, "host_bench: BENCH_C_OFFSET=%s: bytes, a multiple of 4 from 0 to 4092\n", text);
      return 2;
    }
    const size_t bytes = (n2 * 4 + 4096 + 4095) / 4096 * 4096; /* aligned_alloc: a multiple of 4096 */
    if (!(c_block = aligned_alloc(4096, bytes))) {
      fprintf(stderr, "host_bench: BENCH_C_OFFSET=%s: cannot allocate C (%zu bytes)\n", text, bytes);
      return 2;
    }
    free(c);
    c = (float *)((char *)c_block + off);
  }
  if (getenv("BENCH_CPUTIME") && atoi(getenv("BENCH_CPUTIME")))
    clock_id = CLOCK_THREAD_CPUTIME_ID;
  int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 11;
  reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
  FILE *out = argc > 1 ? fopen(argv[1], "a") : NULL;
  enum { NV = sizeof variants / sizeof variants[0] - 1 }; /* timed in rounds: all but the naive loop */
  double t[NV][MAX_REPS], err[NV] = {0}, ratios[NV][MAX_REPS];
  const char *bad[NV] = {NULL};
  rng = 1000u;
  for (size_t i = 0; i < n2; i++) a[i] = frand();
  for (size_t i = 0; i < n2; i++) b[i] = frand();
  openblas(a, b, ref);
  double warm = 0;
  for (int pass = 0; pass < 2; pass++) /* warm-up, then the length of a warm call */
    for (int v = 0; v < NV; v++)
      warm = fmax(pass ? warm : 0, timed_call(&variants[v], a, b, c, ref, &err[v], &bad[v]));
  if (getenv("BENCH_CALLS"))
    calls = atoi(getenv("BENCH_CALLS"));
  else if (clock_id == CLOCK_THREAD_CPUTIME_ID && warm < 1e-3)
    calls = (int)fmin(1e-3 / fmax(warm, 1e-7), 10000);
  calls = calls < 1 ? 1 : calls;
  for (int r = 0; r < reps; r++)
    for (int k = 0; k < NV; k++) {
      int v = r % 2 ? NV - 1 - k : k; /* every other round in the reverse order, */
      v = (v + (NV > 2 ? r / 2 : 0)) % NV; /* and rotated where there are three */
      t[v][r] = timed_call(&variants[v], a, b, c, ref, &err[v], &bad[v]);
    }
  int failures = 0;
  double ref_ms = median(t[0], reps) * 1e3;
  for (int v = 0; v < NV; v++) {
    if (bad[v]) {
      printf("%-20s N=%5d  FAILED: %s\n", variants[v].name, N, bad[v]);
      failures++;
      continue;
    }
    for (int r = 0; r < reps; r++) ratios[v][r] = t[0][r] / t[v][r];
    report(out, variants[v].name, t[v], reps, ref_ms, ratios[v], err[v]);
  }
#ifdef BENCH_AB
  if (!bad[1] && !bad[2]) { /* what the change bought: the other revision's time over this one's */
    double q[MAX_REPS];
    for (int r = 0; r < reps; r++) q[r] = t[2][r] / t[1][r];
    printf("parray_sgemm_host against the other revision: %.3f times as fast (ratio of medians; per round: median "
           "%.3f)\n", median(t[2], reps) / median(t[1], reps), median(q, reps));
  }
#endif
  if (getenv("BENCH_NAIVE")) { /* about a minute at N=2048 on 2 cores: once, not in rounds */
    const struct variant *v = &variants[NV];
    double e = 0, tn, one = 1;
    const char *nb = NULL;
    tn = timed_call(v, a, b, c, ref, &e, &nb);
    if (nb) {
      printf("%-20s N=%5d  FAILED: %s\n", v->name, N, nb);
      failures++;
    } else {
      one = ref_ms / (tn * 1e3);
      report(out, v->name, &tn, 1, ref_ms, &one, e);
    }
  }
  if (out) fclose(out);
  return failures != 0;
}
