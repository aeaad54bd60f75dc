/* scope.c: names declared by the C text (a light reading of declarations,
 * function headers, comments and preprocessor lines) and by #create. */
#include "print/scope.h"
#include "ctext.h"

#include <string.h>

static const char *scope_scan(Ctx *ctx, Scope *s);

Scope *scope_open(Ctx *ctx, Scope *parent, bool function)
{
  Scope *s = ctx_alloc(ctx, sizeof *s);
  s->ctx = ctx;
  s->text.ctx = ctx;
  s->parent = parent;
  s->function = function;
  /* the statement before '{' (read as C: a ';' or '{' in a comment before
   * it does not end the one before): a function header declares parameters */
  if (parent)
    s->header = ctx_strdup(ctx, scope_scan(ctx, parent));
  return s;
}

/* A directive there is that body, and its translation may be several
 * statements, of which an unbraced head would govern only the first.  The
 * tokens are read once: each call resumes before the last token read (more
 * text may extend it: an identifier, an unclosed comment) with the state
 * saved there. */
bool scope_ends_in_statement_head(Scope *s)
{
  const Buf *b = &s->text;
  if (!b->len)
    return false;
  HeadScan h = s->head;
  if (h.at == 0)
    h.bol = true;
  CText c = ctext(b->data + h.at, b->data + b->len, CT_DIRECTIVES);
  c.bol = h.bol;
  c.member = h.member;
  HeadScan before = h;
  for (;;) {
    HeadScan here = h;
    here.at = (size_t)(c.p - b->data);
    here.bol = c.bol;
    here.member = c.member;
    CTok t = ctext_next(&c);
    if (t.kind == CT_END)
      break;
    before = here;
    if (t.kind == CT_SPACE || t.kind == CT_COMMENT || t.kind == CT_PREPROC)
      continue;
    bool closes_head = false;
    if (ctok_is(t, '(')) {
      if (h.depth++ == 0)
        h.control_parens = h.prev_control;
    } else if (ctok_is(t, ')') && h.depth > 0) {
      closes_head = --h.depth == 0 && h.control_parens;
    }
    h.prev_control = ctok_word(t, "if") || ctok_word(t, "for") || ctok_word(t, "while") || ctok_word(t, "switch");
    h.last_head = closes_head || (h.depth == 0 && (ctok_word(t, "else") || ctok_word(t, "do")));
  }
  s->head = before;
  return h.last_head;
}

static void read_macros(Ctx *ctx, Scope *s);
static void block_names(Ctx *ctx, Scope *s);

void scope_close(Scope *s)
{
  Scope *p = s->parent;
  if (p && !p->file_scope) {
    read_macros(s->ctx, s);
    block_names(s->ctx, s);
  }
  buf_free(&s->text);
  map_free(&s->names);
  map_free(&s->declared);
  map_free(&s->created);
}

Scope *scope_file(Scope *s)
{
  while (s->parent)
    s = s->parent;
  return s;
}

/* A name declared by #create or as a parameter, with its declaration. */
typedef struct Named {
  const char *name;
  const char *decl;
} Named;

static bool named_is(const void *item, const void *key)
{
  return !strcmp(((const Named *)item)->name, key);
}

static Named *named(const Scope *s, const char *name)
{
  return map_get(&s->names, util_hash_str(name, HASH_SEED), named_is, name);
}

void scope_declare_as(Ctx *ctx, Scope *s, const char *name, const char *decl)
{
  Named *x = named(s, name);
  if (!x) {
    x = ctx_alloc(ctx, sizeof *x);
    x->name = ctx_strdup(ctx, name);
    map_put(ctx, &s->names, util_hash_str(name, HASH_SEED), x);
  }
  x->decl = decl ? ctx_strdup(ctx, decl) : NULL;
}

void scope_declare(Ctx *ctx, Scope *s, const char *name)
{
  scope_declare_as(ctx, s, name, NULL);
}

/* ---- #create of plain names: a second one without #destroy is an error ---- */

typedef struct Created {
  const char *name;
  Node *node;      /* NULL once destroyed */
  Node *destroyed; /* the #destroy that ended it, in straight-line code */
  size_t at;       /* the length of the scope's text there */
} Created;

static bool created_is(const void *item, const void *key)
{
  return !strcmp(((const Created *)item)->name, key);
}

static Created *creation(Scope *in, const char *p)
{
  /* up to the enclosing function: an outlined detour body has its own names */
  for (Scope *s = in; s; s = s->function ? NULL : s->parent) {
    Created *c = map_get(&s->created, util_hash_str(p, HASH_SEED), created_is, p);
    if (c && c->node)
      return c;
  }
  return NULL;
}

Node *scope_creation(Scope *s, const char *p)
{
  Created *c = creation(s, p);
  return c ? c->node : NULL;
}

void scope_created(Ctx *ctx, Scope *s, const char *p, Node *n)
{
  Created *c = map_get(&s->created, util_hash_str(p, HASH_SEED), created_is, p);
  if (!c) {
    c = ctx_alloc(ctx, sizeof *c);
    c->name = ctx_strdup(ctx, p);
    map_put(ctx, &s->created, util_hash_str(p, HASH_SEED), c);
  }
  c->node = n;
}

