/* types.c: the type model.  A #parray declaration becomes a tree of Dims;
 * this module answers every question about it (extents, offsets of an
 * index, spans, contiguity, strides) as Polys, and knows no target. */
#include "ctext.h"
#include "model/ceval.h"
#include "parrayc.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define BRUTE_FORCE_LIMIT (1LL << 22) /* elements checked one by one */

/* Bytes of an element type parrayc can name; 0 when it cannot (a struct,
 * a typedef): the element's C type stays text to the model. */
int type_elem_bytes(const char *elem)
{
  static const struct {
    const char *name;
    int size;
  } sizes[] = {{"char", 1},      {"signed char", 1}, {"unsigned char", 1}, {"short", 2},  {"half", 2},
               {"__half", 2},    {"int", 4},         {"unsigned", 4},      {"unsigned int", 4},
               {"float", 4},     {"__half2", 4},     {"int2", 8},          {"uint2", 8}, {"float2", 8},
               {"double", 8},    {"long", 8},        {"long long", 8},     {"size_t", 8}, {"int4", 16},
               {"float4", 16},   {"double2", 16}};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
    if (elem && !strcmp(elem, sizes[k].name))
      return sizes[k].size;
  return 0;
}

const char *type_mem_name(MemKind m)
{
  static const char *names[] = {"none", "paged", "pinned", "dmem", "smem", "rmem"};
  return names[m];
}

const char *type_kind_name(ThreadKind k)
{
  static const char *names[] = {"data", "pthd", "omp", "cuda", "mpi"};
  return names[k];
}

static MemKind mem_of_word(const char *w)
{
  for (MemKind m = MEM_PAGED; m <= MEM_RMEM; m++)
    if (!strcmp(w, type_mem_name(m)))
      return m;
  return MEM_NONE;
}

static ThreadKind kind_of_word(const char *w)
{
  for (ThreadKind k = TK_PTHD; k <= TK_MPI; k++)
    if (!strcmp(w, type_kind_name(k)))
      return k;
  return TK_NONE;
}

/* A chain of types each referencing the next is walked link by link
 * (offsets, strides), on the heap (walk_room): bench/scale_shapes.sh's
 * chains this long translate in under 100 MB. */
enum { TYPE_MAX_REF_DEPTH = 30000 };

/* the longest chain of types the references under d lead through */
static int refs_depth(const Dim *d)
{
  int depth = d->ref ? d->ref->type->ref_depth : 0;
  for (int k = 0; k < d->nkids; k++) {
    int kid = refs_depth(d->kids[k]);
    depth = kid > depth ? kid : depth;
  }
  return depth;
}

/* "{paged float float [4]}", "{paged int double [4]}": the element type's
 * words (from decl->words[w]) name two types; the C compiler would say so
 * at the #create, far from the declaration.  "long long", "unsigned int",
 * "long double" and qualifiers are one type. */
static bool one_element_type(Ctx *ctx, Node *decl, int w)
{
  static const char *const basic[] = {"void", "char", "int", "float", "double", "_Bool", "bool", NULL};
  const char *first = NULL;
  for (int k = w; k < decl->nwords; k++) {
    const char *word = decl->words[k];
    bool is_basic = false;
    for (int i = 0; basic[i] && !is_basic; i++)
      is_basic = !strcmp(word, basic[i]);
    bool again = false; /* "float4 float4": the same name twice */
    for (int j = w; j < k && !again; j++)
      again = !strcmp(word, decl->words[j]) && util_is_ident_start((unsigned char)word[0]) &&
              strcmp(word, "long") && strcmp(word, "const") && strcmp(word, "volatile");
    if (is_basic && first && !again) {
      diag_error(ctx, decl->loc, "two element types, '%s' and '%s': a type has one element type", first, word);
      return false;
    }
    if (again) {
      diag_error(ctx, decl->loc, "'%s' twice in the element type: a type has one element type", word);
      return false;
    }
    if (is_basic)
      first = word;
  }
  return true;
}

/* "{pagd float [4]}": a word like a memory or thread kind, followed by
 * more words, becomes part of the element type; legal C perhaps, but
 * hardly meant. */
static void check_kind_like(Ctx *ctx, Node *decl, int w)
{
  static const char *const kinds[] = {"paged", "pinned", "dmem", "smem", "rmem", "pthd", "omp", "cuda", "mpi", NULL};
  static const char *const c_words[] = {"const", "volatile", "signed", "unsigned", "struct", "union", "enum",
                                        "long", "short", "static", "restrict", "int", "char", NULL};
  if (!util_is_ident_start((unsigned char)decl->words[w][0]))
    return;
  if (w + 1 >= decl->nwords) {
    /* "{pagedhar [4]}": a memory kind glued to (a misspelt) C type */
    static const char *const mems[] = {"paged", "pinned", "dmem", "smem", "rmem", NULL};
    static const char *const types[] = {"char", "short", "int", "long", "float", "double", "unsigned", "signed",
                                        NULL};
    for (int i = 0; mems[i]; i++) {
      size_t k = strlen(mems[i]);
      const char *rest = decl->words[w] + k, *near;
      if (!strncmp(decl->words[w], mems[i], k) && util_is_ident_start((unsigned char)*rest) && *rest != '_' &&
          (near = util_nearest_word(rest, types))) {
        diag_error(ctx, decl->loc, "'%s' is taken as the element type; did you mean '%s %s'?", decl->words[w],
                   mems[i], near);
        return;
      }
    }
    return;
  }
  for (int i = 0; c_words[i]; i++)
    if (!strcmp(decl->words[w], c_words[i]))
      return;
  const char *near = util_nearest_word(decl->words[w], kinds);
  if (near && !strcmp(near, decl->words[w]))
    diag_error(ctx, decl->loc, "'%s' is taken as part of the element type: a type has one %s kind, written once",
               decl->words[w], mem_of_word(near) != MEM_NONE ? "memory" : "thread");
  else if (near) /* the C compiler would reject it later, less clearly */
    diag_error(ctx, decl->loc, "'%s' is taken as part of the element type; did you mean the %s kind '%s'?",
               decl->words[w], mem_of_word(near) != MEM_NONE ? "memory" : "thread", near);
}

/* "[A_1]": a size that names a dimension of a declared type */
static void check_unmarked_ref(Ctx *ctx, const char *size, Loc loc)
{
  char *base;
  int *digits, n;
  if (!util_is_ident_start((unsigned char)*size) || !util_text_is_simple(size) ||
      !type_path_split(size, &base, &digits, &n, ctx))
    return;
  Type *t = type_lookup(ctx, base);
  if (!t)
    return;
  Dim *d = t->root;
  for (int k = 0; k < n && d; k++)
    d = digits[k] < dim_nkids(d) ? dim_kid(d, digits[k]) : NULL;
  if (d)
    diag_warning(ctx, WARN_SIZE_REFERENCE, loc, "'%s' is taken as a size (a C expression); did you mean the reference '#%s'?", size, size);
}

/* "A_1_0" -> "A", {1, 0}.  The base is the longest prefix that leaves only
 * "_<digits>" groups. */
bool type_path_split(const char *path, char **base, int **digits, int *ndigits, Ctx *ctx)
{
  size_t len = strlen(path);
  size_t cut = len;
  int n = 0;
  for (;;) {
    size_t j = cut;
    while (j > 0 && isdigit((unsigned char)path[j - 1]))
      j--;
    if (j == cut || j < 2 || path[j - 1] != '_')
      break;
    cut = j - 1;
    n++;
  }
  if (cut == 0)
    return false;
  *base = ctx_strndup(ctx, path, cut);
  *digits = ctx_alloc(ctx, sizeof(int) * (n + 1));
  *ndigits = n;
  const char *p = path + cut;
  for (int k = 0; k < n; k++) {
    p++; /* '_' */
    long v = strtol(p, (char **)&p, 10);
    (*digits)[k] = v > INT_MAX ? INT_MAX : (int)v;
  }
  return true;
}

/* The size of a dimension: a constant when its text is a C integer
 * expression on literals (model/ceval.c; NULL after an error at loc), else a symbol for the C compiler
 * (and for the run-time checks of #create). */
