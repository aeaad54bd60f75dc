/* emit_cuda.c: cuda thread arrays and GPU memory. */
#include "emit.h"

static void not_yet(Emitter *e, Node *n, const char *what)
{
  diag_error(e->ctx, n->loc, "%s is not implemented yet (the CUDA target)", what);
}

void emit_cuda_detour(Emitter *e, Node *n, Type *t)
{
  (void)t;
  not_yet(e, n, "a cuda detour");
}

void emit_cuda_sync(Emitter *e, Node *n)
{
  not_yet(e, n, "'#sync' in a cuda detour");
}

void emit_cuda_create(Emitter *e, Node *n, Dim *d)
{
  not_yet(e, n, ctx_printf(e->ctx, "'#create' in %s memory", mem_name(d->type->mem)));
}

void emit_cuda_destroy(Emitter *e, Node *n, Dim *d)
{
  not_yet(e, n, ctx_printf(e->ctx, "'#destroy' in %s memory", mem_name(d->type->mem)));
}

void emit_cuda_copy(Emitter *e, Node *n, Dim *src, Dim *dst)
{
  (void)src;
  (void)dst;
  not_yet(e, n, "'#copy' with GPU memory");
}
