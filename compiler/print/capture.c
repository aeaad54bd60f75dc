/* capture.c: the locals of the enclosing function that a detour body uses.
 *
 * A detour's body is outlined into a function of its own (a thread
 * function, a kernel, an mpi body), which cannot see the locals of the
 * function its #detour stands in.  The body may name them anyway, as the
 * block it is written as could: pthd and omp bodies share them with the
 * caller (by reference, as OpenMP shares them), cuda kernels and mpi
 * bodies receive copies (by value, like their parameters), since they run
 * in another memory.  The extents of thread arrays and data types sized by
 * locals ($tid_0$ of a [rows][2] array is (pa_tid / 2) % rows) reach the
 * body the same way, since they are found in the translated body.
 *
 * Each capture's type is read as C reads it (read_type): a typedef name
 * is looked up in the declarations at file scope, so a typedef'd array is
 * an array; a parameter declared an array is the pointer C makes of it;
 * an array whose sizes name a variable, or are left to its initialiser,
 * is one of run-time size, whose extents the targets take with sizeof
 * where it is declared.  What the outlined body cannot declare at file
 * scope is an error where the body uses it. */
#include "print/capture.h"
#include "ctext.h"
#include "model/macros.h"

#include <stdlib.h>
#include <string.h>

/* Calls f on every identifier of C text t that is not a member name
 * (after '.' or '->'), skipping comments, literals and preprocessor
 * lines. */
static void each_identifier(const char *t, void (*f)(void *arg, const char *w, size_t n), void *arg)
{
  CText c = ctext(t, NULL, CT_DIRECTIVES); /* #line, #pragma: not the body's C */
  for (CTok k = ctext_code(&c); k.kind != CT_END; k = ctext_code(&c))
    if (k.kind == CT_IDENT && !k.member)
      f(arg, k.s, k.n);
}

typedef struct Finder {
  Ctx *ctx;
  Scope *scope;      /* where the #detour stands */
  const char *body;
  char **params;
  int nparams;
  Node *node;        /* the #detour */
  Capture *caps;
  int n, cap;
  char **seen;
  int nseen, capseen;
  Loc at;
  bool ok;
  bool globals;      /* host variables declared at file scope too (host_global) */
} Finder;

static bool seen_before(Finder *f, const char *name)
{
  for (int i = 0; i < f->nseen; i++)
    if (!strcmp(f->seen[i], name))
      return true;
  if (f->nseen == f->capseen) {
    f->capseen = f->capseen ? 2 * f->capseen : 16;
    char **s = ctx_alloc(f->ctx, sizeof(char *) * f->capseen);
    if (f->nseen)
      memcpy(s, f->seen, sizeof(char *) * f->nseen);
    f->seen = s;
  }
  f->seen[f->nseen++] = (char *)name;
  return false;
}

/* The declaration of name when it is a variable at file scope that device
 * code cannot read (not const, __device__, __constant__ or __managed__;
 * not a type or a function), else NULL. */
static const char *host_global(Ctx *ctx, Scope *scope, const char *name)
{
  const char *decl = scope_file_declaration(ctx, scope, name);
  if (!decl || !*decl)
    return NULL;
  static const char *device[] = {"typedef", "const", "constexpr", "__device__", "__constant__", "__managed__", NULL};
  CText c = ctext(decl, NULL, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c)) {
    if (ctok_is(t, '('))
      return NULL; /* a function (or a pointer to one) */
    for (int i = 0; device[i]; i++)
      if (ctok_word(t, device[i]))
        return NULL;
  }
  return decl;
}

/* ---- what a captured local's type is ---- */

/* Words of a declaration's type that are not typedef names. */
static bool keyword(CTok t)
{
  return ctext_scalar_word(t.s, t.n) || ctext_qualifier_word(t.s, t.n) || ctok_word(t, "typedef");
}

/* The typedef name among the type words [decl, end) ("triple" in "const
 * triple"); false when there is none (struct, union and enum tags are
 * not). */
static bool typedef_name(const char *decl, const char *end, CTok *name)
{
  CText c = ctext(decl, end, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c)) {
    if (ctok_word(t, "struct") || ctok_word(t, "union") || ctok_word(t, "enum")) {
      CText peek = c;
      CTok u = ctext_code(&peek);
      if (u.kind == CT_IDENT) { /* the tag */
        c = peek;
        u = ctext_code(&peek);
      }
      const char *close = ctok_is(u, '{') ? ctext_close(u.s, end) : NULL;
      if (close) /* the type's body */
        c = ctext(close + 1, end, 0);
      continue;
    }
    if (t.kind == CT_IDENT && !keyword(t)) {
      *name = t;
      return true;
    }
  }
  return false;
}

