/* backend.h: the one interface between the walk (emit/emit.c) and the
 * targets.  Each target implements the operations of a Backend in its own
 * file of targets/ (c.c, cpu.c, mpi.c) or folder (cuda/); the driver hands
 * the walk the list of them (targets/all.c), and the walk asks each in
 * turn whether it takes a construct (backend_for): it never names a
 * target.  Targets never call each other: what two of them print alike
 * lives in emit/hostc.c, and a thread target reaches the GPU only through
 * the GPU target's operations (Backend.team_*, stage_*), describing its
 * team to it (Team). */
#ifndef PARRAYC_BACKEND_H
#define PARRAYC_BACKEND_H

#include "model/copy_plan.h"
#include "parrayc.h"
#include "print/scope.h"
#include "print/text.h"

/* A detour being translated: the innermost one answers $tid$ and #sync.
 * A backend may embed it first in a larger struct of its own. */
typedef struct Detour {
  Node *node;
  Type *type;
  struct Detour *parent;
  const char *name;    /* of the outlined function or kernel */
  ThreadView view;     /* what $tid...$ means in the body */
  int body_line;       /* the body's output starts on this source line; -1: unknown */
  const char **checks; /* statements the launch runs first (hostc_check_at_launch) */
  int nchecks;
  bool gpu_work;       /* a pthd or omp body that allocates, copies or launches on a GPU:
                        * each of its threads binds one (SPEC 6.5) */
} Detour;

/* The state of the walk that the backends see. */
typedef struct Emitter {
  Ctx *ctx;
  Out *out;            /* where text goes now */
  Out hoist;           /* file-scope code for before the current top-level item */
  Detour *detour;
  Scope *scope;
  bool unbraced_body;  /* the directive being written is the body of an if, else, for or while */
  int function_depth;  /* > 0 inside a function body or #mainhost */
  bool gpu_program;    /* the program uses a GPU: the output is the GPU compiler's C++ */
  const struct Backend *gpu; /* the GPU target of the list (Backend.gpu) */
  bool mpi;
  int mpi_detours;     /* numbers the mpi detours of the program */
  Node *mainhost;      /* the program's #mainhost, once seen */
  const char *insert_indent; /* inside an #insert: its indentation (emit_insert) */
  Detour *insert_detour;     /* the detour the #insert stands in */
  struct CopyKernel *copy_kernels; /* the GPU copy kernels written so far (the GPU target's) */
  const struct Backend *const *targets; /* NULL-terminated, asked in order */
} Emitter;

/* A team: the threads of a pthd or omp detour, or the processes of an
 * mpi one, as the GPU target sees them when it prints the GPU side of
 * their work (binding, reservation, staging, the all-to-alls between
 * their GPUs).  The thread target describes its team; it never prints GPU
 * work itself.  Texts are C. */
typedef struct Team {
  const char *me;           /* who am I: the member's index in a copy ("pa_tid", "pa_rank") */
  const char *members;      /* what they are, in comments ("threads", "processes") */
  bool processes;           /* members have address spaces of their own */
  const char *check_extent; /* the run-time check of a copy's extents ("pa_check_copy_extent") */
  const char *one_node;     /* true when every member runs on one node */
  /* how many: the members of thread array t, as a whole argument */
  const char *(*count)(Emitter *e, Type *t);
  /* the index of the GPU a member of t binds, given the GPU target's
   * count of GPUs, visible set and reason for none (processes: their
   * rank among those of their node that see the same GPUs) */
  const char *(*gpu_index)(Emitter *e, Type *t, const char *gpus, const char *visible, const char *none,
                           const char *at);
  /* how members share a pointer (threads) or a value (processes, mine an
   * lvalue): an expression for every member's, indexed by member */
  const char *(*share)(Emitter *e, const char *mine, const char *at);
  /* a statement: every member waits for the others (processes; the
   * GPU target needs none between threads) */
  const char *(*wait)(Emitter *e, const char *at);
  /* the copy through the host: all of plan p (host_copy), or the rows
   * of a CopyPlan.rows plan without its frame (host_rows, processes) */
  void (*host_copy)(Emitter *e, Node *n, const CopyPlan *p);
  void (*host_rows)(Emitter *e, Node *n, const CopyPlan *p);
} Team;

/* A target.  An operation the target has no construct for is NULL; the
 * walk never picks it for one. */