static Poly *size_poly(Ctx *ctx, const char *text, Loc loc)
{
  long long v;
  const char *bad;
  if (ceval(ctx, text, CEVAL_SIZE, NULL, NULL, &v, &bad))
    return poly_const(ctx, v);
  bool number = bad && (strstr(bad, "floating") || strstr(bad, "number")); /* said below, of the number */
  if (bad && !number) {
    diag_error(ctx, loc, "size '%s' %s", util_str_trim(ctx, text), bad);
    return NULL;
  }
  /* "[n * 1.5]", "[0x]": a number that is not an integer constant (a
   * floating one is, as the operand of a cast: "(int)2.5", "(int)-2.5") */
  CText c = ctext(text, NULL, 0);
  const char *cast_end = NULL; /* the ')' that (, + and - since it follow */
  for (CTok t = ctext_code(&c); t.kind != CT_END; t = ctext_code(&c)) {
    bool sign_or_paren = ctok_is(t, '(') || ctok_is(t, '-') || ctok_is(t, '+');
    if (t.kind != CT_NUMBER || ceval(ctx, ctx_strndup(ctx, t.s, t.n), CEVAL_SIZE, NULL, NULL, &v, &bad) || !bad) {
      cast_end = ctok_is(t, ')') ? t.s : sign_or_paren ? cast_end : NULL;
      continue;
    }
    if (!cast_end || !strstr(bad, "floating")) {
      diag_error(ctx, loc, "size '%s': '%.*s' is not an integer; sizes count elements", util_str_trim(ctx, text),
                 (int)t.n, t.s);
      return NULL;
    }
  }
  if (number) {
    diag_error(ctx, loc, "size '%s' %s", util_str_trim(ctx, text), bad);
    return NULL;
  }
  return poly_size(ctx, util_str_trim(ctx, text));
}

/* ---- building the tree ---- */

int dim_nkids(const Dim *d)
{
  while (d->ref_kind == REF_FULL)
    d = d->ref;
  return d->nkids;
}

Dim *dim_kid(const Dim *d, int k)
{
  while (d->ref_kind == REF_FULL)
    d = d->ref;
  return d->kids[k];
}

Poly *dim_extent(const Dim *d)
{
  return d->extent;
}

/* ctx->type_map: types by scope and name */
typedef struct TypeKey {
  int scope;
  const char *name;
} TypeKey;

static unsigned long type_hash(int scope, const char *name)
{
  return util_hash_str(name, HASH_SEED ^ (unsigned long)scope);
}

static bool type_matches(const void *item, const void *key)
{
  const Type *t = item;
  const TypeKey *k = key;
  return t->scope == k->scope && !strcmp(t->name, k->name);
}

static Type *type_in_scope(Ctx *ctx, int scope, const char *name)
{
  TypeKey k = {scope, name};
  return map_get(&ctx->type_map, type_hash(scope, name), type_matches, &k);
}

/* Every declared type joins ctx->types and ctx->type_map here. */
static void type_register(Ctx *ctx, Type *t)
{
  t->next = ctx->types;
  ctx->types = t;
  map_put(ctx, &ctx->type_map, type_hash(t->scope, t->name), t);
  ctx_keep(ctx);
}

/* Lexical, as the text reads after expansion: the types of the current
 * #insert instance, then those of the instances it stands in, then the
 * file's. */
Type *type_lookup(Ctx *ctx, const char *name)
{
  for (Instance *in = ctx->instance; in; in = in->parent) {
    Type *t = type_in_scope(ctx, in->id, name);
    if (t)
      return t;
  }
  return type_in_scope(ctx, 0, name);
}

/* A name whose declaration failed, or an undefined one once reported: its
 * uses resolve to nothing, silently (the first error said it all).  ""
 * stands for the lost name of a #parray that failed before its name: any
 * undefined name may be it. */
static void type_poison(Ctx *ctx, const char *name)
{
  Type *t = ctx_alloc(ctx, sizeof *t);
  t->name = ctx_strdup(ctx, name);
  t->scope = ctx->instance ? ctx->instance->id : 0;
  t->next = ctx->poisoned;
  ctx->poisoned = t;
  ctx_keep(ctx);
}

static bool type_poisoned(Ctx *ctx, const char *name)
{
  for (Type *t = ctx->poisoned; t; t = t->next) {
    bool visible = t->scope == 0;
    for (Instance *in = ctx->instance; in && !visible; in = in->parent)
      visible = t->scope == in->id;
    if (visible && (!t->name[0] || !strcmp(t->name, name)))
      return true;
  }
  return false;
}

/* A parameter of the innermost instance, or NULL.  Only the innermost: as
 * in a C macro, a subprogram's body sees its own parameters, never those
 * of the subprogram it is inserted in (their values reach it through its
 * arguments). */
static const char *param_value(Ctx *ctx, const char *name, Instance **where)
{
  Instance *in = ctx->instance;
  for (int i = 0; in && i < in->n; i++)
    if (!strcmp(in->names[i], name)) {
      *where = in;
      return in->written[i];
    }
  return NULL;
}

Dim *dim_resolve(Ctx *ctx, const char *path, Loc loc)
{
  char *base;
  int *digits, n;
  if (!type_path_split(path, &base, &digits, &n, ctx)) {
    diag_error(ctx, loc, "'%s' is not a type path", path);
    return NULL;
  }
  Dim *d;
  Instance *in = NULL;
  const char *bound = param_value(ctx, base, &in);
  if (bound) {
    /* the argument is resolved where the #insert stands */
    Instance *saved = ctx->instance;
    ctx->instance = in->parent;
    int errors = ctx->errors;
    d = dim_resolve(ctx, util_str_trim(ctx, bound), loc);
    ctx->instance = saved;
    if (!d) {
      /* the mistake is in the #insert's argument: say where that is */
      if (ctx->errors > errors)
        diag_note(ctx, in->insert->loc, "'%s' is the argument of this #insert for parameter '%s'",
                  util_str_trim(ctx, bound), base);
      return NULL;
    }
  } else {
    Type *t = type_lookup(ctx, base);
    if (!t) {
      if (!type_poisoned(ctx, base)) {
        diag_error(ctx, loc, "undefined type '%s'", base);
        type_poison(ctx, base);
      }
      return NULL;
    }
    d = t->root;
  }
  for (int k = 0; k < n; k++) {
    int have = dim_nkids(d);
    if (digits[k] >= have) {
      if (have == 0)
        diag_error(ctx, loc, "bad sub-dimension path '%s': '%s' has no sub-dimensions", path, d->path);
      else
        diag_error(ctx, loc, "bad sub-dimension path '%s': '%s' has %d sub-dimension%s (_0 to _%d)",
                   path, d->path, have, have == 1 ? "" : "s", have - 1);
      return NULL;
    }
    d = dim_kid(d, digits[k]);
  }
  return d;
}

static Poly *product_of_kids(Ctx *ctx, Dim *d)
{
  Poly *p = poly_const(ctx, 1);
  for (int k = 0; k < d->nkids; k++)
    p = poly_mul(ctx, p, d->kids[k]->extent);
  return p;
}

static void check_not_larger(Ctx *ctx, Dim *d, Loc loc)
{
  long long n, r;
  if (poly_is_const(d->extent, &n) && poly_is_const(d->ref->extent, &r) && n > r)
    diag_error(ctx, loc, "sized reference of %lld elements is larger than '%s', which has %lld", n,
               d->ref->path, r);
}

/* Is some size of d's subtree written with a division? */
static bool sizes_divide(const Dim *d)
{
  if (d->divides)
    return true;
  for (int k = 0; k < d->nkids; k++)
    if (sizes_divide(d->kids[k]))
      return true;
  return false;
}

/* A split whose sizes divide ([[N/16][16] #R]) tiles all of R: with
 * N = 1000 it would cover 992 of R's 1000 elements and leave 8 out, so its
 * extent must be R's.  Without a division it may view the first elements
 * of R only (Fig 21's [[4][4] #S_1] over 17 padded columns), but never more
 * than R has.  Symbolic extents are compared at run time
 * (type_extent_checks). */
