/* access.c: --explain-access FILE.pa:LINE: each access met on the line,
 * followed through the pointers that carry it, explained for one warp and
 * drawn as the thread map. */
#include "explain/picture.h"

static bool same_size(Access *x, Access *y)
{
  return type_elem_bytes(x->dim->type->elem) == type_elem_bytes(y->dim->type->elem);
}

/* Follows pointer name back through the region, in the order written: an
 * array never set there is its start; `name = P + $T[...]$` (or $T[...]$ +
 * P, &P[$T[...]$]) is P followed plus that offset; `name += $T[...]$` adds
 * the offset; any other value the same in every thread keeps what it had
 * (*alike notes it).  Returns false, with *why the assignment, where a value
 * differs per thread in another way. */
static bool follow(Region *r, Access *a, const char *name, Via *via, int depth, int *alike, Assign *why)
{
  Assign as[8];
  int n = explain_assignments(r, name, as, 8);
  if (n > 8 || depth > 4) {
    for (int k = 0; k < n && k < 8; k++)
      if (explain_text_varies(r, as[k].rhs, 0)) {
        *why = as[k];
        return false;
      }
    *alike = as[0].line;
    return true;
  }
  for (int k = 0; k < n; k++) {
    const char *how = ctx_printf(r->ctx, "%s %s= %s (line %d)", name, as[k].op == '=' ? "" :
                                 ctx_printf(r->ctx, "%c", as[k].op), as[k].rhs, explain_src_line(r->ctx, as[k].line));
    Access *d = explain_access_in(r->ctx, &as[k], a);
    bool usable = d && d != a && same_size(d, a) && via->n < 8;
    if (as[k].op == '=') {
      const char *p = explain_pointer_plus_access(r, as[k].rhs);
      if (p && usable && strcmp(p, name)) {
        Via inner = {{0}, {0}, 0};
        if (!follow(r, a, p, &inner, depth + 1, alike, why))
          return false;
        *via = inner;
        if (via->n < 8) {
          via->how[via->n] = how;
          via->v[via->n++] = d;
        }
        continue;
      }
      via->n = 0;
    } else if (as[k].op == '+' && usable && as[k].rhs[0] == '$' && as[k].rhs[strlen(as[k].rhs) - 1] == '$') {
      via->how[via->n] = how;
      via->v[via->n++] = d;
      continue;
    }
    if (explain_text_varies(r, as[k].rhs, 0)) {
      *why = as[k];
      return false;
    }
    *alike = as[k].line;
  }
  return true;
}

/* The array an access goes through, "pa" of pa[$M[0][k]$], followed (its
 * offsets in *via); false, with the reason, where it cannot be. */
static bool resolvable(Ctx *ctx, Region *reg, Access *a, const char *text, AccessKind kind, Via *via, FILE *out)
{
  via->n = 0;
  char *base = NULL;
  if (kind == ACC_OFFSET) {
    /* P + $T[...]$ or P += $T[...]$: the element reached is P's plus this */
    const char *line = ctx->lines[a->loc.line - 1], *p = line + a->loc.col - 1;
    while (p > line && *p != '$')
      p--;
    const char *q = p;
    while (q > line && q[-1] == ' ')
      q--;
    if (q > line + 1 && q[-1] == '=' && q[-2] == '+')
      q -= 2;
    else if (q > line && q[-1] == '+' && (q - 1 == line || q[-2] != '+'))
      q--;
    else
      return true;
    while (q > line && q[-1] == ' ')
      q--;
    const char *e = q;
    while (q > line && util_is_ident_char(q[-1]))
      q--;
    if (q == e || !util_is_ident_start((unsigned char)*q))
      return true;
    base = ctx_strndup(ctx, q, e - q);
  } else {
    if (!util_is_ident_start((unsigned char)text[0]))
      return true;
    const char *e = text;
    while (util_is_ident_char(*e))
      e++;
    if (*e != '[')
      return true;
    base = ctx_strndup(ctx, text, e - text);
  }
  Assign why;
  int alike = 0;
  if (!follow(reg, a, base, via, 0, &alike, &why)) {
    fprintf(out, "    not predicted: '%s' is set to a value that differs from thread to thread (line %d: %s %s= %s), "
            "and parrayc does not follow it\n", base, explain_src_line(ctx, why.line), base,
            why.op == '=' ? "" : ctx_printf(ctx, "%c", why.op), why.rhs);
    via->n = 0;
    return false;
  }
  if (via->n) {
    fprintf(out, "    '%s' is followed in each lane:", base);
    for (int k = 0; k < via->n; k++)
      fprintf(out, "%s %s", k ? "," : "", via->how[k]);
    fputc('\n', out);
  }
  if (alike)
    fprintf(out, "    '%s' is set in the detour (line %d) to a value alike in every thread: the pattern is the one "
            "at the start of %s\n", base, explain_src_line(ctx, alike), a->dim->path);
  return true;
}