void scope_destroyed(Scope *s, const char *p, Node *n)
{
  Created *c = creation(s, p);
  if (c) {
    c->node = NULL;
    c->destroyed = n;
    c->at = s->text.len;
  }
}

/* Can control reach the end of [t, end) other than by running through it
 * (a label, a jump, a branch), or does it use name p (which it may assign
 * a new block)? */
static bool text_branches(const char *t, const char *end, const char *p)
{
  static const char *const words[] = {"case", "default", "break", "continue", "return", "goto", "if", "else",
                                      "while", "for", "do", "switch", "exit", "longjmp", NULL};
  CText c = ctext(t, end, CT_DIRECTIVES);
  for (CTok k = ctext_code(&c); k.kind != CT_END; k = ctext_code(&c)) {
    if (ctok_is(k, ':') || k.kind == CT_PREPROC || ctok_word(k, p))
      return true;
    for (int i = 0; words[i]; i++)
      if (ctok_word(k, words[i]))
        return true;
  }
  return false;
}

Node *scope_destroyed_before(Scope *s, const char *p)
{
  Created *c = map_get(&s->created, util_hash_str(p, HASH_SEED), created_is, p);
  if (!c || c->node || !c->destroyed || c->at > s->text.len)
    return NULL;
  return text_branches(s->text.data + c->at, s->text.data + s->text.len, p) ? NULL : c->destroyed;
}

static bool is_decl_word(const char *w, size_t n)
{
  return ctext_type_word(w, n);
}

/* A qualifier or a storage class: what may stand before a typedef name. */
static bool qualifier(CTok t)
{
  return t.kind == CT_IDENT && ctext_qualifier_word(t.s, t.n);
}

/* "typeof(a)": a type word whose parenthesised operand belongs to it */
static bool typeof_word(CTok t)
{
  return ctok_word(t, "typeof") || ctok_word(t, "__typeof__") || ctok_word(t, "__typeof");
}

/* One declarator of a declaration statement: [spec, spec_end) holds the
 * type words, [decl, decl_end) the declarator ("*a", "x[10]",
 * initialiser excluded), [name, name + len) the name it declares. */
typedef struct Declarator {
  const char *spec, *spec_end, *decl, *decl_end, *name;
  size_t len;
  /* "x * y;": x read as a typedef name, [guess, guess + guess_len), which C reads
     as a product where x names an object (add_declared asks) */
  const char *guess;
  size_t guess_len;
} Declarator;

/* A word whose parenthesised operand says something of the object
 * declared, not of its type: "_Alignas(16)", "__attribute__((unused))",
 * an asm label. */
static bool attribute_word(CTok t)
{
  static const char *const words[] = {"_Alignas", "alignas", "__attribute__", "__attribute", "__declspec",
                                      "asm", "__asm__", "__asm", NULL};
  for (int i = 0; words[i]; i++)
    if (ctok_word(t, words[i]))
      return true;
  return false;
}

/* The end of the attribute group that attribute word t begins, with c
 * after it; NULL (c as it was) when t begins none. */
static const char *attribute_end(CTok t, CText *c, const char *end)
{
  if (!attribute_word(t))
    return NULL;
  CText peek = *c;
  CTok u = ctext_code(&peek);
  const char *close = ctok_is(u, '(') ? ctext_close(u.s, end) : NULL;
  if (close)
    *c = ctext(close + 1, end, CT_DIRECTIVES);
  return close ? close + 1 : NULL;
}

/* [s, end) without its attribute groups (attribute_word) */
static char *without_attributes(Ctx *ctx, const char *s, const char *end)
{
  Buf b = {.ctx = ctx};
  const char *done = s;
  CText c = ctext(s, end, CT_DIRECTIVES);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c)) {
    const char *after = attribute_end(t, &c, end);
    if (after) {
      buf_printf(&b, "%.*s", (int)(t.s - done), done);
      done = after;
    }
  }
  buf_printf(&b, "%.*s", (int)(end - done), done);
  char *r = ctx_strdup(ctx, b.data ? b.data : "");
  buf_free(&b);
  return r;
}

/* Calls found(arg, d) for each declarator of the statement [s, end): a
 * declaration starts with type words (or two identifiers in a row, a
 * typedef name), and the first identifier of each declarator is the name
 * it declares.  Stops early when found returns true. */