static void check_split_covers(Ctx *ctx, Dim *d, Loc loc)
{
  long long n, r;
  if (!poly_is_const(d->extent, &n) || !poly_is_const(d->ref->extent, &r) || n == r)
    return;
  bool tiles = sizes_divide(d);
  if (!tiles && n < r)
    return;
  Buf b = {.ctx = ctx};
  for (int k = 0; k < d->nkids; k++) {
    long long e;
    if (poly_is_const(d->kids[k]->extent, &e))
      buf_printf(&b, "%s%lld", k ? " x " : "", e);
  }
  if (n > r)
    diag_error(ctx, loc, "'%s' splits '%s' into %s = %lld elements, more than the %lld '%s' has", d->path,
               d->ref->path, b.data ? b.data : "?", n, r, d->ref->path);
  else
    diag_error(ctx, loc, "'%s' splits '%s' into %s = %lld elements, but '%s' has %lld: a size written with a "
               "division truncates, and %lld elements would be left out (a split whose sizes divide must tile "
               "what it splits exactly)", d->path, d->ref->path, b.data ? b.data : "?", n, d->ref->path, r, r - n);
  buf_free(&b);
}

static void add_check(Ctx *ctx, ExtentCheck **out, int *n, Dim *d, Poly *have, bool exact)
{
  ExtentCheck *c = ctx_alloc(ctx, sizeof *c * (*n + 1));
  if (*n)
    memcpy(c, *out, sizeof *c * *n);
  c[*n] = (ExtentCheck){d, have, d->ref->extent, exact};
  *out = c;
  ++*n;
}

static void collect_checks(Ctx *ctx, Dim *d, ExtentCheck **out, int *n)
{
  bool tiles = d->ref_kind == REF_SPLIT && sizes_divide(d);
  if (d->ref && d->ref_kind != REF_NONE && d->ref_kind != REF_FULL && poly_extents_may_differ(d->extent, d->ref->extent) &&
      (tiles || !poly_provably_less(ctx, poly_sub(ctx, d->extent, poly_const(ctx, 1)), d->ref->extent)))
    add_check(ctx, out, n, d, d->extent, tiles);
  for (int k = 0; k < d->nkids; k++)
    collect_checks(ctx, d->kids[k], out, n);
}

int type_extent_checks(Ctx *ctx, Type *t, ExtentCheck **out)
{
  int n = 0;
  *out = NULL;
  if (t->root)
    collect_checks(ctx, t->root, out, &n);
  return n;
}

static Dim *build_dim(Ctx *ctx, ThreadView *here, Type *t, DimSyn *syn, Dim *parent, int index)
{
  Dim *d = ctx_alloc(ctx, sizeof *d);
  d->type = t;
  d->parent = parent;
  d->index = index;
  d->loc = syn->loc;
  d->path = ctx_printf(ctx, "%s_%d", parent->path, index);
  if (syn->nkids) {
    d->nkids = syn->nkids;
    d->kids = ctx_alloc(ctx, sizeof(Dim *) * syn->nkids);
    for (int k = 0; k < syn->nkids; k++)
      d->kids[k] = build_dim(ctx, here, t, syn->kids[k], d, k);
  }
  if (syn->size) {
    char *text = ctx->fragment_text(ctx, here, syn->size);
    d->size = size_poly(ctx, text, syn->loc);
    d->divides = strchr(text, '/') != NULL;
    if (d->size && !syn->ref)
      check_unmarked_ref(ctx, util_str_trim(ctx, text), syn->loc);
    long long v;
    if (!d->size)
      d->size = poly_const(ctx, 1);
    else if (poly_is_const(d->size, &v) && v <= 0)
      diag_error(ctx, syn->loc, "extent %lld is not positive", v);
  }
  if (syn->ref) {
    d->ref = dim_resolve(ctx, syn->ref, syn->ref_loc);
    if (!d->ref) {
      d->extent = d->size ? d->size : poly_const(ctx, 1);
      return d;
    }
    if (syn->nkids) {
      d->ref_kind = REF_SPLIT;
      d->extent = product_of_kids(ctx, d);
      check_split_covers(ctx, d, syn->loc);
    } else if (syn->size) {
      d->ref_kind = REF_SIZED;
      d->extent = d->size;
      check_not_larger(ctx, d, syn->loc);
    } else {
      d->ref_kind = REF_FULL;
      d->extent = d->ref->extent;
    }
  } else if (syn->nkids) {
    d->extent = product_of_kids(ctx, d);
  } else {
    d->extent = d->size;
  }
  return d;
}

static Dim *first_ref(Dim *d, bool want_data)
{
  if (d->ref && (!want_data || d->ref->type->kind == TK_NONE))
    return d->ref;
  for (int k = 0; k < d->nkids; k++) {
    Dim *r = first_ref(d->kids[k], want_data);
    if (r)
      return r;
  }
  return NULL;
}

static void parse_params(Ctx *ctx, ThreadView *here, Type *t)
{
  char *text = ctx->fragment_text(ctx, here, t->params);
  /* split at top-level commas; the name is the last identifier */
  int cap = 1;
  for (const char *p = text; *p; p++)
    cap += *p == ',';
  t->pnames = ctx_alloc(ctx, sizeof(char *) * cap);
  t->ptypes = ctx_alloc(ctx, sizeof(char *) * cap);
  const char *start = text;
  int depth = 0;
  for (const char *p = text;; p++) {
    if (*p == '(' || *p == '[')
      depth++;
    if (*p == ')' || *p == ']')
      depth--;
    if ((*p == ',' && depth == 0) || !*p) {
      char *decl = util_str_trim(ctx, ctx_strndup(ctx, start, (size_t)(p - start)));
      if (*decl) {
        /* the name as C's declarators bind: int (*rows)[4], int (*op)(int, int) */
        const char *s = NULL;
        size_t len = 0;
        if (ctext_declarator(decl, NULL, &s, &len) == CD_NONE) {
          diag_error(ctx, t->loc, "thread-array parameter '%s' needs a type and a name", decl);
          s = decl;
          len = 0;
        }
        t->pnames[t->nparams] = ctx_strndup(ctx, s, len);
        t->ptypes[t->nparams++] = decl;
      } else if (*p || t->nparams) {
        diag_error(ctx, t->loc, "empty thread-array parameter");
      }
      if (!*p)
        break;
      start = p + 1;
    }
  }
}

/* Extents are products computed with saturation: a saturated coefficient
 * anywhere in the tree means the true value does not fit in 64 bits. */
static bool extent_overflows(const Dim *d)
{
  for (int i = 0; i < d->extent->n; i++) {
    long long c = d->extent->t[i].coef;
    if (c == LLONG_MAX || c == LLONG_MIN)
      return true;
  }
  for (int k = 0; k < d->nkids; k++)
    if (extent_overflows(d->kids[k]))
      return true;
  return false;
}

static bool reserved_name(const char *s)
{
  return !strcmp(s, "tid") || !strcmp(s, "dim") || !strcmp(s, "size") || !strcmp(s, "cnt");
}

static Type *declare(Ctx *ctx, ThreadView *here, Node *decl);

/* Declares the type of a #parray; when that fails (reported), its name is
 * poisoned so that its uses add nothing more. */
Type *type_declare(Ctx *ctx, ThreadView *here, Node *decl)
{
  if (decl->failed) {
    type_poison(ctx, decl->name);
    return NULL;
  }
  Type *t = declare(ctx, here, decl);
  if (!t && !type_lookup(ctx, decl->name))
    type_poison(ctx, decl->name);
  return t;
}