/* the names taken as 0 must be the same in every thread */
static bool zeroed_uniform(Ctx *ctx, Region *reg, Env *env, FILE *out)
{
  for (int k = 0; k < env->nzeroed; k++) {
    Assign as[1];
    if (explain_name_varies(reg, env->zeroed[k], 0) && explain_assignments(reg, env->zeroed[k], as, 1)) {
      fprintf(out, "    not predicted: '%s' differs from thread to thread (line %d: %s = %s), and parrayc does not "
              "follow it\n", env->zeroed[k], explain_src_line(ctx, as[0].line), env->zeroed[k], as[0].rhs);
      return false;
    }
  }
  return true;
}

/* pthd and omp: the names the offsets take as 0, checked as for a warp */
static bool varies_checked(Ctx *ctx, Region *reg, Access *a, Via *via, FILE *out)
{
  Env env = {.ctx = ctx, .unknown_is_zero = true};
  Binding b[1] = {{"pa_tid", 0}};
  env.bind = b;
  env.nbind = 1;
  long long v;
  explain_eval_poly(&env, a->off, &v);
  explain_via_offset(&env, via, &v);
  if (!zeroed_uniform(ctx, reg, &env, out))
    return false;
  int said = 0;
  for (int k = 0; k < env.nzeroed; k++) {
    Sweep s = {0};
    if (explain_find_loop(reg, env.zeroed[k], &s) && !s.why)
      continue; /* the map sweeps its loop */
    fprintf(out, "%s %s", said++ ? "," : "    taken as 0:", env.zeroed[k]);
  }
  if (said)
    fputs(" (set them with -D NAME=VALUE)\n", out);
  return true;
}

