/* util.c: the compilation context, its arena, strings and buffers. */
#include "parrayc.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct Arena {
  struct Arena *next;
  size_t used, cap;
  char data[];
};

static const char *const construct_words[] = {
    [N_TEXT] = "the C text", [N_BLOCK] = "the block", [N_DOLLAR] = "the '$...$'", [N_PARRAY] = "'#parray'",
    [N_CREATE] = "'#create'", [N_DESTROY] = "'#destroy'", [N_COPY] = "'#copy'", [N_DETOUR] = "'#detour'",
    [N_SYNC] = "'#sync'", [N_MAINHOST] = "'#mainhost'", [N_GLOBAL] = "'#global'", [N_SUBPROG] = "'#subprog'",
    [N_INSERT] = "'#insert'"};

/* The file and line of the spliced source's line, as diag_src_file finds
 * them (diag.c lies above util.c) */
static const char *source_line(const Ctx *ctx, int at, int *line)
{
  *line = at;
  for (int i = ctx->nsegs; i > 0; i--)
    if (ctx->segs[i - 1].line <= at) {
      *line = ctx->segs[i - 1].file_line + (at - ctx->segs[i - 1].line);
      return ctx->segs[i - 1].file;
    }
  return ctx->opt.display;
}

/* Out of memory in translation ctx (NULL: none): says where (the
 * construct the walk was translating, or the token the parser was
 * reading) and how much was asked, and ends with status 2.  It allocates
 * nothing: stderr is unbuffered. */
static void out_of_memory(const Ctx *ctx, size_t n)
{
  const Node *at = ctx ? ctx->walking : NULL;
  Loc loc = at ? at->loc : ctx ? ctx->reading : (Loc){0, 0};
  if (loc.line <= 0) {
    fprintf(stderr, "%s: error: out of memory (%zu bytes more)\n", ctx ? ctx->opt.display : "parrayc", n);
    exit(2);
  }
  int line;
  const char *file = source_line(ctx, loc.line, &line);
  fprintf(stderr, "%s:%d:%d: error: out of memory (%zu bytes more) while %s %s%s%s%s\n", file, line, loc.col, n,
          at ? "translating" : "reading", at ? construct_words[at->kind] : "the source here",
          at && at->name && *at->name ? " of '" : "", at && at->name && *at->name ? at->name : "",
          at && at->name && *at->name ? "'" : "");
  exit(2);
}

void *util_malloc(const Ctx *ctx, size_t n)
{
  void *p = malloc(n ? n : 1);
  if (!p)
    out_of_memory(ctx, n);
  return p;
}

void *util_realloc(const Ctx *ctx, void *p, size_t n)
{
  p = realloc(p, n ? n : 1);
  if (!p)
    out_of_memory(ctx, n);
  return p;
}

/* With AddressSanitizer a scratch block holds one allocation, so that
 * the sanitizer sees each one freed at its region's end. */
#if defined(__SANITIZE_ADDRESS__)
#define SCRATCH_EXACT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCRATCH_EXACT 1
#endif
#endif
#ifndef SCRATCH_EXACT
#define SCRATCH_EXACT 0
#endif

static struct Arena *arena_push(Ctx *ctx, struct Arena **list, size_t cap)
{
  struct Arena *a = calloc(1, sizeof *a + cap);
  if (!a)
    out_of_memory(ctx, sizeof *a + cap);
  a->next = *list;
  a->cap = cap;
  *list = a;
  return a;
}

static void arena_free(struct Arena *a)
{
  while (a) {
    struct Arena *next = a->next;
    free(a);
    a = next;
  }
}

/* Blocks come zeroed from calloc (fresh pages, not written twice); the
 * arena's are never reused, a scratch block's are cleared when given back. */
void *ctx_alloc(Ctx *ctx, size_t size)
{
  size = (size + 15) & ~(size_t)15;
  bool scratch = ctx->scratch_depth > 0;
  struct Arena **list = scratch ? &ctx->scratch : &ctx->arena;
  struct Arena *a = *list;
  /* 1 MiB: calloc maps it, already zeroed (a smaller block from the heap
   * would be cleared with memset, a third of a long translation) */
  if (!a || a->cap - a->used < size)
    a = arena_push(ctx, list, size > (1u << 20) || (scratch && SCRATCH_EXACT) ? size : 1u << 20);
  void *p = a->data + a->used;
  a->used += size;
  return p;
}

/* The first scratch block stays for the whole translation: a region
 * that fits in it costs no call to the heap. */
ScratchMark ctx_scratch_begin(Ctx *ctx)
{
  if (!ctx->scratch)
    arena_push(ctx, &ctx->scratch, SCRATCH_EXACT ? 0 : 1u << 20);
  ctx->scratch_depth++;
  return (ScratchMark){ctx->scratch, ctx->scratch->used, ctx->kept};
}

