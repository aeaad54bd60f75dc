/* scope.h: which names the C text has declared, so that '#create T(p)'
 * knows whether to declare p.  The walk opens and closes scopes as it
 * passes braces; the backends ask and declare. */
#ifndef PARRAYC_SCOPE_H
#define PARRAYC_SCOPE_H

#include "parrayc.h"

/* Where ends_in_statement_head stopped reading a scope's text: before its
 * last token (which more text may extend), with the state there.  The
 * text only grows, so each call reads what was added since the last. */
typedef struct HeadScan {
  size_t at;           /* offset of the last token read */
  int depth;           /* parentheses open */
  bool prev_control, last_head, control_parens;
  bool bol, member;    /* the cursor's state at 'at' */
} HeadScan;

/* What the text of a function makes of a name other than a variable,
 * which a detour body outlined before the function cannot see (or sees
 * as the file has it there): scope_local_kind. */
typedef enum ScopeLocal { SL_NONE, SL_MACRO, SL_TAG, SL_ENUMERATOR } ScopeLocal;
typedef struct ScopeName {
  struct ScopeName *next;
  const char *name;
  ScopeLocal kind;
} ScopeName;

typedef struct Scope {
  Ctx *ctx;            /* the translation, whose memory the scope's reading takes */
  struct Scope *parent;
  Buf text;            /* the C text seen so far at this level */
  char *header;        /* the statement before this block's '{' */
  Map names;           /* declared by #create or as parameters: Named */
  Map declared;        /* declared by the text read so far: where (scope.c) */
  size_t scanned;      /* how much of text has been read for them */
  HeadScan head;       /* ends_in_statement_head's reading of text so far */
  Map created;         /* #create of a plain name here: Created */
  struct Scope *launch; /* a detour body: the scope of its #detour */
  ScopeName *nonvars;  /* the macros, tags and enumeration constants of the text read and its closed blocks */
  size_t macros_scanned; /* how much of text has been read for #define and #undef */
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
bool scope_name_declared(Ctx *ctx, Scope *s, const char *name);
/* The live '#create' of plain name p in s or the scopes around it, up to
 * the enclosing function (NULL: none); scope_created records one in s,
 * scope_destroyed ends the one found. */
Node *scope_creation(Scope *s, const char *p);
void scope_created(Ctx *ctx, Scope *s, const char *p, Node *n);
void scope_destroyed(Scope *s, const char *p, Node *n);
/* The #destroy (n of scope_destroyed) that already ended the block of p
 * in s, when straight-line code of s led from it to here (no label, jump
 * or branch between): a second #destroy would free it twice.  NULL
 * otherwise. */
Node *scope_destroyed_before(Scope *s, const char *p);
/* The declaration of name when it is a local of the function being
 * written (for a detour body: of the function its #detour stands in,
 * outwards); NULL when it is not one, "" when it is one parrayc cannot
 * read. */
const char *scope_local_declaration(Ctx *ctx, Scope *s, const char *name);
/* ... and *parameter: whether that declaration is a parameter of a
 * function header (where C makes an array a pointer); *reg (unless
 * NULL): whether it is declared 'register', which has no address. */
const char *scope_local_declaration_of(Ctx *ctx, Scope *s, const char *name, bool *parameter, bool *reg);
/* What the function around s (its text up to here, the scopes from s
 * outwards through detour bodies to their #detour) makes of name: a
 * macro (a #define or #undef of it, in any block: a macro outlives its
 * block), a struct, union or enum tag defined in a block around s
 * ("struct name { ... }"), an enumeration constant of such a block;
 * SL_NONE. */
ScopeLocal scope_local_kind(Ctx *ctx, Scope *s, const char *name);
/* Is local name (as scope_local_declaration_of finds it) declared more
 * than once in its block: in the branches of an #if, of which parrayc
 * cannot always tell the one the C compiler takes? */
bool scope_local_declared_again(Ctx *ctx, Scope *s, const char *name);
/* The declaration of name at file scope, seen from s ("int n" for
 * "static int n, m;"), NULL when the file's text does not declare it, ""
 * when parrayc cannot read the declaration. */
const char *scope_file_declaration(Ctx *ctx, Scope *s, const char *name);
/* Is decl, a declaration those return ("typedef int row[4]"), a typedef's? */
bool scope_is_typedef(const char *decl);
/* Does the text of s end with the head of a statement whose body comes
 * next: 'if (...)', 'for (...)', 'while (...)', 'switch (...)', 'else'
 * or 'do'?  Reads only the text added since the last call. */
bool scope_ends_in_statement_head(Scope *s);
/* does C text t declare name, in any of its blocks? */
bool scope_text_declares(const char *t, const char *name);
/* Calls use(arg, at, outer) on each use of name in C text t (a detour
 * body), not its declarations there, struct tags or goto labels: outer
 * when no declaration of t is in scope there ("x" before "{ int x; }",
 * or after it), so that it names what is declared around t. */
void scope_text_each_use(const char *t, const char *name, void (*use)(void *arg, const char *at, bool outer),
                         void *arg);
/* ... does t use name so anywhere? */
bool scope_text_uses_outer(const char *t, const char *name);

#endif