/* decl, "const triple t", with typedef name tn replaced by what td,
 * "typedef int triple[3]", declares: "const int t[3]"; NULL when td has
 * no declarator parrayc reads. */
static char *expand_typedef(Ctx *ctx, const char *decl, const char *at, size_t len, CTok tn, const char *td)
{
  CText c = ctext(td, NULL, 0);
  CTok first = ctext_code(&c); /* typedef */
  const char *tname;
  size_t tlen;
  if (ctext_declarator(td, NULL, &tname, &tlen) == CD_NONE)
    return NULL;
  const char *def = first.s + first.n;
  return util_str_trim(ctx, ctx_printf(ctx, "%.*s%.*s %.*s%.*s%s", (int)(tn.s - decl), decl, (int)(at - tn.s - tn.n),
                                       tn.s + tn.n, (int)(tname - def), def, (int)len, at, tname + tlen));
}

/* The bracket groups right after the name at [at, at + len) of a
 * declaration, in *open (at most max): their number; *rest: whether
 * anything else follows them ("int (*fa[n])(int)"). */
static int bracket_groups(const char *at, size_t len, const char **open, int max, bool *rest)
{
  int n = 0;
  CText c = ctext(at + len, NULL, 0);
  CTok t;
  for (t = ctext_code(&c); ctok_is(t, '[') && n < max; t = ctext_code(&c)) {
    const char *close = ctext_close(t.s, NULL);
    if (!close)
      break;
    open[n++] = t.s;
    c = ctext(close + 1, NULL, 0);
  }
  *rest = t.kind != CT_END;
  return n;
}

/* Is t a word a parameter's first brackets may hold besides its size? */
static bool bracket_word(CTok t)
{
  static const char *words[] = {"static", "const", "volatile", "restrict", "__restrict", "__restrict__", "_Atomic",
                                NULL};
  for (int i = 0; words[i]; i++)
    if (ctok_word(t, words[i]))
      return true;
  return false;
}

/* The size in the brackets at open, without bracket_words: "n" of
 * "[static n]" */
static char *bracket_size(Ctx *ctx, const char *open)
{
  const char *close = ctext_close(open, NULL), *from = open + 1;
  CText c = ctext(from, close, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END && bracket_word(t); t = ctext_code(&c))
    from = t.s + t.n;
  return ctx_strndup(ctx, from, (size_t)(close - from));
}

/* decl, a parameter's declaration, with its first brackets' size alone:
 * "int p[3]" for "int p[static 3]" (the array an mpi body's copy is) */
static const char *plain_first_brackets(Ctx *ctx, const char *decl)
{
  const char *at;
  size_t len;
  ctext_declarator(decl, NULL, &at, &len);
  CText c = ctext(at + len, NULL, 0);
  CTok open = ctext_code(&c);
  if (!ctok_is(open, '[') || !ctext_close(open.s, NULL))
    return decl;
  return ctx_printf(ctx, "%.*s[%s%s", (int)(open.s - decl), decl, util_str_trim(ctx, bracket_size(ctx, open.s)),
                    ctext_close(open.s, NULL));
}

/* "int *p" for a parameter "int p[3]", "double (*m)[4]" for "double m[][4]";
 * the qualifiers in its first brackets qualify the pointer: "int *const p"
 * for "int p[const 3]" ('static' says only how many it points to) */
static char *decay(Ctx *ctx, const char *decl)
{
  const char *at;
  size_t len;
  ctext_declarator(decl, NULL, &at, &len);
  CText c = ctext(at + len, NULL, 0);
  CTok open = ctext_code(&c);
  const char *close = ctext_close(open.s, NULL);
  if (!close) /* brackets never closed (a malformed typedef): as written, for the C compiler to reject */
    return ctx_strdup(ctx, decl);
  const char *rest = close + 1;
  Buf q = {.ctx = ctx};
  CText in = ctext(open.s + 1, close, 0);
  for (CTok t = ctext_code(&in); t.kind != CT_END; t = ctext_code(&in))
    if (bracket_word(t) && !ctok_word(t, "static"))
      buf_printf(&q, "%.*s ", (int)t.n, t.s);
  const char *quals = q.data ? ctx_strdup(ctx, q.data) : "";
  buf_free(&q);
  while (*rest == ' ')
    rest++;
  if (!*rest)
    return ctx_printf(ctx, "%.*s*%s%.*s", (int)(at - decl), decl, quals, (int)len, at);
  return ctx_printf(ctx, "%.*s(*%s%.*s)%s", (int)(at - decl), decl, quals, (int)len, at, rest);
}

