/* parrayc.h: the data model of parrayc, shared by every stage.
 *
 * The layers, one folder each, bottom up (doc/internals.md draws them):
 *   root      this header, util.c, ctext.c (the one reader of C text),
 *             diag.c and diag_log.c (diagnostics);
 *   front/    include.c, lexer.l and parser.y: a syntax tree of Nodes (C
 *             text kept as text, Parray constructs as nodes);
 *   model/    types.c (#parray declarations as dimension trees, every
 *             question about offsets), expr.c (offset polynomials),
 *             dollar.c (C fragments and $...$ as C text), copy_plan.c (how
 *             each #copy moves its elements), launch.c (the launch rule of a
 *             cuda thread array and the GPU's numbers), ceval.c, macros.c,
 *             branches.c.  The model knows nothing of the printer: what it
 *             needs from the detour being translated comes as plain data
 *             (ThreadView);
 *   print/    text.c (output, #line, names), scope.c (names the C text
 *             declares), capture.c (the caller's locals a body uses);
 *   emit/     emit.c walks the tree and hands each construct to the target
 *             backend_for chooses through one interface (backend.h);
 *             hostc.c holds what targets print alike;
 *   targets/  c.c, cpu.c, mpi.c and the GPU target's folder cuda/ (cuda.c,
 *             team.c: a team's GPU work, kernels.c: the copy kernels),
 *             listed in all.c; they never call each other;
 *   explain/  --explain and --explain-access;
 * and the command: driver.c, main.c.  All state lives in one Ctx per
 * compilation. */
#ifndef PARRAYC_H
#define PARRAYC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct Ctx Ctx;
typedef struct Node Node;
typedef struct Index Index;
typedef struct DimSyn DimSyn;
typedef struct Dim Dim;
typedef struct Type Type;
typedef struct Poly Poly;
typedef struct Atom Atom;
typedef struct Buf Buf;
typedef struct Access Access;
typedef struct SizeFact SizeFact;

typedef struct Loc {
  int line, col; /* 1-based; line 0 means "no location" */
} Loc;

/* ---- util.c: arena, strings, growable buffers ---- */
void *ctx_alloc(Ctx *ctx, size_t size);          /* zeroed, freed with the ctx */
/* items, an arena array of n of size bytes each, with room for one more: doubled into
   a new block (8 at first) where n has reached *cap */