typedef struct Backend {
  const char *name;
  const char *include;  /* the runtime header a program using it needs */
  /* Whether it translates a construct run by threads of kind `threads`
   * (TK_NONE: the host) on memory of kind `mem` (MEM_NONE: none involved),
   * in a program that uses a GPU (gpu_program) or not.  The first target of the list after
   * the first that takes a construct translates it; the list's first (host
   * C) translates what none takes, and has no takes. */
  bool (*takes)(ThreadKind threads, MemKind mem, bool gpu_program);
  bool (*needed)(const Ctx *ctx); /* its runtime header goes into the program */
  bool gpu;             /* its constructs run on a GPU */
  /* "#pragma parray WORDS" (words substituted in a subprogram, written as
   * in the source): false when the words are not its own; otherwise it
   * handles them, errors included.  pragma_words names them, quoted, for
   * the message about unknown words ("'min_blocks(K)', 'nowait'"). */
  bool (*pragma)(Emitter *e, Node *n, const char *words, const char *written);
  const char *pragma_words;
  /* #create / #destroy T(p) of data node d */
  void (*create)(Emitter *e, Node *n, Dim *d);
  void (*destroy)(Emitter *e, Node *n, Dim *d);
  /* after create: the GPU memory n created (now at p, bytes its block's
   * size) is distributed over `threads`, the thread array of the innermost
   * detour, which this target runs: what the copies among the blocks need
   * (peer access, buffers, the other processes' blocks mapped), made now,
   * off their path */
  void (*create_shared)(Emitter *e, Node *n, Type *threads, const char *p, const char *bytes);
  /* #copy, as planned (copy_plan.c) */
  void (*copy)(Emitter *e, Node *n, const CopyPlan *plan);
  /* #detour T(args) body: open checks it, writes what comes before the body
   * and returns the Detour the body is translated under (NULL after an
   * error); the walk translates the body into an Out starting at
   * dt->body_line; close writes the outlined function and the launch. */
  Detour *(*detour_open)(Emitter *e, Node *n, Type *t);
  void (*detour_close)(Emitter *e, Node *n, Detour *dt, Out *body);
  /* #sync, #sync_K in the innermost detour (e->detour) */
  void (*sync)(Emitter *e, Node *n);
  /* #mainhost body: open writes what precedes the body, close what follows */
  void (*main_open)(Emitter *e, Node *n);
  void (*main_close)(Emitter *e, Node *n);
  const Team *team;     /* a thread target: its team, for the GPU target */

  /* ---- a GPU target: the GPU side of a team's work ---- */
  const char *ipc;      /* its way to map another process's GPU memory, in words */
  /* in the outlined body of a member of t that does GPU work: bind its GPU */
  void (*team_bind)(Emitter *e, Loc loc, const Team *team, Type *t);
  /* before a launch of the threads of t that do GPU work */
  void (*team_launch)(Emitter *e, Node *n, const Team *team, Type *t);
  /* Backend.create_shared, for the team */
  void (*team_create)(Emitter *e, Node *n, const Team *team, Type *threads, const char *p, const char *bytes);
  /* a copy between the team's GPUs (CopyPlan.peer), or rows between host
   * memory and their blocks (CopyPlan.ipc_rows) */
  void (*team_copy)(Emitter *e, Node *n, const Team *team, const CopyPlan *p);
  /* staging a GPU block through host memory: the expression giving the
   * host copy of ptr's bytes (ptr "PA_NULL": not read first), and the
   * statement copying it back to ptr (or only freeing it) */
  const char *(*stage_out)(Emitter *e, const char *ptr, const char *bytes, const char *at);
  const char *(*stage_in)(Emitter *e, const char *ptr, const char *host, const char *bytes, const char *at);
} Backend;


/* The target for a construct run by threads of kind `threads` (TK_NONE:
 * the host) on memory of kind `mem` (MEM_NONE: no memory involved): the
 * first of the others that takes it, or else the list's first, host C. */
static inline const Backend *backend_for(Emitter *e, ThreadKind threads, MemKind mem)
{
  for (const Backend *const *b = e->targets + 1; *b; b++)
    if ((*b)->takes(threads, mem, e->gpu_program))
      return *b;
  return e->targets[0];
}

/* dt, or a detour around it, runs on a GPU: the code is a kernel's */
static inline bool backend_in_kernel(Emitter *e, Detour *dt)
{
  for (Detour *x = dt; x; x = x->parent)
    if (backend_for(e, x->type->kind, MEM_NONE)->gpu)
      return true;
  return false;
}

/* the team of the threads of kind k, as their target describes it */
static inline const Team *backend_team(Emitter *e, ThreadKind k)
{
  return backend_for(e, k, MEM_NONE)->team;
}

/* "FILE, LINE" of node n for the runtime's messages */
static inline const char *backend_at(Emitter *e, Node *n)
{
  return ctx_printf(e->ctx, "%s, %d", text_c_string(e->ctx, text_loc_file(e->ctx, n->loc)),
                    text_loc_line(e->ctx, n->loc));
}

/* what $tid$ means here: the innermost detour's view, or none */
static inline ThreadView *here(Emitter *e)
{
  return e->detour ? &e->detour->view : NULL;
}

/* a fragment's C text where the walk stands */
static inline char *frag_text(Emitter *e, Node *list)
{
  return dollar_fragment_text(e->ctx, here(e), list);
}

#endif
