/* picture.h: what the files of explain/ share: the evaluation of sizes
 * and indices (Env), the cells and grids a picture draws (Cell, Grid,
 * View), a warp's lanes and their verdicts, the region of a detour's body
 * before an access and the pointers followed through it.  The files, in
 * the order of the explainer's sections:
 *   cells.c   values; the cells of a type's and a thread array's grid
 *   draw.c    text, SVG, HTML and TikZ; --explain (explain_type)
 *   warp.c    --explain-access: one warp, its verdicts
 *   region.c  values set in the detour that the explainer cannot follow
 *   touch.c   who touches what: the thread map, its loops swept
 *   access.c  --explain-access (explain_access): the accesses of a line
 * The public interface is explain.h. */
#ifndef PARRAYC_EXPLAIN_PICTURE_H
#define PARRAYC_EXPLAIN_PICTURE_H

#include "explain/explain.h"
#include "model/ceval.h"
#include "model/launch.h"
#include "model/macros.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TEXT_EDGE 32       /* the text grid: at most 32 x 32 */
#define MAX_DRAW_CELLS 4096    /* a picture: at most 64 x 64 cells */
#define MAX_DEPTH 32           /* #define nesting */
#define MAX_CHECKED (1LL << 16) /* contiguity checked one offset at a time */

#define WARP LAUNCH_WARP       /* CUDA's numbers: model/launch.h */
#define SECTOR LAUNCH_SECTOR   /* bytes: the unit global memory moves in */
#define BANKS LAUNCH_BANKS     /* shared memory: banks of 4-byte words */
#define MAX_TOUCH 1024

typedef struct Binding {
  const char *name;
  long long value;
} Binding;

typedef struct Env {
  Ctx *ctx;
  Binding *bind;       /* thread indices of one lane */
  int nbind;
  Atom *var;           /* the cell index */
  long long var_value;
  bool unknown_is_zero; /* the access explainer: loop variables start at 0 */
  char **used;         /* macros and -D names that were needed, "N = 8" */
  int nused;
  char **zeroed;       /* names taken as 0 */
  int nzeroed;
  char **missing;      /* names without a value */
  int nmissing;
  char **known;        /* macros already evaluated and noted, whose value */
  int nknown;          /* does not vary: expanded, not evaluated again */
  bool varies;         /* a value read a thread index, or took a name as 0 or
                          missing: it may differ at the next evaluation */
  const Atom **leaf;   /* sizes' texts already evaluated that do not vary */
  long long *leaf_value; /* index: their values, for the next cell */
  int nleaf, leaf_cap;
  int depth;
} Env;

typedef struct Cell {
  long long off;       /* physical (local) offset, -1 unknown */
  int colour;          /* palette index, -1: none (padding) */
  char *label, *label2; /* drawn in the cell */
  char *info;          /* hover: index path, offset, owner */
} Cell;

typedef struct Grid {
  const char *title;
  const char *rows_name, *cols_name;
  long long rows, cols;
  Cell *c;
} Grid;

typedef struct View {
  Ctx *ctx;
  Env *env;
  Dim *d;
  Grid grid;           /* the type's logical grid */
  Grid mem;            /* the memory it views (data), or rows == 0 */
  char **notes;        /* lines under the picture */
  int nnotes;
} View;

typedef enum AccessKind { ACC_LOAD, ACC_STORE, ACC_OFFSET } AccessKind;

typedef struct Lane {
  long long off, addr;
  char *who;           /* "threadIdx.y 1, threadIdx.x 3" */
} Lane;

typedef struct Verdict {
  long long units, ideal; /* sectors or wavefronts, and the fewest possible */
  Grid grid;              /* the picture: banks or sectors */
} Verdict;

typedef struct Region {
  Ctx *ctx;
  int from, to, tocol; /* lines from..to, the last up to column tocol */
} Region;

typedef struct Assign {
  int line, col;       /* of the value */
  char op;             /* '=', or the operator of a compound assignment ('+' for +=) */
  const char *rhs;     /* its text */
} Assign;

/* The offsets a pointer carries: the $T[...]$ of the assignments that set
 * it, followed. */
typedef struct Via {
  Access *v[8];
  const char *how[8];  /* "pb = b + $M[0][$tid_1$]$ (line 45)" */
  int n;
} Via;

/* for (NAME = from; NAME < to; NAME += step), or why it is not swept */
typedef struct Sweep {
  const char *name;
  long long from, to, step;
  int line;
  const char *why;
} Sweep;

/* ---- values and cells (cells.c) ---- */
bool explain_data_cells(View *v);
bool explain_eval_poly(Env *env, const Poly *p, long long *out);
bool explain_eval_text(Env *env, const char *text, long long *out);
bool explain_is_symbolic(const Poly *p);
bool explain_launch_of(Env *env, Dim *root, LaunchShape *l);
char *explain_level_coords(Env *env, LaunchShape *l, int w, long long i, long long *digits);
void explain_memory_cells(View *v);
bool explain_offset_at(Env *env, Poly *off, long long i, long long *out);
Dim *explain_storage_of(Dim *d);
bool explain_thread_cells(View *v);
long long explain_size_of(Env *env, Poly *p);

/* ---- drawing (draw.c) ---- */
char *explain_captured(FILE *f);
void explain_html_page(FILE *out, const char *title, const char *text, Grid **grids, int ngrids, char **notes,
                       int nnotes, int cw, int ch, bool stack);
void explain_svg_picture(FILE *out, Grid **grids, int ngrids, char **notes, int nnotes, int cw, int ch, bool stack);
void explain_tex_picture(FILE *out, const char *title, const char *text, Grid **grids, int ngrids, char **notes,
                         int nnotes, bool stack, bool two_lines);

/* ---- one warp (warp.c) ---- */
const char *explain_access_text(Ctx *ctx, Loc at, AccessKind *kind);
void explain_bind_lane(Env *env, LaunchShape *l, long long t, Binding *b, char **who);
void explain_global_verdict(Ctx *ctx, Lane *ln, int lanes, int size, Verdict *v, FILE *out);
void explain_print_lanes(FILE *out, Lane *ln, int lanes);
void explain_shared_verdict(Ctx *ctx, Lane *ln, int lanes, int size, Verdict *v, FILE *out);

/* ---- the body before an access (region.c) ---- */
Access *explain_access_in(Ctx *ctx, Assign *as, Access *of);
int explain_assignments(Region *r, const char *name, Assign *out, int max);
bool explain_name_varies(Region *r, const char *name, int depth);
const char *explain_pointer_plus_access(Region *r, const char *rhs);
const char *explain_region_line(Region *r, int k, int *len);
bool explain_text_varies(Region *r, const char *text, int depth);
int explain_src_line(Ctx *ctx, int line);

/* ---- the thread map (touch.c) ---- */
bool explain_find_loop(Region *r, const char *name, Sweep *sw);
bool explain_touch_map(Ctx *ctx, Access *a, Via *via, Grid *g, int *ng, FILE *out);
bool explain_via_offset(Env *env, Via *via, long long *out);

#endif
