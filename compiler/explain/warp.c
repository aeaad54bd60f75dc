/* warp.c: --explain-access, one warp of a cuda detour: each lane's
 * thread indices and what its access reaches; the verdicts on global
 * memory (the sectors one request touches) and shared memory (bank
 * conflicts). */
#include "explain/picture.h"

/* ---- --explain-access: one warp of a cuda detour ---- */

/* The source of one access: "tile[$B[...]$]" and whether it is loaded,
 * stored (an '=' follows its ']') or a pointer offset ("a += $A[..]$"). */
const char *explain_access_text(Ctx *ctx, Loc at, AccessKind *kind)
{
  bool st = false, *store = &st;
  *kind = ACC_OFFSET;
  int line = at.line;
  if (line < 1 || line > ctx->nlines)
    return "?";
  const char *s = ctx->lines[line - 1], *eol = strchr(s, '\n');
  const char *p = s + at.col - 1;
  while (p > s && *p != '$')
    p--;
  const char *start = p;
  while (start > s && start[-1] == ' ')
    start--;
  if (start > s && start[-1] == '[') {
    start--;
    while (start > s && util_is_ident_char(start[-1]))
      start--;
  } else
    start = p;
  /* the closing '$': a '$' after an unclosed [ or ( opens a nested one */
  int depth[16] = {0}, level = 0;
  const char *q = p + 1;
  for (; *q && q != eol; q++) {
    if (*q == '[' || *q == '(')
      depth[level]++;
    else if (*q == ']' || *q == ')')
      depth[level]--;
    else if (*q == '$' && depth[level] > 0 && level < 15)
      depth[++level] = 0;
    else if (*q == '$' && level > 0)
      level--;
    else if (*q == '$')
      break;
  }
  const char *end = *q == '$' ? q + 1 : q;
  if (start < p) {
    while (*end == ' ')
      end++;
    if (*end == ']')
      end++;
    const char *r = end;
    while (*r == ' ')
      r++;
    *store = (r[0] == '=' && r[1] != '=') || (r[0] && strchr("+-*/%&|^", r[0]) && r[1] == '=');
    *kind = *store ? ACC_STORE : ACC_LOAD;
  }
  return ctx_strndup(ctx, start, end - start);
}

/* Binds the thread indices of lane t of block 0: pa_tx... (and pa_tid). */
void explain_bind_lane(Env *env, LaunchShape *l, long long t, Binding *b, char **who)
{
  Ctx *ctx = env->ctx;
  int n = 0;
  Buf w = {.ctx = ctx};
  if (l->tiled) {
    b[n++] = (Binding){"pa_tid", t};
    b[n++] = (Binding){"pa_tx", t};
    buf_printf(&w, "threadIdx.x %lld", t);
  } else {
    long long digits[3] = {0};
    explain_level_coords(env, l, 1, t, digits);
    for (int j = 0; j < l->nax[1]; j++) {
      char c = launch_axis_letter(l, 1, j);
      b[n++] = (Binding){ctx_printf(ctx, "pa_t%c", c), digits[j]};
      b[n++] = (Binding){ctx_printf(ctx, "threadIdx.%c", c), digits[j]};
      buf_printf(&w, "%sthreadIdx.%c %lld", j ? ", " : "", c, digits[j]);
    }
    for (int j = 0; j < l->nax[0]; j++) {
      char c = launch_axis_letter(l, 0, j);
      b[n++] = (Binding){ctx_printf(ctx, "pa_b%c", c), 0};
      b[n++] = (Binding){ctx_printf(ctx, "blockIdx.%c", c), 0};
    }
  }
  env->bind = b;
  env->nbind = n;
  *who = ctx_strdup(ctx, w.data);
  buf_free(&w);
}

