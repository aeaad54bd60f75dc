/* draw.c: --explain: a type's dimension tree, offset functions and grid,
 * printed as text or drawn as SVG, an HTML page or a TikZ picture.
 *
 * --explain TYPE prints the dimension tree, the offset functions and a grid
 * of the type: each cell's physical offset for data (or, for distributed
 * data, its owner and local offset), each index's block and thread (or
 * thread, or rank) for a thread array.  --format=svg and --format=html draw
 * the same grid, cells coloured by tile, owner or block, with the memory the
 * type views beside it.  Sizes written with macros are evaluated with the
 * program's own object-like #defines and -D NAME=VALUE; nothing here changes
 * the translation. */
#include "explain/picture.h"

/* ---- text ---- */

static const char *value_note(Env *env, Poly *p)
{
  long long v;
  if (!explain_is_symbolic(p) || !explain_eval_poly(env, p, &v))
    return "";
  return ctx_printf(env->ctx, " (= %lld)", v);
}

/* The sub-dimensions listed at most: types each two references to the
 * last have 2^N of them below the last, which no reader wants listed */
enum { MAX_LISTED = 4096 };

static void explain_node(Ctx *ctx, Env *env, Dim *d, const char *path, int depth, FILE *out, int *listed)
{
  if (++*listed > MAX_LISTED) {
    if (*listed == MAX_LISTED + 1)
      fprintf(out, "  %*s... (the tree has more than %d nodes: the rest not listed)\n", depth * 2, "", MAX_LISTED);
    return;
  }
  Poly *var = poly_var(ctx, "i", d->extent);
  const char *ref = "";
  if (d->ref_kind == REF_FULL)
    ref = ctx_printf(ctx, "  (= #%s)", d->ref->path);
  else if (d->ref_kind == REF_SIZED || d->ref_kind == REF_SPLIT)
    ref = ctx_printf(ctx, "  (view of #%s)", d->ref->path);
  const char *ext = ctx_printf(ctx, "%s%s", poly_math(ctx, d->extent), value_note(env, d->extent));
  fprintf(out, "  %*s%-*s extent %-8s off(i) = %s%s\n", depth * 2, "", 12 - depth * 2, path, ext,
          poly_math(ctx, dim_offset(ctx, d, var)), ref);
  int m = dim_nkids(d);
  for (int k = 0; k < m; k++)
    explain_node(ctx, env, dim_kid(d, k), ctx_printf(ctx, "%s_%d", path, k), depth + 1, out, listed);
}

/* yes / no, evaluated where the sizes are known */
static const char *contiguity(Ctx *ctx, Env *env, Dim *d)
{
  char *c;
  int r = dim_contiguous(ctx, d, &c);
  if (r >= 0)
    return r ? "yes" : "no";
  long long n = explain_size_of(env, d->extent), prev = 0, o;
  Poly *var = poly_var(ctx, "pa_explain_i", d->extent);
  env->var = var->t[0].f[0];
  Poly *off = dim_offset(ctx, d, var);
  bool ok = n > 0 && n <= MAX_CHECKED && explain_offset_at(env, off, 0, &prev);
  for (long long i = 1; ok && i < n; i++) {
    ok = explain_offset_at(env, off, i, &o);
    if (ok && o != prev + 1)
      return "no";
    prev = o;
  }
  if (ok)
    return "yes";
  return "unknown (it depends on the sizes)";
}

static void text_header(View *v, FILE *out)
{
  Ctx *ctx = v->ctx;
  Dim *d = v->d;
  Type *t = d->type;
  if (t->kind != TK_NONE)
    fprintf(out, "%s: %s thread array, %s%s threads\n", d->path, type_kind_name(t->kind), poly_math(ctx, d->extent),
            value_note(v->env, d->extent));
  else
    fprintf(out, "%s: %s %s, extent %s%s, span %s%s, contiguous %s\n", d->path, type_mem_name(t->mem), t->elem,
            poly_math(ctx, d->extent), value_note(v->env, d->extent), poly_math(ctx, dim_span(ctx, d)),
            value_note(v->env, dim_span(ctx, d)), contiguity(ctx, v->env, d));
  int listed = 0;
  explain_node(ctx, v->env, d, d->path, 0, out, &listed);
}