static void statement_declarators(const char *s, const char *end, bool (*found)(void *, const Declarator *),
                                  void *arg)
{
  int words = 0;
  bool is_decl = false;
  Declarator d = {0};
  /* comments and preprocessor lines (#include ...) before the statement are skipped */
  CText c = ctext(s, end, CT_DIRECTIVES);
  CTok t = ctext_code(&c);
  if (t.kind == CT_IDENT && !ctext_statement_word(t.s, t.n) && !is_decl_word(t.s, t.n) && !attribute_word(t) &&
      !typeof_word(t)) {
    /* "NOTE(x)\n int y = 5": a macro call that brings its own ';' and then a
       declaration, read as one statement; no C statement has a name after a call's ')' */
    CText peek = c;
    CTok u = ctext_code(&peek);
    const char *close = ctok_is(u, '(') ? ctext_close(u.s, end) : NULL;
    if (close) {
      CText after = ctext(close + 1, end, CT_DIRECTIVES);
      if (ctext_code(&after).kind == CT_IDENT) {
        statement_declarators(close + 1, end, found, arg);
        return;
      }
    }
  }
  d.spec = d.spec_end = t.s;
  bool star = false;
  bool base = false; /* a type word other than a qualifier or a storage class */
  for (;; t = ctext_code(&c)) {
    if (ctok_is(t, '*')) {
      star = true;
      continue;
    }
    if (t.kind != CT_IDENT || (star && is_decl)) /* "* const": the declarator's */
      break;
    if (ctext_statement_word(t.s, t.n)) /* "else x = 2;", "return *p;": a statement */
      return;
    if (ctok_word(t, "struct") || ctok_word(t, "union") || ctok_word(t, "enum")) {
      /* the tag is a type word here, not the declarator's name */
      is_decl = base = true;
      words++;
      d.spec_end = t.s + t.n;
      CText peek = c;
      CTok u = ctext_code(&peek);
      if (u.kind == CT_IDENT) {
        c = peek;
        d.spec_end = u.s + u.n;
        u = ctext_code(&peek);
      }
      const char *close = ctok_is(u, '{') ? ctext_close(u.s, end) : NULL;
      if (close) { /* the type's body: part of the type words */
        c = ctext(close + 1, end, CT_DIRECTIVES);
        d.spec_end = close + 1;
      }
      continue;
    }
    const char *after = attribute_end(t, &c, end);
    if (after) { /* "_Alignas(16) int x", "int __attribute__((unused)) x" */
      if (is_decl)
        d.spec_end = after;
      continue;
    }
    if (typeof_word(t)) {
      /* "__typeof__(a) b": the parenthesised operand is a type word */
      CText peek = c;
      CTok u = ctext_code(&peek);
      const char *close = ctok_is(u, '(') ? ctext_close(u.s, end) : NULL;
      if (close) {
        is_decl = base = true;
        words++;
        c = ctext(close + 1, end, CT_DIRECTIVES);
        d.spec_end = close + 1;
        continue;
      }
    }
    if (is_decl_word(t.s, t.n)) {
      is_decl = true;
      words++;
      base = base || !qualifier(t);
      d.spec_end = t.s + t.n;
      continue;
    }
    if (is_decl && !base && !star) {
      /* "const T x", "static T *p": after qualifiers alone, a typedef name */
      CText peek = c;
      CTok u = ctext_code(&peek);
      if (u.kind == CT_IDENT || ctok_is(u, '*')) {
        base = true;
        d.spec_end = t.s + t.n;
        continue;
      }
    }
    if (!is_decl && words == 0) {
      /* a typedef name must be followed, on its line, by another identifier or '*' */
      const char *q = t.s + t.n;
      while (q < end && (*q == ' ' || *q == '\t'))
        q++;
      CText peek = c;
      CTok u = ctext_code(&peek);
      if (u.s == q && (u.kind == CT_IDENT || ctok_is(u, '*'))) {
        is_decl = true;
        words++;
        d.spec_end = t.s + t.n;
        if (ctok_is(u, '*'))
          d.guess = t.s, d.guess_len = t.n;
        continue;
      }
      return;
    }
    if (!is_decl)
      return;
    break; /* t is the first declarator's name */
  }
  if (!is_decl)
    return;
  int depth = 0;
  bool want = true;
  bool group = true; /* only '(' and '*' so far in this declarator: "(*grid)[4]", "(*op)(int)" */
  const char *start = d.spec_end;
  for (; t.kind != CT_END; t = ctext_code(&c)) {
    if (t.kind == CT_PUNCT && t.n == 1 && strchr("([{", t.s[0])) {
      group = group && t.s[0] == '(';
      depth++;
    } else if (t.kind == CT_PUNCT && t.n == 1 && strchr(")]}", t.s[0]))
      depth--;
    else if ((ctok_is(t, ',') || ctok_is(t, '=')) && depth == 0) {
      if (d.name) {
        d.decl_end = t.s;
        if (found(arg, &d))
          return;
        d.name = NULL;
      }
      want = ctok_is(t, ',');
      group = true;
      start = t.s + 1;
    } else if (t.kind == CT_IDENT && want && (depth == 0 || group) && !is_decl_word(t.s, t.n)) {
      d.name = t.s;
      d.len = t.n;
      d.decl = start;
      want = false;
    } else if (!ctok_is(t, '*') && !(t.kind == CT_IDENT && is_decl_word(t.s, t.n))) {
      group = false;
    }
  }
  if (d.name) {
    d.decl_end = end;
    found(arg, &d);
  }
}