/* Does identifier w name a variable or a function, whose value makes a
 * size in which it stands one of run time (C11 6.7.6.2)? */
static bool names_variable(Finder *f, const char *w, size_t n)
{
  char *name = ctx_strndup(f->ctx, w, n);
  bool param;
  const char *d = scope_local_declaration_of(f->ctx, f->scope, name, &param, NULL);
  if (!d)
    d = scope_file_declaration(f->ctx, f->scope, name);
  return d && !scope_is_typedef(d);
}

/* Does the size in the brackets at open name a variable? */
static bool varying_size(Finder *f, const char *open)
{
  CText c = ctext(open + 1, ctext_close(open, NULL), 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c))
    if (t.kind == CT_IDENT && !t.member && names_variable(f, t.s, t.n))
      return true;
  return false;
}

/* Are the brackets at open empty (qualifiers aside: "[const]")? */
static bool runtime_empty(const char *open)
{
  CText c = ctext(open + 1, NULL, 0);
  CTok t = ctext_code(&c);
  while (bracket_word(t))
    t = ctext_code(&c);
  return ctok_is(t, ']');
}

/* ... or is the size in them empty ("char s[] = ...": sized by the
 * initialiser)? */
static bool runtime_size(Finder *f, const char *open)
{
  return runtime_empty(open) || varying_size(f, open);
}

/* Where identifier name stands first in the text of node k, an N_TEXT. */
static bool text_use(Node *k, const char *name, Loc *at)
{
  CText c = ctext(k->text, NULL, CT_DIRECTIVES);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c))
    if (t.kind == CT_IDENT && !t.member && ctok_word(t, name)) {
      Loc l = k->loc;
      for (const char *p = k->text; p < t.s; p++) {
        l.col = *p == '\n' ? 1 : l.col + 1;
        l.line += *p == '\n';
      }
      *at = l;
      return true;
    }
  return false;
}

/* Where the text of list (nested detours aside) first uses name. */
static bool find_use(Node *list, const char *name, Loc *at)
{
  for (Node *k = list; k; k = k->next) {
    if (k->kind == N_TEXT && k->text && text_use(k, name, at))
      return true;
    if (k->body && k->kind != N_DETOUR && find_use(k->body, name, at))
      return true;
  }
  return false;
}

/* Where name is declared: in the last text of list before line 'before'
 * that declares it. */
static bool find_declaration(Node *list, const char *name, int before, Loc *at)
{
  bool found = false;
  for (Node *k = list; k && k->loc.line <= before; k = k->next) {
    if (k->kind == N_TEXT && k->text && scope_text_declares(k->text, name))
      found = text_use(k, name, at) || found;
    if (k->body && find_declaration(k->body, name, before, at))
      found = true;
  }
  return found;
}

/* Reports local name, declared decl, which cannot reach the body for
 * the reason why: where the body uses it, with its declaration. */
static void refuse(Finder *f, const char *name, const char *decl, const char *why)
{
  Loc use = f->at, at;
  find_use(f->node->body, name, &use);
  diag_error(f->ctx, use, "the detour body uses '%s', %s", name, why);
  if (find_declaration(f->ctx->tree, name, f->at.line, &at))
    diag_note(f->ctx, at, "'%s' is declared here, as '%s'", name, decl);
  f->ok = false;
}

/* Is the object that declaration decl declares (its name at 'at') const:
 * "const int r", "char *const p", not "const char *p"?  A const after the
 * last '*' before the name, or anywhere when there is none. */
static bool top_const(const char *decl, const char *at)
{
  bool c = false;
  CText t = ctext(decl, at, 0);
  for (CTok k = ctext_code(&t); k.kind != CT_END; k = ctext_code(&t))
    c = ctok_is(k, '*') ? false : c || ctok_word(k, "const");
  return c;
}

/* Refuses c when the typedef name tn of its type is one of the enclosing
 * function, which the body, outlined at file scope, cannot name ("T u",
 * "T *p", "T a[2]"); else *td is tn's declaration at file scope (NULL:
 * none).  False after the error. */
