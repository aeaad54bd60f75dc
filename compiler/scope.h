/* scope.h: which names the C text has declared, so that '#create T(p)'
 * knows whether to declare p.  The walk opens and closes scopes as it
 * passes braces; the backends ask and declare. */
#ifndef PARRAYC_SCOPE_H
#define PARRAYC_SCOPE_H

#include "parrayc.h"

typedef struct Scope {
  struct Scope *parent;
  Buf text;            /* the C text seen so far at this level */
  char *header;        /* the statement before this block's '{' */
  char **names;        /* names declared by #create or as parameters */
  char **decls;        /* their declarations ("float *a"), NULL if unknown */
  int nnames;
  struct Scope *launch; /* a detour body: the scope of its #detour */
  Node **created;      /* #create of a plain name here, not destroyed since */
  int ncreated;
  bool file_scope;
  bool function;       /* a function or detour body starts here */
} Scope;

/* a scope inside parent (NULL: none), whose header is the statement that
 * ends parent's text */
Scope *scope_open(Ctx *ctx, Scope *parent, bool function);
void scope_close(Scope *s);
Scope *scope_file(Scope *s); /* the outermost scope */
void scope_declare(Ctx *ctx, Scope *s, const char *name);
/* declares name with its C declaration ("float *a"), which a detour body
 * that uses the name needs to capture it */
void scope_declare_as(Ctx *ctx, Scope *s, const char *name, const char *decl);
bool name_declared(Scope *s, const char *name);
/* The declaration of name when it is a local of the function being
 * written (for a detour body: of the function its #detour stands in,
 * outwards); NULL when it is not one, "" when it is one parrayc cannot
 * read. */
const char *local_declaration(Ctx *ctx, Scope *s, const char *name);
/* does C text t declare name, in any of its blocks? */
bool text_declares(const char *t, const char *name);

#endif
