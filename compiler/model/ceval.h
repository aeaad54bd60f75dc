/* ceval.h: the one evaluator of C integer expressions: the sizes of
 * dimensions and the indices of $...$ (model/types.c), and the sizes and
 * offsets --explain draws with the program's macros (explain/explain.c). */
#ifndef PARRAYC_CEVAL_H
#define PARRAYC_CEVAL_H

#include <stdbool.h>

/* The value of a name (an identifier, or a member path "a.b"): false when
 * it has none. */
typedef bool (*CevalName)(void *arg, const char *name, long long *value);

/* The value of text, a C integer expression over decimal, octal and hex
 * numbers (with u/l suffixes) and names (valued by name(arg, ...); NULL:
 * names have no value): unary + - ! ~, casts to integer types, * / %
 * + - << >> < <= > >= == != & ^ | && || ?: and parentheses, computed in
 * 64 bits.  True when the whole text is such an expression and has a
 * value.  When it parses but has none, *bad (if not NULL) says why:
 * "divides by zero" or "does not fit in a 64-bit integer"; otherwise NULL. */
bool ceval(const char *text, CevalName name, void *arg, long long *value, const char **bad);

#endif