static bool typedef_outside(Finder *f, Capture *c, const CTok *tn, const char **td)
{
  Ctx *ctx = f->ctx;
  char *tname = ctx_strndup(ctx, tn->s, tn->n);
  bool tparam;
  const char *local = scope_local_declaration_of(ctx, f->scope, tname, &tparam, NULL);
  if (local && scope_is_typedef(local)) {
    refuse(f, c->name, c->decl,
           ctx_printf(ctx, "a local of the enclosing function whose type '%s' is a typedef of that function: "
                      "the body, outlined into a function of its own, cannot name it; define the type at file "
                      "scope", tname));
    return false;
  }
  *td = scope_file_declaration(ctx, f->scope, tname);
  return true;
}

/* Reads the type of c (a parameter when param): an array, a typedef'd
 * one, one of run-time size; a parameter declared an array becomes the
 * pointer C makes of it.  False after an error. */
static bool read_type(Finder *f, Capture *c, bool param)
{
  Ctx *ctx = f->ctx;
  const char *decl = c->decl, *at, *original = c->decl;
  size_t len;
  CDeclKind kind = ctext_declarator(decl, NULL, &at, &len);
  if (kind == CD_NONE)
    return true; /* no declarator parrayc reads ("int (" cut short): taken as written */
  CTok tn;
  const char *td;
  if (kind != CD_PLAIN && typedef_name(decl, at, &tn) && !typedef_outside(f, c, &tn, &td))
    return false; /* "T *p", "T a[2]" with T the function's */
  bool typed = false; /* an array by a typedef name */
  for (int depth = 0; kind == CD_PLAIN && depth < 16; depth++) {
    if (!typedef_name(decl, at, &tn))
      break;
    if (!typedef_outside(f, c, &tn, &td))
      return false;
    if (!td || !scope_is_typedef(td)) {
      c->opaque = !td && !ctext_type_word(tn.s, tn.n);
      break;
    }
    const char *expanded = expand_typedef(ctx, decl, at, len, tn, td), *eat;
    size_t elen;
    CDeclKind ekind = expanded ? ctext_declarator(expanded, NULL, &eat, &elen) : CD_NONE;
    if (ekind == CD_NONE)
      break; /* a typedef parrayc cannot read: the type as written */
    decl = expanded, kind = ekind, at = eat, len = elen;
    typed = kind == CD_ARRAY;
  }
  c->readonly = top_const(decl, at);
  const char *open[16];
  bool rest;
  int n = bracket_groups(at, len, open, 16, &rest);
  if (kind == CD_ARRAY && param) {
    bool sized = n > 0 && !runtime_size(f, open[0]), inner = false;
    for (int i = 1; !typed && i < n; i++)
      inner = inner || varying_size(f, open[i]);
    c->decl = decay(ctx, decl);
    if (n > 0 && (varying_size(f, open[0]) || inner) && !runtime_empty(open[0]) && !rest) /* n rows */
      c->rows = util_str_trim(ctx, bracket_size(ctx, open[0]));
    if (inner && !rest && !memchr(decl, '(', (size_t)(at - decl))) {
      /* "double a[n][m]": a pointer to rows of run-time size */
      c->vla_ptr = true;
      c->nvla = n - 1;
      return true;
    }
    c->sized_param = sized && !inner ? plain_first_brackets(ctx, original) : NULL;
  } else if (kind == CD_ARRAY) {
    c->array = true;
    bool runtime = false, varying = false;
    for (int i = 0; !typed && i < n; i++) {
      runtime = runtime || runtime_size(f, open[i]);
      varying = varying || varying_size(f, open[i]);
    }
    /* sized by its initialiser in another form ("int (*fa[])(int) = ..."):
     * an array of incomplete type, as written */
    c->nvla = runtime && (varying || !rest) ? n : 0;
  }
  /* a size of run time anywhere else: a type the outlined body cannot
   * declare at file scope */
  bool varies = c->nvla && (rest || memchr(c->decl, '(', (size_t)(at - c->decl)));
  ctext_declarator(c->decl, NULL, &at, &len);
  CText t = ctext(c->decl, NULL, 0);
  for (CTok k = ctext_code(&t); k.kind != CT_END && !varies; k = ctext_code(&t))
    varies = ctok_is(k, '[') && (!c->nvla || k.s < at) && varying_size(f, k.s);
  if (varies) {
    refuse(f, c->name, c->decl,
           ctx_printf(ctx, "a local of the enclosing function whose type ('%s') holds a size of run time in a "
                      "form parrayc cannot pass: the body, outlined into a function of its own, cannot declare "
                      "it; let the body use the array itself ('TYPE a[n][m]') or a pointer to its first element",
                      c->decl));
    return false;
  }
  return true;
}

/* Is the type of declaration decl taken from an expression or an
 * initialiser ("__typeof__(a) b", "__auto_type x")? */