/* The blocks after the mark's go back to the heap; the mark's own is
 * cleared past the mark, for ctx_alloc's promise of zeroed memory.  A
 * kept region stays where it is: later marks lie after it. */
void ctx_scratch_end(Ctx *ctx, ScratchMark m)
{
  if (--ctx->scratch_depth > 0 || ctx->kept != m.kept)
    return;
  for (struct Arena *a = ctx->scratch; a != m.block; a = ctx->scratch) {
    ctx->scratch = a->next;
    free(a);
  }
  memset(m.block->data + m.used, 0, m.block->used - m.used);
  m.block->used = m.used;
}

void ctx_keep(Ctx *ctx)
{
  ctx->kept++;
}

char *ctx_strndup(Ctx *ctx, const char *s, size_t n)
{
  char *p = ctx_alloc(ctx, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *ctx_kept_strdup(Ctx *ctx, const char *s)
{
  int depth = ctx->scratch_depth;
  ctx->scratch_depth = 0;
  char *p = ctx_strdup(ctx, s);
  ctx->scratch_depth = depth;
  return p;
}

void *ctx_grow(Ctx *ctx, void *items, int n, int *cap, size_t size)
{
  if (n < *cap)
    return items;
  *cap = *cap ? 2 * *cap : 8;
  void *bigger = ctx_alloc(ctx, size * (size_t)*cap);
  if (n)
    memcpy(bigger, items, size * (size_t)n);
  return bigger;
}

char *ctx_strdup(Ctx *ctx, const char *s)
{
  return ctx_strndup(ctx, s, strlen(s));
}

char *ctx_printf(Ctx *ctx, const char *fmt, ...)
{
  Buf b = {.ctx = ctx};
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  char *s = ctx_strndup(ctx, b.data ? b.data : "", b.len);
  buf_free(&b);
  return s;
}

Ctx *ctx_new(const Options *opt, const char *src, size_t len)
{
  Ctx *ctx = util_malloc(NULL, sizeof *ctx);
  memset(ctx, 0, sizeof *ctx);
  ctx->opt = *opt;
  ctx_set_source(ctx, src, len);
  return ctx;
}

void ctx_set_source(Ctx *ctx, const char *src, size_t len)
{
  char *copy = ctx_strndup(ctx, src, len);
  /* NUL bytes would cut the text short: show them as blanks */
  for (size_t i = 0; i < len; i++)
    if (!copy[i])
      copy[i] = ' ';
  /* old Mac line ends: a CR not followed by LF ends a line too */
  for (size_t i = 0; i < len; i++)
    if (copy[i] == '\r' && (i + 1 == len || copy[i + 1] != '\n'))
      copy[i] = '\n';
  ctx->src = copy;
  ctx->src_len = len;
  int n = 1;
  for (size_t i = 0; i < len; i++)
    n += copy[i] == '\n';
  ctx->lines = ctx_alloc(ctx, sizeof(char *) * (n + 1));
  ctx->lines[0] = copy;
  ctx->nlines = 1;
  for (size_t i = 0; i < len; i++)
    if (copy[i] == '\n')
      ctx->lines[ctx->nlines++] = copy + i + 1;
}

void ctx_free(Ctx *ctx)
{
  if (!ctx)
    return;
  map_free(&ctx->type_map);
  map_free(&ctx->atom_map);
  map_free(&ctx->macros);
  map_free(&ctx->subprogs);
  arena_free(ctx->arena);
  arena_free(ctx->scratch);
  free(ctx);
}

Node *node_new(Ctx *ctx, NodeKind kind, Loc loc)
{
  bool text = kind == N_TEXT || kind == N_DOLLAR;
  Node *n = ctx_alloc(ctx, text ? NODE_TEXT_END : sizeof *n);
  n->kind = kind;
  n->loc = loc;
  return n;
}

void buf_putc(Buf *b, char c)
{
  if (b->len + 2 > b->cap) {
    b->cap = b->cap ? b->cap * 2 : 256;
    b->data = util_realloc(b->ctx, b->data, b->cap);
  }
  b->data[b->len++] = c;
  b->data[b->len] = 0;
}

void buf_puts(Buf *b, const char *s)
{
  size_t n = strlen(s);
  if (b->len + n + 1 > b->cap) {
    while (b->len + n + 1 > b->cap)
      b->cap = b->cap ? b->cap * 2 : 256;
    b->data = util_realloc(b->ctx, b->data, b->cap);
  }
  memcpy(b->data + b->len, s, n + 1);
  b->len += n;
}

void buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  if (n < 0)
    return;
  if (b->len + n + 1 > b->cap) {
    while (b->len + n + 1 > b->cap)
      b->cap = b->cap ? b->cap * 2 : 256;
    b->data = util_realloc(b->ctx, b->data, b->cap);
  }
  vsnprintf(b->data + b->len, n + 1, fmt, ap);
  b->len += n;
}

void buf_printf(Buf *b, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(b, fmt, ap);
  va_end(ap);
}

void buf_free(Buf *b)
{
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

char *buf_detach(Buf *b)
{
  if (!b->data)
    buf_puts(b, "");
  char *s = b->data;
  b->data = NULL;
  b->len = b->cap = 0;
  return s;
}

/* ---- maps: open addressing, linear probing, at most half full ---- */

struct MapSlot {
  unsigned long hash;
  void *item; /* NULL: empty */
};

void *map_get(const Map *m, unsigned long hash, MapMatch *match, const void *key)
{
  if (!m->cap)
    return NULL;
  for (size_t i = hash & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    struct MapSlot *s = &m->slots[i];
    if (!s->item)
      return NULL;
    if (s->hash == hash && match(s->item, key))
      return s->item;
  }
}

static void map_insert(Map *m, unsigned long hash, void *item)
{
  size_t i = hash & (m->cap - 1);
  while (m->slots[i].item)
    i = (i + 1) & (m->cap - 1);
  m->slots[i].hash = hash;
  m->slots[i].item = item;
  m->n++;
}

void map_put(const Ctx *ctx, Map *m, unsigned long hash, void *item)
{
  if (2 * (m->n + 1) > m->cap) {
    Map bigger = {0};
    bigger.cap = m->cap ? 2 * m->cap : 64;
    bigger.slots = util_malloc(ctx, sizeof *bigger.slots * bigger.cap);
    memset(bigger.slots, 0, sizeof *bigger.slots * bigger.cap);
    for (size_t i = 0; i < m->cap; i++)
      if (m->slots[i].item)
        map_insert(&bigger, m->slots[i].hash, m->slots[i].item);
    free(m->slots);
    *m = bigger;
  }
  map_insert(m, hash, item);
}

void map_free(Map *m)
{
  free(m->slots);
  *m = (Map){0};
}

unsigned long map_ptr_hash(const void *p)
{
  return (unsigned long)((uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ul >> 32; /* allocations are 16 bytes apart */
}

bool map_is_key(const void *item, const void *key)
{
  return item == key;
}

/* FNV-1a */
unsigned long util_hash_str(const char *s, unsigned long h)
{
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ul;
  return h;
}

bool util_is_ident_start(int c)
{
  return isalpha(c) || c == '_';
}

bool util_is_ident_char(int c)
{
  return isalnum(c) || c == '_';
}

char *util_str_trim(Ctx *ctx, const char *s)
{
  while (isspace((unsigned char)*s))
    s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1]))
    n--;
  return ctx_strndup(ctx, s, n);
}

bool util_text_is_simple(const char *s)
{
  if (!*s)
    return false;
  if (util_is_ident_start((unsigned char)*s)) {
    for (; *s; s++)
      if (!util_is_ident_char((unsigned char)*s))
        return false;
    return true;
  }
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '.')
      return false;
  return true;
}