typedef struct NameQuery {
  const char *name;
  Declarator d;
  bool found;
} NameQuery;

static bool name_query(void *arg, const Declarator *d)
{
  NameQuery *q = arg;
  if (strlen(q->name) != d->len || strncmp(d->name, q->name, d->len))
    return false;
  q->d = *d;
  q->found = true;
  return true;
}

/* Finds the declarator of `name` in the statement [s, end). */
static bool find_declarator(const char *s, const char *end, const char *name, Declarator *d)
{
  NameQuery q = {name, {0}, false};
  statement_declarators(s, end, name_query, &q);
  *d = q.d;
  return q.found;
}

static bool statement_declares(const char *s, const char *end, const char *name)
{
  Declarator d;
  return find_declarator(s, end, name, &d);
}

/* Does [s, end) hold a code brace, not one in a comment? */
static bool code_brace(const char *s, const char *end)
{
  CText c = ctext(s, end, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c))
    if (ctok_is(t, '{'))
      return true;
  return false;
}

/* "int rows" from "static const int cols = 2, rows = 3" (storage class
 * dropped), or NULL; *reg (unless NULL): whether the storage class was
 * register */
static char *statement_declaration(Ctx *ctx, const char *s, const char *end, const char *name, bool *reg)
{
  Declarator dc;
  if (!find_declarator(s, end, name, &dc))
    return NULL;
  const char *spec = without_attributes(ctx, dc.spec, dc.spec_end);
  char *d = util_str_trim(ctx, without_attributes(ctx, dc.decl, dc.decl_end));
  if (code_brace(spec, NULL) || strchr(spec, '(')) /* a type defined here, or typeof's: as written */
    return ctx_printf(ctx, "%s %s", util_str_trim(ctx, ctx_strdup(ctx, spec)), d);
  Buf b = {.ctx = ctx};
  CText c = ctext(spec, NULL, 0); /* the type words, comments between them left out */
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c)) {
    static const char *storage[] = {"static", "extern", "register", "auto", "inline", NULL};
    bool drop = t.kind != CT_IDENT;
    for (int i = 0; storage[i] && !drop; i++)
      drop = ctok_word(t, storage[i]);
    if (reg && ctok_word(t, "register"))
      *reg = true;
    if (!drop)
      buf_printf(&b, "%s%.*s", b.len ? " " : "", (int)t.n, t.s);
  }
  buf_printf(&b, " %s", d);
  char *r = ctx_strdup(ctx, b.data);
  buf_free(&b);
  return r;
}

/* The init clause of a statement "for (INIT; ...", or NULL; *init_end
 * is its ';'. */
static const char *for_init(const char *s, const char *end, const char **init_end)
{
  CText c = ctext(s, end, CT_DIRECTIVES); /* after blanks and preprocessor lines (#line) */
  CTok t = ctext_code(&c);
  if (!ctok_word(t, "for") || !ctok_is(t = ctext_code(&c), '('))
    return NULL;
  const char *init = t.s + 1;
  for (t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c))
    if (ctok_is(t, ';')) {
      *init_end = t.s;
      return init;
    }
  return NULL;
}

/* Splits [t, end) into statements (ended by ';', '{' or '}' outside
 * parentheses) and calls each(arg, start, end) on each complete one, which
 * stops the split by returning true.  Returns where the incomplete rest
 * begins (or the end of the stopping statement in *stop). */
static const char *each_statement(const char *t, const char *end,
                                  bool (*each)(void *, const char *, const char *), void *arg,
                                  const char **stop)
{
  const char *start = t;
  int depth = 0, init = 0; /* init: the depth of braces of an initialiser ("= {1, 2}") */
  bool assign = false;     /* the last code token was '=' (or ',' inside an initialiser) */
  int tagged = 0;          /* 1: after struct, union or enum; 2: after its tag */
  CText c = ctext(t, end, CT_DIRECTIVES);
  for (CTok k = ctext_next(&c); k.kind != CT_END; k = ctext_next(&c)) {
    if (ctok_open_comment(k))
      break; /* the comment goes on in text still to come */
    if (k.kind == CT_SPACE || k.kind == CT_COMMENT || k.kind == CT_PREPROC)
      continue;
    bool was_assign = assign;
    assign = ctok_is(k, '=') || (init && ctok_is(k, ','));
    /* "struct tag {": a type's body, which does not end the statement either */
    int was_tagged = tagged;
    tagged = ctok_word(k, "struct") || ctok_word(k, "union") || ctok_word(k, "enum") ? 1
             : was_tagged == 1 && k.kind == CT_IDENT                                ? 2
                                                                                    : 0;
    if (k.kind != CT_PUNCT || k.n != 1)
      continue;
    if (k.s[0] == '{' && (init || was_assign || was_tagged)) {
      init++;
      assign = true; /* a nested brace may follow at once */
      continue;
    }
    if (k.s[0] == '}' && init) {
      init--;
      continue;
    }
    if (init)
      continue;
    depth += (k.s[0] == '(') - (k.s[0] == ')');
    if (depth <= 0 && strchr(";{}", k.s[0])) {
      if (each(arg, start, k.s)) {
        *stop = k.s;
        return start;
      }
      start = k.s + 1;
      depth = 0;
    }
  }
  return start;
}