static Type *declare(Ctx *ctx, ThreadView *here, Node *decl)
{
  Type *t = ctx_alloc(ctx, sizeof *t);
  t->name = decl->name;
  t->loc = decl->name_loc;
  t->scope = ctx->instance ? ctx->instance->id : 0;
  t->cname = t->scope ? ctx_printf(ctx, "%s_in%d", t->name, t->scope) : t->name;
  char *base;
  int *digits, n;
  if (!type_path_split(t->name, &base, &digits, &n, ctx) || n > 0) {
    diag_error(ctx, decl->name_loc, "type name '%s' may not end in '_<digits>': that suffix names sub-dimensions",
               t->name);
    if (n > 0 && !type_lookup(ctx, base))
      type_poison(ctx, base); /* its uses ('A_1(x)') name base 'A' */
    return NULL;
  }
  if (reserved_name(t->name)) {
    diag_error(ctx, decl->name_loc, "'%s' is reserved in '$...$' and cannot name a type", t->name);
    return NULL;
  }
  Type *o = type_in_scope(ctx, t->scope, t->name);
  if (o) {
    diag_error(ctx, decl->name_loc, "type '%s' is already declared", t->name);
    diag_note(ctx, o->loc, "'%s' was declared here", t->name);
    return NULL;
  }
  int w = 0;
  if (w < decl->nwords && (t->mem = mem_of_word(decl->words[w])) != MEM_NONE)
    w++;
  else if (w < decl->nwords && (t->kind = kind_of_word(decl->words[w])) != TK_NONE)
    w++;
  int w0 = w;
  if (w < decl->nwords) {
    check_kind_like(ctx, decl, w);
    Buf b = {.ctx = ctx};
    for (; w < decl->nwords; w++) {
      const char *word = decl->words[w];
      if (b.len && util_is_ident_char((unsigned char)word[0]))
        buf_putc(&b, ' ');
      buf_puts(&b, word);
    }
    t->elem = ctx_strdup(ctx, b.data);
    buf_free(&b);
    if (t->kind != TK_NONE) {
      diag_error(ctx, decl->loc, "a %s thread array has no element type (found '%s')",
                 type_kind_name(t->kind), t->elem);
      return NULL;
    }
    if (!one_element_type(ctx, decl, w0))
      return NULL;
  }
  if (decl->has_params) {
    if (t->kind == TK_NONE) {
      diag_error(ctx, decl->loc, "only thread arrays (pthd, omp, cuda, mpi) take parameters");
      return NULL;
    }
    t->params = decl->params;
    parse_params(ctx, here, t);
  }
  Dim *root = ctx_alloc(ctx, sizeof *root);
  root->type = t;
  root->path = t->name;
  root->loc = decl->name_loc;
  root->nkids = decl->ndims;
  root->kids = ctx_alloc(ctx, sizeof(Dim *) * decl->ndims);
  t->root = root;
  int errors = ctx->errors;
  for (int k = 0; k < decl->ndims; k++)
    root->kids[k] = build_dim(ctx, here, t, decl->dims[k], root, k);
  root->extent = product_of_kids(ctx, root);
  if (ctx->errors == errors && extent_overflows(root))
    diag_error(ctx, decl->name_loc, "type '%s' has too many elements: its extent does not fit in 64 bits", t->name);
  t->ref_depth = 1 + refs_depth(root);
  if (ctx->errors == errors && t->ref_depth > TYPE_MAX_REF_DEPTH)
    diag_error(ctx, decl->name_loc, "type '%s' ends a chain of more than %d types each referencing the next: "
               "parrayc's limit (its offsets are found by walking the chain)", t->name, TYPE_MAX_REF_DEPTH);
  if (ctx->errors > errors)
    return NULL;
  if (t->kind == TK_NONE) {
    Dim *r = first_ref(root, true);
    if (t->mem == MEM_NONE)
      t->mem = r ? r->type->mem : MEM_PAGED;
    if (!t->elem && r)
      t->elem = r->type->elem;
    if (!t->elem) {
      diag_error(ctx, decl->loc, "type '%s' has no element type (write e.g. '{paged float [...]}')", t->name);
      return NULL;
    }
  }
  type_register(ctx, t);
  return t;
}

/* ---- offsets (SPEC.md 2.4) ---- */

/* W(n, A): the product of the extents of the leaves after n's subtree
 * within A's subtree. */
Poly *dim_weight(Ctx *ctx, Dim *n, Dim *a)
{
  Poly *w = poly_const(ctx, 1);
  for (Dim *x = n; x != a && x->parent; x = x->parent)
    for (int k = x->index + 1; k < x->parent->nkids; k++)
      w = poly_mul(ctx, w, x->parent->kids[k]->extent);
  return w;
}

/* Grows a walk's stack of items of `size` bytes to hold one more than n.
 * The walks below follow chains of referencing types, as long as
 * TYPE_MAX_REF_DEPTH: on the heap, not the C stack. */
static void *walk_room(const Ctx *ctx, void *items, int n, int *cap, size_t size)
{
  if (n < *cap)
    return items;
  *cap = *cap ? 2 * *cap : 16;
  return util_realloc(ctx, items, size * *cap);
}

/* A node with children met on a walk: what its children gave so far, and
 * the next child. */
typedef struct PolyStep {
  Dim *n;
  Poly *i;   /* dim_offset: the node's index */
  Poly *acc; /* the product or the sum of its children's so far */
  int kid;
} PolyStep;

/* The room node d takes in its process's local layout: its extent, less
 * the dimensions that select the process (SPEC 6.3).  Kept in each node
 * met (d->local): every leaf's stride asks for its later siblings', which
 * may end a long chain of whole references. */
static Poly *local_extent(Ctx *ctx, Dim *d)
{
  PolyStep *st = NULL; /* acc NULL: a whole reference, its target's room */
  int depth = 0, cap = 0;
  for (;;) {
    Poly *got;
    for (;;) {
      if (d->local) {
        got = d->local;
        break;
      }
      if (dim_selects_process(d)) {
        got = poly_const(ctx, 1);
        break;
      }
      bool whole = d->ref_kind == REF_FULL && d->ref && d->ref->type->kind == TK_NONE;
      if (!whole && (d->ref_kind != REF_NONE || !d->nkids)) {
        got = d->extent;
        break;
      }
      st = walk_room(ctx, st, depth, &cap, sizeof *st);
      st[depth++] = (PolyStep){d, NULL, whole ? NULL : poly_const(ctx, 1), 0};
      d = whole ? d->ref : d->kids[0];
    }
    if (d->local != got) {
      d->local = got;
      ctx_keep(ctx); /* a memo, made in scratch when a $...$ asks first */
    }
    for (;; depth--) {
      if (!depth) {
        free(st);
        return got;
      }
      PolyStep *s = &st[depth - 1];
      if (s->acc) {
        s->acc = poly_mul(ctx, s->acc, got);
        if (++s->kid < s->n->nkids) {
          d = s->n->kids[s->kid];
          break;
        }
        got = s->acc;
      }
      s->n->local = got;
      ctx_keep(ctx);
    }
  }
}

/* The natural stride of leaf n (rule 4): W(n, root), where a distributed
 * type's process dimensions take no room. */
static Poly *natural_stride(Ctx *ctx, Dim *n)
{
  Poly *w = poly_const(ctx, 1);
  for (Dim *x = n; x->parent; x = x->parent)
    for (int k = x->index + 1; k < x->parent->nkids; k++)
      w = poly_mul(ctx, w, local_extent(ctx, x->parent->kids[k]));
  return w;
}

static Dim *nearest_ref_ancestor(Dim *n)
{
  for (Dim *p = n->parent; p; p = p->parent)
    if (p->ref_kind != REF_NONE)
      return p;
  return NULL;
}

/* place value of each child of d: the product of the later children */
static Poly *place_value(Ctx *ctx, Dim *d, int k)
{
  Poly *p = poly_const(ctx, 1);
  for (int j = k + 1; j < d->nkids; j++)
    p = poly_mul(ctx, p, d->kids[j]->extent);
  return p;
}

/* A data dimension that references an mpi array's dimension selects the
 * process that stores the element (SPEC 6.3), and one that references a
 * pthd or omp array's selects the thread that stores it: in host memory
 * the thread's own block (SPEC 6.3), in dmem its GPU's (SPEC 6.5).  So
 * does a sub-dimension of a split one ('[[2][2] #P]'): its offsets, by
 * rule 2, are the process array's.  It takes no room in the local layout,
 * so its offsets are 0 (stride 0). */
bool dim_selects_process(const Dim *n)
{
  if (n->type->kind != TK_NONE)
    return false;
  if (!n->ref) {
    Dim *a = nearest_ref_ancestor((Dim *)n);
    return a && dim_selects_process(a);
  }
  ThreadKind k = n->ref->type->kind;
  return k == TK_MPI || k == TK_PTHD || k == TK_OMP;
}

/* The thread array whose processes (threads) selector sel picks among. */
Type *dim_process_array(const Dim *sel)
{
  return sel->ref ? sel->ref->type : nearest_ref_ancestor((Dim *)sel)->ref->type;
}

/* The node of the thread array whose offsets sel's digits follow: the one
 * it references, or for a part of a split, the split's. */
Dim *dim_process_node(const Dim *sel)
{
  return sel->ref ? sel->ref : nearest_ref_ancestor((Dim *)sel)->ref;
}

/* The process index digit of selector sel contributes: off_R(digit) for
 * '[#R]', and for a part of '[[a][b] #R]' (rule 2) off_R(digit * W), its
 * weight W within the split. */