char *util_text_operand(Ctx *ctx, const char *s)
{
  return util_text_is_simple(s) ? ctx_strdup(ctx, s) : ctx_printf(ctx, "(%s)", s);
}

/* Levenshtein distance of a and b, counted up to limit + 1: enough to say
 * "did you mean" for short words. */
int util_edit_distance(const char *a, const char *b, int limit)
{
  size_t n = strlen(a), m = strlen(b);
  if (n > 32 || m > 32)
    return limit + 1;
  int row[33];
  for (size_t j = 0; j <= m; j++)
    row[j] = (int)j;
  for (size_t i = 1; i <= n; i++) {
    int diag = row[0];
    row[0] = (int)i;
    for (size_t j = 1; j <= m; j++) {
      int up = row[j];
      int best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[m] > limit ? limit + 1 : row[m];
}

/* The word of words[] (NULL-terminated) nearest to w within distance 2, or
 * NULL. */
const char *util_nearest_word(const char *w, const char *const *words)
{
  const char *best = NULL;
  int bd = 3;
  for (int i = 0; words[i]; i++) {
    int d = util_edit_distance(w, words[i], 2);
    if (d < bd) {
      bd = d;
      best = words[i];
    }
  }
  return best;
}

char *util_file_read(const char *path, size_t *len)
{
  FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
  if (!f)
    return NULL;
  Buf b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    for (size_t i = 0; i < n; i++)
      buf_putc(&b, chunk[i]);
  bool bad = ferror(f);
  if (f != stdin)
    fclose(f);
  if (bad) {
    buf_free(&b);
    return NULL;
  }
  *len = b.len;
  buf_putc(&b, 0);
  return buf_detach(&b);
}