/* dmem: the distinct 32-byte sectors the warp's request touches */
void explain_global_verdict(Ctx *ctx, Lane *ln, int lanes, int size, Verdict *v, FILE *out)
{
  long long sec[WARP * 4];
  int ns = 0;
  long long lo = -1, hi = -1, bytes = 0;
  for (int k = 0; k < lanes; k++) {
    bool dup = false;
    for (int j = 0; j < k; j++)
      dup |= ln[j].addr == ln[k].addr;
    if (!dup)
      bytes += size;
    for (long long a = ln[k].addr / SECTOR; a <= (ln[k].addr + size - 1) / SECTOR; a++) {
      int j = 0;
      while (j < ns && sec[j] != a)
        j++;
      if (j == ns && ns < WARP * 4)
        sec[ns++] = a;
    }
    lo = lo < 0 || ln[k].addr < lo ? ln[k].addr : lo;
    hi = ln[k].addr + size > hi ? ln[k].addr + size : hi;
  }
  v->units = ns;
  v->ideal = (bytes + SECTOR - 1) / SECTOR;
  fprintf(out, "    global memory: %d lanes x %d bytes, %lld distinct bytes in [%lld, %lld): %d %s of %d bytes "
               "(ideal %lld), %.0f%% of the bytes moved are used%s\n",
          lanes, size, bytes, lo, hi, ns, ns == 1 ? "sector" : "sectors", SECTOR, v->ideal, 100.0 * bytes / (ns * SECTOR),
          ns == v->ideal ? ": coalesced" : ": not coalesced");
  /* the picture: one column per sector, the lanes in it */
  for (int a = 1; a < ns; a++)
    for (int b = a; b > 0 && sec[b - 1] > sec[b]; b--) {
      long long t = sec[b];
      sec[b] = sec[b - 1];
      sec[b - 1] = t;
    }
  Grid *g = &v->grid;
  g->rows = 1;
  g->cols = ns;
  g->c = ctx_alloc(ctx, sizeof(Cell) * (ns ? ns : 1));
  for (int s = 0; s < ns; s++) {
    Buf lanes_in = {.ctx = ctx};
    int first = -1, count = 0;
    for (int k = 0; k < lanes; k++)
      if (ln[k].addr / SECTOR <= sec[s] && (ln[k].addr + size - 1) / SECTOR >= sec[s]) {
        buf_printf(&lanes_in, "%s%d", count++ ? "," : "", k);
        first = first < 0 ? k : first;
      }
    Cell *c = &g->c[s];
    c->off = sec[s];
    c->colour = (int)((sec[s] * SECTOR / 128) % 8);
    c->label = ctx_printf(ctx, "%lld", sec[s] * SECTOR);
    bool run = true; /* lanes first .. first + count - 1 */
    for (int k = first; k < first + count && k < lanes; k++)
      run &= ln[k].addr / SECTOR <= sec[s] && (ln[k].addr + size - 1) / SECTOR >= sec[s];
    c->label2 = count == 1 ? ctx_printf(ctx, "l%d", first)
                : run      ? ctx_printf(ctx, "l%d-%d", first, first + count - 1)
                           : ctx_printf(ctx, "%dl", count);
    c->info = ctx_printf(ctx, "sector at byte %lld (128-byte line %lld): lanes %s", sec[s] * SECTOR,
                         sec[s] * SECTOR / 128, lanes_in.data ? lanes_in.data : "");
    buf_free(&lanes_in);
  }
  g->title = "the 32-byte sectors one request touches (label: first byte, lanes in it)";
  g->cols_name = "sectors, by address";
}

/* smem: the accesses of a warp go in phases of 128 bytes (a half warp for
 * 8-byte elements, a quarter for 16); in each phase the lanes that need
 * different words of one bank are served one after the other. */
