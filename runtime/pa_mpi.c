/* pa_mpi.c: the MPI part of the Parray runtime: process 0 drives, the
 * other processes serve detours, and distributed copies move buckets of
 * elements with MPI collectives.  See parray_mpi.h for the model. */
#define _GNU_SOURCE /* on_exit */
#include "parray_mpi.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CMD_RUN = 1, CMD_STOP = 2 };

/* What process 0 broadcasts before each detour. */
typedef struct Header {
  int cmd;
  int id;
  long long size; /* bytes of packed arguments */
} Header;

static struct {
  int rank, size;
  int initialized, finalized;
  int stopped;          /* process 0 has sent the stop message */
  int in_detour;        /* this process is running a detour body */
  const char *file;     /* of the running detour, for messages (process 0) */
  pa_mpi_body *bodies;  /* by id */
  int nbodies;
  void (*release)(void); /* collective releases before MPI_Finalize (pa_mpi_before_finalize) */
} pa;

void pa_mpi_register(int id, pa_mpi_body body)
{
  if (id < 0)
    return;
  if (id >= pa.nbodies) {
    int n = id + 16;
    pa_mpi_body *b = (pa_mpi_body *)realloc(pa.bodies, sizeof *b * (size_t)n);
    if (!b) {
      fputs("parray: error: out of memory registering mpi detours\n", stderr);
      exit(1);
    }
    memset(b + pa.nbodies, 0, sizeof *b * (size_t)(n - pa.nbodies));
    pa.bodies = b;
    pa.nbodies = n;
  }
  pa.bodies[id] = body;
}

int pa_mpi_rank(void)
{
  return pa.rank;
}

int pa_mpi_size(void)
{
  return pa.size;
}

/* Every way out of the program passes here.  Process 0 leaving #mainhost
 * (a return, exit(n), pa_fail) stops the others cleanly; anything else
 * would leave processes waiting for each other, so it ends the job. */
static void at_exit(int status, void *arg)
{
  (void)arg;
  if (!pa.initialized || pa.finalized)
    return;
  fflush(stdout);
  if (pa.rank == 0 && !pa.in_detour) {
    pa_mpi_finalize();
    return;
  }
  fprintf(stderr, "parray: error: process %d of %d exited with status %d inside an mpi detour; "
          "ending all processes\n", pa.rank, pa.size, status);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, status ? status : 1);
}

void pa_mpi_init(int *argc, char ***argv)
{
  int provided;
  /* only the thread that called MPI_Init makes MPI calls; pthd and omp
   * detours nested in an mpi body run alongside */
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &pa.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &pa.size);
  /* failures come back as error codes: pa_fail reports them */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  pa.initialized = 1;
  on_exit(at_exit, NULL);
}

void pa_mpi_expect(long long nprocs, const char *type, const char *file, int line)
{
  if (nprocs == pa.size)
    return;
  if (pa.rank == 0) {
    fflush(stdout);
    fprintf(stderr, "%s:%d: error: mpi array '%s' has %lld processes, but the job has %d: "
            "run it with 'mpirun -np %lld' (parrayc --run does)\n", file, line, type, nprocs,
            pa.size, nprocs);
    fflush(stderr);
  }
  /* every process took this branch: no one waits for a stop message */
  pa.stopped = 1;
  MPI_Finalize();
  pa.finalized = 1;
  exit(1);
}

/* A #copy in an mpi body is collective: every process checks the extents,
 * and when any finds them different the job ends with one message (from the
 * lowest such process) instead of one per process. */
void pa_mpi_check_copy_extent(long long src, long long dst, const char *file, int line)
{
  int mine = src != dst ? pa.rank : pa.size, first;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == pa.size)
    return;
  if (pa.rank == first) {
    fflush(stdout);
    fprintf(stderr, "%s:%d: error: #copy extent mismatch: source has %lld elements, destination %lld",
            file, line, src, dst);
    if (pa.rank != 0)
      fprintf(stderr, " (on process %d of %d)", pa.rank, pa.size);
    fputc('\n', stderr);
    fflush(stderr);
  }
  /* every process took this branch: no one waits for a stop message */
  pa.stopped = 1;
  MPI_Finalize();
  pa.finalized = 1;
  exit(1);
}

