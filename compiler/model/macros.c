/* macros.c: the program's macros (macros.h), read from the input's
 * preprocessor lines once and kept by name in ctx->macros. */
#include "model/macros.h"
#include "ctext.h"

#include <string.h>

#define MAX_MACRO_DEPTH 32 /* macros naming macros, followed this deep */

typedef struct Macro {
  const char *name;
  const char *text;   /* of the last #define; NULL: that one is function-like */
  const char *definition; /* of the last #define: all after the name (macro_definition) */
  bool function_like; /* some #define of it has parameters */
} Macro;

static bool macro_is(const void *item, const void *key)
{
  return !strcmp(((const Macro *)item)->name, key);
}

/* [s, end) with continuations joined, comments and the blanks around dropped */
static const char *joined(Ctx *ctx, const char *s, const char *end)
{
  Buf b = {.ctx = ctx};
  for (; s < end; s++) {
    if (s[0] == '/' && s + 1 < end && (s[1] == '/' || s[1] == '*'))
      break;
    if (s[0] == '\\' && s + 1 < end && s[1] == '\n')
      s++;
    else
      buf_putc(&b, *s == '\n' ? ' ' : *s);
  }
  const char *text = util_str_trim(ctx, b.data ? b.data : "");
  buf_free(&b);
  return text;
}

const char *macro_body(Ctx *ctx, const char *s, const char *end)
{
  return *s == '(' ? NULL : joined(ctx, s, end);
}

/* Every #define of the input into ctx->macros, the last of a name kept */
static void read_macros(Ctx *ctx)
{
  ctx->macros_read = true;
  ctx_keep(ctx); /* read once, perhaps while a $...$ is translated */
  CText c = ctext(ctx->src ? ctx->src : "", NULL, CT_DIRECTIVES);
  for (CTok t; (t = ctext_next(&c)).kind != CT_END;) {
    if (t.kind != CT_PREPROC)
      continue;
    CText d = ctext(t.s + 1, t.s + t.n, 0);
    CTok w = ctext_code(&d), name = ctext_code(&d);
    if (!ctok_word(w, "define") || name.kind != CT_IDENT)
      continue;
    char *s = ctx_strndup(ctx, name.s, name.n);
    const char *after = name.s + name.n;
    const char *text = macro_body(ctx, after, t.s + t.n);
    unsigned long h = util_hash_str(s, HASH_SEED);
    Macro *m = map_get(&ctx->macros, h, macro_is, s);
    if (!m) {
      m = ctx_alloc(ctx, sizeof *m);
      m->name = s;
      map_put(ctx, &ctx->macros, h, m);
    }
    m->text = text;
    m->definition = text ? ctx_printf(ctx, " %s", text) : joined(ctx, after, t.s + t.n);
    m->function_like |= text == NULL;
    ctx->function_macros |= text == NULL;
  }
}

/* The -D value of name, or NULL (ctx->opt.defines: the -D in effect
 * after the command line's -D and -U in their order) */
static const char *defined_on_command_line(Ctx *ctx, const char *name)
{
  size_t n = strlen(name);
  const char *text = NULL;
  for (int i = 0; i < ctx->opt.ndefines; i++) {
    const char *d = ctx->opt.defines[i];
    if (!strncmp(d, name, n) && (d[n] == '=' || !d[n]))
      text = d[n] ? d + n + 1 : "1";
  }
  return text;
}

static Macro *program_macro(Ctx *ctx, const char *name)
{
  if (!ctx->macros_read)
    read_macros(ctx);
  return map_get(&ctx->macros, util_hash_str(name, HASH_SEED), macro_is, name);
}

bool macro_defined(Ctx *ctx, const char *name)
{
  return defined_on_command_line(ctx, name) || program_macro(ctx, name);
}

bool macro_given(Ctx *ctx, const char *name)
{
  return defined_on_command_line(ctx, name) != NULL;
}

const char *macro_text(Ctx *ctx, const char *name, const char **from)
{
  const char *text = defined_on_command_line(ctx, name);
  *from = "-D";
  if (text)
    return text;
  Macro *m = program_macro(ctx, name);
  *from = "#define";
  return m ? m->text : NULL;
}

const char *macro_definition(Ctx *ctx, const char *name)
{
  const char *text = defined_on_command_line(ctx, name);
  if (text)
    return ctx_printf(ctx, " %s", text);
  Macro *m = program_macro(ctx, name);
  return m ? m->definition : NULL;
}

bool macro_function_like(Ctx *ctx, const char *name)
{
  Macro *m = program_macro(ctx, name);
  return m && m->function_like;
}

bool macro_any_function_like(Ctx *ctx)
{
  if (!ctx->macros_read)
    read_macros(ctx);
  return ctx->function_macros;
}

/* a name in a size or index: its macro's text */
static bool name_meaning(void *arg, const char *name, CevalMeaning *m)
{
  const char *from;
  m->text = macro_text(arg, name, &from);
  return m->text != NULL;
}

bool macro_value(Ctx *ctx, const char *text, CevalMode mode, long long *value)
{
  return ceval(ctx, text, mode, name_meaning, ctx, value, NULL);
}
