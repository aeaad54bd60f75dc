/* parray_cpu.h: the CPU thread arrays (pthd and omp) part of the Parray runtime:
 * thread launch and join, barriers for #sync and #sync_K.
 *
 * A #detour over a pthd or omp array T runs the outlined body
 * `void pa_detour_T_L<line>(pa_thread *self)` once per thread of T, with
 * self->tid = 0 .. |T|-1, and returns when all have finished. */
#ifndef PA_PARRAY_CPU_H
#define PA_PARRAY_CPU_H

#include "parray.h"

#ifdef _OPENMP
#include <omp.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A reusable barrier for count threads (mutex, condition and a generation
 * counter, so a fast thread cannot overtake the previous round).  Its
 * parts are the runtime's (pa_thread.c): this header does not include
 * <pthread.h>, whose names (and <time.h>'s, which it brings) a program
 * without it may use. */
typedef union pa_barrier {
    unsigned char pa_bytes[256];
    long double pa_align;
    void *pa_align_ptr;
    long long pa_align_ll;
} pa_barrier;

/* Returns 0 or an errno value. */
int pa_barrier_init(pa_barrier *b, int count);
void pa_barrier_destroy(pa_barrier *b);
void pa_barrier_wait(pa_barrier *b);

/* The threads of one detour: a barrier over all of them and, made on first
 * use, the barriers of #sync_K groups. */
typedef struct pa_team pa_team;

/* One thread of a detour, as its outlined body sees it. */
typedef struct pa_thread {
    int tid;              /* linear index in the thread array: $tid$ */
    int nthreads;         /* |T| */
    pa_team *team;
    const void *args;     /* the detour's arguments (struct pa_args_...), read-only */
} pa_thread;

typedef void (*pa_body_fn)(pa_thread *self);

/* Runs fn on n POSIX threads (n may be 0) and joins them.  A count that is
 * negative or too large, or a thread that cannot be created, stops the
 * program with "FILE:LINE: error: ..." (threads already started are released
 * without running fn and joined first, so nothing hangs). */
void pa_pthd_run(long long n, pa_body_fn fn, const void *args, const char *file, int line);

/* #sync: a barrier over all threads of the caller's detour (pa_sync_at:
 * the #sync at that line of the program).  In a pthd or omp detour, a
 * barrier that can never complete (a #sync some threads skip: the others
 * wait in it or have finished the body) stops the program with "FILE:LINE:
 * error: the threads of the pthd detour reached different synchronisation
 * points: thread 0 at the #sync at line 6, thread 1 at the end of the
 * detour body; ...", never a hang. */
void pa_sync(pa_thread *self);
void pa_sync_at(pa_thread *self, int line);

/* #sync_K: a barrier over the threads that share every index outside
 * sub-dimension K, where |K| = extent and the product of the extents of the
 * leaves after K's subtree is weight: the threads with equal
 * (tid / (weight * extent), tid % weight) form one group of extent threads. */
void pa_sync_sub(pa_thread *self, long long weight, long long extent, const char *file, int line);

/* A #copy of data distributed over the threads of a detour: every thread
 * passes its block and gets the table of all of them (entry k: thread
 * k's).  The table stays valid until the next pa_team_share; the
 * generated code passes a pa_sync before anyone reuses it. */
const void *const *pa_team_share(pa_thread *self, const void *mine);

/* Teams for launchers other than pa_pthd_run (OpenMP).  pa_team_new fails
 * like pa_pthd_run on a bad count.  The launcher calls pa_thread_done when
 * a thread has finished the body: a barrier that can then never complete
 * stops the program, as under pa_pthd_run. */
pa_team *pa_team_new(long long n, const char *file, int line);
void pa_team_free(pa_team *team);
void pa_thread_done(pa_thread *self);

#ifdef _OPENMP
/* Runs fn on exactly n OpenMP threads: thread numbers are tids.  Dynamic
 * adjustment is switched off and nested parallelism allowed, so a detour
 * inside another gets its own threads; if OpenMP still grants fewer than n
 * threads the body runs nowhere and the program stops with a message.  A
 * team of one thread runs the body on the calling thread, outside any
 * OpenMP region (as an omp parallel of one thread would: thread 0 of 1). */
static inline void pa_omp_run(long long n, pa_body_fn fn, const void *args, const char *file, int line)
{
    pa_team *team = pa_team_new(n, file, line);
    if (!team)
        return; /* n == 0: no threads, nothing to run */
    int want = (int)n, got = 0;
    if (want == 1) { /* a team of one: the body on this thread (OpenMP's region of one
                        thread cost a futex call each time, 3 % of a 5-us detour) */
        pa_thread self = {0, 1, team, args};
        fn(&self);
        pa_thread_done(&self);
        pa_team_free(team);
        return;
    }
    omp_set_dynamic(0);
    if (omp_get_max_active_levels() <= omp_get_active_level())
        omp_set_max_active_levels(omp_get_active_level() + 1);
#pragma omp parallel num_threads(want)
    {
        int have = omp_get_num_threads();
        if (omp_get_thread_num() == 0)
            got = have;
        if (have == want) {
            pa_thread self = {omp_get_thread_num(), want, team, args};
            fn(&self);
            pa_thread_done(&self);
        }
    }
    pa_team_free(team);
    if (got != want)
        pa_fail(file, line, "omp detour needs %d OpenMP threads but got only %d "
                "(OMP_THREAD_LIMIT or the nesting depth may be too small)", want, got);
}
#endif

#ifdef __cplusplus
}
#endif

#endif /* PA_PARRAY_CPU_H */