typedef struct DeclQuery {
  const char *name;
  const char *start, *end; /* the declaring statement, when found */
} DeclQuery;

static bool statement_query(void *arg, const char *s, const char *e)
{
  DeclQuery *q = arg;
  const char *init_end;
  const char *init = for_init(s, e, &init_end);
  if (statement_declares(s, e, q->name)) {
    q->start = s;
    q->end = e;
  } else if (init && statement_declares(init, init_end, q->name)) {
    q->start = init;
    q->end = init_end;
  }
  return q->start != NULL;
}

/* The statement of text t that declares `name`: its start (*end its end),
 * or NULL.  The statement left incomplete at the end of t counts too. */
static const char *declaring_statement(const char *t, const char *name, const char **end)
{
  DeclQuery q = {name, NULL, NULL};
  const char *stop;
  const char *rest = each_statement(t, NULL, statement_query, &q, &stop);
  if (!q.start)
    statement_query(&q, rest, rest + strlen(rest));
  *end = q.end;
  return q.start;
}

bool scope_text_declares(const char *t, const char *name)
{
  const char *end;
  return declaring_statement(t, name, &end) != NULL;
}

/* ---- which uses of a name in a body are of a declaration outside it ---- */

#define USE_DEPTH 256 /* blocks followed this deep; deeper ones are taken as one */

/* Where the statement that goes on at p ends: its ';', or a '{' or '}'
 * of a block at parenthesis depth 0 (the braces of an initialiser, a
 * compound literal or a struct's members are skipped), else end. */
static const char *statement_end(const char *p, const char *end)
{
  CText c = ctext(p, end, CT_DIRECTIVES);
  int depth = 0;
  CTok prev = {CT_END, p, 0, false};
  for (CTok t = ctext_code(&c); t.kind != CT_END; prev = t, t = ctext_code(&c)) {
    if (ctok_is(t, '(') || ctok_is(t, '['))
      depth++;
    else if (ctok_is(t, ')') || ctok_is(t, ']'))
      depth--;
    else if (depth <= 0 && ctok_is(t, '{') &&
             (ctok_is(prev, '=') || ctok_is(prev, ',') || ctok_is(prev, ')') || prev.kind == CT_IDENT)) {
      const char *close = ctext_close(t.s, end);
      if (!close)
        return end;
      c = ctext(close + 1, end, CT_DIRECTIVES);
      t = (CTok){CT_PUNCT, close, 1, false};
    } else if (depth <= 0 && (ctok_is(t, ';') || ctok_is(t, '{') || ctok_is(t, '}')))
      return t.s;
  }
  return end;
}

/* The scopes that scope_text_each_use follows: blocks and for statements */
typedef struct UseScopes {
  bool declared[USE_DEPTH]; /* name is declared in this scope */
  int for_parens[USE_DEPTH]; /* a for statement's: the parenthesis depth it stands at; a block's: -1 */
  int n;
  bool block_brace[USE_DEPTH]; /* each open brace: a block's (not an initialiser's or a compound literal's) */
  int braces;
  bool control[USE_DEPTH];  /* each open parenthesis: the head of if, for, while or switch */
  int parens;
} UseScopes;

static void open_scope(UseScopes *u, int for_parens)
{
  if (u->n + 1 < USE_DEPTH) {
    u->n++;
    u->declared[u->n] = false;
    u->for_parens[u->n] = for_parens;
  }
}

/* Ends the for statements that the statement ending here governed. */
static void end_for_statements(UseScopes *u)
{
  while (u->n > 0 && u->for_parens[u->n] == u->parens)
    u->n--;
}

/* Is the identifier before cursor c, after prev (closing a control head
 * when control), a label ("done:" where a statement starts)? */
static bool label(CTok prev, bool control, const CText *c)
{
  bool start = prev.kind == CT_END || ctok_is(prev, '{') || ctok_is(prev, '}') || ctok_is(prev, ';') ||
               ctok_is(prev, ':') || ctok_word(prev, "else") || ctok_word(prev, "do") || control;
  CText peek = *c;
  return start && ctok_is(ctext_code(&peek), ':');
}