static bool inferred_type(const char *decl)
{
  static const char *words[] = {"typeof", "__typeof__", "__typeof", "__auto_type", "typeof_unqual", NULL};
  CText c = ctext(decl, NULL, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c))
    for (int i = 0; words[i]; i++)
      if (ctok_word(t, words[i]))
        return true;
  return false;
}

/* Does C text t name tag after struct, union or enum? */
static bool tag_use(const char *t, const char *tag)
{
  CText c = ctext(t, NULL, CT_DIRECTIVES);
  bool after = false;
  for (CTok k = ctext_code(&c); k.kind != CT_END; k = ctext_code(&c)) {
    if (after && ctok_word(k, tag))
      return true;
    after = ctok_word(k, "struct") || ctok_word(k, "union") || ctok_word(k, "enum");
  }
  return false;
}

/* The tag among the type words of decl that the enclosing function
 * defines ("loc" of "struct loc *p" after "struct loc { ... };"), or
 * NULL. */
static const char *local_tag(Finder *f, const char *decl)
{
  CText c = ctext(decl, NULL, 0);
  bool after = false;
  for (CTok k = ctext_code(&c); k.kind != CT_END; k = ctext_code(&c)) {
    if (after && k.kind == CT_IDENT) {
      char *tag = ctx_strndup(f->ctx, k.s, k.n);
      if (scope_local_kind(f->ctx, f->scope, tag) == SL_TAG)
        return tag;
    }
    after = ctok_word(k, "struct") || ctok_word(k, "union") || ctok_word(k, "enum");
  }
  return NULL;
}

/* Is name, which the body uses, a macro, an enumeration constant or a
 * tag of the enclosing function (scope_local_kind), which the outlined
 * body, placed before that function, cannot see (or sees as the file
 * has it there)?  Reported where the body uses it. */
static bool local_non_variable(Finder *f, const char *name)
{
  ScopeLocal kind = scope_local_kind(f->ctx, f->scope, name);
  const char *why = NULL;
  if (kind == SL_MACRO)
    why = "a macro that the enclosing function defines or undefines: the body, outlined into a function placed "
          "before that function, would see the macro as the file has it there; define it before the function";
  else if (kind == SL_ENUMERATOR)
    why = "an enumeration constant of the enclosing function: the body, outlined into a function of its own, "
          "cannot see it; declare the enumeration at file scope";
  else if (kind == SL_TAG && tag_use(f->body, name))
    why = "the tag of a type the enclosing function defines: the body, outlined into a function of its own, "
          "cannot name that type; define the type at file scope";
  if (!why)
    return false;
  Loc use = f->at;
  find_use(f->node->body, name, &use);
  diag_error(f->ctx, use, "the detour body uses '%s', %s", name, why);
  f->ok = false;
  return true;
}

/* The local of the enclosing function that macro name's replacement (or
 * that of a macro it names, depth macros deep) names, its parameters
 * and the body's own names aside; NULL when none. */
static const char *macro_local(Finder *f, const char *name, int depth)
{
  const char *def = depth < 16 ? macro_definition(f->ctx, name) : NULL;
  if (!def)
    return NULL;
  const char *params = NULL, *text = def;
  if (*def == '(' && (text = ctext_close(def, NULL))) /* a function-like macro: "(i) v[i]" */
    params = def, text++;
  else
    text = def;
  CText c = ctext(text, NULL, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c)) {
    if (t.kind != CT_IDENT || t.member)
      continue;
    char *w = ctx_strndup(f->ctx, t.s, t.n);
    bool param = false;
    CText p = ctext(params ? params : "", params ? text : NULL, 0);
    for (CTok u = ctext_code(&p); u.kind != CT_END && !param; u = ctext_code(&p))
      param = ctok_word(u, w);
    for (int i = 0; i < f->nparams && !param; i++)
      param = !strcmp(f->params[i], w); /* the thread array's, which the body sees first */
    if (param || !strcmp(w, name) || scope_text_declares(f->body, w))
      continue;
    bool is_param;
    if (scope_local_declaration_of(f->ctx, f->scope, w, &is_param, NULL))
      return w;
    const char *inner = macro_local(f, w, depth + 1);
    if (inner)
      return inner;
  }
  return NULL;
}

/* Does the body use macro name, whose replacement names a local of the
 * enclosing function?  parrayc finds the locals a body uses in its text
 * and does not expand macros: the outlined body would read what the file
 * has by that name (a global) or nothing.  Reported. */
