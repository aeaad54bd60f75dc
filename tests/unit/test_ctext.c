/* test_ctext.c: the one reader of C text (ctext.c) and the questions the
 * compiler asks through it: which names a statement declares, whether
 * generated code mentions a name, whether an index has side effects.  The
 * cases are those where the hand-written readers it replaced disagreed:
 * ';', '{' and quotes inside comments and literals, '"' as a character,
 * escaped quotes, a backslash at the very end, member names, nested
 * brackets. */
#include "ctext.h"
#include "pa_test.h"
#include "print/scope.h"
#include "print/text.h"

/* the identifiers of t that are not member names, space-separated */
static char *idents(const char *t, unsigned flags)
{
  static char out[256];
  out[0] = 0;
  CText c = ctext(t, NULL, flags);
  for (CTok k = ctext_code(&c); k.kind != CT_END; k = ctext_code(&c))
    if (k.kind == CT_IDENT)
      snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s%.*s", *out ? " " : "", k.member ? "." : "",
               (int)k.n, k.s);
  return out;
}

START_TEST(tokens_skip_comments_and_literals)
{
  ck_assert_str_eq(idents("a /* b; { c */ d // e \"f\n g", 0), "a d g");
  ck_assert_str_eq(idents("x = '\"'; y = \"'\" z", 0), "x y z");
  ck_assert_str_eq(idents("s = \"a\\\"b; c\" + t", 0), "s t");
  ck_assert_str_eq(idents("c = '\\'' + d", 0), "c d");
  ck_assert_str_eq(idents("1e5 + 0x1fu + n", 0), "n");
  ck_assert_str_eq(idents("#pragma omp for\n  # line 3\nint i;", CT_DIRECTIVES), "int i");
  ck_assert_str_eq(idents("#define A \\\n  B\nC", CT_DIRECTIVES), "C");
  ck_assert_str_eq(idents("a; #b", CT_DIRECTIVES), "a b"); /* not at the start of a line */
}
END_TEST

START_TEST(tokens_member_names)
{
  ck_assert_str_eq(idents("a.b->c + d", 0), "a .b .c d");
  ck_assert_str_eq(idents("p -> /* x */ q . r", 0), "p .q .r");
  ck_assert_str_eq(idents("x - > y", 0), "x y");
  ck_assert_str_eq(idents("f(s).n + 1.5 * m", 0), "f s .n m");
}
END_TEST

START_TEST(tokens_at_the_end)
{
  /* nothing is read past the end: a backslash, an open literal or comment last */
  const char *cases[] = {"\"abc\\", "'\\", "x /* open", "y //", "\\", "/", "#", "-"};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    CText c = ctext(cases[i], NULL, CT_DIRECTIVES);
    size_t total = 0;
    for (CTok k = ctext_next(&c); k.kind != CT_END; k = ctext_next(&c))
      total += k.n;
    ck_assert_uint_eq(total, strlen(cases[i]));
  }
  /* a bounded range stops at its end, not at the NUL */
  const char *t = "ab/*cd*/ef";
  CText c = ctext(t, t + 4, 0);
  CTok k = ctext_next(&c);
  ck_assert(ctok_word(k, "ab"));
  k = ctext_next(&c);
  ck_assert(k.kind == CT_COMMENT && k.n == 2 && ctok_open_comment(k));
  ck_assert(ctext_next(&c).kind == CT_END);
}
END_TEST

START_TEST(balanced_brackets)
{
  const char *t = "(a[(b)] + f(\")\", ')') /* ) */ + {c})x";
  ck_assert_ptr_eq(ctext_close(t, NULL), t + strlen(t) - 2);
  ck_assert_ptr_null(ctext_close("(a]", NULL));
  ck_assert_ptr_null(ctext_close("(a", NULL));
  ck_assert_ptr_null(ctext_close("x", NULL));
  const char *u = "[a[1]][2]";
  ck_assert_ptr_eq(ctext_close(u, NULL), u + 5);
}
END_TEST

START_TEST(declarations)
{
  /* a ';' in a string or comment ends no statement */
  ck_assert(!scope_text_declares("printf(\"a;int b\"); c = 1;", "b"));
  ck_assert(!scope_text_declares("/* x; int b */ c = 1;", "b"));
  ck_assert(!scope_text_declares("c = '{'; int /* { */ d;", "b"));
  ck_assert(scope_text_declares("c = '{'; int /* { */ d;", "d"));
  ck_assert(scope_text_declares("s = \";\"; float e = 1, f[2], g;", "g"));
  ck_assert(scope_text_declares("for (int i = 0; i < n; i++) x;", "i"));
  ck_assert(scope_text_declares("#include <stdio.h>\nint n;", "n"));
  ck_assert(!scope_text_declares("x = y;", "y"));
}
END_TEST

/* ctext_declarator's reading of one declaration: the name and what binds
 * to it first (issue 31 items 6 and 7) */
static const char *decl_of(const char *t, CDeclKind *k)
{
  static char name[64];
  const char *s;
  size_t n;
  *k = ctext_declarator(t, NULL, &s, &n);
  snprintf(name, sizeof name, "%.*s", *k == CD_NONE ? 0 : (int)n, s);
  return name;
}