void scope_text_each_use(const char *t, const char *name, void (*use)(void *arg, const char *at, bool outer),
                         void *arg)
{
  const char *end = t + strlen(t);
  UseScopes u = {.n = 0};
  const char *stmt = t;        /* where the current statement began */
  const char *for_init = NULL; /* inside "for (": where its first clause began */
  CTok prev = {CT_END, t, 0, false};
  bool closed_control = false; /* prev is the ')' of a control head */
  CText c = ctext(t, NULL, CT_DIRECTIVES);
  for (CTok k = ctext_code(&c); k.kind != CT_END; prev = k, k = ctext_code(&c)) {
    bool was_control = closed_control;
    closed_control = false;
    if (ctok_is(k, '(')) {
      bool head = ctok_word(prev, "if") || ctok_word(prev, "for") || ctok_word(prev, "while") ||
                  ctok_word(prev, "switch");
      if (ctok_word(prev, "for")) { /* "for (": a scope of its own, to the end of what it governs */
        open_scope(&u, u.parens);
        for_init = k.s + 1;
      }
      if (u.parens + 1 < USE_DEPTH)
        u.control[u.parens + 1] = head;
      u.parens++;
    } else if (ctok_is(k, ')')) {
      closed_control = u.parens > 0 && u.parens < USE_DEPTH && u.control[u.parens];
      u.parens -= u.parens > 0; /* one too many (text that does not parse): depth 0 still */
    } else if (ctok_is(k, '{')) {
      bool block = prev.kind == CT_END || ctok_is(prev, '{') || ctok_is(prev, '}') || ctok_is(prev, ';') ||
                   ctok_is(prev, ':') || ctok_is(prev, '(') || ctok_word(prev, "else") || ctok_word(prev, "do") ||
                   was_control;
      if (u.braces + 1 < USE_DEPTH)
        u.block_brace[u.braces + 1] = block;
      u.braces++;
      if (block) {
        open_scope(&u, -1);
        stmt = k.s + 1;
      }
    } else if (ctok_is(k, '}')) {
      bool block = u.braces > 0 && (u.braces >= USE_DEPTH || u.block_brace[u.braces]);
      u.braces -= u.braces > 0;
      if (block) {
        if (u.n > 0)
          u.n--;
        end_for_statements(&u);
        stmt = k.s + 1;
      }
    } else if (ctok_is(k, ';')) {
      if (for_init)
        for_init = NULL; /* the for's first clause ends: the rest of its head declares nothing */
      else if (u.braces == 0 || u.block_brace[u.braces < USE_DEPTH ? u.braces : USE_DEPTH - 1]) {
        end_for_statements(&u);
        stmt = k.s + 1;
      }
    } else if (k.kind == CT_IDENT && !k.member && ctok_word(k, name) && !ctok_word(prev, "struct") &&
               !ctok_word(prev, "union") && !ctok_word(prev, "enum") && !ctok_word(prev, "goto") &&
               !label(prev, was_control, &c)) {
      const char *from = for_init ? for_init : stmt;
      Declarator dc;
      if (find_declarator(from, statement_end(from, end), name, &dc) && dc.name == k.s) {
        u.declared[u.n] = true;
      } else {
        bool own = false;
        for (int i = 0; i <= u.n && !own; i++)
          own = u.declared[i];
        use(arg, k.s, !own);
      }
    }
  }
}

static void note_outer(void *arg, const char *at, bool outer)
{
  (void)at;
  *(bool *)arg = *(bool *)arg || outer;
}

bool scope_text_uses_outer(const char *t, const char *name)
{
  bool outer = false;
  scope_text_each_use(t, name, note_outer, &outer);
  return outer;
}

/* The parameter of a function header "T f(T1 a, T2 b)" that declares
 * `name` (*end its end), or NULL. */
static const char *declaring_parameter(const char *h, const char *name, const char **end)
{
  /* the header may follow comments and preprocessor lines */
  CText c = ctext(h, NULL, CT_DIRECTIVES);
  CTok t = ctext_code(&c);
  while (t.kind != CT_END && !ctok_is(t, '('))
    t = ctext_code(&c);
  const char *close = t.kind != CT_END ? ctext_close(t.s, NULL) : NULL;
  if (!close)
    return NULL;
  const char *start = t.s + 1;
  int depth = 0;
  for (t = ctext_code(&c); t.s <= close; t = ctext_code(&c)) {
    if (t.kind == CT_PUNCT && t.n == 1 && strchr("([{", t.s[0]))
      depth++;
    else if (t.s < close && t.kind == CT_PUNCT && t.n == 1 && strchr(")]}", t.s[0]))
      depth--;
    else if ((ctok_is(t, ',') && depth == 0) || t.s == close) {
      if (statement_declares(start, t.s, name)) {
        *end = t.s;
        return start;
      }
      start = t.s + 1;
    }
    if (t.s == close)
      break;
  }
  return NULL;
}

/* The declaration in the header of a block that declares `name`: the
 * first clause of 'for (...)' or a function's parameter (*end its end),
 * or NULL. */
static const char *declaring_header(const char *h, const char *name, const char **end)
{
  const char *init = for_init(h, h + strlen(h), end);
  if (init)
    return statement_declares(init, *end, name) ? init : NULL;
  return declaring_parameter(h, name, end);
}

static bool header_declares(const char *h, const char *name)
{
  const char *end;
  return declaring_header(h, name, &end) != NULL;
}

/* ---- the text of a scope, read once ---- */

/* A name the text of a scope declares, and where: the statement (or a
 * for's first clause) of its first declaration, as offsets into the text,
 * which may move as it grows. */
typedef struct Declared {
  const char *name;
  size_t start, end;
  bool again; /* declared again in the same block: in the branches of an #if */
} Declared;