Poly *dim_process_index(Ctx *ctx, Dim *sel, Poly *digit)
{
  if (sel->ref)
    return dim_offset(ctx, sel->ref, digit);
  Dim *a = nearest_ref_ancestor(sel);
  return dim_offset(ctx, a->ref, poly_mul(ctx, digit, dim_weight(ctx, sel, a)));
}

/* The dimension that selects the process (or GPU) for n: n itself, or the
 * one a chain of whole references from n ends at ('[#YS_0_0]' where
 * YS_0_0 is '[#G]'); NULL when n selects none. */
Dim *dim_process_selector(Dim *n)
{
  for (; n; n = n->ref_kind == REF_FULL ? n->ref : NULL)
    if (dim_selects_process(n))
      return n;
  return NULL;
}

/* the digit of child k in index i of node d */
static Poly *kid_digit(Ctx *ctx, Dim *d, int k, Poly *i)
{
  Poly *digit = poly_div(ctx, i, place_value(ctx, d, k));
  return k > 0 ? poly_mod(ctx, digit, d->kids[k]->extent) : digit;
}

Poly *dim_offset(Ctx *ctx, Dim *n, Poly *i)
{
  PolyStep *st = NULL;
  int depth = 0, cap = 0;
  for (;;) {
    /* down the references to a node whose offset is known, its
     * children's summed on the way back */
    Poly *got = NULL;
    Dim *a;
    while (!got) {
      /* stopped: an offset passed expr.c's limits, and the paths of a
       * chain that doubles them would double the walk too */
      long long zero;
      if (dim_selects_process(n) || ctx->stopped || (poly_is_const(i, &zero) && zero == 0))
        got = poly_const(ctx, 0); /* every offset is a multiple of the index: 0 at 0 */
      else if (n->ref_kind != REF_NONE) {
        if (n->ref)
          n = n->ref;
        else
          got = poly_const(ctx, 0);
      } else if ((a = nearest_ref_ancestor(n))) {
        i = poly_mul(ctx, i, dim_weight(ctx, n, a));
        n = a;
      } else if (n->nkids) {
        st = walk_room(ctx, st, depth, &cap, sizeof *st);
        st[depth++] = (PolyStep){n, i, poly_const(ctx, 0), 0};
        i = kid_digit(ctx, n, 0, i);
        n = n->kids[0];
      } else
        got = poly_mul(ctx, i, natural_stride(ctx, n));
    }
    for (;; depth--) {
      if (!depth) {
        free(st);
        return got;
      }
      PolyStep *s = &st[depth - 1];
      s->acc = poly_add(ctx, s->acc, got);
      if (++s->kid < s->n->nkids) {
        n = s->n->kids[s->kid];
        i = kid_digit(ctx, s->n, s->kid, s->i);
        break;
      }
      got = s->acc;
    }
  }
}

static bool has_ref_above_or_here(Dim *d)
{
  return d->ref_kind != REF_NONE || nearest_ref_ancestor(d);
}

/* [x] alone is one expression: a linear index. */
static Index *unwrap(Index *ix)
{
  while (ix && !ix->expr && ix->nitems == 1 && ix->items[0]->expr)
    ix = ix->items[0];
  return ix;
}

static bool check_count(Ctx *ctx, Dim *d, Index *ix)
{
  int have = dim_nkids(d);
  if (ix->nitems == have)
    return true;
  if (have == 0)
    diag_error(ctx, ix->loc, "wrong number of indices for '%s': it has no sub-dimensions, so it takes one index, got %d",
               d->path, ix->nitems);
  else
    diag_error(ctx, ix->loc, "wrong number of indices for '%s': it has %d sub-dimensions, got %d", d->path, have,
               ix->nitems);
  return false;
}

static Poly *index_var(Ctx *ctx, Dim *d, Index *ix, ThreadView *here)
{
  /* a nested $...$ arrives parenthesised: inside another offset, a
   * second pair */
  char *text = ctext_strip_parens(ctx, util_str_trim(ctx, ctx->fragment_text(ctx, here, ix->expr)));
  long long v, e;
  bool known = ceval(ctx, text, CEVAL_C, NULL, NULL, &v, NULL);
  if (known && (v < 0 || (poly_is_const(d->extent, &e) && v >= e))) {
    /* a constant index outside a known extent would read or write past it in silence */
    if (v < 0)
      diag_error(ctx, ix->loc, "index %lld of '%s' is negative", v, d->path);
    else
      diag_error(ctx, ix->loc, "index %lld is past the end of '%s', whose extent is %lld (indices 0 to %lld)", v,
                 d->path, e, e - 1);
    return poly_const(ctx, 0);
  }
  if (known)
    return poly_const(ctx, v);
  /* "1+[2][1]": an index list inside arithmetic would reach the C compiler
   * as an array literal; a '[' is a subscript only after a name, ')', ']'
   * or the '}' of a compound literal ('(int[2]){1, 2}[1]') */
  CText c = ctext(text, NULL, 0);
  CTok prev = {CT_END, "", 0, false};
  for (CTok t = ctext_code(&c); t.kind != CT_END; prev = t, t = ctext_code(&c))
    if (ctok_is(t, '[') && !(prev.kind == CT_IDENT || ctok_is(prev, ')') || ctok_is(prev, ']') || ctok_is(prev, '}'))) {
      diag_error(ctx, ix->loc, "index '%s' of '%s' has an index list inside arithmetic: a list '[...][...]' is an "
                 "index of its own, never part of an expression", text, d->path);
      return poly_const(ctx, 0);
    }
  return poly_var(ctx, text, d->extent);
}

/* the row-major linear index of a nested index list */
static Poly *combine(Ctx *ctx, Dim *d, Index *ix, ThreadView *here)
{
  ix = unwrap(ix);
  if (ix->expr)
    return index_var(ctx, d, ix, here);
  if (!check_count(ctx, d, ix))
    return NULL;
  Poly *sum = poly_const(ctx, 0);
  int m = dim_nkids(d);
  for (int k = 0; k < m; k++) {
    Poly *c = combine(ctx, dim_kid(d, k), ix->items[k], here);
    if (!c)
      return NULL;
    Poly *pv = poly_const(ctx, 1);
    for (int j = k + 1; j < m; j++)
      pv = poly_mul(ctx, pv, dim_kid(d, j)->extent);
    sum = poly_add(ctx, sum, poly_mul(ctx, c, pv));
  }
  return sum;
}

Poly *dim_eval(Ctx *ctx, Dim *d, Index *ix, ThreadView *here)
{
  if (!ix)
    return dim_offset(ctx, d, poly_const(ctx, 0));
  ix = unwrap(ix);
  if (ix->expr)
    return dim_offset(ctx, d, index_var(ctx, d, ix, here));
  if (!check_count(ctx, d, ix))
    return NULL;
  if (has_ref_above_or_here(d)) {
    Poly *l = combine(ctx, d, ix, here);
    return l ? dim_offset(ctx, d, l) : NULL;
  }
  Poly *sum = poly_const(ctx, 0);
  for (int k = 0; k < ix->nitems; k++) {
    Poly *o = dim_eval(ctx, dim_kid(d, k), ix->items[k], here);
    if (!o)
      return NULL;
    sum = poly_add(ctx, sum, o);
  }
  return sum;
}

Poly *dim_index_of(Ctx *ctx, Dim *root, Dim *d, Poly *linear)
{
  if (d == root)
    return linear;
  Poly *digit = poly_div(ctx, linear, dim_weight(ctx, d, root));
  return poly_mod(ctx, digit, d->extent);
}

/* ---- strided views ---- */

typedef struct StrideVec {
  Stride *s;
  int n, cap; /* a vector is moved by assignment, never pushed to from two copies */
} StrideVec;

/* Appends a digit.  One of extent 1 carries no information (dim_strides
 * drops them) but as the outermost, which truncate_view reads: the others
 * are dropped here, so that a chain of types each adding one ('[[#T_0][1]]')
 * does not gather them (quadratic memory).  The room doubles (a copy of
 * the vector a push, as before, is quadratic in its digits). */
static void sv_push(Ctx *ctx, StrideVec *v, Poly *extent, Poly *stride)
{
  long long e;
  if (v->n > 0 && poly_is_const(extent, &e) && e == 1)
    return;
  if (v->n == v->cap) {
    int cap = v->cap ? 2 * v->cap : 4;
    Stride *ns = ctx_alloc(ctx, sizeof(Stride) * cap);
    if (v->n)
      memcpy(ns, v->s, sizeof(Stride) * v->n);
    v->s = ns;
    v->cap = cap;
  }
  v->s[v->n].extent = extent;
  v->s[v->n].stride = stride;
  v->n++;
}

