/* pa_core.c: core runtime of Parray programs: host memory, errors, timing, test helpers. */
#define _GNU_SOURCE /* pthread_getattr_np: the room left on a thread's stack */
#include "parray.h"

#include <pthread.h>
#include <stdbool.h>

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PA_ALIGN 64

const char *pa_mem_name(pa_mem mem)
{
    switch (mem) {
    case PA_PAGED: return "paged";
    case PA_PINNED: return "pinned";
    case PA_DMEM: return "dmem";
    case PA_SMEM: return "smem";
    case PA_RMEM: return "rmem";
    }
    return "unknown";
}

/* The message goes out as one write: other processes of an MPI job (or
 * mpirun's own banners) write to the same stderr and must not land in the
 * middle of the line. */
static void pa_vreport(const char *file, int line, const char *fmt, va_list ap)
{
    char msg[4096];
    int n = file ? snprintf(msg, sizeof msg, "%s:%d: error: ", file, line)
                 : snprintf(msg, sizeof msg, "parray: error: ");
    if (n < 0 || n >= (int)sizeof msg - 2)
        n = 0;
    int m = vsnprintf(msg + n, sizeof msg - (size_t)n - 1, fmt, ap);
    n = m < 0 ? n : n + m < (int)sizeof msg - 1 ? n + m : (int)sizeof msg - 2;
    msg[n++] = '\n';
    fflush(stdout);
    fwrite(msg, 1, (size_t)n, stderr);
    fflush(stderr);
}

void pa_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pa_vreport(file, line, fmt, ap);
    va_end(ap);
    exit(1);
}

/* The blocks pa_alloc_host gave and nobody freed yet: an open-addressing
 * set of addresses (0: empty, 1: removed), under a lock, so that a
 * #destroy of a block destroyed already (in a loop, through an alias, in
 * a branch) is reported at its line instead of aborting inside free. */
static struct {
    pthread_mutex_t lock;
    uintptr_t *slot;
    size_t cap, used; /* used: live and removed slots */
} live = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

static size_t live_hash(uintptr_t p, size_t cap)
{
    return (size_t)((p >> 6) * 0x9E3779B97F4A7C15ull) & (cap - 1);
}

/* the slot of p, or of the empty slot where it would go */
static uintptr_t *live_find(uintptr_t p)
{
    uintptr_t *removed = NULL;
    for (size_t i = live_hash(p, live.cap);; i = (i + 1) & (live.cap - 1)) {
        if (live.slot[i] == p)
            return &live.slot[i];
        if (live.slot[i] == 1 && !removed)
            removed = &live.slot[i];
        if (live.slot[i] == 0)
            return removed ? removed : &live.slot[i];
    }
}

static void live_add(void *p)
{
    pthread_mutex_lock(&live.lock);
    if ((live.used + 1) * 2 > live.cap) {
        uintptr_t *old = live.slot;
        size_t oldcap = live.cap;
        live.cap = oldcap ? oldcap * 2 : 64;
        live.slot = calloc(live.cap, sizeof *live.slot);
        live.used = 0;
        if (!live.slot)
            pa_fail(NULL, 0, "out of memory recording a block");
        for (size_t i = 0; i < oldcap; i++)
            if (old[i] > 1) {
                *live_find(old[i]) = old[i];
                live.used++;
            }
        free(old);
    }
    uintptr_t *s = live_find((uintptr_t)p);
    if (*s != (uintptr_t)p) {
        live.used += *s == 0;
        *s = (uintptr_t)p;
    }
    pthread_mutex_unlock(&live.lock);
}

/* false when p was not live */
static bool live_remove(void *p)
{
    pthread_mutex_lock(&live.lock);
    uintptr_t *s = live.cap ? live_find((uintptr_t)p) : NULL;
    bool was = s && *s == (uintptr_t)p;
    if (was)
        *s = 1;
    pthread_mutex_unlock(&live.lock);
    return was;
}

void *pa_alloc_host(pa_mem mem, size_t count, size_t elem_size, const char *type,
                    const char *file, int line)
{
    const char *tname = type ? type : "?";
    if (mem != PA_PAGED && mem != PA_PINNED)
        pa_fail(file, line, "cannot allocate %zu elements of type %s in %s memory: "
                "not host memory", count, tname, pa_mem_name(mem));
    size_t n = count ? count : 1, size = elem_size ? elem_size : 1;
    if (n > (SIZE_MAX - PA_ALIGN) / size)
        pa_fail(file, line, "cannot allocate %zu elements (more than %zu bytes) of type %s "
                "in %s memory: %s", count, (size_t)SIZE_MAX, tname, pa_mem_name(mem),
                strerror(EOVERFLOW));
    size_t bytes = n * size;
    size_t rounded = (bytes + PA_ALIGN - 1) / PA_ALIGN * PA_ALIGN;
    errno = 0;
    void *p = aligned_alloc(PA_ALIGN, rounded);
    if (!p)
        pa_fail(file, line, "cannot allocate %zu elements (%zu bytes) of type %s in %s memory: %s",
                count, count * elem_size, tname, pa_mem_name(mem),
                strerror(errno ? errno : ENOMEM));
    live_add(p);
    return p;
}