static bool declared_is(const void *item, const void *key)
{
  return !strcmp(((const Declared *)item)->name, key);
}

typedef struct ScanArg {
  Ctx *ctx;
  Scope *s;
  const char *start, *end; /* the statement being read */
} ScanArg;

static bool names_object(Ctx *ctx, Scope *s, const char *name);

static bool add_declared(void *arg, const Declarator *d)
{
  ScanArg *a = arg;
  if (d->guess && !a->s->file_scope && names_object(a->ctx, a->s, ctx_strndup(a->ctx, d->guess, d->guess_len)))
    return true; /* "x * y;" with x an object: a product, no declaration */
  char *name = ctx_strndup(a->ctx, d->name, d->len);
  unsigned long h = util_hash_str(name, HASH_SEED);
  Declared *seen = map_get(&a->s->declared, h, declared_is, name);
  if (seen) {
    seen->again = true;
    return false;
  }
  Declared *x = ctx_alloc(a->ctx, sizeof *x);
  x->name = name;
  x->start = (size_t)(a->start - a->s->text.data);
  x->end = (size_t)(a->end - a->s->text.data);
  map_put(a->ctx, &a->s->declared, h, x);
  return false;
}

/* Reads the statements of s->text completed since the last call into
 * s->declared (the text only grows, so each is read once); returns the
 * incomplete statement at the end.  The names a for's first clause
 * declares are not among them: a complete 'for (...) x;' has ended their
 * scope, and 'for (...) {' is the header of the body's scope, which sees
 * them there (the incomplete statement at the end still declares them). */
static bool scan_statement(void *arg, const char *start, const char *end)
{
  ScanArg *a = arg;
  a->start = start;
  a->end = end;
  statement_declarators(start, end, add_declared, arg);
  return false;
}

static const char *scope_scan(Ctx *ctx, Scope *s)
{
  if (!s->text.data)
    return "";
  ScanArg arg = {ctx, s, NULL, NULL};
  const char *stop;
  const char *start = each_statement(s->text.data + s->scanned, NULL, scan_statement, &arg, &stop);
  s->scanned = (size_t)(start - s->text.data);
  return start;
}

/* The statement of the text of scope s that declares name (*end its end),
 * read once (s->declared), or the incomplete one at its end; NULL. */
static const char *scope_declaring_statement(Ctx *ctx, Scope *s, const char *name, const char **end)
{
  const char *tail = scope_scan(ctx, s);
  Declared *x = map_get(&s->declared, util_hash_str(name, HASH_SEED), declared_is, name);
  if (x) {
    *end = s->text.data + x->end;
    return s->text.data + x->start;
  }
  return declaring_statement(tail, name, end);
}

bool scope_is_typedef(const char *decl)
{
  CText c = ctext(decl, NULL, 0);
  return ctok_word(ctext_code(&c), "typedef");
}

/* Is name, seen from scope s while s's statements are being read (its
 * declarations so far in s->declared, not read again), an object: a
 * parameter, a #create, a local or a global declared without typedef? */
static bool names_object(Ctx *ctx, Scope *s, const char *name)
{
  if (named(s, name))
    return true;
  Declared *x = map_get(&s->declared, util_hash_str(name, HASH_SEED), declared_is, name);
  if (x) {
    const char *decl = statement_declaration(ctx, s->text.data + x->start, s->text.data + x->end, name, NULL);
    return decl && !scope_is_typedef(decl);
  }
  const char *end;
  if (s->header && declaring_header(s->header, name, &end))
    return true;
  Scope *up = s->function ? s->launch : s->parent;
  bool parameter;
  const char *decl = up && !up->file_scope ? scope_local_declaration_of(ctx, up, name, &parameter, NULL) : NULL;
  if (!decl)
    decl = scope_file_declaration(ctx, s, name);
  return decl && *decl && !scope_is_typedef(decl);
}

/* Does the text of scope s declare name? */
static bool scope_text_has_declaration(Ctx *ctx, Scope *s, const char *name)
{
  const char *end;
  return scope_declaring_statement(ctx, s, name, &end) != NULL;
}

const char *scope_local_declaration_of(Ctx *ctx, Scope *in, const char *name, bool *parameter, bool *reg)
{
  *parameter = false;
  if (reg)
    *reg = false;
  for (Scope *s = in; s && !s->file_scope; s = s->function ? s->launch : s->parent) {
    Named *x = named(s, name);
    if (x)
      return x->decl ? x->decl : "";
    const char *st, *end, *decl;
    if ((st = scope_declaring_statement(ctx, s, name, &end)))
      return (decl = statement_declaration(ctx, st, end, name, reg)) ? decl : "";
    if (s->header && (st = declaring_header(s->header, name, &end))) {
      const char *init_end; /* a for's first clause declares no parameter */
      *parameter = !for_init(s->header, s->header + strlen(s->header), &init_end);
      return (decl = statement_declaration(ctx, st, end, name, reg)) ? decl : "";
    }
    if (s->function)
      reg = NULL; /* a detour body reaches the locals around it through pointers */
  }
  return NULL;
}

