/* front.h: what the lexer and the parser share, and nothing else sees. */
#ifndef PARRAYC_FRONT_H
#define PARRAYC_FRONT_H

#include "parrayc.h"

/* A token: its spelling, the blanks before it (in directives and $...$,
 * where C text is rebuilt from tokens) and where it starts. */
typedef struct Tok {
  char *text;
  char *ws;
  Loc loc;
  bool misspelt; /* a directive's word, misspelt (reported): read as the one it is near */
} Tok;

typedef struct NodeList {
  Node *head, *tail;
} NodeList;

/* A growable array of pointers, kept in the ctx arena. */
typedef struct PtrVec {
  void **v;
  int n, cap;
} PtrVec;

#define MAX_DOLLAR_NESTING 64
#define MAX_BRACE_NOTES 256

typedef struct LexState {
  Ctx *ctx;
  int line, col;          /* position of the next byte */
  Loc tok_loc;            /* of the token being matched */
  Loc last_loc;           /* of the last token returned */
  Loc last_end, prev_end; /* just after the last token returned (not an EOL), and the one before */
  Loc dir_loc;            /* of the directive being read */
  Loc dollar_loc[MAX_DOLLAR_NESTING];
  int dollar_depth[MAX_DOLLAR_NESTING];
  int ndollar;
  int dir_depth;          /* brackets open in the directive */
  bool expects_block;     /* #detour, #mainhost, #global end at '{' */
  int subprog_depth;
  Loc subprog_loc;        /* of the outermost open #subprog */
  bool fatal;             /* an error the parser cannot recover from */
  int dir_kind;           /* token of the directive being read */
  bool dir_failed;        /* it has had its error: report nothing more for it */
  bool in_dir;            /* a directive is being read */
  Loc quiet_loc;          /* an EOL the lexer reported: the parser says nothing */
  bool closing;           /* at the end: '}' stand in for the unclosed blocks */
  int pending_dclose;     /* closing '$' owed to the parser for abandoned ones */
  bool dollar_failed;     /* the open '$' expression has had its error */
  char *dir_last_ident;   /* its last identifier */
  char *dir_name;         /* its first identifier outside brackets: a #parray's name */
  bool dir_closed;        /* a '}' has closed its brackets: what follows is the name */
  bool dir_misspelt;      /* read as the directive its misspelt word is near: its syntax errors are that one */
  Loc brace_loc[MAX_BRACE_NOTES]; /* the '{' still open, outermost first */
  int nbraces;            /* how many are open (may exceed MAX_BRACE_NOTES) */
  Buf ws;
  char *pp_stash;
  /* The outermost '$...$' of parse_source is read into scratch and kept
   * only as where it is (parse_dollar reads it again for the walk):
   * lazy_dollars asks for it, dollar_scratch says a region is open, from
   * the '$' that opened it (dollar_mark) with errors reported then
   * (dollar_errors); ntokens counts tokens, dclose_token is the count at
   * its closing '$' (the parser reduces it with no token read after). */
  bool lazy_dollars, dollar_scratch;
  ScratchMark dollar_mark;
  int dollar_errors;
  long ntokens, dclose_token;
  bool dollar_alone;      /* parse_dollar: the input is one '$...$' */
  Node *alone;            /* its node */
  char *short_text[128];  /* "" and the one-character spellings, made once:
                             most tokens are one of them (tokens are never changed) */
} LexState;

void nodelist_add(NodeList *l, Node *n);
void ptrvec_push(Ctx *ctx, PtrVec *v, void *p);
Node *text_node(Ctx *ctx, const char *text, Loc loc);

#endif