static bool divides_exactly(Ctx *ctx, Poly *a, Poly *d, Poly **q)
{
  *q = poly_div(ctx, a, d);
  return poly_equal(poly_mul(ctx, *q, d), a);
}

/* the first `extent` positions of a strided view, or false */
static bool truncate_view(Ctx *ctx, StrideVec *v, Poly *extent)
{
  Poly *total = poly_const(ctx, 1);
  for (int k = 0; k < v->n; k++)
    total = poly_mul(ctx, total, v->s[k].extent);
  if (poly_equal(total, extent))
    return true;
  if (v->n == 0)
    return false;
  Poly *rest = poly_div(ctx, total, v->s[0].extent);
  Poly *first = extent;
  if (v->n > 1 && !divides_exactly(ctx, extent, rest, &first))
    return false;
  Stride *ns = ctx_alloc(ctx, sizeof(Stride) * v->n);
  memcpy(ns, v->s, sizeof(Stride) * v->n);
  ns[0].extent = first;
  v->s = ns;
  v->cap = v->n;
  return true;
}

/* notes that last < e was decided at the macros' values, once, after
 * the facts met before it */
static void note_size_fact(Ctx *ctx, Poly *last, Poly *e, Dim *at)
{
  SizeFact **end = &ctx->facts;
  for (; *end; end = &(*end)->next)
    if (poly_equal((*end)->less, last) && poly_equal((*end)->than, e))
      return;
  *end = ctx_alloc(ctx, sizeof **end);
  **end = (SizeFact){last, e, at, NULL};
  ctx_keep(ctx);
}

/* Do positions 0 .. need - 1 fit in a digit of extent e (of a view that
 * `at` takes the first positions of)?  Provably; else at their values
 * where macros give both (noted: the output asserts it); never where a
 * size is known only at run time or is a macro parrayc cannot evaluate
 * (no strides: the copy goes by the offsets). */
static bool fits_in_digit(Ctx *ctx, Poly *need, Poly *e, Dim *at)
{
  Poly *last = poly_sub(ctx, need, poly_const(ctx, 1));
  long long vl, ve;
  if (poly_provably_less(ctx, last, e))
    return true;
  if (poly_names_variable(need) || poly_names_variable(e) || !poly_known_value(last, &vl) ||
      !poly_known_value(e, &ve) || vl >= ve)
    return false;
  note_size_fact(ctx, last, e, at);
  return true;
}

/* The digits of v from digit j outwards that make `extent` positions
 * (appended to out, outermost first); false when they do not line up. */
static bool take_digits(Ctx *ctx, StrideVec *v, int j, Poly *extent, StrideVec *out, Dim *at)
{
  Poly *got = poly_const(ctx, 1), *m;
  StrideVec tmp = {0};
  for (int k = j; k >= 0 && !poly_equal(got, extent); k--) {
    Poly *need;
    if (!divides_exactly(ctx, extent, got, &need))
      return false;
    Poly *e = v->s[k].extent;
    if (!poly_equal(poly_mul(ctx, got, e), extent) && !divides_exactly(ctx, need, e, &m)) {
      /* a partial outermost digit: the need values must fit in it */
      if (!fits_in_digit(ctx, need, e, at))
        return false;
      sv_push(ctx, &tmp, need, v->s[k].stride);
      got = extent;
      break;
    }
    sv_push(ctx, &tmp, e, v->s[k].stride);
    got = poly_mul(ctx, got, e);
  }
  if (!poly_equal(got, extent))
    return false;
  for (int i = tmp.n - 1; i >= 0; i--)
    sv_push(ctx, out, tmp.s[i].extent, tmp.s[i].stride);
  return true;
}

/* The strides of n, a referencing node, from rv, its target's: their
 * first positions (appended to out). */
static bool strides_through_ref(Ctx *ctx, Dim *n, StrideVec *rv, StrideVec *out)
{
  if (!truncate_view(ctx, rv, n->extent))
    /* the first positions of a view over symbolic sizes: its inner digits */
    return rv->n > 0 && take_digits(ctx, rv, rv->n - 1, n->extent, out, n);
  for (int k = 0; k < rv->n; k++)
    sv_push(ctx, out, rv->s[k].extent, rv->s[k].stride);
  return true;
}

/* The strides of n, below referencing node a, from av, a's target's
 * (appended to out).  Only a's inner digits matter here, so a's target
 * need not be cut to a's extent (which fails when sizes are symbols, as
 * N/4 vs N/256). */
static bool strides_below_ref(Ctx *ctx, Dim *n, Dim *a, StrideVec *av, StrideVec *out)
{
  if (av->n == 0)
    return false;
  Poly *w = dim_weight(ctx, n, a);
  /* place values of a's digits, innermost first */
  Poly **pv = ctx_alloc(ctx, sizeof(Poly *) * (av->n + 1));
  pv[av->n - 1] = poly_const(ctx, 1);
  for (int k = av->n - 2; k >= 0; k--)
    pv[k] = poly_mul(ctx, pv[k + 1], av->s[k + 1].extent);
  for (int j = av->n - 1; j >= 0; j--) {
    Poly *m;
    if (!divides_exactly(ctx, w, pv[j], &m))
      return false;
    if (poly_equal(pv[j], w)) {
      /* aligned: whole digits from j outwards */
      return take_digits(ctx, av, j, n->extent, out, n);
    }
    /* inside digit j: i * w stays in it when m * extent <= e_j */
    if (poly_provably_less(ctx, poly_sub(ctx, poly_mul(ctx, m, n->extent), poly_const(ctx, 1)), av->s[j].extent)) {
      sv_push(ctx, out, n->extent, poly_mul(ctx, av->s[j].stride, m));
      return true;
    }
  }
  return false;
}

/* A node met on strides_of's walk whose strides wait on others': a
 * referencing node or one below it (a: the referencing node), whose
 * strides follow its target's, or a node with children (a: NULL), whose
 * strides are its children's, gathered in got. */
typedef struct StrideStep {
  Dim *n, *a;
  int kid;
  StrideVec got;
} StrideStep;

static bool strides_of(Ctx *ctx, Dim *n, StrideVec *out)
{
  StrideStep *st = NULL;
  int depth = 0, cap = 0;
  bool ok = true;
  for (;;) {
    /* down the references to a node whose strides are known */
    StrideVec got = {0};
    bool target = false;
    for (;;) {
      Dim *a = n->ref_kind != REF_NONE ? n : nearest_ref_ancestor(n);
      long long one;
      if (ctx->stopped) { /* as in dim_offset */
        ok = false;
        goto done;
      }
      /* a node of one element, but a reference's target (which a view
       * may stretch), has one digit, always 0: what is below it is not
       * walked (types each two references to the last, extent 1, would
       * double the walk with each) */
      if (dim_selects_process(n) || (!target && poly_is_const(n->extent, &one) && one == 1)) {
        sv_push(ctx, &got, n->extent, poly_const(ctx, 0));
        break;
      }
      if (a && !a->ref) {
        ok = false;
        goto done;
      }
      if (!a && !n->nkids) {
        sv_push(ctx, &got, n->extent, natural_stride(ctx, n));
        break;
      }
      st = walk_room(ctx, st, depth, &cap, sizeof *st);
      st[depth++] = (StrideStep){n, a, 0, {0}};
      n = a ? a->ref : n->kids[0];
      target = a != NULL;
    }
    /* back up, each node's strides from those it waits on */
    for (;; depth--) {
      if (!depth) {
        for (int k = 0; k < got.n; k++)
          sv_push(ctx, out, got.s[k].extent, got.s[k].stride);
        goto done;
      }
      StrideStep *s = &st[depth - 1];
      if (s->a) {
        StrideVec v = {0};
        ok = s->a == s->n ? strides_through_ref(ctx, s->n, &got, &v) : strides_below_ref(ctx, s->n, s->a, &got, &v);
        if (!ok)
          goto done;
        got = v;
        continue;
      }
      for (int k = 0; k < got.n; k++)
        sv_push(ctx, &s->got, got.s[k].extent, got.s[k].stride);
      if (++s->kid < s->n->nkids) {
        n = s->n->kids[s->kid];
        break;
      }
      got = s->got;
    }
  }
done:
  free(st);
  return ok;
}