/* the grid as numbers: offsets, or block.thread / thread / rank */
static void text_grid(View *v, FILE *out)
{
  Grid *g = &v->grid;
  Dim *d = v->d;
  if ((dim_nkids(d) != 2 && d->type->kind == TK_NONE) || g->rows > MAX_TEXT_EDGE || g->cols > MAX_TEXT_EDGE)
    return;
  bool thread = d->type->kind != TK_NONE;
  bool cuda = thread && g->c[0].label2;
  if (thread && dim_nkids(d) <= 1) {
    fprintf(out, "%s of %s[i]:\n ", cuda ? "block.thread" : d->type->kind == TK_MPI ? "ranks" : "threads ($tid$)",
            d->path);
    for (long long c = 0; c < g->cols; c++)
      fprintf(out, " %s", cuda ? ctx_printf(v->ctx, "%s.%s", g->c[c].label + 1, g->c[c].label2 + 1) : g->c[c].label);
    fputc('\n', out);
    return;
  }
  if (!thread)
    fprintf(out, "%s of %s[r][c] (rows r = %s, columns c = %s):\n",
            g->c[0].label2 ? "owner:local offset" : "offsets", d->path, g->rows_name, g->cols_name);
  else
    fprintf(out, "%s of %s[r][c] (rows r = %s, columns c = %s):\n",
            cuda ? "block.thread (linear in each)" : d->type->kind == TK_MPI ? "ranks" : "threads ($tid$)", d->path,
            g->rows_name, g->cols_name);
  int w = 5;
  LaunchShape l;
  long long block = 0;
  if (cuda && explain_launch_of(v->env, d, &l))
    block = l.tiled ? l.tile : explain_size_of(v->env, l.lv[1]->extent);
  for (long long k = 0; k < g->rows * g->cols && (thread || g->c[0].label2); k++) {
    int n = (int)strlen(g->c[k].label) + (g->c[k].label2 ? (int)strlen(g->c[k].label2) + 1 : 0) + 1;
    w = n > w ? n : w;
  }
  if (cuda)
    w = 8;
  for (long long r = 0; r < g->rows; r++) {
    fputs("  ", out);
    for (long long c = 0; c < g->cols; c++) {
      Cell *cell = &g->c[r * g->cols + c];
      if (cuda && block > 0)
        fprintf(out, "%*s", w, ctx_printf(v->ctx, "%lld.%lld", cell->off / block, cell->off % block));
      else if (thread || cell->label2)
        fprintf(out, "%*s", w, cell->label2 ? ctx_printf(v->ctx, "%s:%s", cell->label, cell->label2) : cell->label);
      else
        fprintf(out, "%5lld", cell->off);
    }
    fputc('\n', out);
  }
}

static void text_notes(View *v, FILE *out)
{
  for (int k = 0; k < v->nnotes; k++)
    fprintf(out, "%s\n", v->notes[k]);
  if (v->env->nused) {
    fputs("sizes evaluated with", out);
    for (int k = 0; k < v->env->nused; k++)
      fprintf(out, "%s %s", k ? "," : "", v->env->used[k]);
    fputc('\n', out);
  }
  if (v->env->nmissing) {
    fputs("sizes not known:", out);
    for (int k = 0; k < v->env->nmissing; k++)
      fprintf(out, "%s %s", k ? "," : "", v->env->missing[k]);
    fputs(" (give them with -D NAME=VALUE)\n", out);
  }
}

/* ---- svg and html ---- */

static const char *const palette[8] = {"#8ecae6", "#ffb703", "#90be6d", "#f4a261",
                                       "#cdb4db", "#e9c46a", "#a8dadc", "#f28482"};

static void xml_text(FILE *out, const char *s)
{
  for (; s && *s; s++) {
    if (*s == '<')
      fputs("&lt;", out);
    else if (*s == '>')
      fputs("&gt;", out);
    else if (*s == '&')
      fputs("&amp;", out);
    else if (*s == '"')
      fputs("&quot;", out);
    else
      fputc(*s, out);
  }
}

