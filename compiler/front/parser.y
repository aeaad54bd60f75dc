/* parser.y: the grammar of Parray's constructs around C text.  Actions
 * build the syntax tree (parrayc.h); the only meaning they give is which
 * $...$ a fragment is (dim, size, cnt, tid: the Dx kind), with the errors
 * about its form ("takes no index", an unknown function).  Every other
 * check (names, types, extents) happens later. */
%code requires {
#include "parrayc.h"
#include "front/front.h"
typedef void *yyscan_t;
}

%code {
#include <string.h>

int pa_lex(YYSTYPE *lval, yyscan_t scanner);
#define yylex pa_lex
/* the parser's stack: two entries a level of braces.  The walk recurses
 * per level too, and stays well within a thread's stack at this depth */
#define YYMAXDEPTH 20000
#define PA_MAX_NESTING (YYMAXDEPTH / 2)
static void yyerror(yyscan_t scanner, Ctx *ctx, LexState *ls, const char *msg);

static NodeList list_empty(void) { NodeList l = {0, 0}; return l; }
static NodeList list_of(Node *n) { NodeList l = {0, 0}; nodelist_add(&l, n); return l; }
static NodeList list_cat(NodeList a, NodeList b)
{
  if (!a.head)
    return b;
  if (b.head) {
    a.tail->next = b.head;
    a.tail = b.tail;
  }
  return a;
}
/* a token inside a directive or $...$, as C text with its blanks */
static NodeList tok_text(Ctx *ctx, Tok t)
{
  /* token texts are never changed: one without blanks before is shared */
  return list_of(text_node(ctx, *t.ws ? ctx_printf(ctx, "%s%s", t.ws, t.text) : t.text, t.loc));
}
static Node *directive(Ctx *ctx, NodeKind kind, Tok t)
{
  Node *n = node_new(ctx, kind, t.loc);
  n->text = t.ws;
  n->failed = t.misspelt; /* its one error said it all */
  return n;
}
static void set_args(Ctx *ctx, Node *n, PtrVec *v)
{
  n->has_args = true;
  n->args = (Node **)v->v;
  n->nargs = v->n;
  /* "()" is no argument, not one empty argument */
  if (n->nargs == 1 && !n->args[0])
    n->nargs = 0;
  (void)ctx;
}
/* The $...$ just read (dx NULL: a syntax error).  The outermost of a
 * parse_source, read without error, keeps only where it is: the walk
 * reads it again (parse_dollar), and the hundreds of bytes of its tree go
 * back now, so that a program's memory does not grow with every $...$.
 * Bison reduces this rule with no token read after the closing '$'
 * (ntokens says so), so what scratch holds is this $...$'s alone. */
static Node *dollar_node(Ctx *ctx, LexState *ls, Tok open, Dx *dx, Tok close)
{
  bool outermost = ls->dollar_scratch && ls->ndollar == 0;
  bool lazy = outermost && dx && ctx->errors == ls->dollar_errors && ls->ntokens == ls->dclose_token &&
              !strcmp(close.text, "$");
  const char *ws = lazy && *open.ws ? ctx_kept_strdup(ctx, open.ws) : "";
  if (outermost) {
    if (!lazy)
      ctx_keep(ctx);
    ls->dollar_scratch = false;
    ctx_scratch_end(ctx, ls->dollar_mark);
  }
  if (!dx)
    return NULL;
  Node *n = node_new(ctx, N_DOLLAR, open.loc);
  n->text = lazy ? (char *)ws : open.ws;
  if (lazy)
    n->dollar_end = (Loc){close.loc.line, close.loc.col + 1};
  else
    n->dx = dx;
  return n;
}
static Index *index_expr(Ctx *ctx, NodeList l, Loc loc)
{
  Index *ix = ctx_alloc(ctx, sizeof *ix);
  ix->expr = l.head;
  ix->loc = loc;
  return ix;
}
static Index *index_list(Ctx *ctx, PtrVec *v, Loc loc)
{
  Index *ix = ctx_alloc(ctx, sizeof *ix);
  ix->items = (Index **)v->v;
  ix->nitems = v->n;
  ix->loc = loc;
  return ix;
}
static DimSyn *dimsyn(Ctx *ctx, Loc loc)
{
  DimSyn *d = ctx_alloc(ctx, sizeof *d);
  d->loc = loc;
  return d;
}
}

%define api.pure full
%define parse.error verbose
%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {Ctx *ctx} {LexState *ls}

%union {
  Tok tok;
  Node *node;
  NodeList list;
  PtrVec vec;
  Index *index;
  DimSyn *dim;
  Dx *dx;
}