bool dim_strides(Ctx *ctx, Dim *d, Stride **out, int *n)
{
  StrideVec v = {0};
  if (!strides_of(ctx, d, &v))
    return false;
  /* digits of extent 1 carry no information */
  StrideVec w = {0};
  for (int k = 0; k < v.n; k++) {
    long long e;
    if (!(poly_is_const(v.s[k].extent, &e) && e == 1))
      sv_push(ctx, &w, v.s[k].extent, v.s[k].stride);
  }
  *out = w.s;
  *n = w.n;
  return true;
}

/* Groups d's digits (innermost first) where each continues the one inside
 * it: its stride is the span of that one's indices at its stride. At most
 * two groups: off_d(i) = off_d(0) + (i / r) S + (i % r) s, r the inner
 * group's extent (|d| for one group); else, or where a size is not known
 * well enough to tell, NULL (a stride parrayc cannot compare is a group of
 * its own, so an answer is never wrong, only missing) */
Poly *dim_run(Ctx *ctx, Dim *d)
{
  Stride *s;
  int n;
  if (!dim_strides(ctx, d, &s, &n))
    return NULL;
  if (n <= 1)
    return d->extent;
  Poly *run = s[n - 1].extent, *next = poly_mul(ctx, s[n - 1].extent, s[n - 1].stride);
  int groups = 1;
  for (int k = n - 2; k >= 0; k--) {
    if (!poly_equal(s[k].stride, next) && ++groups > 2)
      return NULL;
    if (groups == 1)
      run = poly_mul(ctx, run, s[k].extent);
    next = poly_mul(ctx, s[k].extent, s[k].stride);
  }
  return groups == 1 ? d->extent : run;
}

static Atom *fresh_index(Ctx *ctx, Dim *d, Poly **var)
{
  *var = poly_var(ctx, ctx_printf(ctx, "pa_i_%s", d->path), d->extent);
  return (*var)->t[0].f[0];
}

Poly *dim_span(Ctx *ctx, Dim *d)
{
  Stride *s;
  int n;
  if (dim_strides(ctx, d, &s, &n)) {
    Poly *max = poly_const(ctx, 0);
    for (int k = 0; k < n; k++)
      max = poly_add(ctx, max, poly_mul(ctx, s[k].stride, poly_sub(ctx, s[k].extent, poly_const(ctx, 1))));
    return poly_add(ctx, max, poly_const(ctx, 1));
  }
  Poly *var;
  Atom *a = fresh_index(ctx, d, &var);
  Poly *off = dim_offset(ctx, d, var);
  long long ext;
  if (poly_is_const(d->extent, &ext) && ext <= BRUTE_FORCE_LIMIT) {
    long long max = 0, v;
    bool ok = true;
    for (long long i = 0; i < ext && ok; i++) {
      ok = poly_eval(off, a, i, &v);
      if (v > max)
        max = v;
    }
    if (ok)
      return poly_const(ctx, max + 1);
  }
  return poly_add(ctx, poly_max(ctx, off), poly_const(ctx, 1));
}

/* Are the offsets off(0 .. ext-1) of index a consecutive: 1, 0, or -1
 * when off cannot be evaluated (it names a size) */
static int offsets_consecutive(const Poly *off, Atom *a, long long ext)
{
  long long prev, v;
  if (!poly_eval(off, a, 0, &prev))
    return -1;
  for (long long i = 1; i < ext; i++) {
    if (!poly_eval(off, a, i, &v))
      return -1;
    if (v != prev + 1)
      return 0;
    prev = v;
  }
  return 1;
}

int dim_contiguous(Ctx *ctx, Dim *d, char **cexpr)
{
  *cexpr = NULL;
  Poly *var;
  Atom *a = fresh_index(ctx, d, &var);
  Poly *off = dim_offset(ctx, d, var);
  /* a known extent: the offsets one by one, before the symbolic question
   * when that costs more (a few thousand evaluations), else after it */
  long long ext;
  bool known = poly_is_const(d->extent, &ext) && ext <= BRUTE_FORCE_LIMIT;
  int r = known && ext <= 4096 ? offsets_consecutive(off, a, ext) : -1;
  if (r >= 0)
    return r;
  Poly *rel = poly_sub(ctx, off, dim_offset(ctx, d, poly_const(ctx, 0)));
  if (poly_equal(rel, var))
    return 1;
  r = known && ext > 4096 ? offsets_consecutive(off, a, ext) : -1;
  if (r >= 0)
    return r;
  Stride *s;
  int n;
  if (!dim_strides(ctx, d, &s, &n))
    return -1;
  Buf b = {.ctx = ctx};
  Poly *place = poly_const(ctx, 1);
  for (int k = n - 1; k >= 0; k--) {
    if (!poly_equal(s[k].stride, place)) {
      /* digit k is contiguous with the digits inside it when its stride is
       * their span, or when it takes one value only */
      long long x, y;
      bool ext_const = poly_is_const(s[k].extent, &x); /* then not 1 */
      bool differ = poly_is_const(s[k].stride, &x) && poly_is_const(place, &y);
      if (differ && ext_const) {
        buf_free(&b);
        return 0;
      }
      if (differ)
        buf_printf(&b, "%s%s == 1", b.len ? " && " : "", poly_str(ctx, s[k].extent));
      else if (ext_const)
        buf_printf(&b, "%s%s == %s", b.len ? " && " : "", poly_str(ctx, s[k].stride), poly_str(ctx, place));
      else
        buf_printf(&b, "%s(%s == 1 || %s == %s)", b.len ? " && " : "", poly_str(ctx, s[k].extent),
                   poly_str(ctx, s[k].stride), poly_str(ctx, place));
    }
    place = poly_mul(ctx, place, s[k].extent);
  }
  if (!b.len)
    return 1;
  *cexpr = ctx_strdup(ctx, b.data);
  buf_free(&b);
  return -1;
}

/* The first node in the walk from d down its children and references
 * (depth first, in order) that `found` names a type for, and that type;
 * a node `found` stops at (NULL from it and stop set) ends its branch. */
static Type *first_found(const Ctx *ctx, Dim *d, Type *(*found)(Dim *, bool *stop))
{
  int depth = 0, cap = 0;
  Dim **st = walk_room(ctx, NULL, depth, &cap, sizeof *st);
  Map seen = {0}; /* a node two references lead to is walked once */
  Type *t = NULL;
  st[depth++] = d;
  while (!t && depth) {
    bool stop = false;
    d = st[--depth];
    unsigned long hash = map_ptr_hash(d);
    if (map_get(&seen, hash, map_is_key, d))
      continue;
    map_put(ctx, &seen, hash, d);
    if ((t = found(d, &stop)) || stop)
      continue;
    if (d->ref) {
      st = walk_room(ctx, st, depth, &cap, sizeof *st);
      st[depth++] = d->ref;
      continue;
    }
    for (int k = d->nkids - 1; k >= 0; k--) {
      st = walk_room(ctx, st, depth, &cap, sizeof *st);
      st[depth++] = d->kids[k];
    }
  }
  free(st);
  map_free(&seen);
  return t;
}

/* a process selector's array; a reference to a thread array ends the branch */
static Type *process_array_at(Dim *d, bool *stop)
{
  if (dim_selects_process(d))
    return dim_process_array(d);
  *stop = d->ref && d->ref->type->kind != TK_NONE;
  return NULL;
}

Type *dim_distributed_over(const Ctx *ctx, Dim *d)
{
  return first_found(ctx, d, process_array_at);
}

static Type *thread_array_at(Dim *d, bool *stop)
{
  (void)stop;
  return d->ref && d->ref->type->kind != TK_NONE ? d->ref->type : NULL;
}

Type *dim_thread_type(const Ctx *ctx, Dim *d)
{
  return first_found(ctx, d, thread_array_at);
}

/* Lining up two strided views, innermost digits first: the common digits
 * so far and the run-time conditions taken on. */
typedef struct Lineup {
  Stride *a, *b;       /* the two sides' digits, outermost first */
  CopyDigit *dg;
  int nd;
  CopyCond *cond;
  int nc, max_cond;    /* max_cond 0: only what parrayc can prove */
  CopyDigit *best;     /* the lineup with the fewest conditions so far */
  CopyCond *best_cond;
  int best_nd, best_nc; /* best_nc -1: none yet */
} Lineup;