typedef struct Layout {
  int cw, ch;          /* cell size */
  int x, y;            /* top left of the cells */
} Layout;

static int grid_width(Grid *g, Layout *lo)
{
  return 30 + (int)g->cols * lo->cw;
}

static void svg_grid(FILE *out, Grid *g, Layout *lo)
{
  fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"t\">", lo->x - 26, lo->y - 26);
  xml_text(out, g->title);
  fputs("</text>\n", out);
  if (g->cols_name) {
    fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"a\">", lo->x, lo->y - 14);
    xml_text(out, g->cols_name);
    fputs(" &#8594;</text>\n", out);
  }
  if (g->rows_name) {
    fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"a\" transform=\"rotate(90 %d %d)\">", lo->x - 36, lo->y,
            lo->x - 36, lo->y);
    xml_text(out, g->rows_name);
    fputs(" &#8594;</text>\n", out);
  }
  for (long long c = 0; c < g->cols; c++)
    fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"n\">%lld</text>\n", lo->x + (int)c * lo->cw + lo->cw / 2, lo->y - 3,
            c);
  for (long long r = 0; r < g->rows; r++) {
    int y = lo->y + (int)r * lo->ch;
    fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"n\">%lld</text>\n", lo->x - 12, y + lo->ch / 2 + 4, r);
    for (long long c = 0; c < g->cols; c++) {
      Cell *cell = &g->c[r * g->cols + c];
      int x = lo->x + (int)c * lo->cw;
      if (!cell->info) { /* an empty place: a plain hatched square */
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"url(#pad)\"/>\n", x, y, lo->cw,
                lo->ch);
        continue;
      }
      fprintf(out, "<g class=\"c\" data-info=\"");
      xml_text(out, cell->info);
      fprintf(out, "\"><title>");
      xml_text(out, cell->info);
      fprintf(out, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", x, y, lo->cw, lo->ch,
              cell->colour >= 0 ? palette[cell->colour] : "url(#pad)");
      if (cell->label2) {
        fprintf(out, "<text x=\"%d\" y=\"%d\">", x + lo->cw / 2, y + lo->ch / 2 - 2);
        xml_text(out, cell->label);
        fprintf(out, "</text><text x=\"%d\" y=\"%d\">", x + lo->cw / 2, y + lo->ch / 2 + 10);
        xml_text(out, cell->label2);
      } else {
        fprintf(out, "<text x=\"%d\" y=\"%d\">", x + lo->cw / 2, y + lo->ch / 2 + 4);
        xml_text(out, cell->label);
      }
      fputs("</text></g>\n", out);
    }
  }
}

static const char svg_style[] =
    "<style>text{font:10px monospace;text-anchor:middle;dominant-baseline:auto}"
    " .t{font:bold 12px sans-serif;text-anchor:start} .a{font:italic 11px sans-serif;text-anchor:start}"
    " .n{fill:#666} .note{font:11px sans-serif;text-anchor:start} rect{stroke:#fff;stroke-width:1}"
    " .c:hover rect{stroke:#000;stroke-width:2}</style>\n";

static const char svg_defs[] =
    "<defs><pattern id=\"pad\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
    "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#e5e5e5\" stroke=\"none\"/>"
    "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#bbb\" stroke-width=\"2\"/></pattern></defs>\n";