%token END 0 "end of file"
%token <tok> TEXT "C text" LBRACE "opening brace" RBRACE "closing brace"
%token <tok> DOPEN "dollar sign" DCLOSE "closing dollar sign"
%token <tok> IDENT "identifier" NUMBER "number" OTHER "symbol" TO "keyword to"
%token <tok> '[' ']' '(' ')' ',' '#'
%token <tok> EOL "end of line"
%token <tok> NL "newline"
%token <tok> D_PARRAY "#parray" D_CREATE "#create" D_DESTROY "#destroy"
%token <tok> D_DETOUR "#detour" D_COPY "#copy" D_SYNC "#sync" D_MAINHOST "#mainhost"
%token <tok> D_GLOBAL "#global" D_SUBPROG "#subprog" D_END "#end" D_INSERT "#insert"
%token <tok> D_STRAY_END "#end without #subprog"
%token <tok> DOLLAR_ALONE "the start of a '$...$' read again"

%type <list> items item block_items cany cnc cfirst citem citem_nc argument
%type <node> dollar directive
%type <vec> arglist brackets blist words dims
%type <index> bracket
%type <dx> dexpr
%type <dim> dim dimspec

%%

input: items { ctx->tree = $1.head; }
  | DOLLAR_ALONE dollar { ls->alone = $2; }
  ;

items: %empty { $$ = list_empty(); }
  | items item { $$ = list_cat($1, $2); }
  ;

item: TEXT { $$ = list_of(text_node(ctx, $1.text, $1.loc)); }
  | NL { $$ = list_of(text_node(ctx, $1.text, $1.loc)); }
  | LBRACE items RBRACE {
      Node *n = node_new(ctx, N_BLOCK, $1.loc);
      n->body = $2.head;
      n->end_loc = $3.loc;
      $$ = list_of(n);
    }
  | dollar { $$ = list_of($1); }
  | directive { $$ = list_of($1); }
  | error EOL {
      /* a #parray that failed to parse stays, marked, for the type model
         to poison its name: its uses report nothing more */
      $$ = list_empty();
      if (ls->dir_kind == D_PARRAY) {
        /* its name: the first word after the braces; while they are open,
           the last word; none ("") when they closed with no word after */
        Node *n = node_new(ctx, N_PARRAY, $2.loc);
        n->name = ls->dir_name ? ls->dir_name : !ls->dir_closed && ls->dir_last_ident ? ls->dir_last_ident : "";
        n->failed = true;
        $$ = list_of(n);
      }
      yyerrok;
    }
  | error NL { $$ = list_of(text_node(ctx, $2.text, $2.loc)); yyerrok; } /* in C text: at the end of the line */
  ;

block_items: LBRACE items RBRACE { $$ = $2; }
  ;

dollar: DOPEN dexpr DCLOSE { $$ = dollar_node(ctx, ls, $1, $2, $3); }
  /* resynchronise at the closing '$'; a stand-in keeps the tree whole */
  | DOPEN error DCLOSE { dollar_node(ctx, ls, $1, NULL, $3); $$ = text_node(ctx, "0", $1.loc); yyerrok; }
  ;

dexpr: IDENT brackets {
      $$ = ctx_alloc(ctx, sizeof(Dx));
      $$->path = $1.text;
      $$->path_loc = $1.loc;
      if (!strcmp($1.text, "tid") || !strncmp($1.text, "tid_", 4)) {
        $$->kind = DX_TID;
        if ($2.n)
          diag_error(ctx, $1.loc, "'$%s$' takes no index", $1.text);
      } else {
        $$->kind = DX_INDEX;
        if ($2.n)
          $$->index = index_list(ctx, &$2, $1.loc);
      }
    }
  | IDENT '(' IDENT ')' {
      $$ = ctx_alloc(ctx, sizeof(Dx));
      $$->path_loc = $3.loc;
      const char *f = $1.text;
      const char *suffix = NULL;
      if (!strncmp(f, "dim", 3) && (!f[3] || f[3] == '_')) {
        $$->kind = DX_DIM;
        suffix = f + 3;
      } else if (!strncmp(f, "size", 4) && (!f[4] || f[4] == '_')) {
        $$->kind = DX_DIM;
        suffix = f + 4;
      } else if (!strcmp(f, "cnt")) {
        $$->kind = DX_CNT;
        suffix = "";
      } else if (!strcmp(f, "run")) {
        $$->kind = DX_RUN;
        suffix = "";
      } else {
        diag_error(ctx, $1.loc, "unknown function '%s' in '$...$' (expected dim, size, cnt or run)", f);
        suffix = "";
      }
      $$->path = ctx_printf(ctx, "%s%s", $3.text, suffix);
    }
  ;