static bool macro_names_local(Finder *f, const char *name)
{
  const char *local = macro_local(f, name, 0);
  if (!local)
    return false;
  Loc use = f->at;
  find_use(f->node->body, name, &use);
  diag_error(f->ctx, use, "the detour body uses macro '%s', whose replacement names '%s', a local of the "
             "enclosing function: parrayc does not expand macros to find the locals a body uses, and the "
             "outlined body would not reach it; write '%s' in the body, or pass it as a parameter",
             name, local, local);
  f->ok = false;
  return true;
}

static void consider(void *arg, const char *w, size_t len)
{
  Finder *f = arg;
  Ctx *ctx = f->ctx;
  if (len > 3 && !strncmp(w, "pa_", 3))
    return; /* generated */
  char *name = ctx_strndup(ctx, w, len);
  if (seen_before(f, name))
    return;
  for (int i = 0; i < f->nparams; i++)
    if (!strcmp(f->params[i], name))
      return;
  /* the body's own wherever it names it, or only a tag or label of that name */
  bool outer = scope_text_uses_outer(f->body, name);
  if (!outer && !tag_use(f->body, name))
    return;
  if (local_non_variable(f, name) || macro_names_local(f, name) || !outer)
    return;
  bool param = false, reg = false;
  const char *decl = scope_local_declaration_of(ctx, f->scope, name, &param, &reg);
  if (!decl && f->globals)
    decl = host_global(ctx, f->scope, name);
  if (!decl)
    return;
  if (!*decl) {
    diag_error(ctx, f->at,
               "the detour body uses '%s', a local of the enclosing function, whose declaration parrayc cannot "
               "read: declare it as 'TYPE %s;' on a statement of its own, at file scope, or pass it as a "
               "parameter of the thread array",
               name, name);
    f->ok = false;
    return;
  }
  if (strchr(decl, '{')) {
    diag_error(ctx, f->at,
               "the detour body uses '%s', a local of the enclosing function whose type is defined in its "
               "declaration: the body, outlined into a function of its own, cannot name that type; define the "
               "type at file scope",
               name);
    f->ok = false;
    return;
  }
  if (scope_is_typedef(decl)) {
    refuse(f, name, decl, "a type defined in the enclosing function: the body, outlined into a function of its "
           "own, cannot name it; define the type at file scope");
    return;
  }
  if (scope_local_declared_again(ctx, f->scope, name)) {
    Loc use = f->at;
    find_use(f->node->body, name, &use);
    diag_error(ctx, use, "the detour body uses '%s', a local of the enclosing function declared more than once in "
               "its block (in the branches of an #if): parrayc cannot tell which declaration the C compiler takes, "
               "and the body, outlined into a function of its own, must declare its type; declare it once, with "
               "the #if inside its type or initialiser", name);
    f->ok = false;
    return;
  }
  if (inferred_type(decl)) {
    refuse(f, name, decl, "a local of the enclosing function declared with typeof or __auto_type: the body, "
           "outlined into a function of its own, cannot declare it (the type may name the function's locals); "
           "declare it with its type");
    return;
  }
  const char *tag = local_tag(f, decl);
  if (tag) {
    refuse(f, name, decl, ctx_printf(ctx, "a local of the enclosing function whose type names '%s', a tag that "
                                     "function defines: the body, outlined into a function of its own, cannot "
                                     "name that type; define the type at file scope", tag));
    return;
  }
  Capture c = {name, decl, NULL, false, false, 0, false, NULL, reg, false};
  if (!read_type(f, &c, param))
    return;
  f->caps = ctx_grow(ctx, f->caps, f->n, &f->cap, sizeof *f->caps);
  f->caps[f->n++] = c;
}

/* Moves the captures named like a typedef at file scope ("int pt" after
 * "typedef struct pt pt") after the others: the outlined body declares
 * its captures (or parameters) in this order, and one of them declared
 * first would hide the type from the next ("int *pt; pt *a;"). */
static void typedef_names_last(Finder *f)
{
  int k = 0;
  Capture *sorted = f->n ? ctx_alloc(f->ctx, sizeof(Capture) * (size_t)f->n) : NULL;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < f->n; i++) {
      const char *td = scope_file_declaration(f->ctx, f->scope, f->caps[i].name);
      if ((td && scope_is_typedef(td)) == (pass == 1))
        sorted[k++] = f->caps[i];
    }
  f->caps = sorted;
}

/* Is the function that scope is in (through detour bodies, the one they
 * stand in) defined in the old style, "int f(a, b) int a; double b; {"?
 * Its header then ends at the last parameter declaration's ';', leaving
 * the block no header of its own; the outlined body would be put among
 * those declarations, and could not reach the parameters. */
