/* ctext.h: the one reader of C text.  Everything that looks into C text
 * (the text of a scope, a detour body, an index expression, generated
 * code) reads it through this cursor, so comments, string and character
 * literals and preprocessor lines are skipped the same way everywhere. */
#ifndef PARRAYC_CTEXT_H
#define PARRAYC_CTEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef enum CKind {
  CT_END,
  CT_SPACE,   /* blanks and newlines */
  CT_COMMENT, /* a block comment (to the end of the text if unclosed) or a line comment */
  CT_PREPROC, /* a preprocessor line, continued lines included (only under CT_DIRECTIVES) */
  CT_STRING,  /* "..." (to the end of its line if unclosed) */
  CT_CHAR,    /* '...' */
  CT_IDENT,
  CT_NUMBER,  /* a digit and the identifier characters and dots after it */
  CT_PUNCT,   /* one character, or "->" */
} CKind;

typedef struct CTok {
  CKind kind;
  const char *s;
  size_t n;
  bool member; /* CT_IDENT: a member name, after '.' or '->' */
} CTok;

enum { CT_DIRECTIVES = 1 }; /* '#' at the start of a line begins a CT_PREPROC */

typedef struct CText {
  const char *p, *end;
  unsigned flags;
  bool bol;    /* only blanks since the start of a line */
  bool member; /* the last token but blanks and comments was '.' or '->' */
} CText;

/* A cursor on [s, end); end NULL: to the terminating NUL. */
CText ctext(const char *s, const char *end, unsigned flags);
/* The next token (CT_END at the end). */
CTok ctext_next(CText *c);
/* The next token that is not blank, a comment or a preprocessor line. */
CTok ctext_code(CText *c);
bool ctok_is(CTok t, char punct);
bool ctok_word(CTok t, const char *word);
/* a block comment that the text ends in */
bool ctok_open_comment(CTok t);
/* The bracket closing the one at open (one of "([{"), within [open, end)
 * (end NULL: the NUL), or NULL when it is unbalanced. */
const char *ctext_close(const char *open, const char *end);

/* The words after "#pragma parray" in a line of C text, or NULL for any
 * other line. */
const char *ctext_parray_pragma(const char *line);

/* What one C declaration (type words and one declarator: "int (*rows)[4]",
 * "struct tag x", "int (*op)(int, int)", "const char *names[3]", "mytype x")
 * declares, read as the C grammar's declarators bind: the suffixes '[' and
 * '(' after the name before the '*' in front of it, parentheses grouping.
 * CD_NONE when [s, end) has no type words or no name (an abstract
 * declarator); else *name and *len give the name. */
typedef enum CDeclKind { CD_NONE, CD_PLAIN, CD_POINTER, CD_ARRAY, CD_FUNCTION } CDeclKind;
CDeclKind ctext_declarator(const char *s, const char *end, const char **name, size_t *len);
/* C's words for arithmetic types and void (int, unsigned, double, ...). */
bool ctext_scalar_word(const char *w, size_t n);
/* A word that can only begin or continue the type of a declaration
 * (int, const, struct, static, size_t, float2, ...). */
bool ctext_type_word(const char *w, size_t n);
/* A qualifier or a storage class (const, volatile, static, __shared__, ...):
 * a type word that may stand before a typedef name ("const real *a"). */
bool ctext_qualifier_word(const char *w, size_t n);
/* C's keywords that begin a statement or sit inside one (if, else, do,
 * return, case, sizeof, ...): never a type word, never a declared name, so
 * "else x = 2;" and "return *p;" declare nothing. */
bool ctext_statement_word(const char *w, size_t n);
struct Ctx;
/* "(x)" -> "x" while the parentheses enclose the whole text */
char *ctext_strip_parens(struct Ctx *ctx, char *text);
/* text, an expression of C's additive or multiplicative precedence
 * (a $...$ result), without its outer parentheses when the C text around
 * it (before[0..nbefore) ends, after starts) makes it a whole index,
 * argument, right-hand side, condition or operand of a comparison, && or
 * ||: where no operator can take part of it and gcc -Wparentheses has
 * nothing to say.  Otherwise text as it is. */
char *ctext_bare_operand(struct Ctx *ctx, char *text, const char *before, size_t nbefore, const char *after);

#endif
