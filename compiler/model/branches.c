/* branches.c: the branches of #if groups (branches.h).  parrayc does not
 * run the C preprocessor, but a group that declares something (#parray,
 * #subprog, #mainhost, #global, in any branch) it decides: it evaluates
 * the conditions at the macros it knows (-D, and the #define and #undef
 * lines met so far in branches taken; a name that is neither is
 * undefined, as the preprocessor has it) and leaves out the Parray
 * constructs of the branches not taken.  The C compiler may be given
 * other macros, so such a group is guarded: an #error in each branch left
 * out and, where a branch was taken and the group has no #else, an #else
 * with an #error.  A condition that names a reserved name (__CUDACC__,
 * _OPENMP: the compiler's), a function-like macro or a macro parrayc
 * cannot evaluate is not decided: that branch and the ones after it are
 * translated, unguarded (the branches left out before it keep their
 * #error).  Conditions of constants (#if 0, #if -1 < 0u) are guarded
 * too: the guard is what makes a difference between parrayc's reading
 * and the C compiler's (another target's char, say) an error.
 * A group that declares nothing is translated whole, every branch, and
 * the C compiler chooses: one translation serves every value of its
 * macros; its conditions are still evaluated, for the #define and #undef
 * lines in its branches (one in a branch not decided leaves its name
 * unknown: a condition naming it is not decided). */
#include "model/branches.h"
#include "ctext.h"
#include "model/macros.h"

#include <string.h>

typedef enum Truth { BR_FALSE, BR_TRUE, BR_UNKNOWN } Truth;

typedef struct Group {
  Node *live;          /* the branch taken, or NULL */
  Truth now;           /* of the branch open now */
  bool declares;       /* a branch declares something: parrayc decides */
  bool inert;          /* inside a branch not taken: nothing is decided */
  bool taken;          /* a branch so far was taken */
  bool unknown;        /* a condition was not decided */
  bool has_else;
  Node **dead;         /* the lines of the branches not taken */
  int ndead, cap;
  struct Group *up;
} Group;

/* A name's state as the walk has come to it: #define'd (with its text,
 * NULL for a function-like macro) or #undef'd in a branch taken, or
 * either in a branch parrayc cannot decide (a name none of these is -D'd
 * or not) */
typedef enum DefState { DEF_NO, DEF_YES, DEF_MAYBE } DefState;
typedef struct Def {
  const char *name;
  DefState state;
  const char *text;
} Def;

typedef struct Walk {
  Ctx *ctx;
  Group *top;          /* the innermost group open */
  Map defs;            /* Def by name */
  Node **open;         /* pass 1: the #if lines of the groups open */
  int nopen, cap;
} Walk;

static bool def_is(const void *item, const void *key)
{
  return !strcmp(((const Def *)item)->name, key);
}

static DefState defined_now(Walk *w, const char *name)
{
  Def *d = map_get(&w->defs, util_hash_str(name, HASH_SEED), def_is, name);
  return d ? d->state : macro_given(w->ctx, name) ? DEF_YES : DEF_NO;
}

/* #define NAME (its line ending at end) or #undef NAME in a branch taken
 * (maybe: in one parrayc cannot decide) */
static void define(Walk *w, CTok name, bool defined, bool maybe, const char *end)
{
  if (name.kind != CT_IDENT)
    return;
  char *s = ctx_strndup(w->ctx, name.s, name.n);
  unsigned long h = util_hash_str(s, HASH_SEED);
  Def *d = map_get(&w->defs, h, def_is, s);
  if (!d) {
    d = ctx_alloc(w->ctx, sizeof *d);
    d->name = s;
    map_put(w->ctx, &w->defs, h, d);
  }
  d->state = maybe ? DEF_MAYBE : defined ? DEF_YES : DEF_NO;
  d->text = defined ? macro_body(w->ctx, name.s + name.n, end) : NULL;
}

/* A name in an #if condition: the text of its macro where the walk
 * stands (the program's #define met last, else -D); none is 0; one
 * parrayc cannot know makes the condition undecided */
static bool meaning_now(void *arg, const char *name, CevalMeaning *m)
{
  Walk *w = arg;
  Def *d = map_get(&w->defs, util_hash_str(name, HASH_SEED), def_is, name);
  const char *from;
  if (d && d->state == DEF_MAYBE)
    return true;
  m->text = d ? d->text : macro_given(w->ctx, name) ? macro_text(w->ctx, name, &from) : NULL;
  return m->text != NULL || (d && d->state == DEF_YES); /* a function-like one */
}

/* the C compiler's and the system's names, which parrayc cannot know */
static bool reserved_name(const char *s, size_t n)
{
  return n >= 2 && s[0] == '_' && (s[1] == '_' || (s[1] >= 'A' && s[1] <= 'Z'));
}