static void add_name(Ctx *ctx, Scope *s, const char *name, size_t len, ScopeLocal kind)
{
  ScopeName *x = ctx_alloc(ctx, sizeof *x);
  x->name = ctx_strndup(ctx, name, len);
  x->kind = kind;
  x->next = s->nonvars;
  s->nonvars = x;
}

/* Reads the #define and #undef lines of s->text completed since the last
 * call into s->nonvars. */
static void read_macros(Ctx *ctx, Scope *s)
{
  const char *t = s->text.data, *end = t ? strrchr(t + s->macros_scanned, '\n') : NULL;
  if (!end)
    return;
  CText c = ctext(t + s->macros_scanned, end + 1, CT_DIRECTIVES);
  s->macros_scanned = (size_t)(end + 1 - t);
  for (CTok k = ctext_next(&c); k.kind != CT_END; k = ctext_next(&c)) {
    if (k.kind != CT_PREPROC)
      continue;
    CText d = ctext(k.s + 1, k.s + k.n, 0); /* after the '#' */
    CTok w = ctext_code(&d), name = ctext_code(&d);
    if ((ctok_word(w, "define") || ctok_word(w, "undef")) && name.kind == CT_IDENT)
      add_name(ctx, s, name.s, name.n, SL_MACRO);
  }
}

/* What closing block s leaves its parent: its macros (a macro outlives
 * its block), the tag it defines when it is a struct, union or enum's
 * body ("struct loc {"), the constants of an enum's list. */
static void block_names(Ctx *ctx, Scope *s)
{
  Scope *p = s->parent;
  for (ScopeName *x = s->nonvars, *next; x; x = next) {
    next = x->next;
    if (x->kind == SL_MACRO) {
      x->next = p->nonvars;
      p->nonvars = x;
    }
  }
  CText c = ctext(s->header ? s->header : "", NULL, CT_DIRECTIVES);
  CTok prev = {CT_END, "", 0, false}, last = prev;
  for (CTok k = ctext_code(&c); k.kind != CT_END; k = ctext_code(&c))
    prev = last, last = k;
  bool tagged = ctok_word(prev, "struct") || ctok_word(prev, "union") || ctok_word(prev, "enum");
  if (tagged && last.kind == CT_IDENT)
    add_name(ctx, p, last.s, last.n, SL_TAG);
  if (!ctok_word(last, "enum") && !(ctok_word(prev, "enum") && last.kind == CT_IDENT))
    return;
  bool item = true; /* where an enumerator's name stands: first, and after ',' */
  CText e = ctext(s->text.data ? s->text.data : "", NULL, CT_DIRECTIVES);
  for (CTok k = ctext_code(&e); k.kind != CT_END; k = ctext_code(&e)) {
    if (item && k.kind == CT_IDENT)
      add_name(ctx, p, k.s, k.n, SL_ENUMERATOR);
    item = ctok_is(k, ',');
  }
}

ScopeLocal scope_local_kind(Ctx *ctx, Scope *in, const char *name)
{
  for (Scope *s = in; s && !s->file_scope; s = s->function ? s->launch : s->parent) {
    read_macros(ctx, s);
    for (ScopeName *x = s->nonvars; x; x = x->next)
      if (!strcmp(x->name, name))
        return x->kind;
  }
  return SL_NONE;
}

bool scope_local_declared_again(Ctx *ctx, Scope *in, const char *name)
{
  for (Scope *s = in; s && !s->file_scope; s = s->function ? s->launch : s->parent) {
    if (named(s, name))
      return false;
    scope_scan(ctx, s);
    Declared *x = map_get(&s->declared, util_hash_str(name, HASH_SEED), declared_is, name);
    if (x)
      return x->again;
    const char *end;
    if (scope_declaring_statement(ctx, s, name, &end) || (s->header && declaring_header(s->header, name, &end)))
      return false;
  }
  return false;
}

const char *scope_local_declaration(Ctx *ctx, Scope *in, const char *name)
{
  bool parameter;
  return scope_local_declaration_of(ctx, in, name, &parameter, NULL);
}

const char *scope_file_declaration(Ctx *ctx, Scope *in, const char *name)
{
  Scope *f = scope_file(in);
  const char *st, *end, *decl;
  if (!(st = scope_declaring_statement(ctx, f, name, &end)))
    return NULL;
  return (decl = statement_declaration(ctx, st, end, name, NULL)) ? decl : "";
}

bool scope_name_declared(Ctx *ctx, Scope *in, const char *name)
{
  for (Scope *s = in; s; s = s->parent) {
    if (named(s, name) || scope_text_has_declaration(ctx, s, name))
      return true;
    if (s->header && header_declares(s->header, name))
      return true;
    if (s->function && !s->file_scope) {
      /* a detour body sees its parameters and the file scope only */
      Scope *f = scope_file(s);
      if (f != s && scope_text_has_declaration(ctx, f, name))
        return true;
      return false;
    }
  }
  return false;
}