brackets: %empty { $$ = (PtrVec){0}; }
  | brackets bracket { $$ = $1; ptrvec_push(ctx, &$$, $2); }
  ;

bracket: '[' blist ']' { $$ = index_list(ctx, &$2, $1.loc); }
  | '[' cfirst cany ']' { $$ = index_expr(ctx, list_cat($2, $3), $2.head ? $2.head->loc : $1.loc); }
  ;

blist: bracket { $$ = (PtrVec){0}; ptrvec_push(ctx, &$$, $1); }
  | blist bracket { $$ = $1; ptrvec_push(ctx, &$$, $2); }
  ;

/* C text inside directives and $...$ */
cfirst: IDENT { $$ = tok_text(ctx, $1); }
  | NUMBER { $$ = tok_text(ctx, $1); }
  | OTHER { $$ = tok_text(ctx, $1); }
  | TO { $$ = tok_text(ctx, $1); }
  | dollar { $$ = list_of($1); }
  | '(' cany ')' { $$ = list_cat(list_cat(tok_text(ctx, $1), $2), tok_text(ctx, $3)); }
  ;

citem_nc: cfirst { $$ = $1; }
  | '[' cany ']' { $$ = list_cat(list_cat(tok_text(ctx, $1), $2), tok_text(ctx, $3)); }
  /* a braced initialiser: a compound literal's '(int[3]){1, 2, 3}' */
  | LBRACE cany RBRACE { $$ = list_cat(list_cat(tok_text(ctx, $1), $2), tok_text(ctx, $3)); }
  ;

citem: citem_nc { $$ = $1; }
  | ',' { $$ = tok_text(ctx, $1); }
  ;

cany: %empty { $$ = list_empty(); }
  | cany citem { $$ = list_cat($1, $2); }
  ;

cnc: %empty { $$ = list_empty(); }
  | cnc citem_nc { $$ = list_cat($1, $2); }
  ;

argument: cnc { $$ = $1; }
  ;

arglist: argument { $$ = (PtrVec){0}; ptrvec_push(ctx, &$$, $1.head); }
  | arglist ',' argument { $$ = $1; ptrvec_push(ctx, &$$, $3.head); }
  ;

