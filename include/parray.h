/* parray.h: core runtime of Parray programs (see SPEC.md section 7).
 * Generated code and user code include this; it compiles as C11 and as C++ (nvcc).
 * CPU thread arrays, CUDA and MPI parts are declared in parray_cpu.h,
 * parray_cuda.h and parray_mpi.h, so a program links only what it uses. */
#ifndef PA_PARRAY_H
#define PA_PARRAY_H

/* Every name this header and the ones it is part of declare or define
 * begins with pa_ or PA_, or is reserved to the implementation: it comes
 * first in every translation parrayc writes, before the program's own
 * includes, so it includes no C library header and takes no name a valid
 * C program may use (doc/language.md, "Names the translation takes"). */

#define PA_VERSION_STRING "0.1.0"

/* size_t and NULL, without <stddef.h>: the program includes that itself
 * if it wants those names. */
#ifdef __SIZE_TYPE__
typedef __SIZE_TYPE__ pa_size_t;
#else
typedef __typeof__(sizeof 0) pa_size_t;
#endif
#if defined(__cplusplus) && __cplusplus >= 201103L
#define PA_NULL nullptr
#elif defined(__cplusplus)
#define PA_NULL 0
#else
#define PA_NULL ((void *)0)
#endif

/* memcpy for generated copies, without <string.h>. */
#define pa_memcpy(dst, src, bytes) __builtin_memcpy((dst), (src), (bytes))

#if defined(__GNUC__) || defined(__clang__)
#define PA_NORETURN_PRINTF(f, a) __attribute__((__noreturn__, __format__(__printf__, f, a)))
#else
#define PA_NORETURN_PRINTF(f, a)
#endif

/* A comparison of sizes parrayc decided at the values it has for their
 * macros, checked where the C compiler sees its own (see SizeFact). */
#ifdef __cplusplus
#define PA_STATIC_ASSERT(cond, why) static_assert(cond, why)
#else
#define PA_STATIC_ASSERT(cond, why) _Static_assert(cond, why)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Memory kinds of data array types. */
typedef enum pa_mem { PA_PAGED, PA_PINNED, PA_DMEM, PA_SMEM, PA_RMEM } pa_mem;

/* Allocates count elements of elem_size bytes (count == 0 allowed) in host memory
 * (PA_PAGED; PA_PINNED is plain heap memory unless the CUDA runtime is used),
 * aligned to 64 bytes. On overflow or failure prints
 * "FILE:LINE: error: cannot allocate N elements (B bytes) of type T in paged memory: REASON"
 * to stderr and exits with status 1. */
void *pa_alloc_host(pa_mem mem, pa_size_t count, pa_size_t elem_size, const char *type,
                    const char *file, int line);
/* This thread's scratch memory on the host, at least bytes, aligned to 64
 * bytes and kept for its later calls (valid until its next call, which may
 * move it; the contents are the last user's), freed when the thread ends;
 * NULL where it cannot be had.  For the temporary copies a routine called
 * again and again needs: fresh memory each call costs a page fault a page
 * (perf_sgemm_host.pa at N = 1000: the faults alone were 0.71 -> 0.74 of
 * OpenBLAS).  A size past what can be counted leaves the block as it was. */
void *pa_host_scratch(pa_size_t bytes);
/* The size a scratch block of held bytes is reallocated to for need bytes
 * (pa_host_scratch, pa_cuda_scratch): grown by a quarter at least, so that
 * slowly growing sizes reallocate seldom. */
pa_size_t pa_scratch_grown(pa_size_t held, pa_size_t need);
/* Frees memory from pa_alloc_host; NULL is allowed. */
void pa_free_host(pa_mem mem, void *p);
/* #destroy of a block of host memory: frees p (NULL is allowed), or, when
 * p is not a block pa_alloc_host gave that is still live (destroyed
 * already), prints "FILE:LINE: error: #destroy T: the block at P is not
 * one #create made, or it was destroyed already" and exits with status 1. */
void pa_destroy_host(pa_mem mem, void *p, const char *type, const char *file, int line);
/* #create of rmem with a size known at run time (a local array): prints
 * "FILE:LINE: error: #create T: N elements of rmem (B bytes) do not fit on
 * this thread's stack ..." and exits with status 1 unless count elements
 * of elem_size bytes fit in what is left of the calling thread's stack. */
void pa_check_rmem(long long count, pa_size_t elem_size, const char *type, const char *file, int line);
/* Name of a memory kind: "paged", "pinned", "dmem", "smem", "rmem". */
const char *pa_mem_name(pa_mem mem);

/* #create of a type whose sizes only the program knows: the nsizes sizes
 * follow as (const char *text, long long value, int power) triples.  Fails with
 * "FILE:LINE: error: #create T: size 'n' is -5; sizes must be positive" or
 * "... the size does not fit in 64 bits" unless each value is positive and
 * bound * prod value^power fits in a long long. */
void pa_check_sizes(const char *type, const char *file, int line, long long bound, int nsizes, ...);

/* #create of TYPE at FILE:LINE whose offsets parrayc generated in int (its
 * sizes are macros, and their values at translation fit): fails with
 * "FILE:LINE: error: #create TYPE: SPAN elements ..." when span passes
 * 2^31, as it does when the C compiler is given larger values (-D) than
 * parrayc was. */
void pa_check_int_span(const char *type, const char *file, int line, long long span);

/* Flushes stdout, prints "FILE:LINE: error: <formatted>" to stderr and exits 1. */
void pa_fail(const char *file, int line, const char *fmt, ...) PA_NORETURN_PRINTF(3, 4);

/* #copy: fails with "FILE:LINE: error: #copy extent mismatch: source has N elements,
 * destination M" unless src == dst. */
void pa_check_copy_extent(long long src, long long dst, const char *file, int line);

/* A split or sized reference whose sizes parrayc could not compare: fails with
 * "FILE:LINE: error: extent mismatch: ..." (LINE: the declaration) unless have == want, or
 * have < want where the view may be a sub-range (exact == 0). */
void pa_check_extent(long long have, long long want, int exact, const char *node, const char *ref,
                     const char *file, int line);

/* Wall-clock time in seconds (CLOCK_MONOTONIC). */
double pa_wtime(void);

/* Called first and last by the main() that #mainhost generates. */
void pa_init(int *argc, char ***argv);
void pa_finalize(void);

/* Fills x[0..n) with deterministic pseudo-random values, uniform in [-1, 1). */
void pa_fill_random(float *x, pa_size_t n, unsigned seed);
/* The float64 product C = A B of the row-major n x n matrices a and b into
 * want (n x n, row-major), each sum added in k's order; where scale is not
 * NULL, sum_k |a_ik b_kj| into it too (the size of the rounding a product
 * in lower precision may show). For a sample's check of its own result. */
void pa_gemm_ref(pa_size_t n, const float *a, const float *b, double *want, double *scale);
/* Compares got with want: |got - want| <= atol + rtol * |want| everywhere.
 * Returns 0 when all are close; otherwise prints the first mismatches and a count
 * (labelled with what) to stderr and returns 1. */
int pa_check_close(const float *got, const double *want, pa_size_t n, double rtol, double atol,
                   const char *what);

#ifdef __cplusplus
}
#endif

#endif /* PA_PARRAY_H */