static Truth defined_name(Walk *w, CTok t)
{
  if (t.kind != CT_IDENT || reserved_name(t.s, t.n))
    return BR_UNKNOWN;
  DefState d = defined_now(w, ctx_strndup(w->ctx, t.s, t.n));
  return d == DEF_MAYBE ? BR_UNKNOWN : d == DEF_YES ? BR_TRUE : BR_FALSE;
}

/* The next token of a condition: a continued line goes on */
static CTok condition_token(CText *c)
{
  CTok t = ctext_code(c);
  while (ctok_is(t, '\\'))
    t = ctext_code(c);
  return t;
}

/* #if EXPR: defined(NAME) as 0 or 1, the rest at the macros' values as
 * the walk has come to them, evaluated as the preprocessor does */
static Truth expr_truth(Walk *w, CText *c)
{
  Ctx *ctx = w->ctx;
  Buf b = {.ctx = ctx};
  Truth r = BR_UNKNOWN;
  const char *after = NULL; /* the end of the last token */
  for (CTok t = condition_token(c); t.kind != CT_END; t = condition_token(c)) {
    if (ctok_word(t, "defined")) {
      CTok name = condition_token(c);
      bool paren = ctok_is(name, '(');
      if (paren)
        name = condition_token(c);
      Truth d = defined_name(w, name);
      if (d == BR_UNKNOWN || (paren && !ctok_is(condition_token(c), ')')))
        goto out;
      buf_puts(&b, d == BR_TRUE ? " 1" : " 0");
    } else if (t.kind == CT_IDENT && t.n <= 2 && t.s + t.n == c->p && *c->p == '\'' &&
               (ctok_word(t, "L") || ctok_word(t, "u") || ctok_word(t, "U"))) {
      buf_printf(&b, " %.*s", (int)t.n, t.s); /* the prefix of a character constant */
      after = t.s + t.n;
      continue;
    } else if (t.kind == CT_IDENT) {
      char *name = ctx_strndup(ctx, t.s, t.n);
      if (reserved_name(t.s, t.n) || macro_function_like(ctx, name))
        goto out;
      DefState d = defined_now(w, name);
      if (d == DEF_MAYBE)
        goto out;
      buf_printf(&b, " %s", d == DEF_YES ? name : "0");
    } else { /* "||" is two tokens: apart only where they were */
      buf_printf(&b, "%s%.*s", t.s == after ? "" : " ", (int)t.n, t.s);
    }
    after = t.s + t.n;
  }
  CevalValue v;
  if (b.data && ceval_value(w->ctx, b.data, CEVAL_IF, meaning_now, w, &v, NULL))
    r = v.bits ? BR_TRUE : BR_FALSE;
out:
  buf_free(&b);
  return r;
}

/* The truth of a conditional line's condition after its word k */
static Truth condition(Walk *w, CTok k, CText *c)
{
  if (ctok_word(k, "ifdef") || ctok_word(k, "elifdef"))
    return defined_name(w, condition_token(c));
  if (ctok_word(k, "ifndef") || ctok_word(k, "elifndef")) {
    Truth t = defined_name(w, condition_token(c));
    return t == BR_UNKNOWN ? t : t == BR_TRUE ? BR_FALSE : BR_TRUE;
  }
  return expr_truth(w, c);
}

/* Is the region of g in a branch not taken (of a group that declares
 * something only: what parrayc leaves out; or of any group)? */
static bool region_dead(const Group *g, bool declaring)
{
  for (; g; g = g->up)
    if (g->now == BR_FALSE && (g->declares || !declaring))
      return true;
  return false;
}

static bool region_undecided(const Group *g)
{
  for (; g; g = g->up)
    if (g->now == BR_UNKNOWN)
      return true;
  return false;
}

/* appends n to the array *v of *len (room for *cap) */
static void node_push(Ctx *ctx, Node ***v, int *len, int *cap, Node *n)
{
  if (*len == *cap) {
    Node **grown = ctx_alloc(ctx, sizeof(Node *) * (*cap = 2 * *cap + 8));
    if (*len)
      memcpy(grown, *v, sizeof(Node *) * *len);
    *v = grown;
  }
  (*v)[(*len)++] = n;
}

/* A branch opens at line (#if or #elif, truth t of its condition; #else) */
static void open_branch(Ctx *ctx, Group *g, Node *line, Truth t)
{
  if (g->inert) {
    g->now = BR_FALSE;
    return;
  }
  if (g->taken)
    t = BR_FALSE;
  else if (t == BR_UNKNOWN || g->unknown)
    g->unknown = true, t = BR_UNKNOWN;
  g->now = t;
  if (t == BR_TRUE) {
    g->taken = true;
    g->live = line;
  } else if (t == BR_FALSE) {
    node_push(ctx, &g->dead, &g->ndead, &g->cap, line);
  }
}

