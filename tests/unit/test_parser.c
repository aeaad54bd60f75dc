/* test_parser.c: the syntax tree (parser.y) of every directive kind, of
 * $...$ expressions and of dimension lists, and syntax errors with their
 * locations. */
#include "pa_test.h"

/* the text of a fragment (N_TEXT nodes only), trimmed */
static char *frag(Ctx *ctx, Node *list)
{
  Buf b = {0};
  for (Node *n = list; n; n = n->next)
    if (n->kind == N_TEXT)
      buf_puts(&b, n->text);
    else
      buf_puts(&b, "$..$");
  char *s = util_str_trim(ctx, b.data ? b.data : "");
  buf_free(&b);
  return s;
}

/* the first node of a kind in a list (not descending) */
static Node *first(Node *list, NodeKind kind)
{
  for (Node *n = list; n; n = n->next)
    if (n->kind == kind)
      return n;
  return NULL;
}

/* a $...$ of the tree: the parser keeps the outermost ones only as where
 * they are, and the walk reads them again */
static Dx *dx_of(Ctx *ctx, Node *n)
{
  return n->dx ? n->dx : parse_dollar(ctx, n);
}

static int count(Node *list, NodeKind kind)
{
  int k = 0;
  for (Node *n = list; n; n = n->next)
    k += n->kind == kind;
  return k;
}

START_TEST(parray_data_type)
{
  Ctx *ctx;
  Node *t = pa_parse("#parray {pinned float [[3][2]][4]} A\n", &ctx);
  Node *n = first(t, N_PARRAY);
  ck_assert_ptr_nonnull(n);
  ck_assert_str_eq(n->name, "A");
  ck_assert_int_eq(n->name_loc.line, 1);
  ck_assert_int_eq(n->name_loc.col, 36);
  ck_assert_int_eq(n->nwords, 2);
  ck_assert_str_eq(n->words[0], "pinned");
  ck_assert_str_eq(n->words[1], "float");
  ck_assert(!n->has_params);
  ck_assert_int_eq(n->ndims, 2);
  DimSyn *d0 = n->dims[0], *d1 = n->dims[1];
  ck_assert_int_eq(d0->nkids, 2);
  ck_assert_ptr_null(d0->size);
  ck_assert_ptr_null(d0->ref);
  ck_assert_str_eq(frag(ctx, d0->kids[0]->size), "3");
  ck_assert_str_eq(frag(ctx, d0->kids[1]->size), "2");
  ck_assert_str_eq(frag(ctx, d1->size), "4");
  ck_assert_int_eq(d1->nkids, 0);
  ck_assert_int_eq(d1->loc.col, 31);
  ctx_free(ctx);
}
END_TEST

START_TEST(parray_references)
{
  Ctx *ctx;
  Node *t = pa_parse("#parray {float [#A_1][16 #A_0][[2][3] #A_2][N/16 + 1][[#B][4] #C_0_1]} R\n", &ctx);
  Node *n = first(t, N_PARRAY);
  ck_assert_ptr_nonnull(n);
  ck_assert_int_eq(n->nwords, 1);
  ck_assert_int_eq(n->ndims, 5);
  DimSyn **d = n->dims;
  /* [#R] */
  ck_assert_str_eq(d[0]->ref, "A_1");
  ck_assert_ptr_null(d[0]->size);
  ck_assert_int_eq(d[0]->nkids, 0);
  ck_assert_int_eq(d[0]->ref_loc.col, 18);
  /* [n #R] */
  ck_assert_str_eq(d[1]->ref, "A_0");
  ck_assert_str_eq(frag(ctx, d[1]->size), "16");
  /* [[a][b] #R] */
  ck_assert_str_eq(d[2]->ref, "A_2");
  ck_assert_int_eq(d[2]->nkids, 2);
  ck_assert_str_eq(frag(ctx, d[2]->kids[1]->size), "3");
  /* a size that is C text */
  ck_assert_ptr_null(d[3]->ref);
  ck_assert_str_eq(frag(ctx, d[3]->size), "N/16 + 1");
  /* a split whose parts are references */
  ck_assert_str_eq(d[4]->ref, "C_0_1");
  ck_assert_str_eq(d[4]->kids[0]->ref, "B");
  ctx_free(ctx);
}
END_TEST