void explain_shared_verdict(Ctx *ctx, Lane *ln, int lanes, int size, Verdict *v, FILE *out)
{
  int per_phase = size <= 4 ? WARP : WARP * 4 / size;
  int phases = (lanes + per_phase - 1) / per_phase, depth_max = 1;
  long long wave = 0;
  /* words[phase][bank][k]: the distinct words a bank serves in a phase */
  enum { MAXW = WARP * 4 };
  typedef struct BankUse {
    long long word[MAXW];
    int lane[MAXW];
    int n;
  } BankUse;
  BankUse *use = calloc((size_t)phases * BANKS, sizeof(BankUse));
  for (int p = 0; p < phases; p++) {
    int depth = 1;
    for (int k = p * per_phase; k < lanes && k < (p + 1) * per_phase; k++)
      for (long long w = ln[k].addr / 4; w <= (ln[k].addr + size - 1) / 4; w++) {
        BankUse *b = &use[p * BANKS + (int)(w % BANKS)];
        int j = 0;
        while (j < b->n && b->word[j] != w)
          j++;
        if (j == b->n && b->n < MAXW) {
          b->word[b->n] = w;
          b->lane[b->n++] = k;
        }
        depth = b->n > depth ? b->n : depth;
      }
    wave += depth;
    depth_max = depth > depth_max ? depth : depth_max;
  }
  v->units = wave;
  v->ideal = phases;
  bool uniform = true;
  for (int k = 1; k < lanes; k++)
    uniform &= ln[k].addr == ln[0].addr;
  fprintf(out, "    shared memory: %d lanes x %d bytes in %d phase%s of %d lanes: %lld wavefront%s (ideal %d)%s\n", lanes,
          size, phases, phases == 1 ? "" : "s", per_phase, wave, wave == 1 ? "" : "s", phases,
          wave == phases ? (uniform ? ": no bank conflicts (one word for all: a broadcast)" : ": no bank conflicts")
                         : ctx_printf(ctx, ": bank conflicts, %lld extra wavefront%s (up to %d-way)", wave - phases,
                                      wave - phases == 1 ? "" : "s", depth_max));
  /* the picture: one column per bank, one row per word served in turn */
  Grid *g = &v->grid;
  g->cols = BANKS;
  g->rows = 0;
  for (int p = 0; p < phases; p++) {
    int depth = 1;
    for (int b = 0; b < BANKS; b++)
      depth = use[p * BANKS + b].n > depth ? use[p * BANKS + b].n : depth;
    g->rows += depth;
  }
  g->c = ctx_alloc(ctx, sizeof(Cell) * g->rows * BANKS);
  long long row = 0;
  for (int p = 0; p < phases; p++) {
    int depth = 1;
    for (int b = 0; b < BANKS; b++)
      depth = use[p * BANKS + b].n > depth ? use[p * BANKS + b].n : depth;
    for (int r = 0; r < depth; r++, row++)
      for (int b = 0; b < BANKS; b++) {
        BankUse *u = &use[p * BANKS + b];
        Cell *c = &g->c[row * BANKS + b];
        c->colour = -1;
        c->label = "";
        if (r >= u->n)
          continue;
        c->colour = r ? 7 : (int)(p % 2 ? 2 : 0);
        c->label = ctx_printf(ctx, "l%d", u->lane[r]);
        c->label2 = ctx_printf(ctx, "w%lld", u->word[r]);
        c->info = ctx_printf(ctx, "phase %d, bank %d, turn %d: word %lld (byte %lld) for lane %d%s", p, b, r,
                             u->word[r], u->word[r] * 4, u->lane[r], r ? " (a conflict: waits)" : "");
      }
  }
  free(use);
  g->title = "shared memory banks (columns) and the words each serves in turn (rows; red: conflicts)";
  g->cols_name = "bank";
}

void explain_print_lanes(FILE *out, Lane *ln, int lanes)
{
  for (int k = 0; k < lanes; k += 8) {
    fprintf(out, "    lanes %2d-%2d offsets:", k, k + 7 < lanes ? k + 7 : lanes - 1);
    for (int j = k; j < k + 8 && j < lanes; j++)
      fprintf(out, " %6lld", ln[j].off);
    fputc('\n', out);
  }
}
