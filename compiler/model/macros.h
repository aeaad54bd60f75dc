/* macros.h: the program's macros as the model sees them: which names are
 * macros (a size naming only macros is a compile-time constant) and the
 * value of a size or index text written with them (-D first, then the
 * program's last #define), for the reach of offsets and for --explain. */
#ifndef PARRAYC_MACROS_H
#define PARRAYC_MACROS_H

#include "model/ceval.h"
#include "parrayc.h"

/* Is name a macro: -D'd, or #define'd anywhere in the input? */
bool macro_defined(Ctx *ctx, const char *name);
/* Is it -D'd (and not -U'd after)? */
bool macro_given(Ctx *ctx, const char *name);
/* The replacement text of object-like macro name: the -D value ("1" for
 * -D NAME), else that of the program's last #define of it; NULL for
 * neither or a function-like macro.  *from says which: "-D", "#define". */
const char *macro_text(Ctx *ctx, const char *name, const char **from);
/* What the definition of macro name says after the name: the -D value,
 * else all that the program's last #define of it has after the name: a
 * function-like macro's starts with its parameters ("(i) v[i]"), an
 * object-like one's with a blank (" (w + 1)"); NULL for no macro. */
const char *macro_definition(Ctx *ctx, const char *name);
/* The replacement text of a #define whose name ends at s (its line ends
 * at end): continuations joined, comments and the blanks around dropped;
 * NULL for a function-like macro. */
const char *macro_body(Ctx *ctx, const char *s, const char *end);
/* Does the program #define name with parameters (any of its #defines)? */
bool macro_function_like(Ctx *ctx, const char *name);
/* Does it #define any name with parameters? */
bool macro_any_function_like(Ctx *ctx);
/* The value of text, a C integer expression in mode whose names are
 * macros (expanded as the preprocessor does, model/ceval.c): false when
 * it has none. */
bool macro_value(Ctx *ctx, const char *text, CevalMode mode, long long *value);

#endif