/* One or two grids side by side, notes underneath. */
void explain_svg_picture(FILE *out, Grid **grids, int ngrids, char **notes, int nnotes, int cw, int ch, bool stack)
{
  Layout lo[32]; /* explain_access draws at most 32 grids */
  int width = 20, height = 0;
  if (ngrids > 32)
    ngrids = 32;
  for (int k = 0; k < ngrids; k++) {
    lo[k] = (Layout){cw, ch, stack ? 60 : width + 40, stack ? height + 60 : 60};
    int w = grid_width(grids[k], &lo[k]), tw = (int)strlen(grids[k]->title) * 7 - 10;
    width = stack ? (w + 80 > width ? w + 80 : width) : width + (w > tw ? w : tw) + 40;
    int h = lo[k].y + (int)grids[k]->rows * ch;
    if (h > height)
      height = h;
  }
  int title_w = 0;
  for (int k = 0; k < ngrids; k++)
    if ((int)strlen(grids[k]->title) * 7 + lo[k].x > title_w)
      title_w = (int)strlen(grids[k]->title) * 7 + lo[k].x;
  for (int k = 0; k < nnotes; k++)
    if ((int)strlen(notes[k]) * 6 + 40 > title_w)
      title_w = (int)strlen(notes[k]) * 6 + 40;
  if (title_w > width)
    width = title_w;
  height += 20 + 16 * nnotes;
  fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", width,
          height, width, height);
  fputs(svg_style, out);
  fputs(svg_defs, out);
  fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"none\"/>\n", width, height);
  for (int k = 0; k < ngrids; k++)
    svg_grid(out, grids[k], &lo[k]);
  int y = height - 16 * nnotes - 4;
  for (int k = 0; k < nnotes; k++, y += 16) {
    fprintf(out, "<text x=\"14\" y=\"%d\" class=\"note\">", y);
    xml_text(out, notes[k]);
    fputs("</text>\n", out);
  }
  fputs("</svg>\n", out);
}

/* The page: a title, the picture, the text explanation; hovering a cell
 * shows its data-info in a box that follows the pointer.  No external
 * resource: it works offline. */
void explain_html_page(FILE *out, const char *title, const char *text, Grid **grids, int ngrids, char **notes,
                       int nnotes, int cw, int ch, bool stack)
{
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
  xml_text(out, title);
  fputs("</title>\n<style>\nbody{font-family:sans-serif;margin:1.5em}\n"
        "#hover{position:fixed;display:none;background:#222;color:#fff;padding:4px 8px;border-radius:4px;"
        "font:12px monospace;pointer-events:none;white-space:pre}\n"
        "#info{font:13px monospace;min-height:1.4em;margin:.5em 0}\npre{background:#f6f6f6;padding:.8em}\n"
        "</style>\n</head>\n<body>\n<h1>", out);
  xml_text(out, title);
  fputs("</h1>\n<p>Hover a cell: its index path, offset and owner.</p>\n<div id=\"info\">&nbsp;</div>\n", out);
  explain_svg_picture(out, grids, ngrids, notes, nnotes, cw, ch, stack);
  fputs("<pre>", out);
  xml_text(out, text);
  fputs("</pre>\n<div id=\"hover\"></div>\n<script>\n"
        "var hover = document.getElementById('hover'), info = document.getElementById('info');\n"
        "document.querySelectorAll('[data-info]').forEach(function (c) {\n"
        "  c.addEventListener('mousemove', function (ev) {\n"
        "    hover.textContent = c.getAttribute('data-info'); hover.style.display = 'block';\n"
        "    hover.style.left = (ev.clientX + 14) + 'px'; hover.style.top = (ev.clientY + 14) + 'px';\n"
        "    info.textContent = c.getAttribute('data-info');\n"
        "  });\n"
        "  c.addEventListener('mouseleave', function () { hover.style.display = 'none'; });\n"
        "});\n"
        "/* page.html#selftest: hover the first cell (tests/check_html.sh) */\n"
        "if (location.hash === '#selftest')\n"
        "  document.querySelector('[data-info]').dispatchEvent(new MouseEvent('mousemove', {clientX: 5, clientY: 5}));\n"
        "</script>\n</body>\n</html>\n",
        out);
}

/* ---- TikZ (--format=tex): a standalone LaTeX document, for papers and
 * slides, as CuTe's print_latex draws layouts: the same grids, colours and
 * notes as the SVG, the text explanation in comments at the top ---- */

