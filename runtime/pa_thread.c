/* pa_thread.c: CPU thread arrays: pthread launch and join, barriers for
 * #sync and #sync_K (see parray_cpu.h). */
#include "parray_cpu.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- barriers ---- */

/* What a pa_barrier holds (parray_cpu.h keeps it opaque). */
typedef struct barrier_parts {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int count;            /* threads per round */
    int waiting;          /* arrived in this round */
    unsigned generation;  /* rounds completed */
} barrier_parts;

_Static_assert(sizeof(barrier_parts) <= sizeof(pa_barrier), "pa_barrier too small for its parts");
_Static_assert(_Alignof(barrier_parts) <= _Alignof(pa_barrier), "pa_barrier aligned less than its parts");

int pa_barrier_init(pa_barrier *barrier, int count)
{
    barrier_parts *b = (barrier_parts *)barrier;
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

void pa_barrier_destroy(pa_barrier *barrier)
{
    barrier_parts *b = (barrier_parts *)barrier;
    pthread_cond_destroy(&b->cv);
    pthread_mutex_destroy(&b->mu);
}

void pa_barrier_wait(pa_barrier *barrier)
{
    barrier_parts *b = (barrier_parts *)barrier;
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

/* A barrier of a team: every team barrier waits under the team's one mutex,
 * so that the team knows at every moment how many of its threads wait and
 * how many have finished the body; when those are all of them, no barrier
 * can complete (a #sync only some threads reach) and the program stops
 * with a message instead of hanging. */
typedef struct team_barrier {
    pthread_cond_t cv;
    int count;            /* threads per round */
    int waiting;          /* arrived in this round */
    unsigned generation;  /* rounds completed */
} team_barrier;

/* The barriers of one #sync_K shape: ngroups groups of extent threads. */
typedef struct pa_group_set {
    long long weight, extent;
    int ngroups;
    team_barrier *bars;
    struct pa_group_set *next;
} pa_group_set;

/* where a thread stands (pa_team.where): a #sync's line, or one of these */
enum { AT_CALL = 0, AT_END = -1, AT_SHARE = -2 };

struct pa_team {
    int n;
    pthread_mutex_t mu;       /* guards everything below, and the barriers */
    team_barrier all;
    pa_group_set *groups;
    const char *file;
    int line;
    int *where;               /* each thread's last synchronisation point */
    int blocked, finished;    /* threads waiting in a barrier; done with the body */
    const char *kind;         /* the detour's thread kind, for messages: pthd or omp */
    /* the start gate of pa_pthd_run: threads wait until all exist */
    pthread_cond_t gate_cv;
    int gate;                 /* 0 closed, 1 run, -1 give up */
    const void **shared;      /* pa_team_share's table, one entry per thread */
    int in_use;               /* the launching thread's spare, taken for a detour */
};

static void *xcalloc(size_t n, size_t size, const char *file, int line, const char *what)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        pa_fail(file, line, "cannot allocate %s for %zu threads: %s", what, n, strerror(ENOMEM));
    return p;
}

static int team_barrier_init(team_barrier *b, int count)
{
    b->count = count;
    b->waiting = 0;
    b->generation = 0;
    return pthread_cond_init(&b->cv, NULL);
}

/* Each thread keeps the team of the last detour it launched (a key whose destructor
 * frees it) and launches the next of as many threads with it: a small omp detour
 * called in a loop (perf_sgemm_host at N = 64, one thread: 5.5 us a call) spent 2-3 %
 * of its time making and freeing a team's blocks, mutex and condition variables.  A
 * team is given back only after its detour has ended (every thread finished, none
 * waiting), so its barriers are at rest; what the last detour left is reset here.
 * The spare stays under the key while its detour runs, marked in use (a detour
 * inside it gets another team): taking it and giving it back set nothing in the key
 * (pthread_setspecific twice a detour was 2 % of perf_sgemm_host at N = 14). */
static pthread_key_t spare_team_key;
static pthread_once_t spare_team_once = PTHREAD_ONCE_INIT;
static int spare_team_once_failed; /* set once, under pthread_once, before any reader */

static void team_destroy(pa_team *t)
{
    for (pa_group_set *g = t->groups, *next; g; g = next) {
        next = g->next;
        for (int i = 0; i < g->ngroups; i++)
            pthread_cond_destroy(&g->bars[i].cv);
        free(g->bars);
        free(g);
    }
    pthread_cond_destroy(&t->gate_cv);
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->all.cv);
    free(t->shared);
    free(t->where);
    free(t);
}

static void spare_team_free(void *v)
{
    pa_team *t = v;
    if (!t->in_use) /* else the thread ended inside the detour's body: left as it is */
        team_destroy(t);
}

static void spare_team_key_make(void)
{
    if (pthread_key_create(&spare_team_key, spare_team_free))
        spare_team_once_failed = 1;
}

/* this thread's spare team of n threads, taken, or NULL */
static pa_team *spare_team_take(int n)
{
    if (pthread_once(&spare_team_once, spare_team_key_make) || spare_team_once_failed)
        return NULL;
    pa_team *t = pthread_getspecific(spare_team_key);
    if (!t || t->in_use || t->n != n)
        return NULL;
    t->in_use = 1;
    return t;
}