pa_size_t pa_scratch_grown(pa_size_t held, pa_size_t need)
{
    const size_t grown = held + held / 4;
    return need > grown ? need : grown;
}

/* pa_host_scratch: one block a thread, behind a key whose destructor frees it */
typedef struct HostScratch {
    void *p;
    size_t bytes;
} HostScratch;
static pthread_key_t host_scratch_key;
static pthread_once_t host_scratch_once = PTHREAD_ONCE_INIT;

static void host_scratch_free(void *v)
{
    HostScratch *s = v;
    free(s->p);
    free(s);
}

static void host_scratch_key_make(void)
{
    pthread_key_create(&host_scratch_key, host_scratch_free);
}

void *pa_host_scratch(size_t bytes)
{
    pthread_once(&host_scratch_once, host_scratch_key_make);
    HostScratch *s = pthread_getspecific(host_scratch_key);
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s || pthread_setspecific(host_scratch_key, s) != 0) {
            free(s);
            return NULL;
        }
    }
    if (s->p && s->bytes >= bytes)
        return s->p;
    size_t want = pa_scratch_grown(s->bytes, bytes);
    if (want > SIZE_MAX - PA_ALIGN)
        return NULL;
    want = (want + PA_ALIGN - 1) / PA_ALIGN * PA_ALIGN;
    free(s->p);
    s->p = aligned_alloc(PA_ALIGN, want ? want : PA_ALIGN);
    s->bytes = s->p ? want : 0;
    return s->p;
}

void pa_check_sizes(const char *type, const char *file, int line, long long bound, int nsizes, ...)
{
    va_list ap;
    va_start(ap, nsizes);
    unsigned long long span = bound > 0 ? (unsigned long long)bound : 1;
    int overflow = 0;
    for (int k = 0; k < nsizes; k++) {
        const char *text = va_arg(ap, const char *);
        long long v = va_arg(ap, long long);
        int power = va_arg(ap, int);
        if (v <= 0) {
            va_end(ap);
            pa_fail(file, line, "#create %s: size '%s' is %lld; sizes must be positive", type, text, v);
        }
        for (int j = 0; j < power; j++)
            overflow |= __builtin_mul_overflow(span, (unsigned long long)v, &span);
    }
    va_end(ap);
    if (overflow || span > (unsigned long long)LLONG_MAX)
        pa_fail(file, line, "#create %s: the size does not fit in 64 bits", type);
}

void pa_check_int_span(const char *type, const char *file, int line, long long span)
{
    if (span > (long long)INT_MAX + 1)
        pa_fail(file, line,
                "#create %s: %lld elements, but its offsets are int: its sizes' values when parrayc translated "
                "the program fit in int; give parrayc the values the C compiler gets (-D NAME=VALUE), and it "
                "makes the offsets 64-bit",
                type, span);
}

void pa_free_host(pa_mem mem, void *p)
{
    if (mem == PA_PAGED || mem == PA_PINNED) {
        if (p)
            live_remove(p);
        free(p);
    }
}

void pa_destroy_host(pa_mem mem, void *p, const char *type, const char *file, int line)
{
    if (!p || (mem != PA_PAGED && mem != PA_PINNED))
        return;
    if (!live_remove(p))
        pa_fail(file, line, "#destroy%s%s: the block at %p is not one #create made, or it was destroyed already",
                type ? " " : "", type ? type : "", p);
    free(p);
}

/* The lowest address of the calling thread's stack, NULL where the system
 * cannot say. Asked once a thread: on the main thread pthread_getattr_np
 * reads /proc/self/maps, which made an rmem #create in a loop as slow as
 * the loop's work (samples/perf_sgemm_host.pa, issue 53). */
static char *stack_base(void)
{
    static _Thread_local char *base;
    static _Thread_local int asked;
    if (asked)
        return base;
    asked = 1;
#if defined(__GLIBC__)
    pthread_attr_t attr;
    void *low;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        if (pthread_attr_getstack(&attr, &low, &size) == 0)
            base = low;
        pthread_attr_destroy(&attr);
    }