static void check(int rc, const char *what, const char *file, int line);

/* ---- GPUs of mpi processes (SPEC 6.5) ---- */

/* The processes of this process's node (free it), this one's rank among
 * them and their number. */
static MPI_Comm node_comm(int *rank, int *size)
{
  MPI_Comm node;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, pa.rank, MPI_INFO_NULL, &node),
        "MPI_Comm_split_type", NULL, 0);
  MPI_Comm_rank(node, rank);
  MPI_Comm_size(node, size);
  return node;
}

/* This process's rank among the processes of its node, and their number. */
static void node_rank(int *rank, int *size)
{
  MPI_Comm node = node_comm(rank, size);
  MPI_Comm_free(&node);
}

int pa_mpi_one_node(void)
{
  int local, nlocal;
  node_rank(&local, &nlocal);
  return nlocal == pa.size;
}

void *pa_mpi_allgather(const void *mine, size_t bytes, const char *file, int line)
{
  char *all = (char *)malloc(bytes * (size_t)pa.size + 1);
  if (!all)
    pa_fail(file, line, "process %d: cannot allocate %zu bytes for a distributed #copy", pa.rank,
            bytes * (size_t)pa.size);
  check(MPI_Allgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, MPI_COMM_WORLD), "MPI_Allgather",
        file, line);
  return all;
}

/* Among the processes of this node, those that see the same GPUs (equal
 * set): how many there are, and this process's rank among them. */
static void gpu_group(unsigned long long set, int *rank, int *size)
{
  int local, nlocal;
  MPI_Comm node = node_comm(&local, &nlocal);
  unsigned long long *sets = (unsigned long long *)malloc(sizeof *sets * (size_t)nlocal);
  if (!sets)
    pa_fail(NULL, 0, "process %d: cannot allocate the GPU sets of %d processes", pa.rank, nlocal);
  check(MPI_Allgather(&set, 1, MPI_UNSIGNED_LONG_LONG, sets, 1, MPI_UNSIGNED_LONG_LONG, node), "MPI_Allgather",
        NULL, 0);
  MPI_Comm_free(&node);
  *rank = *size = 0;
  for (int p = 0; p < nlocal; p++)
    if (sets[p] == set) {
      *rank += p < local;
      ++*size;
    }
  free(sets);
}

int pa_mpi_gpu_of(int gpus, unsigned long long set, const char *why, const char *type, const char *file, int line)
{
  /* the processes that see the same GPUs share them out by rank; one
   * that sees GPUs of its own (srun --gpus-per-task) takes them */
  int local, nlocal;
  gpu_group(set, &local, &nlocal);
  const char *share = getenv("PARRAY_GPU_SHARE");
  int shared = share && *share && *share != '0';
  int bad = gpus <= 0 || (nlocal > gpus && !shared);
  int mine = bad ? pa.rank : pa.size, first;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == pa.size)
    return local % gpus;
  if (pa.rank == first) {
    char host[MPI_MAX_PROCESSOR_NAME] = "?", msg[1024];
    int len = 0;
    MPI_Get_processor_name(host, &len);
    if (gpus <= 0)
      snprintf(msg, sizeof msg, "%s:%d: error: process %d of mpi array '%s' (on %s) does GPU work, but "
               "has no CUDA GPU: %s\n", file, line, pa.rank, type, host, why ? why : "no device");
    else
      snprintf(msg, sizeof msg, "%s:%d: error: '%s' has %d processes with GPU work on %s that see the same "
               "%d GPU%s: one GPU per process (run fewer processes per node, give each its own GPUs, or set "
               "PARRAY_GPU_SHARE=1 to let processes share GPUs, node rank k on GPU k mod %d)\n", file, line,
               type, nlocal, host, gpus, gpus == 1 ? "" : "s", gpus);
    fflush(stdout);
    fputs(msg, stderr);
    fflush(stderr);
  }
  /* every process took this branch: no one waits for a stop message */
  pa.stopped = 1;
  MPI_Finalize();
  pa.finalized = 1;
  exit(1);
}

