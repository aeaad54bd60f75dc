/* emit_cpu.c: pthd and omp thread arrays. */
#include "emit.h"

void emit_cpu_detour(Emitter *e, Node *n, Type *t)
{
  diag_error(e->ctx, n->loc, "%s detours are not implemented yet", thread_kind_name(t->kind));
}

void emit_cpu_sync(Emitter *e, Node *n)
{
  diag_error(e->ctx, n->loc, "'#sync' in CPU detours is not implemented yet");
}