/* one access: false when it is not one the explainer can predict */
static bool explain_one(Ctx *ctx, Access *a, FILE *out, Grid *pics, char **notes, int *npics)
{
  AccessKind kind;
  const char *text = explain_access_text(ctx, a->loc, &kind);
  Type *t = a->dim->type;
  const char *inst = "";
  if (a->instance) {
    Buf b = {.ctx = ctx};
    buf_printf(&b, " (in #insert %s(", a->instance->insert->name);
    for (int k = 0; k < a->instance->n; k++)
      buf_printf(&b, "%s%s", k ? ", " : "", util_str_trim(ctx, a->instance->values[k]));
    buf_printf(&b, ") at line %d)", a->instance->insert->loc.line);
    inst = ctx_strdup(ctx, b.data);
    buf_free(&b);
  }
  if (kind == ACC_OFFSET)
    fprintf(out, "  %s%s: an offset into %s %s (%s): the element each lane reaches at it\n", text, inst,
            type_mem_name(t->mem), t->elem, a->dim->path);
  else
    fprintf(out, "  %s%s: %s of %s %s through %s\n", text, inst, kind == ACC_STORE ? "store" : "load",
            type_mem_name(t->mem), t->elem, a->dim->path);
  Region reg = {ctx, a->detour ? a->detour->loc.line : 1, a->loc.line, a->loc.col};
  Via via = {{0}, {0}, 0}; /* the offsets the pointer carries, followed */
  bool cpu = a->threads && (a->threads->kind == TK_PTHD || a->threads->kind == TK_OMP);
  int ng = 0;
  if (cpu) { /* pthd, omp: no warp; who touches what */
    if (!resolvable(ctx, &reg, a, text, kind, &via, out) || !varies_checked(ctx, &reg, a, &via, out) ||
        !explain_touch_map(ctx, a, &via, &pics[*npics], &ng, out))
      return false;
    while (ng--)
      notes[(*npics)++] = ctx_printf(ctx, "%s%s: the element each thread of %s reaches", text, inst, a->threads->name);
    return true;
  }
  if (t->mem != MEM_DMEM && t->mem != MEM_SMEM) {
    fprintf(out, "    %s memory: not predicted (only dmem and smem are)\n", type_mem_name(t->mem));
    return false;
  }
  if (!a->threads || a->threads->kind != TK_CUDA) {
    fputs("    not in a cuda, pthd or omp detour: there are no threads to predict\n", out);
    return false;
  }
  int size = type_elem_bytes(t->elem);
  if (!size) {
    fprintf(out, "    the size of '%s' is unknown to parrayc: not predicted\n", t->elem);
    return false;
  }
  Env env = {.ctx = ctx, .unknown_is_zero = true};
  LaunchShape l;
  if (!explain_launch_of(&env, a->threads->root, &l))
    return false;
  long long block = l.tiled ? l.tile : explain_size_of(&env, l.lv[1]->extent);
  if (block <= 0) {
    fprintf(out, "    the block size of '%s' is not known (give it with -D NAME=VALUE)\n", a->threads->name);
    return false;
  }
  int lanes = block < WARP ? (int)block : WARP;
  if (!resolvable(ctx, &reg, a, text, kind, &via, out))
    return false;
  Lane ln[WARP];
  Binding b[16];
  for (int k = 0; k < lanes; k++) {
    explain_bind_lane(&env, &l, k, b, &ln[k].who);
    long long base = 0;
    if (!explain_eval_poly(&env, a->off, &ln[k].off) || !explain_via_offset(&env, &via, &base)) {
      fputs("    the offsets cannot be evaluated\n", out);
      return false;
    }
    ln[k].off += base;
    ln[k].addr = ln[k].off * size;
  }
  if (!zeroed_uniform(ctx, &reg, &env, out))
    return false;
  fprintf(out, "    warp 0 of block 0: lane 0 is %s, lane %d is %s\n", ln[0].who, lanes - 1, ln[lanes - 1].who);
  if (env.nzeroed) {
    fputs("    taken as 0:", out);
    for (int k = 0; k < env.nzeroed; k++)
      fprintf(out, "%s %s", k ? "," : "", env.zeroed[k]);
    fputs(" (set them with -D NAME=VALUE)\n", out);
  }
  explain_print_lanes(out, ln, lanes);
  Verdict v = {0};
  if (t->mem == MEM_DMEM)
    explain_global_verdict(ctx, ln, lanes, size, &v, out);
  else
    explain_shared_verdict(ctx, ln, lanes, size, &v, out);
  pics[*npics] = v.grid;
  pics[*npics].title = ctx_printf(ctx, "%s%s: %s", text, inst, v.grid.title);
  notes[(*npics)++] = ctx_printf(ctx, "%s: %lld %s (ideal %lld)", text, v.units,
                                 t->mem == MEM_DMEM ? "sectors" : "wavefronts", v.ideal);
  if (ctx->opt.thread_map && explain_touch_map(ctx, a, &via, &pics[*npics], &ng, out))
    while (ng--)
      notes[(*npics)++] = ctx_printf(ctx, "%s%s: the element each thread of %s reaches", text, inst, a->threads->name);
  return true;
}

bool explain_access(Ctx *ctx, FILE *out)
{
  ExplainFormat fmt = explain_format(ctx->opt.explain_format);
  FILE *text = fmt == FMT_TEXT ? out : tmpfile();
  if (!text) {
    diag_error(ctx, (Loc){0, 0}, "cannot create a temporary file for --explain-access");
    return false;
  }
  bool any = false;
  for (Access *a = ctx->accesses; a; a = a->next)
    any |= a->loc.line == ctx->opt.access_line;
  if (!any) {
    diag_error(ctx, (Loc){ctx->opt.access_line, 1}, "no '$T[...]$' access on line %d to explain", ctx->opt.access_line);
    if (text != out)
      fclose(text);
    return false;
  }
  fprintf(text, "%s:%d:\n", ctx->opt.display, ctx->opt.access_line);
  Grid pics[32];
  char *notes[32];
  int npics = 0;
  for (Access *a = ctx->accesses; a; a = a->next)
    if (a->loc.line == ctx->opt.access_line && npics < 30)
      explain_one(ctx, a, text, pics, notes, &npics);
  if (fmt == FMT_TEXT)
    return true;
  char *s = explain_captured(text);
  fclose(text);
  Grid *grids[32];
  for (int k = 0; k < npics; k++)
    grids[k] = &pics[k];
  /* one picture per access, stacked */
  if (fmt == FMT_HTML)
    explain_html_page(out, ctx_printf(ctx, "parrayc --explain-access %s:%d", ctx->opt.display, ctx->opt.access_line), s,
              grids, npics, notes, npics, 40, 30, true);
  else if (fmt == FMT_TEX)
    explain_tex_picture(out, ctx_printf(ctx, "parrayc --explain-access %s:%d", ctx->opt.display, ctx->opt.access_line), s,
                grids, npics, notes, npics, true, true);
  else
    explain_svg_picture(out, grids, npics, notes, npics, 40, 30, true);
  free(s);
  return npics > 0;
}