static bool old_style(Scope *scope)
{
  Scope *fn = NULL;
  for (Scope *s = scope; s && !s->file_scope; s = s->function ? s->launch : s->parent)
    fn = s;
  if (!fn || !fn->header)
    return false;
  CText c = ctext(fn->header, NULL, CT_DIRECTIVES);
  return ctext_code(&c).kind == CT_END;
}

int capture_find(Ctx *ctx, Scope *scope, Node *n, const char *text, char **params, int nparams, Capture **out)
{
  Finder f = {ctx, scope, text, params, nparams, n, NULL, 0, 0, NULL, 0, 0, n->loc, true, false};
  if (old_style(scope)) {
    diag_error(ctx, n->loc, "a detour in a function defined in the old style (its parameters declared between its "
               "')' and its '{'): the body, outlined before the function, cannot reach them; declare the "
               "parameters in the function's prototype");
    return -1;
  }
  each_identifier(text, consider, &f);
  typedef_names_last(&f);
  *out = f.caps;
  return f.ok ? f.n : -1;
}

int capture_find_kernel(Ctx *ctx, Scope *scope, Node *n, const char *text, Capture **out)
{
  Finder f = {ctx, scope, text, NULL, 0, n, NULL, 0, 0, NULL, 0, 0, n->loc, true, true};
  each_identifier(text, consider, &f);
  *out = f.caps;
  return f.ok ? f.n : -1;
}

bool capture_decl_is_array(const char *decl)
{
  const char *name;
  size_t len;
  return ctext_declarator(decl, NULL, &name, &len) == CD_ARRAY;
}

bool capture_type_is_array(Ctx *ctx, Scope *scope, const char *decl)
{
  const char *at;
  size_t len;
  CDeclKind kind = ctext_declarator(decl, NULL, &at, &len);
  for (int depth = 0; kind == CD_PLAIN && depth < 16; depth++) {
    CTok tn;
    if (!typedef_name(decl, at, &tn))
      break;
    const char *td = scope_file_declaration(ctx, scope, ctx_strndup(ctx, tn.s, tn.n));
    if (!td || !scope_is_typedef(td))
      break;
    decl = expand_typedef(ctx, decl, at, len, tn, td);
    if (!decl)
      return false;
    kind = ctext_declarator(decl, NULL, &at, &len);
  }
  return kind == CD_ARRAY;
}

bool capture_decl_is_unsized_array(const char *decl)
{
  const char *name;
  size_t len;
  if (ctext_declarator(decl, NULL, &name, &len) != CD_ARRAY)
    return false;
  CText c = ctext(name + len, NULL, 0);
  CTok t = ctext_code(&c);
  return ctok_is(t, '[') && ctok_is(ctext_code(&c), ']');
}

/* "int (*rows)" for "int rows", "double (*x)[10]" for "double x[10]",
 * "int (*(*grid))[4]" for "int (*grid)[4]" */
char *capture_pointer_decl(Ctx *ctx, const Capture *c)
{
  const char *d = c->decl, *at;
  size_t nl;
  if (ctext_declarator(d, NULL, &at, &nl) == CD_NONE || nl != strlen(c->name) || strncmp(at, c->name, nl))
    return ctx_printf(ctx, "%s (*%s)", d, c->name);
  if (!at[nl]) /* nothing follows: no parentheses needed */
    return ctx_printf(ctx, "%.*s*%s", (int)(at - d), d, c->name);
  return ctx_printf(ctx, "%.*s(*%s)%s", (int)(at - d), d, c->name, at + nl);
}

bool capture_decl_names(const char *decl)
{
  const char *at = NULL;
  size_t len = 0;
  ctext_declarator(decl, NULL, &at, &len);
  CText c = ctext(decl, NULL, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c))
    if (t.kind == CT_IDENT && t.s != at && !keyword(t))
      return true;
  return false;
}

char *capture_type_name(Ctx *ctx, const char *decl, const char *name)
{
  CText c = ctext(decl, NULL, 0);
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c))
    if (t.kind == CT_IDENT && ctok_word(t, name)) {
      const char *after = t.s + t.n;
      bool gap = t.s > decl && t.s[-1] == ' ' && (!*after || *after == ')' || *after == '[');
      return ctx_printf(ctx, "%.*s%s", (int)(t.s - decl - gap), decl, after);
    }
  return ctx_strdup(ctx, decl);
}

char *capture_vla_extent_name(Ctx *ctx, const Capture *c, int k)
{
  return ctx_printf(ctx, "pa_%s_%d", c->name, k);
}

