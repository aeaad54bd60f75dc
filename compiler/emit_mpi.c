/* emit_mpi.c: mpi process arrays and distributed data. */
#include "emit.h"

static void not_yet(Emitter *e, Node *n, const char *what)
{
  diag_error(e->ctx, n->loc, "%s is not implemented yet (the MPI target)", what);
}

void emit_mpi_detour(Emitter *e, Node *n, Type *t)
{
  (void)t;
  not_yet(e, n, "an mpi detour");
}

void emit_mpi_sync(Emitter *e, Node *n)
{
  not_yet(e, n, "'#sync' in an mpi detour");
}

void emit_mpi_copy(Emitter *e, Node *n, Dim *src, Dim *dst)
{
  (void)src;
  (void)dst;
  not_yet(e, n, "'#copy' of distributed data");
}

void emit_mpi_main(Emitter *e, Node *n)
{
  emit_c_main(e, n);
}