directive: D_PARRAY LBRACE words dims RBRACE IDENT EOL {
      $$ = directive(ctx, N_PARRAY, $1);
      $$->words = (char **)$3.v;
      $$->nwords = $3.n;
      $$->dims = (DimSyn **)$4.v;
      $$->ndims = $4.n;
      $$->name = $6.text;
      $$->name_loc = $6.loc;
    }
  | D_PARRAY LBRACE words '(' cany ')' dims RBRACE IDENT EOL {
      $$ = directive(ctx, N_PARRAY, $1);
      $$->words = (char **)$3.v;
      $$->nwords = $3.n;
      $$->params = $5.head;
      $$->has_params = true;
      $$->dims = (DimSyn **)$7.v;
      $$->ndims = $7.n;
      $$->name = $9.text;
      $$->name_loc = $9.loc;
    }
  | D_CREATE IDENT '(' cany ')' EOL {
      $$ = directive(ctx, N_CREATE, $1);
      $$->name = $2.text;
      $$->name_loc = $2.loc;
      PtrVec v = {0};
      ptrvec_push(ctx, &v, $4.head);
      set_args(ctx, $$, &v);
    }
  | D_DESTROY IDENT '(' cany ')' EOL {
      $$ = directive(ctx, N_DESTROY, $1);
      $$->name = $2.text;
      $$->name_loc = $2.loc;
      PtrVec v = {0};
      ptrvec_push(ctx, &v, $4.head);
      set_args(ctx, $$, &v);
    }
  | D_COPY IDENT '(' cany ')' TO IDENT '(' cany ')' EOL {
      $$ = directive(ctx, N_COPY, $1);
      $$->name = $2.text;
      $$->name_loc = $2.loc;
      $$->name2 = $7.text;
      $$->name2_loc = $7.loc;
      PtrVec v = {0};
      ptrvec_push(ctx, &v, $4.head);
      ptrvec_push(ctx, &v, $9.head);
      set_args(ctx, $$, &v);
    }
  | D_DETOUR IDENT block_items {
      $$ = directive(ctx, N_DETOUR, $1);
      $$->name = $2.text;
      $$->name_loc = $2.loc;
      $$->body = $3.head;
    }
  /* a syntax error in its name or arguments: the block is still its body
     (emit_detour says nothing more about the detour itself) */
  | D_DETOUR error block_items {
      $$ = directive(ctx, N_DETOUR, $1);
      $$->name = "";
      $$->name_loc = $1.loc;
      $$->failed = true;
      $$->body = $3.head;
      yyerrok;
    }
  | D_DETOUR IDENT error block_items {
      $$ = directive(ctx, N_DETOUR, $1);
      $$->name = $2.text;
      $$->name_loc = $2.loc;
      $$->failed = true;
      $$->body = $4.head;
      yyerrok;
    }
  | D_DETOUR IDENT error EOL {
      $$ = directive(ctx, N_DETOUR, $1);
      $$->name = $2.text;
      $$->name_loc = $2.loc;
      $$->failed = true;
      yyerrok;
    }
  | D_DETOUR IDENT '(' arglist ')' block_items {
      $$ = directive(ctx, N_DETOUR, $1);
      $$->name = $2.text;
      $$->name_loc = $2.loc;
      set_args(ctx, $$, &$4);
      $$->body = $6.head;
    }
  | D_SYNC EOL { $$ = directive(ctx, N_SYNC, $1); $$->name = $1.text; }
  | D_SYNC LBRACE RBRACE EOL { $$ = directive(ctx, N_SYNC, $1); $$->name = $1.text; }
  | D_MAINHOST block_items {
      $$ = directive(ctx, N_MAINHOST, $1);
      $$->body = $2.head;
    }
  | D_GLOBAL block_items {
      $$ = directive(ctx, N_GLOBAL, $1);
      $$->body = $2.head;
    }
  | D_SUBPROG IDENT '(' arglist ')' EOL items D_END EOL {
      $$ = directive(ctx, N_SUBPROG, $1);
      $$->name = $2.text;
      $$->name_loc = $2.loc;
      set_args(ctx, $$, &$4);
      $$->body = $7.head;
    }
  | D_INSERT IDENT '(' arglist ')' EOL {
      $$ = directive(ctx, N_INSERT, $1);
      $$->name = $2.text;
      $$->name_loc = $2.loc;
      set_args(ctx, $$, &$4);
    }
  | D_STRAY_END EOL {
      diag_error(ctx, $1.loc, "'#end' without a matching '#subprog'");
      $$ = directive(ctx, N_TEXT, $1);
      $$->text = "";
    }
  ;

words: %empty { $$ = (PtrVec){0}; }
  | words IDENT { $$ = $1; ptrvec_push(ctx, &$$, $2.text); }
  | words OTHER { $$ = $1; ptrvec_push(ctx, &$$, $2.text); }
  ;

dims: dim { $$ = (PtrVec){0}; ptrvec_push(ctx, &$$, $1); }
  | dims dim { $$ = $1; ptrvec_push(ctx, &$$, $2); }
  ;

dim: '[' dimspec ']' { $$ = $2; $$->loc = $1.loc; }
  ;

dimspec: cfirst cany { $$ = dimsyn(ctx, $1.head->loc); $$->size = list_cat($1, $2).head; }
  | '#' IDENT { $$ = dimsyn(ctx, $1.loc); $$->ref = $2.text; $$->ref_loc = $2.loc; }
  | cfirst cany '#' IDENT {
      $$ = dimsyn(ctx, $1.head->loc);
      $$->size = list_cat($1, $2).head;
      $$->ref = $4.text;
      $$->ref_loc = $4.loc;
    }
  | dims {
      $$ = dimsyn(ctx, ((DimSyn *)$1.v[0])->loc);
      $$->kids = (DimSyn **)$1.v;
      $$->nkids = $1.n;
    }
  | dims '#' IDENT {
      $$ = dimsyn(ctx, ((DimSyn *)$1.v[0])->loc);
      $$->kids = (DimSyn **)$1.v;
      $$->nkids = $1.n;
      $$->ref = $3.text;
      $$->ref_loc = $3.loc;
    }
  ;

%%

