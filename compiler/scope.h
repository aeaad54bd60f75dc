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
  int nnames;
  bool file_scope;
  bool function;       /* a function or detour body starts here */
} Scope;

/* a scope inside parent (NULL: none), whose header is the statement that
 * ends parent's text */
Scope *scope_open(Ctx *ctx, Scope *parent, bool function);
void scope_close(Scope *s);
Scope *scope_file(Scope *s); /* the outermost scope */
void scope_declare(Ctx *ctx, Scope *s, const char *name);
bool name_declared(Scope *s, const char *name);

#endif
