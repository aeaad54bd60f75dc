/* explain.h: --explain and --explain-access, the pictures of types and
 * accesses parrayc can draw (text, SVG, HTML, TikZ). */
#ifndef PARRAYC_EXPLAIN_H
#define PARRAYC_EXPLAIN_H

#include "parrayc.h"

typedef enum ExplainFormat { FMT_TEXT, FMT_SVG, FMT_HTML, FMT_TEX, FMT_BAD } ExplainFormat;

ExplainFormat explain_format(const char *name); /* "text", "svg", "html", "tex"; NULL: text */

/* Prints d in the format of ctx->opt.explain_format; false after an error. */
bool explain_type(Ctx *ctx, Dim *d, FILE *out);

/* ---- --explain-access FILE.pa:LINE ---- */

/* An offset expression met on the explained line. */
/* Reports, for one warp, what each access met does; false if none. */
bool explain_access(Ctx *ctx, FILE *out);
/* The value of size p with the -D macros, then the program's #define
 * (as --explain reads them); false when a name has none. */
bool explain_size(Ctx *ctx, const Poly *p, long long *out);

#endif
