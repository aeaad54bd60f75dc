/* explain.h: --explain and --explain-access, the pictures of types and
 * accesses parrayc can draw (text, SVG, HTML). */
#ifndef PARRAYC_EXPLAIN_H
#define PARRAYC_EXPLAIN_H

#include "parrayc.h"

typedef enum ExplainFormat { FMT_TEXT, FMT_SVG, FMT_HTML, FMT_BAD } ExplainFormat;

ExplainFormat explain_format(const char *name); /* "text", "svg", "html"; NULL: text */

/* Prints d in the format of ctx->opt.explain_format; false after an error. */
bool type_explain(Ctx *ctx, Dim *d, FILE *out);

/* ---- --explain-access FILE.pa:LINE ---- */

/* An offset expression met on the explained line. */
struct Access {
  Node *node;          /* the $...$ */
  Dim *dim;            /* the type it indexes */
  Poly *off;           /* its offset */
  Type *threads;       /* the innermost detour's thread array, or NULL */
  Instance *instance;  /* the #insert being expanded, or NULL */
  Access *next;
};

/* Called by the walk for each $T[...]$ on opt.access_line. */
void explain_note_access(Ctx *ctx, ThreadView *here, Node *n, Dim *d, Poly *off);
/* Reports, for one warp, what each access met does; false if none. */
bool explain_access(Ctx *ctx, FILE *out);

#endif
