/* emit.h: what the walk over the tree (emit.c) offers the backends
 * (emit_c.c, emit_cpu.c, emit_cuda.c, emit_mpi.c), and what each backend
 * offers the walk. */
#ifndef PARRAYC_EMIT_H
#define PARRAYC_EMIT_H

#include "parrayc.h"

/* Generated text and what the C compiler will believe is its source line. */
typedef struct Out {
  Buf b;
  int line;     /* source line of the current output line, -1 if unknown */
  int gen_line; /* the directive whose generated code is being written */
} Out;

/* A detour being translated: the innermost one answers $tid$ and #sync. */
typedef struct Detour {
  Node *node;
  Type *type;
  struct Detour *parent;
  const char *name;    /* of the outlined function */
  /* the index of thread-array node d for the calling thread (d == root:
   * the linear $tid$) */
  Poly *(*tid)(Emitter *e, struct Detour *dt, Dim *d);
  const char *tid_var; /* the linear thread index variable, if any */
  int indent;
  int min_blocks;      /* #pragma parray min_blocks(K) in the body; 0: none */
} Detour;

typedef struct Scope {
  struct Scope *parent;
  Buf text;            /* the C text seen so far at this level */
  char *header;        /* the statement before this block's '{' */
  Map names;           /* names declared by #create or as parameters */
  Map declared;        /* names declared in text[0, scanned) */
  size_t scanned;      /* text is read for declarations once, statement by statement */
  bool file_scope;
  bool function;       /* a function or detour body starts here */
} Scope;

struct Emitter {
  Ctx *ctx;
  Out *out;            /* where text goes now */
  Out hoist;           /* file-scope code for before the current top-level item */
  Detour *detour;
  Scope *scope;
  int function_depth;  /* > 0 inside a function body or #mainhost */
  bool cuda;           /* the output is CUDA C++ */
  bool mpi;
  int temp;            /* counter for generated names */
  int mpi_detours;     /* numbers the mpi detours of the program */
};

/* ---- output ---- */
void out_src(Emitter *e, const char *text, Loc loc);
void out_gen(Emitter *e, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void out_append(Out *dst, Out *src);
void out_free(Out *o);
/* the indentation of a directive line, for the code that replaces it */
const char *indent_of(Node *n);

/* ---- walking ---- */
void emit_nodes(Emitter *e, Node *list);
/* Translates a detour's body into o, as the body of a function that starts
 * a new scope with the given parameter names visible. */
void emit_outlined(Emitter *e, Detour *dt, Node *body, Out *o, char **params, int nparams, const char *indent);
void scope_declare(Emitter *e, const char *name);
void scope_free(Scope *s);
bool name_declared(Emitter *e, const char *name);
Dim *resolve_node(Emitter *e, const char *path, Loc loc);
char *dollar_text(Emitter *e, Node *n);
char *poly_text(Emitter *e, Poly *p);   /* parenthesised C expression */
Poly *tid_linear(Emitter *e, Detour *dt, Dim *d); /* the default $tid_K$ */

/* ---- helpers the backends share ---- */
char *c_string(Ctx *ctx, const char *s);   /* a C string literal of s */
char *bare(Ctx *ctx, char *s);             /* "(4)" -> "4" */
bool mentions(const char *text, const char *name); /* uses identifier name */
/* "pa_detour_T_L12" (with the #insert instance, "_in3", where there is one) */
char *detour_name(Emitter *e, const char *prefix, Node *n, Type *t);
char *tidy_body(Ctx *ctx, const char *text);        /* drop the '{' line's rest */
char *dedent_body(Ctx *ctx, const char *text, size_t k); /* shift left by k */
const char *mem_enum(MemKind m);                    /* "PA_PAGED", ... */
/* the body of a CPU or MPI detour, translated for its outlined function */
char *outline_detour(Emitter *e, Node *n, Type *t, const char *fname, const char *tid_var);

/* ---- emit_c.c: host C ---- */
void emit_c_create(Emitter *e, Node *n, Dim *d);
void emit_c_destroy(Emitter *e, Node *n, Dim *d);
void emit_c_copy(Emitter *e, Node *n, Dim *src, Dim *dst);
/* a copy done by the calling thread, element by element (inside detours
 * and between host layouts); unroll: the CUDA pragma for small extents */
void emit_copy_loop(Emitter *e, Node *n, Dim *src, const char *sp, Dim *dst, const char *dp, bool unroll);
void emit_main_body(Emitter *e, Node *n);
void emit_c_main(Emitter *e, Node *n);
void emit_c_detour_unsupported(Emitter *e, Node *n, Type *t);

/* ---- emit_cpu.c: pthd and omp thread arrays ---- */
void emit_cpu_detour(Emitter *e, Node *n, Type *t);
void emit_cpu_sync(Emitter *e, Node *n);

/* ---- emit_cuda.c: cuda thread arrays and GPU memory ---- */
void emit_cuda_detour(Emitter *e, Node *n, Type *t);
void emit_cuda_sync(Emitter *e, Node *n);
void emit_cuda_create(Emitter *e, Node *n, Dim *d);
void emit_cuda_destroy(Emitter *e, Node *n, Dim *d);
void emit_cuda_copy(Emitter *e, Node *n, Dim *src, Dim *dst);

/* ---- emit_mpi.c: mpi process arrays and distributed data ---- */
void emit_mpi_detour(Emitter *e, Node *n, Type *t);
void emit_mpi_sync(Emitter *e, Node *n);
void emit_mpi_copy(Emitter *e, Node *n, Dim *src, Dim *dst);
void emit_mpi_main(Emitter *e, Node *n);

#endif
