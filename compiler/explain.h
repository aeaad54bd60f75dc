/* explain.h: --explain, the pictures of types parrayc can draw. */
#ifndef PARRAYC_EXPLAIN_H
#define PARRAYC_EXPLAIN_H

#include "parrayc.h"

void type_explain(Ctx *ctx, Dim *d, FILE *out);

#endif