/* #endif: the guards of the branches decided (those left out before a
 * condition parrayc could not decide too: the C compiler may take them) */
static void close_group(Group *g, Node *endif)
{
  if (g->inert || !g->declares)
    return;
  for (int i = 0; i < g->ndead; i++) {
    g->dead[i]->guard = GUARD_DEAD;
    g->dead[i]->guard_at = g->dead[i]->loc;
  }
  if (g->live && !g->has_else) {
    endif->guard = GUARD_ELSE;
    endif->guard_at = g->live->loc;
  }
}

static bool conditional_word(CTok k)
{
  static const char *const words[] = {"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (ctok_word(k, words[i]))
      return true;
  return false;
}

static bool opens_group(CTok k)
{
  return ctok_word(k, "if") || ctok_word(k, "ifdef") || ctok_word(k, "ifndef");
}

/* The word after the '#' of text n when it is a preprocessor line (the
 * lexer makes each one a text node); else CT_END */
static CTok directive_word(Node *n, CText *c)
{
  const char *s = n->kind == N_TEXT && n->text ? n->text + strspn(n->text, " \t") : "";
  *c = ctext(*s == '#' ? s + 1 : "", NULL, 0);
  return ctext_code(c);
}

static bool declaration(const Node *n)
{
  return n->kind == N_PARRAY || n->kind == N_SUBPROG || n->kind == N_MAINHOST || n->kind == N_GLOBAL;
}

/* Pass 1: the #if lines of the groups that declare something, in any
 * branch and at any depth, marked (Node.declares) */
static void find_declaring(Walk *w, Node *list)
{
  for (Node *n = list; n; n = n->next) {
    CText c;
    CTok k = directive_word(n, &c);
    if (opens_group(k)) {
      node_push(w->ctx, &w->open, &w->nopen, &w->cap, n);
    } else if (ctok_word(k, "endif") && w->nopen) {
      w->nopen--;
    } else if (declaration(n)) {
      for (int i = 0; i < w->nopen; i++)
        w->open[i]->declares = true;
    }
    if (n->body)
      find_declaring(w, n->body);
  }
}

/* A conditional line k of text n: the group it opens, goes on with or
 * closes */
static void conditional(Walk *w, Node *n, CTok k, CText *c)
{
  Group *g = w->top;
  if (opens_group(k)) {
    Group *in = ctx_alloc(w->ctx, sizeof *in);
    in->up = g;
    in->inert = region_dead(g, false);
    in->declares = n->declares; /* else every branch is translated, as the C compiler will choose */
    open_branch(w->ctx, in, n, in->inert ? BR_FALSE : condition(w, k, c));
    w->top = in;
  } else if (g && ctok_word(k, "else")) {
    g->has_else = true;
    open_branch(w->ctx, g, n, BR_TRUE);
  } else if (g && ctok_word(k, "endif")) {
    close_group(g, n);
    w->top = g->up;
  } else if (g) { /* #elif, #elifdef, #elifndef */
    open_branch(w->ctx, g, n, g->inert || g->taken ? BR_FALSE : condition(w, k, c));
  }
}

/* Text n when it is a preprocessor line (the lexer makes each one a text
 * node): a conditional line, #define or #undef.  False for other text. */
static bool preprocessor_line(Walk *w, Node *n)
{
  CText c;
  CTok k = directive_word(n, &c);
  if (conditional_word(k))
    conditional(w, n, k, &c);
  else if ((ctok_word(k, "define") || ctok_word(k, "undef")) && !region_dead(w->top, false))
    define(w, ctext_code(&c), ctok_word(k, "define"), region_undecided(w->top), n->text + strlen(n->text));
  else
    return false;
  return true;
}

static void mark(Walk *w, Node *list)
{
  for (Node *n = list; n; n = n->next) {
    if (preprocessor_line(w, n))
      continue;
    bool construct = n->kind != N_TEXT && n->kind != N_BLOCK;
    if (construct || (n->kind == N_TEXT && n->text && ctext_parray_pragma(n->text)))
      n->dead = region_dead(w->top, true);
    if (n->body)
      mark(w, n->body);
  }
}

void branches_mark(Ctx *ctx, Node *tree)
{
  Walk w = {ctx, NULL, {0}, NULL, 0, 0};
  find_declaring(&w, tree);
  mark(&w, tree);
  map_free(&w.defs);
}