static void check(int rc, const char *what, const char *file, int line)
{
  if (rc == MPI_SUCCESS)
    return;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  pa_fail(file, line, "%s failed on process %d: %s", what, pa.rank, msg);
}

static void sync_point(int where);

static void run_body(int id, void *args)
{
  if (id < 0 || id >= pa.nbodies || !pa.bodies[id])
    pa_fail(NULL, 0, "process %d has no mpi detour number %d (all processes must run the same "
            "program)", pa.rank, id);
  pa.in_detour = 1;
  pa.bodies[id](args);
  pa.in_detour = 0;
  /* control returns to process 0 when every process has finished */
  sync_point(-1);
}

static void broadcast_bytes(void *p, long long size)
{
  char *c = (char *)p;
  while (size > 0) {
    int n = size > INT_MAX ? INT_MAX : (int)size;
    check(MPI_Bcast(c, n, MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast of detour arguments", NULL, 0);
    c += n;
    size -= n;
  }
}

int pa_mpi_serve(void)
{
  for (;;) {
    Header h;
    check(MPI_Bcast(&h, (int)sizeof h, MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast of a detour", NULL, 0);
    if (h.cmd == CMD_STOP)
      return 0;
    void *args = h.size > 0 ? malloc((size_t)h.size) : NULL;
    if (h.size > 0 && !args)
      pa_fail(NULL, 0, "process %d: cannot allocate %lld bytes of detour arguments", pa.rank, h.size);
    broadcast_bytes(args, h.size);
    run_body(h.id, args);
    free(args);
  }
}

void pa_mpi_detour(int id, const void *args, size_t args_size, long long extent, const char *type,
                   const char *file, int line)
{
  if (!pa.initialized)
    pa_fail(file, line, "mpi detour on '%s' before MPI was started: mpi detours need #mainhost", type);
  if (pa.in_detour || pa.rank != 0)
    pa_fail(file, line, "mpi detour on '%s' inside an mpi detour: mpi detours do not nest", type);
  if (extent != pa.size)
    pa_fail(file, line, "mpi array '%s' has %lld processes, but the job has %d", type, extent,
            pa.size);
  pa.file = file;
  Header h = {CMD_RUN, id, (long long)args_size};
  check(MPI_Bcast(&h, (int)sizeof h, MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast of a detour", file, line);
  broadcast_bytes((void *)args, h.size);
  run_body(id, (void *)args);
}

void pa_mpi_before_finalize(void (*release)(void))
{
  pa.release = release;
}

void pa_mpi_finalize(void)
{
  if (!pa.initialized || pa.finalized)
    return;
  if (pa.rank == 0 && !pa.stopped) {
    Header h = {CMD_STOP, 0, 0};
    pa.stopped = 1;
    MPI_Bcast(&h, (int)sizeof h, MPI_BYTE, 0, MPI_COMM_WORLD);
  }
  fflush(stdout);
  if (pa.release) /* every process is here, in step: collective releases may run */
    pa.release();
  pa.finalized = 1;
  MPI_Finalize();
}

/* where of a collective #copy: its line plus COPY_POINT; of a collective
 * #create (distributed GPU memory): its line plus CREATE_POINT */
#define COPY_POINT (1 << 29)
#define CREATE_POINT (1 << 30)

/* "the #sync at t.pa:12", "the #copy at t.pa:14", "a pa_mpi_barrier() call",
 * "the end of the detour body" */
static void describe_point(char *buf, size_t n, int where)
{
  const char *file = pa.file ? pa.file : "parray";
  if (where >= CREATE_POINT)
    snprintf(buf, n, "the #create at %s:%d", file, where - CREATE_POINT);
  else if (where >= COPY_POINT)
    snprintf(buf, n, "the #copy at %s:%d", file, where - COPY_POINT);
  else if (where > 0)
    snprintf(buf, n, "the #sync at %s:%d", file, where);
  else
    snprintf(buf, n, where == 0 ? "a pa_mpi_barrier() call" : "the end of the detour body");
}

/* A synchronisation point of an mpi body: a #sync (where: its line), a
 * pa_mpi_barrier() call (0) or the end of the body (-1).  Each process
 * says where it stands, and that collective is the barrier.  Processes at
 * different points (a #sync that only some of them reach) would otherwise
 * pair the wrong barriers and hang a detour later; instead every process
 * sees the disagreement, process 0 names the points, and all exit 1. */
static void sync_point(int where)
{
  int mine[2] = {where, -where}, all[2];
  check(MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce (#sync)", NULL, 0);
  if (all[0] == -all[1])
    return;
  int *points = (int *)malloc(sizeof(int) * (size_t)pa.size);
  check(MPI_Gather(&where, 1, MPI_INT, points, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather (#sync)", NULL, 0);
  if (pa.rank == 0 && points) {
    char msg[4096], what[512];
    int len = snprintf(msg, sizeof msg, "%s: error: the processes of an mpi detour reached different "
                       "synchronisation points:", pa.file ? pa.file : "parray");
    for (int p = 0; p < pa.size && p < 8 && len < (int)sizeof msg - 200; p++) {
      describe_point(what, sizeof what, points[p]);
      len += snprintf(msg + len, sizeof msg - (size_t)len, "%s process %d at %s", p ? "," : "", p, what);
    }
    if (pa.size > 8)
      len += snprintf(msg + len, sizeof msg - (size_t)len, ", ...");
    snprintf(msg + len, sizeof msg - (size_t)len, "; every process must pass the same #sync and collective #copy "
             "and #create statements, in the same order\n");
    fflush(stdout);
    fputs(msg, stderr);
    fflush(stderr);
  }
  free(points);
  /* every process took this branch: no one waits for a stop message */
  pa.stopped = 1;
  MPI_Finalize();
  pa.finalized = 1;
  exit(1);
}

void pa_mpi_sync(const char *file, int line)
{
  (void)file; /* the program's one file: pa.file names it */
  sync_point(line > 0 ? line : 0);
}

void pa_mpi_copy_point(const char *file, int line)
{
  (void)file; /* the program's one file: pa.file names it */
  sync_point(COPY_POINT + (line > 0 && line < COPY_POINT ? line : 0));
}

void pa_mpi_create_point(const char *file, int line)
{
  (void)file;
  sync_point(CREATE_POINT + (line > 0 && line < COPY_POINT ? line : 0));
}

void pa_mpi_barrier(void)
{
  sync_point(0);
}

/* ---- distributed copies ---- */

static void *xalloc(size_t n)
{
  void *p = calloc(n ? n : 1, 1);
  if (!p)
    pa_fail(NULL, 0, "process %d: cannot allocate %zu bytes for a distributed #copy", pa.rank, n);
  return p;
}

pa_mpi_xchg *pa_mpi_xchg_begin(size_t elem)
{
  pa_mpi_xchg *x = (pa_mpi_xchg *)xalloc(sizeof *x);
  size_t n = (size_t)pa.size;
  x->nprocs = pa.size;
  x->rank = pa.rank;
  x->elem = elem;
  x->scount = (long long *)xalloc(sizeof(long long) * n);
  x->rcount = (long long *)xalloc(sizeof(long long) * n);
  x->scur = (long long *)xalloc(sizeof(long long) * n);
  x->rcur = (long long *)xalloc(sizeof(long long) * n);
  return x;
}

/* displacements of the buckets: the running sum of the counts */
static long long prefix(const long long *count, long long *displ, int n)
{
  long long sum = 0;
  for (int p = 0; p < n; p++) {
    displ[p] = sum;
    sum += count[p];
  }
  return sum;
}

void *pa_mpi_xchg_pack(pa_mpi_xchg *x)
{
  long long total = prefix(x->scount, x->scur, x->nprocs);
  x->sbuf = xalloc((size_t)total * x->elem);
  return x->sbuf;
}

/* MPI counts are ints: a copy that needs more fails clearly */
static int *as_ints(const long long *v, int n, const char *file, int line)
{
  int *r = (int *)xalloc(sizeof(int) * (size_t)n);
  for (int p = 0; p < n; p++) {
    if (v[p] > INT_MAX)
      pa_fail(file, line, "distributed #copy of %lld elements to or from one process: more than "
              "MPI can count (%d)", v[p], INT_MAX);
    r[p] = (int)v[p];
  }
  return r;
}

void *pa_mpi_xchg_run(pa_mpi_xchg *x, pa_mpi_how how, const char *file, int line)
{
  int n = x->nprocs;
  long long *sd = (long long *)xalloc(sizeof(long long) * (size_t)n);
  long long rtotal = prefix(x->rcount, x->rcur, n);
  prefix(x->scount, sd, n);
  MPI_Datatype t;
  MPI_Type_contiguous((int)x->elem, MPI_BYTE, &t);
  MPI_Type_commit(&t);
  int *sc = as_ints(x->scount, n, file, line), *rc = as_ints(x->rcount, n, file, line);
  int *sdi = as_ints(sd, n, file, line), *rdi = as_ints(x->rcur, n, file, line);
  int err = MPI_SUCCESS;
  const char *what = "";
  if (how == PA_MPI_BCAST && x->rank == 0) {
    x->rbuf = x->sbuf; /* process 0 keeps what it packed */
  } else {
    x->rbuf = xalloc((size_t)rtotal * x->elem);
  }
  switch (how) {
  case PA_MPI_SCATTER:
    what = "MPI_Scatterv";
    err = MPI_Scatterv(x->sbuf, sc, sdi, t, x->rbuf, rc[0], t, 0, MPI_COMM_WORLD);
    break;
  case PA_MPI_GATHER:
    what = "MPI_Gatherv";
    err = MPI_Gatherv(x->sbuf, sc[0], t, x->rbuf, rc, rdi, t, 0, MPI_COMM_WORLD);
    break;
  case PA_MPI_ALLTOALL:
    what = "MPI_Alltoallv";
    err = MPI_Alltoallv(x->sbuf, sc, sdi, t, x->rbuf, rc, rdi, t, MPI_COMM_WORLD);
    break;
  case PA_MPI_BCAST:
    what = "MPI_Bcast";
    err = MPI_Bcast(x->rbuf, rc[0], t, 0, MPI_COMM_WORLD);
    break;
  }
  check(err, what, file, line);
  MPI_Type_free(&t);
  free(sc);
  free(rc);
  free(sdi);
  free(rdi);
  free(sd);
  return x->rbuf;
}

void pa_mpi_xchg_end(pa_mpi_xchg *x)
{
  if (x->rbuf != x->sbuf)
    free(x->rbuf);
  free(x->sbuf);
  free(x->scount);
  free(x->rcount);
  free(x->scur);
  free(x->rcur);
  free(x);
}

/* ---- scatter and gather of rows ---- */

void pa_mpi_rows(pa_mpi_how how, long long parts, void *host, long long rows, long long width, long long pitch, long long step,
                 void *local, long long lpitch, size_t elem, const char *file, int line)
{
  long long part = rows * width;
  if (part > INT_MAX)
    pa_fail(file, line, "distributed #copy of %lld elements to or from one process: more than MPI can count (%d)",
            part, INT_MAX);
  if (how == PA_MPI_BCAST)
    parts = pa.size;
  if (parts < 0 || parts > pa.size)
    pa_fail(file, line, "distributed #copy over %lld processes, but the job has %d", parts, pa.size);
  int held = pa.rank < parts; /* a process past the parts holds none */
  size_t row = (size_t)width * elem;
  char *all = NULL, *mine = (char *)local;
  int *counts = NULL, *displs = NULL;
  if (pa.rank == 0 && how != PA_MPI_BCAST) {
    all = (char *)xalloc((size_t)part * elem * (size_t)parts);
    counts = (int *)xalloc(sizeof(int) * (size_t)pa.size);
    displs = (int *)xalloc(sizeof(int) * (size_t)pa.size);
    for (int r = 0; r < pa.size; r++) { /* in parts of `part` elements (tpart below) */
      counts[r] = r < parts;
      displs[r] = r < parts ? r : 0;
    }
  }
  if (lpitch != width && held)
    mine = (char *)xalloc((size_t)part * elem);
  MPI_Datatype t, tpart;
  MPI_Type_contiguous((int)elem, MPI_BYTE, &t);
  MPI_Type_commit(&t);
  /* a whole part as one datatype, so that the displacements (in parts) fit an int */
  MPI_Type_contiguous((int)part, t, &tpart);
  MPI_Type_commit(&tpart);
  int err;
  if (how == PA_MPI_BCAST) { /* every process gets process 0's rows */
    if (pa.rank == 0)
      for (long long i = 0; i < rows; i++)
        memcpy(mine + (size_t)i * row, (char *)host + (size_t)i * (size_t)pitch * elem, row);
    err = MPI_Bcast(mine, (int)part, t, 0, MPI_COMM_WORLD);
    check(err, "MPI_Bcast", file, line);
    if (mine != local)
      for (long long i = 0; i < rows; i++)
        memcpy((char *)local + (size_t)i * (size_t)lpitch * elem, mine + (size_t)i * row, row);
  } else if (how == PA_MPI_SCATTER) {
    if (pa.rank == 0) /* each holder's rows, packed one after another */
      for (long long r = 0; r < parts; r++)
        for (long long i = 0; i < rows; i++)
          memcpy(all + ((size_t)r * (size_t)part + (size_t)i * (size_t)width) * elem,
                 (char *)host + ((size_t)r * (size_t)step + (size_t)i * (size_t)pitch) * elem, row);
    err = MPI_Scatterv(all, counts, displs, tpart, mine, held, tpart, 0, MPI_COMM_WORLD);
    check(err, "MPI_Scatterv", file, line);
    if (mine != local)
      for (long long i = 0; i < rows; i++)
        memcpy((char *)local + (size_t)i * (size_t)lpitch * elem, mine + (size_t)i * row, row);
  } else {
    if (mine != local)
      for (long long i = 0; i < rows; i++)
        memcpy(mine + (size_t)i * row, (char *)local + (size_t)i * (size_t)lpitch * elem, row);
    err = MPI_Gatherv(mine, held, tpart, all, counts, displs, tpart, 0, MPI_COMM_WORLD);
    check(err, "MPI_Gatherv", file, line);
    if (pa.rank == 0)
      for (long long r = 0; r < parts; r++)
        for (long long i = 0; i < rows; i++)
          memcpy((char *)host + ((size_t)r * (size_t)step + (size_t)i * (size_t)pitch) * elem,
                 all + ((size_t)r * (size_t)part + (size_t)i * (size_t)width) * elem, row);
  }
  MPI_Type_free(&tpart);
  MPI_Type_free(&t);
  if (mine != local)
    free(mine);
  free(all);
  free(counts);
  free(displs);
}

/* ---- a failure every process sees (pa_transport.cu's transport checks) ---- */

void pa_mpi_fail_all(const char *msg)
{
  if (pa.rank == 0) {
    fflush(stdout);
    fprintf(stderr, "%s\n", msg);
    fflush(stderr);
  }
  /* every process took this branch: no one waits for a stop message */
  pa.stopped = 1;
  MPI_Finalize();
  pa.finalized = 1;
  exit(1);
}