START_TEST(parray_thread_type)
{
  Ctx *ctx;
  Node *t = pa_parse("#parray {cuda(float *a, int n) [[N/16][N/256]][[4][32]]} CU\n"
                     "#parray {pthd [2][2]} P\n",
                     &ctx);
  Node *n = first(t, N_PARRAY);
  ck_assert_ptr_nonnull(n);
  ck_assert(n->has_params);
  ck_assert_str_eq(n->words[0], "cuda");
  ck_assert_str_eq(frag(ctx, n->params), "float *a, int n");
  ck_assert_int_eq(n->ndims, 2);
  ck_assert_int_eq(n->dims[0]->nkids, 2);
  ck_assert_str_eq(frag(ctx, n->dims[0]->kids[1]->size), "N/256");
  ck_assert_int_eq(count(t, N_PARRAY), 2);
  ctx_free(ctx);
}
END_TEST

START_TEST(memory_directives)
{
  Ctx *ctx;
  Node *t = pa_parse("#create A(x)\n  #destroy  A_1 ( p + 4 )\n#copy A_0_1(a + $A[1]$) to B(b)\n", &ctx);
  ck_assert_ptr_nonnull(t);
  Node *c = first(t, N_CREATE), *d = first(t, N_DESTROY), *cp = first(t, N_COPY);
  ck_assert_ptr_nonnull(c);
  ck_assert_str_eq(c->name, "A");
  ck_assert_int_eq(c->nargs, 1);
  ck_assert_str_eq(frag(ctx, c->args[0]), "x");
  ck_assert_str_eq(d->name, "A_1");
  ck_assert_str_eq(frag(ctx, d->args[0]), "p + 4");
  ck_assert_str_eq(d->text, "  "); /* the indentation, for generated code */
  ck_assert_int_eq(d->loc.line, 2);
  ck_assert_int_eq(d->loc.col, 3);
  ck_assert_str_eq(cp->name, "A_0_1");
  ck_assert_str_eq(cp->name2, "B");
  ck_assert_int_eq(cp->nargs, 2);
  /* (the blank before '$' is lost in directive arguments: cosmetic, reported) */
  ck_assert_ptr_nonnull(strstr(frag(ctx, cp->args[0]), "a +"));
  ck_assert_int_eq(count(cp->args[0], N_DOLLAR), 1);
  ck_assert_str_eq(frag(ctx, cp->args[1]), "b");
  ck_assert_int_eq(cp->name2_loc.col, 28);
  ctx_free(ctx);
}
END_TEST

START_TEST(block_directives)
{
  Ctx *ctx;
  Node *t = pa_parse("#mainhost {\n"
                     "  #detour T(a, f(b, c)) {\n"
                     "    x = $tid$;\n"
                     "    #sync\n"
                     "  }\n"
                     "  #detour U { }\n"
                     "}\n"
                     "#global { int g; }\n",
                     &ctx);
  ck_assert_ptr_nonnull(t);
  Node *m = first(t, N_MAINHOST), *g = first(t, N_GLOBAL);
  ck_assert_ptr_nonnull(m);
  ck_assert_ptr_nonnull(g);
  ck_assert_int_eq(count(m->body, N_DETOUR), 2);
  Node *d = first(m->body, N_DETOUR);
  ck_assert_str_eq(d->name, "T");
  ck_assert_int_eq(d->nargs, 2);
  ck_assert_str_eq(frag(ctx, d->args[1]), "f(b, c)");
  ck_assert_ptr_nonnull(first(d->body, N_DOLLAR));
  ck_assert_ptr_nonnull(first(d->body, N_SYNC));
  Node *u = first(d->next, N_DETOUR);
  ck_assert_str_eq(u->name, "U");
  ck_assert(!u->has_args);
  ck_assert_int_eq(u->nargs, 0);
  ck_assert_ptr_nonnull(strstr(frag(ctx, g->body), "int g;"));
  ctx_free(ctx);
}
END_TEST