/* C text without blanks and enclosing parentheses */
static char *bare_text(Ctx *ctx, const char *s)
{
  Buf b = {.ctx = ctx};
  for (; *s; s++)
    if (*s != ' ')
      buf_putc(&b, *s);
  char *t = ctx_strdup(ctx, b.data ? b.data : "");
  buf_free(&b);
  for (size_t n = strlen(t); n >= 2 && t[0] == '(' && t[n - 1] == ')'; n -= 2) {
    int depth = 0;
    for (size_t k = 0; k < n - 1; k++) {
      depth += (t[k] == '(') - (t[k] == ')');
      if (depth == 0)
        return t; /* "(a) + (b)": the first parenthesis closes early */
    }
    t[n - 1] = 0;
    t++;
  }
  return t;
}

/* Equal for every value of the sizes: the same polynomial, or the same C
 * expression (N / 32 computed, (N/32) written as a size). */
static bool same_size(Ctx *ctx, Poly *a, Poly *b)
{
  return poly_equal(a, b) || !strcmp(bare_text(ctx, poly_str(ctx, a)), bare_text(ctx, poly_str(ctx, b)));
}

/* takes on the condition (a, b, equal), unless already there; false when
 * no more may be */
static bool assume(Lineup *l, Poly *a, Poly *b, bool equal)
{
  for (int k = 0; k < l->nc; k++)
    if (l->cond[k].equal == equal && poly_equal(l->cond[k].a, a) && poly_equal(l->cond[k].b, b))
      return true;
  if (l->nc == l->max_cond)
    return false;
  l->cond[l->nc++] = (CopyCond){a, b, equal};
  return true;
}

static bool line_up(Ctx *ctx, Lineup *l, int i, Poly *ea, Poly *sa, int j, Poly *eb, Poly *sb);

static bool next_a(Ctx *ctx, Lineup *l, int i, int j, Poly *eb, Poly *sb)
{
  return line_up(ctx, l, i - 1, i > 0 ? l->a[i - 1].extent : NULL, i > 0 ? l->a[i - 1].stride : NULL, j, eb, sb);
}

static bool next_b(Ctx *ctx, Lineup *l, int i, Poly *ea, Poly *sa, int j)
{
  return line_up(ctx, l, i, ea, sa, j - 1, j > 0 ? l->b[j - 1].extent : NULL, j > 0 ? l->b[j - 1].stride : NULL);
}

/* The digit of a of extent ea is the inner part of b's digit of extent eb
 * (or, a_inner false, the other way round): provably, or when cond under
 * the run-time condition that it divides. */
static bool split_digit(Ctx *ctx, Lineup *l, bool a_inner, bool cond, int i, Poly *ea, Poly *sa, int j, Poly *eb,
                        Poly *sb)
{
  int nd = l->nd, nc = l->nc;
  Poly *whole = a_inner ? eb : ea, *part = a_inner ? ea : eb;
  Poly *rest = poly_div(ctx, whole, part);
  bool ok = poly_equal(poly_mul(ctx, rest, part), whole) || (cond && assume(l, whole, part, false));
  if (ok) {
    l->dg[l->nd++] = (CopyDigit){part, sa, sb};
    ok = a_inner ? next_a(ctx, l, i, j, rest, poly_mul(ctx, sb, part))
                 : next_b(ctx, l, i, rest, poly_mul(ctx, sa, part), j);
  }
  l->nd = nd;
  l->nc = nc;
  return ok;
}

/* Explores the lineups from digit i of a and digit j of b, of which ea, sa,
 * eb, sb are what is left, keeping the best complete one in l; true when
 * one was found. */
static bool line_up(Ctx *ctx, Lineup *l, int i, Poly *ea, Poly *sa, int j, Poly *eb, Poly *sb)
{
  if (i < 0 || j < 0) {
    if (i >= 0 || j >= 0)
      return false;
    if (l->best_nc < 0 || l->nc < l->best_nc) {
      memcpy(l->best, l->dg, sizeof(CopyDigit) * l->nd);
      memcpy(l->best_cond, l->cond, sizeof(CopyCond) * l->nc);
      l->best_nd = l->nd;
      l->best_nc = l->nc;
    }
    return true;
  }
  int nd = l->nd, nc = l->nc;
  if (same_size(ctx, ea, eb)) {
    l->dg[l->nd++] = (CopyDigit){eb, sa, sb};
    bool ok = next_a(ctx, l, i, j - 1, j > 0 ? l->b[j - 1].extent : NULL, j > 0 ? l->b[j - 1].stride : NULL);
    l->nd = nd;
    return ok;
  }
  /* one extent divides the other provably (a product of sizes, constants) */
  if (split_digit(ctx, l, true, false, i, ea, sa, j, eb, sb) || split_digit(ctx, l, false, false, i, ea, sa, j, eb, sb))
    return true;
  long long x, y;
  bool ca = poly_is_const(ea, &x), cb = poly_is_const(eb, &y);
  if ((ca && cb) || l->nc == l->max_cond)
    return false;
  /* else under a run-time condition: the two are equal (a macro K and 32),
   * or one divides the other (a constant a symbolic size first) */
  bool found = false;
  if (assume(l, ea, eb, true)) {
    l->dg[l->nd++] = (CopyDigit){eb, sa, sb};
    found |= next_a(ctx, l, i, j - 1, j > 0 ? l->b[j - 1].extent : NULL, j > 0 ? l->b[j - 1].stride : NULL);
    l->nd = nd;
    l->nc = nc;
  }
  if (!ca)
    found |= split_digit(ctx, l, false, true, i, ea, sa, j, eb, sb);
  if (!cb)
    found |= split_digit(ctx, l, true, true, i, ea, sa, j, eb, sb);
  return found;
}

/* The common refinement of two strided views (outermost first), with
 * neighbouring digits that are contiguous on both sides merged; up to
 * max_cond divisibility conditions may be assumed (into *cond, *ncond). */
static bool copy_digits(Ctx *ctx, Dim *src, Dim *dst, int max_cond, CopyDigit **out, int *nout, CopyCond **cond,
                        int *ncond)
{
  Stride *a, *b;
  int na, nb;
  if (!dim_strides(ctx, src, &a, &na) || !dim_strides(ctx, dst, &b, &nb))
    return false;
  int max = na + nb + 1;
  Lineup l = {a, b, ctx_alloc(ctx, sizeof(CopyDigit) * max), 0, ctx_alloc(ctx, sizeof(CopyCond) * (max_cond + 1)), 0,
              max_cond, ctx_alloc(ctx, sizeof(CopyDigit) * max), ctx_alloc(ctx, sizeof(CopyCond) * (max_cond + 1)), 0,
              -1};
  if (!line_up(ctx, &l, na - 1, na ? a[na - 1].extent : NULL, na ? a[na - 1].stride : NULL, nb - 1,
               nb ? b[nb - 1].extent : NULL, nb ? b[nb - 1].stride : NULL))
    return false;
  CopyDigit *dg = l.best;
  int nd = l.best_nd;
  /* merge an outer digit into its inner neighbour when both sides agree */
  int m = 0;
  for (int k = 0; k < nd; k++) {
    if (m > 0) {
      CopyDigit *in = &dg[m - 1];
      Poly *ss = poly_mul(ctx, in->s, in->extent), *ds = poly_mul(ctx, in->d, in->extent);
      if (poly_equal(ss, dg[k].s) && poly_equal(ds, dg[k].d)) {
        in->extent = poly_mul(ctx, in->extent, dg[k].extent);
        continue;
      }
    }
    dg[m++] = dg[k];
  }
  for (int k = 0; k < m / 2; k++) {
    CopyDigit t = dg[k];
    dg[k] = dg[m - 1 - k];
    dg[m - 1 - k] = t;
  }
  *out = dg;
  *nout = m;
  if (cond) {
    *cond = l.best_cond;
    *ncond = l.best_nc;
  }
  return true;
}

bool dim_copy_digits(Ctx *ctx, Dim *src, Dim *dst, CopyDigit **out, int *nout)
{
  return copy_digits(ctx, src, dst, 0, out, nout, NULL, NULL);
}

bool dim_copy_digits_if(Ctx *ctx, Dim *src, Dim *dst, CopyDigit **out, int *nout, CopyCond **cond, int *ncond)
{
  return copy_digits(ctx, src, dst, COPY_MAX_CONDITIONS, out, nout, cond, ncond);
}