void *ctx_grow(Ctx *ctx, void *items, int n, int *cap, size_t size);
char *ctx_strdup(Ctx *ctx, const char *s);
char *ctx_strndup(Ctx *ctx, const char *s, size_t n);
char *ctx_kept_strdup(Ctx *ctx, const char *s); /* in the arena, also in a scratch region */
char *ctx_printf(Ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Scratch: from ctx_scratch_begin to ctx_scratch_end, ctx_alloc takes
 * from a second arena, and the end of the outermost region gives back all
 * it took there, unless the region was kept: code that makes something of
 * the region reachable from outside it (an interned atom, a memo, a list
 * of ctx) calls ctx_keep.  So the memory of a $...$ does not outlive its
 * translation, and what must stays.  Built with AddressSanitizer, each
 * scratch allocation is its own block, freed at once, so that a pointer
 * kept without ctx_keep is reported at its first use. */
typedef struct ScratchMark {
  struct Arena *block;
  size_t used;
  unsigned long kept;
} ScratchMark;
ScratchMark ctx_scratch_begin(Ctx *ctx);
void ctx_scratch_end(Ctx *ctx, ScratchMark m);
void ctx_keep(Ctx *ctx);

/* A growable string.  ctx: the translation it serves, where running out
 * of memory is reported (NULL: without a place): Buf b = {.ctx = ctx}. */
struct Buf {
  char *data;
  size_t len, cap;
  const Ctx *ctx;
};
void buf_putc(Buf *b, char c);
void buf_puts(Buf *b, const char *s);
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
void buf_free(Buf *b);
char *buf_detach(Buf *b); /* NUL-terminated, malloc'd; b is reset */
/* The whole file ("-": standard input), NUL-terminated, malloc'd; NULL
 * when it cannot be read (errno says why). */
char *util_file_read(const char *path, size_t *len);
/* malloc and realloc that end translation ctx (NULL: none yet) when
 * memory runs out, saying where */
void *util_malloc(const Ctx *ctx, size_t n);
void *util_realloc(const Ctx *ctx, void *p, size_t n);

/* A hash table of pointers.  The caller hashes its key and says which of
 * the items with that hash is the one it wants; items are never removed. */
typedef struct Map {
  struct MapSlot *slots;
  size_t cap, n;
} Map;
typedef bool MapMatch(const void *item, const void *key);
void *map_get(const Map *m, unsigned long hash, MapMatch *match, const void *key);
void map_put(const Ctx *ctx, Map *m, unsigned long hash, void *item); /* ctx: as util_malloc's */
void map_free(Map *m);
/* a map of pointers that are their own keys: the hash of one, and the match */
unsigned long map_ptr_hash(const void *p);
bool map_is_key(const void *item, const void *key);
#define HASH_SEED 14695981039346656037ul
unsigned long util_hash_str(const char *s, unsigned long h); /* h: HASH_SEED or a running hash */

bool util_is_ident_start(int c);
bool util_is_ident_char(int c);
char *util_str_trim(Ctx *ctx, const char *s); /* copy without leading/trailing blanks */
bool util_text_is_simple(const char *s);       /* an identifier or a number */
/* s as an operand of a cast or an operator: parenthesised unless simple */
char *util_text_operand(Ctx *ctx, const char *s);
/* s as the left operand of '+': parenthesised when an operator of lower
 * precedence stands at its top level ("f ? p : q", "p = q", "a, b") */
char *ctext_sum_operand(Ctx *ctx, const char *s); /* ctext.c */
bool ctext_has_side_effects(const char *s); /* ctext.c */
int util_edit_distance(const char *a, const char *b, int limit); /* at most limit + 1 */
/* the word of words (NULL-terminated) within edit distance 2 of w, or NULL */
const char *util_nearest_word(const char *w, const char *const *words);

/* ---- diag.c: every message goes through here ---- */
/* The kinds of warning, each named as gcc names its own: -Wreshape,
 * -Wno-reshape, -Werror=reshape; the name is in the text ([-Wreshape]),
 * in the JSON (option) and in the SARIF (ruleId).  diag.c has the names. */
typedef enum Warn {
  WARN_SIZE_REFERENCE,      /* [B_1]: a size that names a type path */
  WARN_THREAD_EXTENT,       /* $tid$ takes more or fewer values than it indexes */
  WARN_RESHAPE,             /* #copy between two shapes */
  WARN_UNUSED_ARGUMENT,     /* an option the compiler of the program does not take */
  NWARN
} Warn;
/* -Wno-NAME (off), -Werror=NAME (error), -Wno-error=NAME (noerror): one
 * bit a kind; -w and -Werror are Options' no_warnings and werror. */
typedef struct WarnFlags {
  unsigned off, error, noerror;
} WarnFlags;
const char *diag_warn_name(Warn w);       /* "reshape" */
int diag_warn_find(const char *name);      /* the Warn named, -1: none */
/* How a warning of kind w is reported: NULL (not at all), "warning" or
 * "error"; *option its option as gcc writes it (-Wreshape, -Werror=reshape). */
const char *diag_warn_kind(bool none, bool all_errors, WarnFlags f, Warn w, char option[64]);

/* Diagnostics kept for -fdiagnostics-format=json/sarif instead of printed
 * (Options.log): each with its file, line and column (0: none) and the
 * option that names it (NULL: none); a note belongs to the last error or
 * warning before it (parent, -1: none). */
typedef struct DiagRec {
  char kind[16];          /* error, warning, note */
  char *file, *msg, *option;
  int line, col, parent;
} DiagRec;
typedef struct DiagLog {
  DiagRec *v;
  int n, cap;
} DiagLog;
void diag_log_add(DiagLog *log, const char *kind, const char *file, int line, int col, const char *msg,
                  const char *option);
void diag_log_append(DiagLog *to, const DiagLog *from); /* copies of from's records */
bool diag_log_has_error(const DiagLog *log);
void diag_log_json(const DiagLog *log, FILE *f);   /* gcc's -fdiagnostics-format=json */
/* SARIF 2.1.0: one run of the tool parrayc VERSION over the inputs, its
 * executionSuccessful `ok`; artifacts: the inputs, then the files named */
void diag_log_sarif(const DiagLog *log, const char *const *inputs, int n, const char *version, bool ok, FILE *f);
void diag_log_free(DiagLog *log);
void diag_error(Ctx *ctx, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_note(Ctx *ctx, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A warning of kind w: nothing when it is off (-w, -Wno-NAME), an error
 * when -Werror or -Werror=NAME makes it one. */
void diag_warning(Ctx *ctx, Warn w, Loc loc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ---- the syntax tree ---- */
typedef enum NodeKind {
  N_TEXT,     /* C text, copied through: text */
  N_BLOCK,    /* { body }: braces of the C text */
  N_DOLLAR,   /* $...$: dx */
  N_PARRAY,   /* #parray { words (params) dims } name */
  N_CREATE,   /* #create name(args[0]) */
  N_DESTROY,  /* #destroy name(args[0]) */
  N_COPY,     /* #copy name(args[0]) to name2(args[1]) */
  N_DETOUR,   /* #detour name(args...) body */
  N_SYNC,     /* #sync, #sync{}, #sync_K: name is "" or "_K" */
  N_MAINHOST, /* #mainhost body */
  N_GLOBAL,   /* #global body */
  N_SUBPROG,  /* #subprog name(params) body #end */
  N_INSERT,   /* #insert name(args) */
} NodeKind;

/* A $...$ expression. */
typedef enum DxKind {
  DX_INDEX, /* $T$ or $T[..]..$: path, index */
  DX_DIM,   /* $dim(T)$, $dim_K(T)$, $size(..)$: path (suffix already appended) */
  DX_CNT,   /* $cnt(T)$ */
  DX_RUN,   /* $run(T)$ */
  DX_TID,   /* $tid$, $tid_K$: path is "tid" or "tid_K" */
} DxKind;

typedef struct Dx {
  DxKind kind;
  char *path;
  Loc path_loc;
  Index *index; /* DX_INDEX: the top-level bracket list, or NULL */
} Dx;

/* An index: one C expression (expr, a list of N_TEXT/N_DOLLAR nodes) or a
 * bracketed list of entries (items). */
struct Index {
  Node *expr;
  Index **items;
  int nitems;
  Loc loc;
};

/* One [...] of a #parray declaration before resolution. */
struct DimSyn {
  Node *size;     /* C text of the size, or NULL */
  char *ref;      /* path after '#', or NULL */
  Loc ref_loc;
  DimSyn **kids;  /* nested dimensions */
  int nkids;
  Loc loc;
};

/* How the output makes sure the C compiler takes the branches of an #if
 * group that parrayc took (model/branches.c). */
typedef enum BranchGuard {
  GUARD_NONE,
  GUARD_DEAD, /* after this branch's line: an #error, parrayc left its constructs out */
  GUARD_ELSE, /* before this #endif: #else and an #error, parrayc took an earlier branch */
} BranchGuard;

/* A node of the syntax tree.  C text and $...$ (N_TEXT, N_DOLLAR) are
 * most of a program's nodes: node_new gives them only the fields up to
 * NODE_TEXT_END, those every walk reads; the rest are a directive's. */
struct Node {
  NodeKind kind;
  Loc loc;
  Node *next;
  char *text;    /* N_TEXT: the text; directives: leading indentation */
  Node *body;    /* N_BLOCK, N_DETOUR, N_MAINHOST, N_GLOBAL, N_SUBPROG */
  Dx *dx;        /* N_DOLLAR; NULL: only where it is (dollar_end), parse_dollar reads it */
  bool failed;   /* a directive that did not parse, or misspelt (reported): its own checks say nothing more */
  /* #if groups (model/branches.c) */
  bool dead;     /* in a branch parrayc takes for not taken: a Parray construct is left out */
  bool declares; /* an #if line: its group declares a type, subprogram or main */
  BranchGuard guard; /* a conditional line: the #error the output puts with it */
  union {
    Loc guard_at;   /* the branch that #error names */
    Loc dollar_end; /* N_DOLLAR: just after its closing '$' */
  };
  /* NODE_TEXT_END: a directive's fields */
  char *out_indent; /* directives: the indentation of their output when not
                     * text's (inside an #insert: the #insert's plus text) */
  char *name;    /* type, subprogram or sync suffix */
  Loc name_loc;
  char *name2;   /* #copy destination type */
  Loc name2_loc;
  Node **args;   /* argument list: each a list of N_TEXT/N_DOLLAR nodes */
  int nargs;
  bool has_args; /* parentheses were written */
  bool has_params;
  Loc end_loc;   /* closing brace of a body */
  /* N_PARRAY */
  char **words;  /* memory, element type or thread kind words */
  int nwords;
  int ndims;
  Node *params;  /* thread-array parameter list text, or NULL */
  DimSyn **dims;
};
#define NODE_TEXT_END offsetof(Node, out_indent)

Node *node_new(Ctx *ctx, NodeKind kind, Loc loc);

/* ---- offset expressions (expr.c) ----
 * A Poly is a sum of terms, each an integer coefficient times a product of
 * atoms.  Atoms are interned, so equal atoms are the same pointer. */
typedef enum AtomKind {
  A_SYM, /* a size only the C compiler knows: text */
  A_VAR, /* an index expression: text, exclusive bound */
  A_DIV, /* num / den, floor division of non-negative values */
  A_MOD, /* num % den */
} AtomKind;

struct Atom {
  AtomKind kind;
  int id;        /* creation order: sorts factors */
  char *text;    /* A_SYM, A_VAR */
  Poly *bound;   /* A_VAR: the index is assumed in [0, bound) */
  Poly *num, *den;
  Poly *quot;    /* A_MOD: num / den, once fold_divmod_pair has asked */
  long long ops; /* A_DIV, A_MOD: the operations its C text spells out (expr.c's poly_ops) */
  int slot;      /* A_VAR: >= 0 when printed through a temporary */
  bool printed;  /* A_VAR: in the text of a nested $...$ already printed (its effects are there, once) */
  bool runtime;  /* A_SYM: names a variable (not only macros and literals):
                    its value may pass 2^31, offsets with it are 64-bit */
  bool known;    /* A_SYM of macros and literals: value is theirs (-D, #define) */
  long long value;
  Atom *next;    /* ctx list of atoms */
};

typedef struct Term {
  long long coef;
  int nf;
  Atom **f; /* sorted by id */
} Term;

struct Poly {
  int n;
  Term *t;
};

Poly *poly_const(Ctx *ctx, long long c);
Poly *poly_sym(Ctx *ctx, const char *text);
/* a size written as C text: a symbol, 64-bit in offsets when it names a
 * variable (not only macros, -D'd or #define'd in the program) */
Poly *poly_size(Ctx *ctx, const char *text);
/* p for people (--explain): as poly_str, without the casts that only a
 * run-time size needs */
char *poly_math(Ctx *ctx, const Poly *p);
/* the C type of a loop index over [0, extent): int where it fits */
const char *index_type(const Poly *extent);
Poly *poly_var(Ctx *ctx, const char *text, Poly *bound);
Poly *poly_add(Ctx *ctx, Poly *a, Poly *b);
Poly *poly_sub(Ctx *ctx, Poly *a, Poly *b);
Poly *poly_mul(Ctx *ctx, Poly *a, Poly *b);
Poly *poly_div(Ctx *ctx, Poly *a, Poly *b);
Poly *poly_mod(Ctx *ctx, Poly *a, Poly *b);
Poly *poly_scale(Ctx *ctx, Poly *a, long long c);
bool poly_is_const(const Poly *p, long long *value);
bool poly_is_value(const Poly *p, long long value); /* the constant value */
bool poly_equal(const Poly *a, const Poly *b);
/* The one rule for run-time extent checks: two extents may differ at run
 * time when they are not the same polynomial and not both constants (those
 * are compared at compile time). */
bool poly_extents_may_differ(const Poly *a, const Poly *b);
bool poly_provably_less(Ctx *ctx, Poly *a, Poly *b); /* a < b for every value */
/* p's value from constants and the macros' values (-D, #define): false
 * when some size has none (a variable, a macro parrayc cannot evaluate) */
bool poly_known_value(const Poly *p, long long *value);
bool poly_names_variable(const Poly *p); /* some size in p is known at run time only */
Poly *poly_max(Ctx *ctx, Poly *p); /* an upper bound (inclusive) */
/* The one evaluator: p's value, each size or index (A_SYM, A_VAR) given
 * by leaf, divisions and remainders computed; false when leaf gives an
 * atom none, a divisor is not positive or the value overflows. */
typedef bool (*PolyLeaf)(void *arg, const Atom *a, long long *out);
bool poly_value(const Poly *p, PolyLeaf leaf, void *arg, long long *out);
/* p's value at var = value (var its only atom with one) */
bool poly_eval(const Poly *p, Atom *var, long long value, long long *out);
/* The one walk: how many times p uses atom a, inside divisions and
 * remainders too (0: p does not depend on it) */
int poly_count_atom(const Poly *p, const Atom *a);
bool poly_fits_int(const Poly *p); /* every constant fits in int */
void poly_print(Buf *b, const Poly *p, bool wide);
/* C text converted to long long ("n * n": "(long long)n * (long long)n"),
 * in parentheses when paren says it is an operand */
void print_wide_text(Buf *b, const char *text, bool paren);
/* Is size atom a written as more than a name and not known to fit int
 * ("n * n", "m.rows * m.cols", "N * N" of N 70000), so that C computing
 * it in int may overflow: printed with print_wide_text? */
bool poly_size_overflows(const Atom *a);
bool poly_is_atom(const Poly *p);    /* prints as one primary expression */
char *poly_str(Ctx *ctx, const Poly *p);

/* ---- what the innermost detour means to the model (dollar.c) ----
 * Plain data the walk hands to the model: the thread array, the nodes whose
 * index is known directly (searched from a node upwards), and what the
 * body tells about itself as it is translated: every index handed out (the
 * GPU target declares the thread indices the body used) and the data
 * types it uses (their extents are checked at the launch). */
typedef struct KnownIndex {
  Dim *node;
  Poly *index;         /* or NULL: the variable var, bounded by node's extent */
  const char *var;
} KnownIndex;

typedef struct ThreadView {
  Type *type;          /* the thread array of the innermost detour */
  Node *node;          /* the #detour */
  struct ThreadView *parent; /* of the enclosing detour, or NULL */
  KnownIndex *known;
  int nknown;
  const char *grid;    /* non-NULL: a node without a known ancestor is an error
                          ("cannot map onto <grid>"); NULL: digits of known[0] */
  Loc loc;             /* where that error is reported */
  Poly **given;        /* the indices handed out, in order */
  int ngiven, given_cap;
  Type **used;         /* data types the body uses, checked at the launch */
  int nused;
} ThreadView;

/* ---- the type model (types.c) ---- */
typedef enum MemKind { MEM_NONE, MEM_PAGED, MEM_PINNED, MEM_DMEM, MEM_SMEM, MEM_RMEM } MemKind;
typedef enum ThreadKind { TK_NONE, TK_PTHD, TK_OMP, TK_CUDA, TK_MPI } ThreadKind;
typedef enum RefKind { REF_NONE, REF_FULL, REF_SIZED, REF_SPLIT } RefKind;

struct Dim {
  Type *type;      /* the type whose tree holds this node */
  Dim *parent;
  int index;       /* among the parent's children */
  Dim **kids;      /* own children; a REF_FULL node imports its target's */
  int nkids;
  RefKind ref_kind;
  Dim *ref;
  Poly *size;      /* written size of a leaf or of [n #R] */
  bool divides;    /* the size is written with a division (N/16): a tile count */
  Poly *extent;
  Poly *local;     /* the room it takes in its process's layout, once asked (types.c) */
  Loc loc;
  char *path;      /* "A_0_1" */
};

struct Type {
  char *name;        /* as written */
  char *cname;       /* unique in the generated code (private subprogram types) */
  MemKind mem;
  ThreadKind kind;
  char *elem;        /* element C type, NULL for thread arrays */
  Node *params;      /* parameter text of a thread array */
  char **pnames;     /* parameter names, in order */
  char **ptypes;     /* parameter declarations ("float *a") */
  int nparams;
  Dim *root;
  int ref_depth;     /* 1 + the longest chain of types its references lead through */
  Loc loc;
  int scope;         /* 0 file-wide, else the #insert instance */
  Node *detour;      /* the innermost detour whose body declares it, or NULL */
  Type *next;
};

/* here: the innermost detour's thread view for $tid$ in sizes, or NULL */
Type *type_declare(Ctx *ctx, ThreadView *here, Node *decl);
Type *type_lookup(Ctx *ctx, const char *name);
/* name's declaration failed (reported): its uses report nothing more */
/* Resolves "A_1_0" (or a subprogram parameter bound to a path); reports
 * errors at loc and returns NULL when it cannot. */
Dim *dim_resolve(Ctx *ctx, const char *path, Loc loc);
int dim_nkids(const Dim *d);
Dim *dim_kid(const Dim *d, int k);
Poly *dim_extent(const Dim *d);
Poly *dim_offset(Ctx *ctx, Dim *d, Poly *i);        /* off_d(i) */
Poly *dim_span(Ctx *ctx, Dim *d);                   /* 1 + max offset */
int dim_contiguous(Ctx *ctx, Dim *d, char **cexpr); /* 1, 0, or -1 with a C expression */
/* r where off_d(i) = off_d(0) + (i / r) S + (i % r) s for every i, or NULL */
Poly *dim_run(Ctx *ctx, Dim *d);
Poly *dim_index_of(Ctx *ctx, Dim *root, Dim *d, Poly *linear); /* digit of d in linear */
/* W(d, a): the product of the extents of the leaves after d's subtree
 * within a's subtree (a the root: d's place value) */
Poly *dim_weight(Ctx *ctx, Dim *d, Dim *a);
/* Offsets of an index (SPEC 2.5); NULL after reporting an error. */
Poly *dim_eval(Ctx *ctx, Dim *d, Index *ix, ThreadView *here);
/* A strided view: off(i) = sum stride_k * digit_k(i), digits in mixed radix. */
typedef struct Stride {
  Poly *extent, *stride;
} Stride;
bool dim_strides(Ctx *ctx, Dim *d, Stride **out, int *n);
/* How a copy walks two layouts: digits of one common mixed radix, each
 * with its stride on the source (s) and on the destination (d). */
typedef struct CopyDigit {
  Poly *extent, *s, *d;
} CopyDigit;
/* The common refinement of two strided views, outermost digit first, with
 * neighbours contiguous on both sides merged; false when they do not line
 * up. */
bool dim_copy_digits(Ctx *ctx, Dim *src, Dim *dst, CopyDigit **out, int *n);
/* A relation of sizes parrayc cannot decide, taken on as a run-time
 * condition: a == b, or b divides a. */
typedef struct CopyCond {
  Poly *a, *b;
  bool equal;
} CopyCond;
enum { COPY_MAX_CONDITIONS = 4 };
/* dim_copy_digits where the digits line up only under such conditions
 * (N divisible by 32 for [N] against [[N/32][32]]): the digits under the
 * fewest (*cond, *ncond; none when the digits line up anyway). */
bool dim_copy_digits_if(Ctx *ctx, Dim *src, Dim *dst, CopyDigit **out, int *n, CopyCond **cond, int *ncond);
Type *dim_thread_type(const Ctx *ctx, Dim *d); /* the thread array a data node references, or NULL */
/* Does data node n select the process (mpi) or the thread's GPU (dmem over
 * pthd or omp) that stores its elements?  (SPEC 6.3, 6.5) */
bool dim_selects_process(const Dim *n);
Dim *dim_process_selector(Dim *n);
/* For such a selector: the thread array, the node of it whose offsets the
 * selector's digits follow, and the process index a digit contributes. */
Type *dim_process_array(const Dim *sel);
Dim *dim_process_node(const Dim *sel);
Poly *dim_process_index(Ctx *ctx, Dim *sel, Poly *digit);
/* The thread array data node d is distributed over, or NULL. */
Type *dim_distributed_over(const Ctx *ctx, Dim *d);
/* An extent relation parrayc cannot decide, because sizes are symbols: a
 * split d whose sizes divide (a tiling) must have exactly d->ref's extent
 * (exact); other splits and sized references at most that. */
typedef struct ExtentCheck {
  Dim *d;
  Poly *have, *want;
  bool exact;
} ExtentCheck;
/* The checks of t's own nodes, to be made at run time. */
int type_extent_checks(Ctx *ctx, Type *t, ExtentCheck **out);
const char *type_mem_name(MemKind m);
int type_elem_bytes(const char *elem); /* bytes of a named element type, 0 when unknown */
const char *type_kind_name(ThreadKind k);
bool type_path_split(const char *path, char **base, int **digits, int *ndigits, Ctx *ctx);

/* ---- C fragments as C text (dollar.c) ---- */
void view_known(Ctx *ctx, ThreadView *v, Dim *node, Poly *index, const char *var);
Poly *view_index(Ctx *ctx, ThreadView *v, Dim *d); /* $tid_K$ of node d */
/* the body of v's detour uses type t (nothing for thread arrays, or v NULL) */
void view_note_used(Ctx *ctx, ThreadView *v, Type *t);
/* is a declared outside the body of v's detour and of those around it
 * (v NULL: anywhere but in a detour body)? */
bool view_type_outside(const Type *a, const ThreadView *v);
char *dollar_poly_text(Ctx *ctx, Poly *p);               /* parenthesised C expression */
/* the same where the text around makes it whole: an index, an argument,
 * a right-hand side, a condition (no outer parentheses) */
char *dollar_poly_whole(Ctx *ctx, Poly *p);
char *dollar_text(Ctx *ctx, ThreadView *here, Node *n);
/* C text with the parameters of the current #insert replaced */
char *dollar_substitute(Ctx *ctx, const char *text);
/* The C text of a fragment (N_TEXT and N_DOLLAR nodes), $...$ translated and
 * subprogram parameters replaced. */
char *dollar_fragment_text(Ctx *ctx, ThreadView *here, Node *list);

/* ---- subprograms (expanded by the walk, emit.c) ---- */
typedef struct Subprog {
  Node *node;
} Subprog;

/* A binding of subprogram parameters for one #insert. */
typedef struct Instance {
  int id;
  Node *insert;
  char **names;
  char **values;  /* argument C text, expanded where the #insert stands */
  char **written; /* argument as written: a type path is resolved from it,
                   * where the #insert stands */
  int n;
  struct Instance *parent;
} Instance;

/* ---- the compilation context ---- */
typedef struct Options {
  const char *input;      /* path as given */
  const char *display;    /* name used in messages and #line */
  bool line_directives;
  const char *explain;    /* --explain TYPE */
  const char *explain_format; /* --format=text|svg|html; NULL: text */
  /* -D NAME or NAME=VALUE: those in effect after the command line's -D
   * and -U in order (-DX -UX: none; -DX=1 -DX=2: X=2), in that order */
  const char *const *defines;
  int ndefines;
  bool deps_missing;      /* -MG: a C header not found is listed for -M all the same */
  int error_limit;        /* stop after this many errors; 0: no limit */
  bool no_warnings;       /* -w */
  bool werror;            /* -Werror: warnings count as errors */
  WarnFlags warn;         /* -Wno-NAME, -Werror=NAME, -Wno-error=NAME */
  bool color;             /* -fdiagnostics-color: ANSI colours in messages */
  const char **include_dirs; /* -I: where #include "NAME.pah" is searched */
  int ninclude_dirs;
  int access_line;        /* --explain-access FILE:LINE: the line; 0: none */
  DiagLog *log;           /* non-NULL: diagnostics go here, not to stderr */
  bool thread_map;        /* --thread-map: --explain-access draws who touches what */
} Options;

/* Line `line` of the spliced source and those after it, up to the next
 * segment, are lines `file_line`... of `file` (include.c). */
typedef struct SrcSeg {
  int line;
  const char *file;
  int file_line;
} SrcSeg;

struct Ctx {
  Options opt;
  const char *src;        /* the whole input, NUL-terminated */
  size_t src_len;
  const char **lines;     /* start of each line */
  int nlines;
  int errors;
  int warnings;
  bool stopped;           /* the error limit was reached: report nothing more */
  /* the last errors reported (line and message hash): the same error again
   * on the same line is one cause, said once; its notes go with it */
  unsigned long recent[16];
  int nrecent;
  bool repeating;         /* the last error was such a repeat */
  int muted;              /* > 0: the checks of a directive whose error was said (Node.failed): report nothing */
  Type *poisoned;         /* names whose declaration failed (or that are undefined):
                             their uses report nothing more */
  Node *tree;
  Type *types;            /* declared types, newest first */
  Map type_map;           /* the same, by scope and name */
  Map subprogs;           /* the #subprog definitions by name (Subprog) */
  Instance *instance;     /* innermost #insert being expanded */
  int ninstances;
  Atom *atoms;
  int natoms;
  Map atom_map;           /* atoms by kind and operands (expr.c interns them) */
  Map macros;             /* the #define's of src by name (model/macros.c, read once) */
  bool macros_read;
  bool function_macros;   /* some #define has parameters */
  Poly *small_consts[18]; /* poly_const(-1 .. 16), made once: Polys are never changed */
  bool uses_gpu, uses_mpi, uses_pthd, uses_omp;
  SrcSeg *segs;           /* where each line of src came from; NULL: all opt.display */
  int nsegs;
  const char **deps;      /* files read for this input, for -M (include.c) */
  int ndeps;
  SizeFact *facts;        /* sizes compared at the values parrayc has for their macros, in order */
  Access *accesses;       /* --explain-access: what the walk met on its line */
  Access **accesses_tail; /* where the next one goes */
  /* The C text of a fragment holding $...$ (dollar.c's dollar_fragment_text, which
   * the walk attaches): the type model needs it for sizes, parameters and
   * indices, and lies below the translator of $...$. */
  char *(*fragment_text)(Ctx *ctx, ThreadView *here, Node *list);
  struct Arena *arena;
  struct Arena *scratch;  /* util.c's ctx_scratch_begin */
  int scratch_depth;      /* > 0: ctx_alloc takes from scratch */
  unsigned long kept;     /* ctx_keep's count */
  /* where running out of memory is reported: the construct the walk is
   * translating, else the token the parser last read */
  const Node *walking;
  Loc reading;
};

/* A comparison of sizes written with macros that parrayc decided at the
 * values it has for them (-D, #define): `less < than`, for the type of
 * `at`.  The output asserts it, so that a C compiler given other values
 * stops at compile time instead of running code laid out for these. */
struct SizeFact {
  Poly *less, *than;
  Dim *at;
  SizeFact *next;
};

/* An access $T[...]$ on the line --explain-access asks about, as the walk
 * met it (dollar.c notes it; explain/access.c draws it). */
struct Access {
  Loc loc;             /* of the $...$ (its node may not outlive the walk of it) */
  Dim *dim;            /* the type it indexes */
  Poly *off;           /* its offset */
  Type *threads;       /* the innermost detour's thread array, or NULL */
  Node *detour;        /* that #detour, or NULL */
  Instance *instance;  /* the #insert being expanded, or NULL */
  Access *next;
};

Ctx *ctx_new(const Options *opt, const char *src, size_t len);
void ctx_free(Ctx *ctx);
void ctx_set_source(Ctx *ctx, const char *src, size_t len); /* replaces src and lines */

/* ---- include.c: Parray headers ----
 * Splices every `#include "NAME.pah"` (searched next to the including file,
 * then in opt.include_dirs; each header once) into src, and lists in deps
 * the input, the headers and every `#include "..."` file found. */
bool include_headers(Ctx *ctx);
/* diag.c: the file and line in it of line `line` of src (as spliced by
 * include_headers, which records the segments) */
const char *diag_src_file(Ctx *ctx, int line, int *file_line);
bool diag_src_seg_start(Ctx *ctx, int line); /* a new file or a jump starts at line */

/* ---- front end (lexer.l, parser.y) ---- */
Node *parse_source(Ctx *ctx); /* NULL on syntax errors (reported) */
/* The $...$ of n read again from the source (in the scratch region the
 * caller opened), reporting nothing: parse_source reported its errors.
 * NULL when it cannot be read. */
Dx *parse_dollar(Ctx *ctx, const Node *n);

#endif