START_TEST(subprograms)
{
  Ctx *ctx;
  Node *t = pa_parse("#subprog SG(da, type)\n"
                     "#global {\n#parray {float [#type_0]} A\n}\n"
                     "int y = 1;\n"
                     "#end\n"
                     "#insert SG(x, M)\n"
                     "#insert SG(p + 1, M_1)\n",
                     &ctx);
  ck_assert_ptr_nonnull(t);
  Node *s = first(t, N_SUBPROG);
  ck_assert_ptr_nonnull(s);
  ck_assert_str_eq(s->name, "SG");
  ck_assert_int_eq(s->nargs, 2);
  ck_assert_str_eq(frag(ctx, s->args[1]), "type");
  Node *gl = first(s->body, N_GLOBAL);
  ck_assert_ptr_nonnull(gl);
  Node *p = first(gl->body, N_PARRAY);
  ck_assert_ptr_nonnull(p);
  ck_assert_str_eq(p->dims[0]->ref, "type_0");
  ck_assert_int_eq(count(t, N_INSERT), 2);
  Node *i2 = first(first(t, N_INSERT)->next, N_INSERT);
  ck_assert_str_eq(frag(ctx, i2->args[0]), "p + 1");
  ck_assert_str_eq(frag(ctx, i2->args[1]), "M_1");
  ctx_free(ctx);
}
END_TEST

START_TEST(dollar_expressions)
{
  Ctx *ctx;
  Node *t = pa_parse("x = $A[[i][j]][k]$ + $dim_1(A)$ + $size(A_0)$ + $cnt(A_0)$ + $tid_1_0$ + $A$ + $tid$;\n",
                     &ctx);
  ck_assert_ptr_nonnull(t);
  Node *n[7];
  int k = 0;
  for (Node *x = t; x; x = x->next)
    if (x->kind == N_DOLLAR && k < 7)
      n[k++] = x;
  ck_assert_int_eq(k, 7);
  Dx *dx = dx_of(ctx, n[0]);
  ck_assert_int_eq(dx->kind, DX_INDEX);
  ck_assert_str_eq(dx->path, "A");
  ck_assert_int_eq(dx->index->nitems, 2);
  Index *a = dx->index->items[0];
  ck_assert_int_eq(a->nitems, 2);
  ck_assert_str_eq(frag(ctx, a->items[1]->expr), "j");
  ck_assert_ptr_nonnull(dx->index->items[1]->expr);
  ck_assert_str_eq(frag(ctx, dx->index->items[1]->expr), "k");
  ck_assert_int_eq(dx_of(ctx, n[1])->kind, DX_DIM);
  ck_assert_str_eq(dx_of(ctx, n[1])->path, "A_1");
  ck_assert_int_eq(dx_of(ctx, n[2])->kind, DX_DIM);
  ck_assert_str_eq(dx_of(ctx, n[2])->path, "A_0");
  ck_assert_int_eq(dx_of(ctx, n[3])->kind, DX_CNT);
  ck_assert_str_eq(dx_of(ctx, n[3])->path, "A_0");
  ck_assert_int_eq(dx_of(ctx, n[4])->kind, DX_TID);
  ck_assert_str_eq(dx_of(ctx, n[4])->path, "tid_1_0");
  ck_assert_int_eq(dx_of(ctx, n[5])->kind, DX_INDEX);
  ck_assert_ptr_null(dx_of(ctx, n[5])->index);
  ck_assert_int_eq(dx_of(ctx, n[6])->kind, DX_TID);
  ck_assert_int_eq(n[0]->loc.col, 5);
  ck_assert_int_eq(dx_of(ctx, n[0])->path_loc.col, 6);
  ctx_free(ctx);
}
END_TEST

/* The tree keeps an outermost $...$ as where it is, from its '$' to just
 * after its closing one, also over lines; read again, it is the same. */
