/* fuzz_front.c: the libFuzzer harness over parrayc's front end and type
 * model.  Each input is a .pa program: it is parsed and translated into
 * memory (no files, no C compiler), and the first type it declares is
 * explained, as parrayc --explain would.  Diagnostics go to stderr, which
 * the runner closes (-close_fd_mask=2).  Built and run by libfuzzer.sh. */
#include "emit/emit.h"
#include "explain/explain.h"
#include "parrayc.h"
#include "targets/all.h"

#include <stdint.h>
#include <stdlib.h>

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  devnull = fopen("/dev/null", "w");
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  Options opt = {.input = "fuzz.pa", .display = "fuzz.pa", .line_directives = true, .error_limit = 20};
  Ctx *ctx = ctx_new(&opt, (const char *)data, size);
  char *out = NULL;
  if (parse_source(ctx))
    out = emit_program(ctx, targets_all);
  if (out && ctx->types && devnull)
    explain_type(ctx, ctx->types->root, devnull);
  free(out);
  ctx_free(ctx);
  return 0;
}