char *capture_vla_decl(Ctx *ctx, const Capture *c, const char *prefix, bool pointer)
{
  const char *at;
  size_t len;
  ctext_declarator(c->decl, NULL, &at, &len);
  Buf b = {.ctx = ctx};
  buf_printf(&b, "%.*s%s", (int)(at - c->decl), c->decl, pointer ? ctx_printf(ctx, "(*%s)", c->name) : c->name);
  CText t = ctext(at + len, NULL, 0);
  for (CTok k = ctext_code(&t); ctok_is(k, ')'); k = ctext_code(&t))
    buf_putc(&b, ')'); /* "(*a" of a pointer */
  for (int k = 0; k < c->nvla; k++)
    buf_printf(&b, "[%s%s]", prefix, capture_vla_extent_name(ctx, c, k));
  char *s = ctx_strdup(ctx, b.data);
  buf_free(&b);
  return s;
}

/* "v[0][0]": name followed by k indices 0 */
static char *element(Ctx *ctx, const char *name, int k)
{
  char *s = ctx_strdup(ctx, name);
  while (k-- > 0)
    s = ctx_printf(ctx, "%s[0]", s);
  return s;
}

char *capture_vla_extent(Ctx *ctx, const Capture *c, int k)
{
  const char *base = c->vla_ptr ? ctx_printf(ctx, "(*%s)", c->name) : c->name;
  return ctx_printf(ctx, "sizeof %s / sizeof %s", element(ctx, base, k), element(ctx, base, k + 1));
}

char *capture_register_copy(Ctx *ctx, const Capture *c)
{
  const char *at;
  size_t len;
  if (ctext_declarator(c->decl, NULL, &at, &len) == CD_NONE)
    return ctx_printf(ctx, "__typeof__(%s) pa_reg_%s", c->name, c->name);
  return ctx_printf(ctx, "%.*spa_reg_%s%s", (int)(at - c->decl), c->decl, c->name, at + len);
}

/* An outer use of a capture in the body (scope_text_each_use), which
 * becomes (*X) */
typedef struct Rewrite {
  const char *at;
  size_t len;
} Rewrite;

typedef struct Rewrites {
  Ctx *ctx;
  Rewrite *r;
  int n, cap;
  size_t len; /* of the name being looked for */
} Rewrites;

static void note_rewrite(void *arg, const char *at, bool outer)
{
  Rewrites *w = arg;
  if (!outer)
    return;
  if (w->n == w->cap) {
    w->cap = w->cap ? 2 * w->cap : 16;
    Rewrite *r = ctx_alloc(w->ctx, sizeof(Rewrite) * (size_t)w->cap);
    if (w->n)
      memcpy(r, w->r, sizeof(Rewrite) * (size_t)w->n);
    w->r = r;
  }
  w->r[w->n++] = (Rewrite){at, w->len};
}

static int rewrite_order(const void *a, const void *b)
{
  const char *x = ((const Rewrite *)a)->at, *y = ((const Rewrite *)b)->at;
  return x < y ? -1 : x > y;
}

char *capture_by_reference(Ctx *ctx, const char *text, const Capture *caps, int n)
{
  Rewrites w = {ctx, NULL, 0, 0, 0};
  for (int i = 0; i < n; i++) {
    w.len = strlen(caps[i].name);
    scope_text_each_use(text, caps[i].name, note_rewrite, &w);
  }
  if (w.n > 1)
    qsort(w.r, (size_t)w.n, sizeof *w.r, rewrite_order);
  Buf b = {.ctx = ctx};
  const char *done = text;
  for (int i = 0; i < w.n; i++) {
    buf_printf(&b, "%.*s(*%.*s)", (int)(w.r[i].at - done), done, (int)w.r[i].len, w.r[i].at);
    done = w.r[i].at + w.r[i].len;
  }
  buf_puts(&b, done);
  char *s = ctx_strdup(ctx, b.data ? b.data : "");
  buf_free(&b);
  return s;
}

char *capture_body_block(Ctx *ctx, const char *text, const Capture *caps, int n)
{
  for (int i = 0; i < n; i++)
    if (scope_text_declares(text, caps[i].name)) {
      /* a body whose first newline ends the detour's line (a kernel's)
       * opens the block on that line: its own lines keep their numbers */
      size_t len = strlen(text);
      return ctx_printf(ctx, "  {%s%s%s  }\n", text[0] == '\n' ? "" : "\n", text,
                        len && text[len - 1] != '\n' ? "\n" : "");
    }
  return (char *)text;
}
