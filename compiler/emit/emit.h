/* emit.h: the walk's entry points, for the driver. */
#ifndef PARRAYC_EMIT_H
#define PARRAYC_EMIT_H

#include "emit/backend.h"

/* Translates ctx->tree with the targets (NULL-terminated; the first, host
 * C, translates what none of the others takes: targets/all.h); returns
 * the generated text (malloc'd) or NULL. */
char *emit_program(Ctx *ctx, const Backend *const *targets);

#endif
