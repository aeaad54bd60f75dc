/* backend.h: the one interface between the walk (emit/emit.c) and the
 * targets.  Each target implements the operations of a Backend in its own
 * file of targets/ (c.c, cpu.c, cuda.c, mpi.c); the driver hands the walk
 * the list of them (targets/all.c), and the walk asks each in turn whether
 * it takes a construct (pick_backend in emit.c): it never names a target.
 * Targets never call each other: what two of them print alike lives in
 * emit/hostc.c. */
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
  bool cuda;           /* the output is CUDA C++ */
  bool mpi;
  int mpi_detours;     /* numbers the mpi detours of the program */
  Node *mainhost;      /* the program's #mainhost, once seen */
  const char *insert_indent; /* inside an #insert: its indentation (emit_insert) */
  Detour *insert_detour;     /* the detour the #insert stands in */
  struct CopyKernel *copy_kernels; /* the CUDA copy kernels written so far (emit/kernels.c) */
  const struct Backend *const *targets; /* NULL-terminated, asked in order */
} Emitter;

/* A target.  An operation the target has no construct for is NULL; the
 * walk never picks it for one. */
typedef struct Backend {
  const char *name;
  const char *include;  /* the runtime header a program using it needs */
  /* Whether it translates a construct run by threads of kind `threads`
   * (TK_NONE: the host) on memory of kind `mem` (MEM_NONE: none involved),
   * in a CUDA program (cuda) or not.  The first target of the list after
   * the first that takes a construct translates it; the list's first (host
   * C) translates what none takes, and has no takes. */
  bool (*takes)(ThreadKind threads, MemKind mem, bool cuda);
  bool (*needed)(const Ctx *ctx); /* its runtime header goes into the program */
  bool gpu;             /* its constructs run on a GPU */
  /* "#pragma parray WORDS" (words substituted in a subprogram, written as
   * in the source): false when the words are not its own; otherwise it
   * handles them, errors included.  pragma_words names them for the
   * message about unknown words ("min_blocks(K)"). */
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
} Backend;


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
