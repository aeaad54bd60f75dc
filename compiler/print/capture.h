/* capture.h: the locals of the enclosing function that a detour body uses
 * (capture.c), for the backends that outline bodies.  Below the backends,
 * beside hostc; reads the scopes of the walk (scope.h). */
#ifndef PARRAYC_CAPTURE_H
#define PARRAYC_CAPTURE_H

#include "parrayc.h"
#include "print/scope.h"

typedef struct Capture {
  const char *name;
  /* its declaration: "int rows", "double x[10]", "triple t"; for a
   * parameter declared an array, the pointer C makes of it ("int *p" for
   * "int p[3]" or "triple p") */
  const char *decl;
  /* such a parameter with a written size, as declared ("int p[3]",
   * "triple p"): mpi sends that many elements; NULL otherwise */
  const char *sized_param;
  bool array;  /* an array: declared with [...] or of a typedef'd array type */
  bool opaque; /* of a type name parrayc sees no declaration of (a header's): maybe an array */
  int nvla;    /* an array of run-time size ("int v[n]", "char s[] = ..."): its number of extents */
  /* a pointer to an array of run-time size: a parameter declared one
   * ("double a[n][m]", now "double (*a)[m]"); nvla counts the extents of
   * what it points to */
  bool vla_ptr;
  /* a parameter declared an array whose first size is of run time
   * ("int a[n]", "double a[n][m]"): that size, which an mpi body's copy
   * takes as its number of rows; NULL otherwise */
  const char *rows;
  /* declared register, which has no address: pthd and omp share a copy
   * of it, written back after the join unless it is const (readonly) */
  bool reg;
  bool readonly;
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
/* ... declares an array, also through typedef names declared at file
 * scope as seen from scope ("triple t" after "typedef int triple[3]") */
bool capture_type_is_array(Ctx *ctx, Scope *scope, const char *decl);
/* ... an array of unwritten size ("char s[]", sized by its initialiser). */
bool capture_decl_is_unsized_array(const char *decl);
/* Does declaration decl name anything but its own name and C's keywords
 * (a typedef name, a struct tag, a macro in a size): something the C
 * compiler may not know, whose error must point at the source? */
bool capture_decl_names(const char *decl);
/* c's declaration with the run-time extents named pa_NAME_K after prefix
 * ("pa_args->" or ""), as a pointer to c when pointer: "int (*v)[pa_v_0]"
 * for "int v[n]", "double (*(*a))[pa_a_0]" for "double (*a)[m]"; without
 * pointer, "double (*a)[pa_a_0]" */
char *capture_vla_decl(Ctx *ctx, const Capture *c, const char *prefix, bool pointer);
/* The type that declaration decl gives name, as a cast writes it:
 * "int (*)[2]" for "int (*a)[2]", "const triple *" for "const triple *t". */
char *capture_type_name(Ctx *ctx, const char *decl, const char *name);
/* "pa_v_0": the name of extent k of an array of run-time size */
char *capture_vla_extent_name(Ctx *ctx, const Capture *c, int k);
/* "sizeof v[0] / sizeof v[0][0]": the value of extent k, where it is
 * declared ("sizeof (*a)[0] / ..." for a pointer) */
char *capture_vla_extent(Ctx *ctx, const Capture *c, int k);
/* "int pa_reg_r": the declaration of the copy of c, a register local */
char *capture_register_copy(Ctx *ctx, const Capture *c);
/* text, a body, as a block of its own when it declares a name of caps
 * too (it reads the caller's 'x', then declares its own): the outlined
 * function declares the captures, which the body's declarations must
 * shadow, not redeclare; else text itself */
char *capture_body_block(Ctx *ctx, const char *text, const Capture *caps, int n);
/* text with every use of a captured name X turned into (*X) */
char *capture_by_reference(Ctx *ctx, const char *text, const Capture *caps, int n);

#endif