pa_team *pa_team_new(long long n, const char *file, int line)
{
    if (n < 0)
        pa_fail(file, line, "thread array has a negative number of threads (%lld)", n);
    if (n > INT_MAX)
        pa_fail(file, line, "thread array has too many threads (%lld, at most %d)", n, INT_MAX);
    if (n == 0)
        return NULL;
    pa_team *t = spare_team_take((int)n);
    if (t) {
        if (n == 1) /* a team of one, the common case of a small detour: no call to memset */
            t->where[0] = AT_CALL;
        else
            memset(t->where, 0, (size_t)n * sizeof *t->where); /* AT_CALL */
        t->blocked = t->finished = t->gate = 0;
    } else {
        t = xcalloc(1, sizeof *t, file, line, "a thread team");
        t->n = (int)n;
        t->shared = xcalloc((size_t)n, sizeof *t->shared, file, line, "the table of distributed blocks");
        t->where = xcalloc((size_t)n, sizeof *t->where, file, line, "the synchronisation points");
        int rc = team_barrier_init(&t->all, t->n);
        if (!rc)
            rc = pthread_mutex_init(&t->mu, NULL);
        if (!rc)
            rc = pthread_cond_init(&t->gate_cv, NULL);
        if (rc)
            pa_fail(file, line, "cannot create the barrier of %d threads: %s", t->n, strerror(rc));
    }
    t->kind = "omp"; /* pa_pthd_run says pthd */
    t->file = file;
    t->line = line;
    return t;
}

/* kept as the thread's spare (the spare given back, or in place of one not in use),
   or freed */
void pa_team_free(pa_team *t)
{
    if (!t)
        return;
    if (!pthread_once(&spare_team_once, spare_team_key_make) && !spare_team_once_failed) {
        pa_team *kept = pthread_getspecific(spare_team_key);
        if (kept == t) {
            t->in_use = 0;
            return;
        }
        if ((!kept || !kept->in_use) && pthread_setspecific(spare_team_key, t) == 0) {
            t->in_use = 0;
            if (kept)
                team_destroy(kept);
            return;
        }
    }
    team_destroy(t);
}

static int describe_point(char *buf, size_t n, int where)
{
    if (where > 0)
        return snprintf(buf, n, "the #sync at line %d", where);
    if (where == AT_SHARE)
        return snprintf(buf, n, "a #copy among the threads");
    return snprintf(buf, n, where == AT_END ? "the end of the detour body" : "a pa_sync() call");
}

/* Under t->mu: every thread waits in a barrier or has finished the body,
 * so none can go on (a #sync only some threads reach).  Names where each
 * stands and stops the program. */
static void different_points(pa_team *t)
{
    char msg[2048];
    int len = snprintf(msg, sizeof msg, "the threads of the %s detour reached different synchronisation points:",
                       t->kind);
    for (int k = 0; k < t->n && k < 8 && len < (int)sizeof msg - 200; k++) {
        len += snprintf(msg + len, sizeof msg - (size_t)len, "%s thread %d at ", k ? "," : "", k);
        len += describe_point(msg + len, sizeof msg - (size_t)len, t->where[k]);
    }
    if (t->n > 8)
        len += snprintf(msg + len, sizeof msg - (size_t)len, ", ...");
    snprintf(msg + len, sizeof msg - (size_t)len, "; every thread must pass the same #sync statements, in the same "
             "order");
    pa_fail(t->file, t->line, "%s", msg);
}

/* Thread self arrives at barrier b of its team, standing at where.  (Two
 * #syncs in the two branches of an if pair up, as barriers do: only a
 * barrier that can never complete is an error.) */
static void team_wait(pa_thread *self, team_barrier *b, int where)
{
    pa_team *t = self->team;
    if (t->n == 1) { /* alone: every barrier completes at once; nobody else to tell */
        t->where[0] = where;
        return;
    }
    pthread_mutex_lock(&t->mu);
    t->where[self->tid] = where;
    if (b->waiting + 1 == b->count) {
        t->blocked -= b->waiting;
        b->waiting = 0;
        b->generation++;
        pthread_cond_broadcast(&b->cv);
    } else {
        b->waiting++;
        t->blocked++;
        if (t->blocked + t->finished == t->n)
            different_points(t); /* nobody left to complete a barrier */
        unsigned gen = b->generation;
        while (gen == b->generation) /* spurious wake-ups: until this round is over */
            pthread_cond_wait(&b->cv, &t->mu);
    }
    pthread_mutex_unlock(&t->mu);
}

void pa_sync(pa_thread *self)
{
    team_wait(self, &self->team->all, AT_CALL);
}

void pa_sync_at(pa_thread *self, int line)
{
    team_wait(self, &self->team->all, line > 0 ? line : AT_CALL);
}

void pa_thread_done(pa_thread *self)
{
    /* if every other thread now waits in a barrier, none will end */
    pa_team *t = self->team;
    if (t->n == 1) { /* alone: no barrier waits */
        t->where[0] = AT_END;
        t->finished = 1;
        return;
    }
    pthread_mutex_lock(&t->mu);
    t->where[self->tid] = AT_END;
    t->finished++;
    if (t->blocked > 0 && t->blocked + t->finished == t->n)
        different_points(t);
    pthread_mutex_unlock(&t->mu);
}

const void *const *pa_team_share(pa_thread *self, const void *mine)
{
    pa_team *t = self->team;
    t->shared[self->tid] = mine;
    team_wait(self, &t->all, AT_SHARE);
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
            int rc = team_barrier_init(&g->bars[i], (int)extent);
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
    team_wait(self, &g->bars[group], line > 0 ? line : AT_CALL);
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
    pa_thread_done(&s->self);
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
    t->kind = "pthd";
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