START_TEST(dollar_kept_as_place)
{
  Ctx *ctx;
  Node *t = pa_parse("x = $A[i]\n      [$B[j]$]$ +$dim(A)$;\n", &ctx);
  ck_assert_ptr_nonnull(t);
  Node *d = first(t, N_DOLLAR);
  ck_assert_ptr_null(d->dx);
  ck_assert_int_eq(d->loc.line, 1);
  ck_assert_int_eq(d->loc.col, 5);
  ck_assert_int_eq(d->dollar_end.line, 2);
  ck_assert_int_eq(d->dollar_end.col, 16);
  Dx *dx = parse_dollar(ctx, d);
  ck_assert_ptr_nonnull(dx);
  ck_assert_str_eq(dx->path, "A");
  ck_assert_int_eq(dx->index->nitems, 2);
  ck_assert_str_eq(frag(ctx, dx->index->items[0]->expr), "i");
  Node *inner = dx->index->items[1]->expr;
  ck_assert_int_eq(inner->kind, N_DOLLAR);
  ck_assert_ptr_nonnull(inner->dx); /* read whole with the outer one */
  ck_assert_str_eq(inner->dx->path, "B");
  ck_assert_int_eq(inner->loc.line, 2);
  ck_assert_int_eq(inner->loc.col, 8);
  Node *dim = first(d->next, N_DOLLAR);
  ck_assert_str_eq(dim->text, "");
  ck_assert_str_eq(dx_of(ctx, dim)->path, "A");
  ck_assert_int_eq(dx_of(ctx, dim)->kind, DX_DIM);
  ctx_free(ctx);
}
END_TEST

START_TEST(deep_index_lists)
{
  Ctx *ctx;
  Node *t = pa_parse("x = $A[[$tid_0_0$][[0][$tid_1_0$]]][[a[1]][(b, c)]]$;\n", &ctx);
  ck_assert_ptr_nonnull(t);
  Node *d = first(t, N_DOLLAR);
  Index *ix = dx_of(ctx, d)->index;
  ck_assert_int_eq(ix->nitems, 2);
  Index *i0 = ix->items[0];
  ck_assert_int_eq(i0->nitems, 2);
  ck_assert_int_eq(i0->items[1]->nitems, 2);
  ck_assert_int_eq(i0->items[0]->expr->kind, N_DOLLAR);
  Index *i1 = ix->items[1];
  ck_assert_int_eq(i1->nitems, 2);
  /* C brackets and commas inside an entry stay C text */
  ck_assert_str_eq(frag(ctx, i1->items[0]->expr), "a[1]");
  ck_assert_str_eq(frag(ctx, i1->items[1]->expr), "(b, c)");
  ctx_free(ctx);
}
END_TEST

/* a syntax error: exactly one error, at FILE:LINE:COL */
static void ck_syntax_error(const char *src, const char *where)
{
  char *err;
  int n = pa_translate_err(src, &err);
  ck_assert_msg(n >= 1, "no error for:\n%s", src);
  ck_assert_msg(strstr(err, where) != NULL, "want '%s' in:\n%s", where, err);
  free(err);
}

START_TEST(syntax_errors_located)
{
  ck_syntax_error("int a;\n#create A x\n", "t.pa:2:11: error: ");
  ck_syntax_error("#copy A(x) B(y)\n", "t.pa:1:12: error: ");
  ck_syntax_error("#parray {paged float [3]} \n", "t.pa:1:27: error: ");
  ck_syntax_error("#parray {paged float [3][#]} A\n", "t.pa:1:27: error: ");
  ck_syntax_error("#parray {paged float [3]} A B\n", "t.pa:1:29: error: ");
  ck_syntax_error("\n\n  #insert S\n", "t.pa:3:12: error: ");
  ck_syntax_error("x = $foo(A)$;\n", "t.pa:1:6: error: unknown function 'foo'");
  ck_syntax_error("x = $tid[1]$;\n", "t.pa:1:6: error: '$tid$' takes no index");
  ck_syntax_error("#end\n", "t.pa:1:1: error: '#end' without a matching '#subprog'");
  ck_syntax_error("#mainhost x\n", "t.pa:1:11: error: syntax error, unexpected identifier, expecting opening brace");
  /* the parser goes on after an error in a directive line */
  char *err;
  ck_assert_int_eq(pa_translate_err("#create A x\n#create B y\nint ok;\n", &err), 2);
  free(err);
}
END_TEST

static Suite *make(void)
{
  Suite *s = suite_create("parser");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, parray_data_type);
  tcase_add_test(tc, parray_references);
  tcase_add_test(tc, parray_thread_type);
  tcase_add_test(tc, memory_directives);
  tcase_add_test(tc, block_directives);
  tcase_add_test(tc, subprograms);
  tcase_add_test(tc, dollar_expressions);
  tcase_add_test(tc, dollar_kept_as_place);
  tcase_add_test(tc, deep_index_lists);
  tcase_add_test(tc, syntax_errors_located);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  return pa_run_suite(make());
}