static void tex_text(FILE *out, const char *s)
{
  for (; s && *s; s++) {
    switch (*s) {
    case '\\': fputs("\\textbackslash{}", out); break;
    case '~': fputs("\\textasciitilde{}", out); break;
    case '^': fputs("\\textasciicircum{}", out); break;
    case '<': fputs("\\textless{}", out); break;
    case '>': fputs("\\textgreater{}", out); break;
    case '_': case '#': case '$': case '%': case '&': case '{': case '}':
      fputc('\\', out);
      fputc(*s, out);
      break;
    default: fputc(*s, out);
    }
  }
}

/* One grid with its top left corner at (x0, y0): y grows downwards as
 * rows do (y = -row). */
static void tex_grid(FILE *out, Grid *g, double x0, double y0)
{
  fprintf(out, "  %% %s\n  \\node[title] at (%.1f,%.1f) {", g->title, x0 - 0.6, y0 + 1.5);
  tex_text(out, g->title);
  fputs("};\n", out);
  if (g->cols_name) {
    fprintf(out, "  \\node[axis] at (%.1f,%.1f) {", x0, y0 + 0.75);
    tex_text(out, g->cols_name);
    fputs(" $\\rightarrow$};\n", out);
  }
  if (g->rows_name) {
    fprintf(out, "  \\node[axis,rotate=-90,anchor=south west] at (%.1f,%.1f) {", x0 - 1.0, y0);
    tex_text(out, g->rows_name);
    fputs(" $\\rightarrow$};\n", out);
  }
  for (long long c = 0; c < g->cols; c++)
    fprintf(out, "  \\node[index] at (%.1f,%.1f) {%lld};\n", x0 + c + 0.5, y0 + 0.3, c);
  for (long long r = 0; r < g->rows; r++) {
    fprintf(out, "  \\node[index] at (%.1f,%.1f) {%lld};\n", x0 - 0.35, y0 - r - 0.5, r);
    for (long long c = 0; c < g->cols; c++) {
      Cell *cell = &g->c[r * g->cols + c];
      double x = x0 + c, y = y0 - r;
      if (!cell->info || cell->colour < 0) {
        fprintf(out, "  \\path[pad] (%.1f,%.1f) rectangle ++(1,-1);\n", x, y);
        if (!cell->info)
          continue;
      } else
        fprintf(out, "  \\path[cell,fill=pa%d] (%.1f,%.1f) rectangle ++(1,-1);\n", cell->colour, x, y);
      if (!cell->label || !*cell->label)
        continue;
      fprintf(out, "  \\node[label] at (%.1f,%.1f) {", x + 0.5, y - 0.5);
      tex_text(out, cell->label);
      if (cell->label2) {
        fputs("\\\\", out);
        tex_text(out, cell->label2);
      }
      fputs("};\n", out);
    }
  }
}

void explain_tex_picture(FILE *out, const char *title, const char *text, Grid **grids, int ngrids, char **notes,
                         int nnotes, bool stack, bool two_lines)
{
  fputs("% ", out);
  fputs(title, out);
  fputs(" --format=tex: a TikZ picture (pdflatex FILE.tex)\n", out);
  for (const char *p = text; p && *p;) {
    const char *e = strchr(p, '\n');
    int n = e ? (int)(e - p) : (int)strlen(p);
    fprintf(out, "%% %.*s\n", n, p);
    p += n + (e ? 1 : 0);
  }
  /* standalone where it is installed (texlive-latex-extra), else article */
  fputs("\\IfFileExists{standalone.cls}{\\documentclass[tikz,border=6pt]{standalone}}\n"
        "  {\\documentclass{article}\\usepackage{tikz}\\pagestyle{empty}}\n", out);
  for (int k = 0; k < 8; k++)
    fprintf(out, "\\definecolor{pa%d}{HTML}{%s}\n", k, palette[k] + 1);
  fprintf(out, "\\begin{document}\n\\begin{tikzpicture}[x=%scm,y=%scm,\n"
               "  cell/.style={draw=white,line width=0.6pt},\n"
               "  pad/.style={fill=black!8,draw=white,line width=0.6pt},\n"
               "  label/.style={font=\\ttfamily\\scriptsize,align=center,inner sep=0pt},\n"
               "  index/.style={font=\\ttfamily\\tiny,text=black!60},\n"
               "  title/.style={font=\\sffamily\\bfseries\\small,anchor=south west},\n"
               "  axis/.style={font=\\sffamily\\itshape\\scriptsize,anchor=south west},\n"
               "  note/.style={font=\\sffamily\\scriptsize,anchor=north west}]\n",
          two_lines ? "1.0" : "0.8", two_lines ? "0.75" : "0.5");
  double x = 0, y = 0, bottom = 0;
  for (int k = 0; k < ngrids; k++) {
    tex_grid(out, grids[k], x, y);
    double b = y - (double)grids[k]->rows;
    bottom = b < bottom ? b : bottom;
    if (stack)
      y = b - 3.0;
    else
      x += (double)grids[k]->cols + 3.0;
  }
  for (int k = 0; k < nnotes; k++) {
    fprintf(out, "  \\node[note] at (-0.6,%.1f) {", bottom - 0.6 - 0.6 * k);
    tex_text(out, notes[k]);
    fputs("};\n", out);
  }
  fputs("\\end{tikzpicture}\n\\end{document}\n", out);
}

