/* ceval.h: the one evaluator of C integer constant expressions (C11 6.6
 * and 6.10.1), for every value parrayc folds: the sizes of dimensions and
 * the constant indices of $...$ (model/types.c, model/expr.c), the
 * conditions of #if (model/branches.c), and the sizes and offsets
 * --explain draws (explain/cells.c).  The types are those of the target
 * (the C compiler parrayc runs on: LP64, plain char as it has it). */
#ifndef PARRAYC_CEVAL_H
#define PARRAYC_CEVAL_H

#include <stdbool.h>

struct Ctx; /* parrayc.h: the translation, where running out of memory is reported */

typedef enum CevalMode {
  CEVAL_C,    /* C's own rules: a $...$ index */
  CEVAL_SIZE, /* a size (SPEC 2.5): C's rules, with every operand (a
               * number, a character constant, a name, a cast's result)
               * narrower than 64 bits widened to long long first */
  CEVAL_IF,   /* an #if condition: every value intmax_t or uintmax_t, no
               * casts or sizeof, a name without a meaning is 0 */
} CevalMode;

/* What a name means: the replacement text of an object-like macro
 * (expanded as the preprocessor does, a macro never inside its own
 * expansion), or a value of type long long.  No meaning: false.  True
 * with neither: a meaning parrayc cannot know (the text has no value). */
typedef struct CevalMeaning {
  const char *text;
  bool valued;
  long long value;
} CevalMeaning;
typedef bool (*CevalName)(void *arg, const char *name, CevalMeaning *m);

/* A value and its C type's signedness (after the conversions of its mode) */
typedef struct CevalValue {
  unsigned long long bits; /* the value, two's complement in 64 bits */
  bool is_unsigned;
} CevalValue;

/* The value of text, a C integer constant expression in mode (names
 * given their meaning by name(arg, ...); NULL: none has one), computed
 * exactly as the C compiler computes it.  True when the whole text is
 * such an expression and parrayc knows its value exactly; otherwise false,
 * and the text is the C compiler's to evaluate.  Where the C compiler
 * would reject the value too, *bad (if not NULL) says why ("divides by
 * zero", "does not fit in a 64-bit integer"); otherwise it is NULL. */
bool ceval_value(const struct Ctx *ctx, const char *text, CevalMode mode, CevalName name, void *arg,
                 CevalValue *value, const char **bad);

/* The same, as a long long: a value of an unsigned type past LLONG_MAX
 * does not fit ("does not fit in a 64-bit integer"). */
bool ceval(const struct Ctx *ctx, const char *text, CevalMode mode, CevalName name, void *arg,
           long long *value, const char **bad);

#endif