static void yyerror(yyscan_t scanner, Ctx *ctx, LexState *ls, const char *msg)
{
  (void)scanner;
  /* where the lexer said what went wrong, once is enough */
  if (ls->fatal || (ls->quiet_loc.line == ls->last_loc.line && ls->quiet_loc.col == ls->last_loc.col))
    return;
  /* so is the misspelling of a directive that does not parse as the one
     it is near */
  if (ls->dir_misspelt) {
    ls->dir_failed = true;
    ls->dollar_failed |= ls->ndollar > 0;
    return;
  }
  Loc at = ls->last_loc;
  if (!strcmp(msg, "memory exhausted")) {
    diag_error(ctx, at, "blocks nested too deep: parrayc takes at most about %d levels of braces", PA_MAX_NESTING);
    ls->fatal = true;
    return;
  }
  static const char unexpected[] = "syntax error, unexpected ";
  const char *expecting = strstr(msg, ", expecting ");
  if (ls->in_dir && expecting && !strncmp(msg, unexpected, strlen(unexpected)) && ls->prev_end.line &&
      ls->prev_end.line < ls->last_loc.line) {
    /* the directive stops short at the end of a line (an unclosed '{' or
     * '['): the error goes where the missing token belongs, right after
     * the last one it could take, as a C compiler says "expected ']'" */
    at = ls->prev_end;
    const char *what = msg + strlen(unexpected);
    diag_error(ctx, at, "expected %s at the end of this line (the next line goes on with %.*s)",
               expecting + strlen(", expecting "), (int)(expecting - what), what);
  } else {
    diag_error(ctx, at, "%s", msg);
  }
  if (ls->in_dir && at.line != ls->dir_loc.line)
    diag_note(ctx, ls->dir_loc, "in the directive that starts here");
  ls->dir_failed |= ls->in_dir;
  ls->dollar_failed |= ls->ndollar > 0;
}

void nodelist_add(NodeList *l, Node *n)
{
  if (!n)
    return;
  if (l->tail)
    l->tail->next = n;
  else
    l->head = n;
  l->tail = n;
  while (l->tail->next)
    l->tail = l->tail->next;
}

void ptrvec_push(Ctx *ctx, PtrVec *v, void *p)
{
  if (v->n == v->cap) {
    int cap = v->cap ? v->cap * 2 : 4;
    void **nv = ctx_alloc(ctx, sizeof(void *) * cap);
    if (v->n)
      memcpy(nv, v->v, sizeof(void *) * v->n);
    v->v = nv;
    v->cap = cap;
  }
  v->v[v->n++] = p;
}

Node *text_node(Ctx *ctx, const char *text, Loc loc)
{
  Node *n = node_new(ctx, N_TEXT, loc);
  n->text = (char *)text;
  return n;
}

/* The lexer's functions (flex's lexer.h) come after the grammar's: the
 * lexer reads the token kinds the grammar declares. */
#include "lexer.h"

/* Parses len bytes of text for ls (its place and what it asks set); -1
 * when the lexer cannot start.  A $...$ region the input ended inside is
 * kept (its tree may be in use). */
static int parse_text(LexState *ls, const char *text, size_t len)
{
  yyscan_t scanner;
  if (yylex_init_extra(ls, &scanner))
    return -1;
  YY_BUFFER_STATE b = yy_scan_bytes(text, (int)len, scanner);
  int rc = yyparse(scanner, ls->ctx, ls);
  if (ls->dollar_scratch) {
    ctx_keep(ls->ctx);
    ctx_scratch_end(ls->ctx, ls->dollar_mark);
  }
  yy_delete_buffer(b, scanner);
  yylex_destroy(scanner);
  buf_free(&ls->ws);
  return rc;
}

Node *parse_source(Ctx *ctx)
{
  LexState ls = {.ctx = ctx, .ws = {.ctx = ctx}, .line = 1, .col = 1, .lazy_dollars = true};
  int errors = ctx->errors;
  int rc = parse_text(&ls, ctx->src, ctx->src_len);
  if (rc < 0) {
    fputs("parrayc: cannot start the lexer\n", stderr);
    return NULL;
  }
  /* after errors the parser recovered from, the tree is still checked: the
   * errors after the first are worth reporting */
  if (rc != 0 || (ctx->errors > errors && !ctx->tree))
    return NULL;
  if (!ctx->tree) /* an empty file is a valid, empty program */
    ctx->tree = text_node(ctx, "", (Loc){1, 1});
  return ctx->tree;
}

Dx *parse_dollar(Ctx *ctx, const Node *n)
{
  const char *start = ctx->lines[n->loc.line - 1] + n->loc.col - 1;
  const char *end = ctx->lines[n->dollar_end.line - 1] + n->dollar_end.col - 1;
  LexState ls = {.ctx = ctx, .ws = {.ctx = ctx}, .line = n->loc.line, .col = n->loc.col, .dollar_alone = true};
  Loc reading = ctx->reading;
  ctx->muted++;
  int rc = parse_text(&ls, start, (size_t)(end - start));
  ctx->muted--;
  ctx->reading = reading;
  return rc == 0 && ls.alone ? ls.alone->dx : NULL;
}