#endif
    return base;
}

/* The bytes left on the calling thread's stack below this frame, less a
 * margin for the calls the body makes; 1 MiB where the system cannot say. */
static size_t stack_room(void)
{
    size_t room = (size_t)1 << 20;
    char here, *base = stack_base();
    if (base && &here > base)
        room = (size_t)(&here - base);
    size_t margin = (size_t)256 << 10;
    return room > margin ? room - margin : 0;
}

void pa_check_rmem(long long count, size_t elem_size, const char *type, const char *file, int line)
{
    unsigned long long bytes;
    size_t room = stack_room();
    if (count <= 0 || __builtin_mul_overflow((unsigned long long)count, (unsigned long long)elem_size, &bytes) ||
        bytes > room)
        pa_fail(file, line, "#create %s: %lld elements of rmem (%llu bytes) do not fit on this thread's stack "
                "(%zu bytes left): rmem is a local array; create the block in paged memory",
                type, count, count > 0 ? (unsigned long long)count * elem_size : 0ull, room);
}

void pa_check_copy_extent(long long src, long long dst, const char *file, int line)
{
    if (src != dst)
        pa_fail(file, line, "#copy extent mismatch: source has %lld elements, destination %lld",
                src, dst);
}

void pa_check_extent(long long have, long long want, int exact, const char *node, const char *ref,
                     const char *file, int line)
{
    if (have == want || (!exact && have < want))
        return;
    if (have > want)
        pa_fail(file, line, "extent mismatch: '%s' has %lld elements, more than the %lld of '%s', which it "
                "views", node, have, want, ref);
    pa_fail(file, line, "extent mismatch: '%s' splits '%s' into %lld elements, but '%s' has %lld: a size "
            "written with a division truncates, and %lld elements would be left out", node, ref, have, ref,
            want, want - have);
}

double pa_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void pa_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
}

void pa_finalize(void)
{
    fflush(stdout);
}

void pa_fill_random(float *x, size_t n, unsigned seed)
{
    /* splitmix64 to spread the seed, then xorshift64; 24 bits per value */
    uint64_t s = (uint64_t)seed + 0x9E3779B97F4A7C15ull;
    s = (s ^ (s >> 30)) * 0xBF58476D1CE4E5B9ull;
    s = (s ^ (s >> 27)) * 0x94D049BB133111EBull;
    s ^= s >> 31;
    if (s == 0)
        s = 0x2545F4914F6CDD1Dull;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        x[i] = (float)((double)(s >> 40) * (2.0 / 16777216.0) - 1.0);
    }
}

static double pa_fabs(double x) { return x < 0 ? -x : x; } /* no libm needed */

void pa_gemm_ref(size_t n, const float *a, const float *b, double *want, double *scale)
{
    /* a row of C at a time in i-k-j order: B read along its rows (the j-inner order, a
       column of B a sum, took minutes at 4096), each sum still added in k's order */
    for (size_t i = 0; i < n; i++) {
        double *const w = want + i * n, *const m = scale ? scale + i * n : NULL;
        for (size_t j = 0; j < n; j++) {
            w[j] = 0;
            if (m)
                m[j] = 0;
        }
        for (size_t k = 0; k < n; k++) {
            const double x = a[i * n + k];
            const float *const bk = b + k * n;
            for (size_t j = 0; j < n; j++) {
                w[j] += x * bk[j];
                if (m)
                    m[j] += pa_fabs(x * bk[j]);
            }
        }
    }
}

int pa_check_close(const float *got, const double *want, size_t n, double rtol, double atol,
                   const char *what)
{
    const size_t show = 10;
    size_t bad = 0;
    double worst = 0.0;
    const char *w = what ? what : "check";
    for (size_t i = 0; i < n; i++) {
        double g = got[i], d = pa_fabs(g - want[i]);
        if (d <= atol + rtol * pa_fabs(want[i]))
            continue;                     /* also false for NaN: counted as bad */
        if (bad < show) {
            fflush(stdout);
            fprintf(stderr, "%s: mismatch at [%zu]: got %.9g, want %.9g (|diff| %.3g)\n",
                    w, i, g, want[i], d);
        }
        if (!(d <= worst))
            worst = d;
        bad++;
    }
    if (bad) {
        fprintf(stderr, "%s: %zu of %zu values differ (rtol %g, atol %g, max |diff| %.3g)\n",
                w, bad, n, rtol, atol, worst);
        fflush(stderr);
        return 1;
    }
    return 0;
}
