/* capture.h: the locals of the enclosing function that a detour body uses
 * (capture.c), for the backends that outline bodies.  Below the backends,
 * beside hostc; reads the scopes of the walk (scope.h). */
#ifndef PARRAYC_CAPTURE_H
#define PARRAYC_CAPTURE_H

#include "parrayc.h"
#include "print/scope.h"

typedef struct Capture {
  const char *name;
  const char *decl; /* its declaration: "int rows", "double x[10]" */
  bool array;
} Capture;

/* The locals that text, the translated body of detour n, uses (its own
 * declarations and the given parameters excepted), found from scope, the
 * scope of the #detour; -1 after reporting one that cannot be captured. */
int capture_find(Ctx *ctx, Scope *scope, Node *n, const char *text, char **params, int nparams, Capture **out);
/* The host variables that text, a kernel parrayc generates (a #copy's),
 * uses: the locals of the function n stands in, and the variables declared
 * at file scope that device code cannot read (not const, __device__ or
 * __constant__), which the kernel must receive by value like the locals. */
int capture_find_kernel(Ctx *ctx, Scope *scope, Node *n, const char *text, Capture **out);
char *capture_pointer_decl(Ctx *ctx, const Capture *c);  /* "int *rows" */
/* A declaration ("double x[10]", not "int (*grid)[4]") declares an array. */
bool capture_decl_is_array(const char *decl);
/* ... an array of unwritten size ("char s[]", sized by its initialiser). */
bool capture_decl_is_unsized_array(const char *decl);
/* text with every use of a captured name X turned into (*X) */
char *capture_by_reference(Ctx *ctx, const char *text, const Capture *caps, int n);

#endif