/* ---- --explain ---- */

ExplainFormat explain_format(const char *name)
{
  if (!name || !strcmp(name, "text"))
    return FMT_TEXT;
  if (!strcmp(name, "svg"))
    return FMT_SVG;
  if (!strcmp(name, "html"))
    return FMT_HTML;
  if (!strcmp(name, "tex"))
    return FMT_TEX;
  return FMT_BAD;
}

char *explain_captured(FILE *f)
{
  fflush(f);
  long n = ftell(f);
  char *s = malloc(n + 1);
  rewind(f);
  n = (long)fread(s, 1, n, f);
  s[n] = 0;
  return s;
}

bool explain_type(Ctx *ctx, Dim *d, FILE *out)
{
  Env env = {.ctx = ctx};
  View v = {.ctx = ctx, .env = &env, .d = d};
  ExplainFormat fmt = explain_format(ctx->opt.explain_format);
  bool have = d->type->kind != TK_NONE ? explain_thread_cells(&v) : explain_data_cells(&v);
  if (have && d->type->kind == TK_NONE && !v.grid.c[0].label2 && fmt != FMT_TEXT)
    explain_memory_cells(&v);
  FILE *text = fmt == FMT_TEXT ? out : tmpfile();
  if (!text) {
    diag_error(ctx, (Loc){0, 0}, "cannot create a temporary file for --explain");
    return false;
  }
  text_header(&v, text);
  if (have)
    text_grid(&v, text);
  text_notes(&v, text);
  if (fmt == FMT_TEXT)
    return true;
  char *s = explain_captured(text);
  fclose(text);
  if (!have) {
    fputs(s, stderr);
    if (v.grid.rows > 0 && v.grid.cols > 0)
      diag_error(ctx, (Loc){0, 0}, "'%s' has %lld x %lld elements, too many to draw (at most %d): make it smaller with -D NAME=VALUE",
                 d->path, v.grid.rows, v.grid.cols, MAX_DRAW_CELLS);
    else
      diag_error(ctx, (Loc){0, 0}, "cannot draw '%s': its sizes are not known (give them with -D NAME=VALUE)", d->path);
    free(s);
    return false;
  }
  Grid *grids[2] = {&v.grid, &v.mem};
  int n = v.mem.rows ? 2 : 1;
  int cw = v.grid.c[0].label2 ? 44 : 32, ch = v.grid.c[0].label2 ? 30 : 22;
  if (fmt == FMT_SVG)
    explain_svg_picture(out, grids, n, v.notes, v.nnotes, cw, ch, false);
  else if (fmt == FMT_TEX)
    explain_tex_picture(out, ctx_printf(ctx, "parrayc --explain %s", d->path), s, grids, n, v.notes, v.nnotes, false,
                v.grid.c[0].label2 != NULL);
  else
    explain_html_page(out, ctx_printf(ctx, "parrayc --explain %s", d->path), s, grids, n, v.notes, v.nnotes, cw, ch, false);
  free(s);
  return true;
}
