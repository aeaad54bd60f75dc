/* pa_thread.c: CPU thread arrays: pthread launch and join, barriers for
 * #sync and #sync_K (see parray_cpu.h). */
#include "parray_cpu.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- barriers ---- */

int pa_barrier_init(pa_barrier *b, int count)
{
    int rc = pthread_mutex_init(&b->mu, NULL);
    if (rc)
        return rc;
    rc = pthread_cond_init(&b->cv, NULL);
    if (rc) {
        pthread_mutex_destroy(&b->mu);
        return rc;
    }
    b->count = count;
    b->waiting = 0;
    b->generation = 0;
    return 0;
}

void pa_barrier_destroy(pa_barrier *b)
{
    pthread_cond_destroy(&b->cv);
    pthread_mutex_destroy(&b->mu);
}

void pa_barrier_wait(pa_barrier *b)
{
    pthread_mutex_lock(&b->mu);
    unsigned gen = b->generation;
    if (++b->waiting == b->count) {
        b->waiting = 0;
        b->generation++;
        pthread_cond_broadcast(&b->cv);
    } else {
        /* spurious wake-ups: wait until this round is over */
        while (gen == b->generation)
            pthread_cond_wait(&b->cv, &b->mu);
    }
    pthread_mutex_unlock(&b->mu);
}

/* ---- teams ---- */

/* The barriers of one #sync_K shape: ngroups groups of extent threads. */
typedef struct pa_group_set {
    long long weight, extent;
    int ngroups;
    pa_barrier *bars;
    struct pa_group_set *next;
} pa_group_set;

struct pa_team {
    int n;
    pa_barrier all;
    pthread_mutex_t mu;       /* guards groups */
    pa_group_set *groups;
    const char *file;
    int line;
    /* the start gate of pa_pthd_run: threads wait until all exist */
    pthread_cond_t gate_cv;
    int gate;                 /* 0 closed, 1 run, -1 give up */
    const void **shared;      /* pa_team_share's table, one entry per thread */
};

static void *xcalloc(size_t n, size_t size, const char *file, int line, const char *what)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        pa_fail(file, line, "cannot allocate %s for %zu threads: %s", what, n, strerror(ENOMEM));
    return p;
}

pa_team *pa_team_new(long long n, const char *file, int line)
{
    if (n < 0)
        pa_fail(file, line, "thread array has a negative number of threads (%lld)", n);
    if (n > INT_MAX)
        pa_fail(file, line, "thread array has too many threads (%lld, at most %d)", n, INT_MAX);
    if (n == 0)
        return NULL;
    pa_team *t = xcalloc(1, sizeof *t, file, line, "a thread team");
    t->n = (int)n;
    t->file = file;
    t->line = line;
    t->shared = xcalloc((size_t)n, sizeof *t->shared, file, line, "the table of distributed blocks");
    int rc = pa_barrier_init(&t->all, t->n);
    if (!rc)
        rc = pthread_mutex_init(&t->mu, NULL);
    if (!rc)
        rc = pthread_cond_init(&t->gate_cv, NULL);
    if (rc)
        pa_fail(file, line, "cannot create the barrier of %d threads: %s", t->n, strerror(rc));
    return t;
}

void pa_team_free(pa_team *t)
{
    if (!t)
        return;
    for (pa_group_set *g = t->groups, *next; g; g = next) {
        next = g->next;
        for (int i = 0; i < g->ngroups; i++)
            pa_barrier_destroy(&g->bars[i]);
        free(g->bars);
        free(g);
    }
    pthread_cond_destroy(&t->gate_cv);
    pthread_mutex_destroy(&t->mu);
    pa_barrier_destroy(&t->all);
    free(t->shared);
    free(t);
}

void pa_sync(pa_thread *self)
{
    pa_barrier_wait(&self->team->all);
}

const void *const *pa_team_share(pa_thread *self, const void *mine)
{
    pa_team *t = self->team;
    t->shared[self->tid] = mine;
    pa_barrier_wait(&t->all);
    return t->shared;
}

/* The group set for (weight, extent), made by the first thread that asks. */
static pa_group_set *group_set(pa_team *t, long long weight, long long extent, const char *file, int line)
{
    pthread_mutex_lock(&t->mu);
    pa_group_set *g = t->groups;
    while (g && (g->weight != weight || g->extent != extent))
        g = g->next;
    if (!g) {
        g = xcalloc(1, sizeof *g, file, line, "#sync groups");
        g->weight = weight;
        g->extent = extent;
        g->ngroups = (int)(t->n / extent);
        g->bars = xcalloc((size_t)g->ngroups, sizeof *g->bars, file, line, "#sync barriers");
        for (int i = 0; i < g->ngroups; i++) {
            int rc = pa_barrier_init(&g->bars[i], (int)extent);
            if (rc)
                pa_fail(file, line, "cannot create a #sync barrier: %s", strerror(rc));
        }
        g->next = t->groups;
        t->groups = g;
    }
    pthread_mutex_unlock(&t->mu);
    return g;
}

void pa_sync_sub(pa_thread *self, long long weight, long long extent, const char *file, int line)
{
    pa_team *t = self->team;
    if (weight <= 0 || extent <= 0 || t->n % (weight * extent))
        pa_fail(file, line, "#sync over a sub-array of %lld threads (weight %lld) does not divide "
                "the %d threads of the detour", extent, weight, t->n);
    if (extent == 1)
        return; /* a group of one thread */
    pa_group_set *g = group_set(t, weight, extent, file, line);
    long long tid = self->tid;
    long long group = tid / (weight * extent) * weight + tid % weight;
    pa_barrier_wait(&g->bars[group]);
}

/* ---- pthd launch ---- */

typedef struct pa_start {
    pa_thread self;
    pa_body_fn fn;
} pa_start;

static void *thread_main(void *arg)
{
    pa_start *s = arg;
    pa_team *t = s->self.team;
    pthread_mutex_lock(&t->mu);
    while (t->gate == 0)
        pthread_cond_wait(&t->gate_cv, &t->mu);
    int go = t->gate > 0;
    pthread_mutex_unlock(&t->mu);
    if (go)
        s->fn(&s->self);
    return NULL;
}

static void open_gate(pa_team *t, int value)
{
    pthread_mutex_lock(&t->mu);
    t->gate = value;
    pthread_cond_broadcast(&t->gate_cv);
    pthread_mutex_unlock(&t->mu);
}

void pa_pthd_run(long long n, pa_body_fn fn, const void *args, const char *file, int line)
{
    pa_team *t = pa_team_new(n, file, line);
    if (!t)
        return;
    pthread_t *ids = xcalloc((size_t)t->n, sizeof *ids, file, line, "thread handles");
    pa_start *starts = xcalloc((size_t)t->n, sizeof *starts, file, line, "thread records");
    int started = 0, rc = 0;
    for (; started < t->n; started++) {
        pa_start *s = &starts[started];
        s->self.tid = started;
        s->self.nthreads = t->n;
        s->self.team = t;
        s->self.args = args;
        s->fn = fn;
        rc = pthread_create(&ids[started], NULL, thread_main, s);
        if (rc)
            break;
    }
    /* nobody runs the body before every thread exists: a body waiting at
     * #sync for a thread that was never created would hang */
    open_gate(t, rc ? -1 : 1);
    for (int i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
    free(ids);
    free(starts);
    pa_team_free(t);
    if (rc)
        pa_fail(file, line, "cannot create thread %d of %lld for a pthd detour: %s", started, n, strerror(rc));
}