START_TEST(declarator_forms)
{
  static const struct {
    const char *text, *name;
    CDeclKind kind;
  } cases[] = {
    {"int n", "n", CD_PLAIN},
    {"int *p", "p", CD_POINTER},
    {"int **pp", "pp", CD_POINTER},
    {"int a[4]", "a", CD_ARRAY},
    {"int m[2][3]", "m", CD_ARRAY},
    {"int (*rows)[4]", "rows", CD_POINTER},
    {"int (*op)(int, int)", "op", CD_POINTER},
    {"int f(int)", "f", CD_FUNCTION},
    {"int *ar[2]", "ar", CD_ARRAY},
    {"int (*fa[2])(int)", "fa", CD_ARRAY},
    {"int *(*fr)(int *)", "fr", CD_POINTER},
    {"int (*(*grid))[4]", "grid", CD_POINTER},
    {"int (x)", "x", CD_PLAIN},
    {"const char *const cs", "cs", CD_POINTER},
    {"volatile unsigned long long u", "u", CD_PLAIN},
    {"struct pt p", "p", CD_PLAIN},
    {"struct pt *pp", "pp", CD_POINTER},
    {"union word w", "w", CD_PLAIN},
    {"enum color c", "c", CD_PLAIN},
    {"struct { int x; } s", "s", CD_PLAIN},
    {"myint mi", "mi", CD_PLAIN},
    {"myint *mp", "mp", CD_POINTER},
    {"size_t z", "z", CD_PLAIN},
    {"float2 v[3]", "v", CD_ARRAY},
    {"int * restrict r", "r", CD_POINTER},
    {"char s[]", "s", CD_ARRAY},
    {"int", "", CD_NONE},
    {"x", "", CD_NONE},
    {"int (*)[4]", "", CD_NONE},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    CDeclKind k;
    const char *name = decl_of(cases[i].text, &k);
    ck_assert_msg(k == cases[i].kind && !strcmp(name, cases[i].name), "'%s': got '%s' kind %d, want '%s' kind %d",
                  cases[i].text, name, (int)k, cases[i].name, (int)cases[i].kind);
  }
}
END_TEST

START_TEST(declared_names)
{
  /* names declared in forms the light reader used to miss */
  ck_assert(scope_text_declares("struct pt x;", "x"));
  ck_assert(!scope_text_declares("struct pt x;", "pt"));
  ck_assert(scope_text_declares("int (*grid)[4] = m;", "grid"));
  ck_assert(scope_text_declares("int (*fa[2])(int) = {f, g};", "fa"));
  ck_assert(scope_text_declares("int a[2] = {1, 2}, b;", "b"));
  ck_assert(scope_text_declares("int m[2][2] = {{1, 2}, {3, 4}}, after = 8;", "after"));
  ck_assert(scope_text_declares("const char *const cs = \"a;{b\";", "cs"));
  ck_assert(scope_text_declares("enum tag { A = 3 } e = A;", "e"));
}
END_TEST

START_TEST(captured_declaration)
{
  /* a local an mpi body uses is passed with its declaration's type words,
   * a comment among them left out */
  char *out = pa_translate("#parray {mpi [2]} P\nstatic void run(void)\n{\n  unsigned /* u */ int k = 3;\n"
                           "  #detour P {\n    (void)k;\n  }\n}\n#mainhost {\n  run();\n}\n");
  ck_contains(out, "static void pa_detour_P_L5(int pa_rank, unsigned int k)");
  free(out);
}
END_TEST

START_TEST(mentioned_names)
{
  ck_assert(text_mentions("a.b + n", "n"));
  ck_assert(!text_mentions("/* n */ \"n\" 'n' // n\n", "n"));
  ck_assert(!text_mentions("#line 3 \"n\"\nx", "n"));
  ck_assert(text_mentions("#pragma omp parallel for private(n)\nx", "n"));
  ck_assert(!text_mentions("s = \"\\\"n\\\"\"; nn", "n"));
  ck_assert(!text_mentions("'\"' n2 \"", "n"));
}
END_TEST

START_TEST(side_effects)
{
  /* a literal is no side effect: the reader it replaced said any quote was */
  ck_assert(!ctext_has_side_effects("c == '\"'"));
  ck_assert(!ctext_has_side_effects("s[i] + \"abc\"[j]"));
  ck_assert(!ctext_has_side_effects("i /* f(x) */ + 1"));
  ck_assert(!ctext_has_side_effects("a <= b && (c != d)"));
  ck_assert(ctext_has_side_effects("f(i)"));
  ck_assert(ctext_has_side_effects("f /* call */ (i)"));
  ck_assert(ctext_has_side_effects("i++"));
  ck_assert(ctext_has_side_effects("a[i] = 1"));
  ck_assert(ctext_has_side_effects("i += 2"));
}
END_TEST

static Suite *make(void)
{
  Suite *s = suite_create("ctext");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, tokens_skip_comments_and_literals);
  tcase_add_test(tc, tokens_member_names);
  tcase_add_test(tc, tokens_at_the_end);
  tcase_add_test(tc, balanced_brackets);
  tcase_add_test(tc, declarations);
  tcase_add_test(tc, declarator_forms);
  tcase_add_test(tc, declared_names);
  tcase_add_test(tc, captured_declaration);
  tcase_add_test(tc, mentioned_names);
  tcase_add_test(tc, side_effects);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  return pa_run_suite(make());
}
