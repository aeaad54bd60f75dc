/* main.c: the parrayc command: translate, build, run, explain. */
#include "explain.h"
#include "parray_config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef enum Mode { MODE_TRANSLATE, MODE_BUILD, MODE_RUN } Mode;

typedef struct Cli {
  Mode mode;
  const char *input;
  const char *output;
  const char *explain;
  const char *format;  /* --format for --explain */
  const char *defines[64]; /* -D NAME=VALUE */
  int ndefines;
  int access_line;     /* --explain-access FILE:LINE */
  bool line_directives;
  bool verbose;
  int nprocs;        /* --np for mpi programs, 0: from the program */
  char **run_args;
  int nrun_args;
} Cli;

static void usage(FILE *f)
{
  fputs("usage: parrayc [options] FILE.pa [-- ARGS...]\n"
        "\n"
        "Translates a Parray program (C with #parray array types, thread arrays and\n"
        "$...$ offset expressions) into C, CUDA or MPI C.\n"
        "\n"
        "modes:\n"
        "  (default)        write FILE.c (FILE.cu when the program uses CUDA)\n"
        "  --build          also compile and link it with the runtime (cc, nvcc or mpicc)\n"
        "  --run            build, then run it with ARGS (mpi programs under mpirun);\n"
        "                   the exit status is the program's\n"
        "  --explain TYPE   print TYPE's dimension tree, extents and offset functions\n"
        "                   and a grid: each element's physical offset (or owner),\n"
        "                   each thread's block and thread (or rank)\n"
        "  --format=F       --explain's output: text (default), svg (a picture) or html\n"
        "                   (a self-contained page; hover a cell for its index path)\n"
        "  -D NAME=VALUE    a size for --explain (the program's own #define is read too)\n"
        "  --explain-access FILE.pa:LINE\n"
        "                   for the $T[...]$ of dmem and smem on LINE of a cuda detour,\n"
        "                   one warp's offsets, its 32-byte sectors (dmem) or bank\n"
        "                   conflicts (smem); --format and -D apply\n"
        "\n"
        "options:\n"
        "  -o OUT           the output: the translated file, or the executable with\n"
        "                   --build/--run (the translation is then OUT.c or OUT.cu)\n"
        "  --no-line        no #line directives in the output\n"
        "  --np N           processes for an mpi program run (default: its mpi array)\n"
        "  -v, --verbose    print the compiler and run commands\n"
        "  -h, --help       this text\n"
        "  --version        the version\n"
        "\n"
        "environment:\n"
        "  CC, NVCC, MPICC  compilers for --build (default cc, nvcc, mpicc)\n"
        "  PARRAY_CFLAGS    extra compiler flags for --build (default -O2)\n"
        "  PARRAY_HOME      where include/ and lib/ of the runtime are\n",
        f);
}

static int parse_cli(int argc, char **argv, Cli *cli)
{
  cli->line_directives = true;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      cli->run_args = argv + i + 1;
      cli->nrun_args = argc - i - 1;
      break;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      exit(0);
    } else if (!strcmp(a, "--version")) {
      printf("parrayc %s\n", PARRAY_VERSION);
      exit(0);
    } else if (!strcmp(a, "--build")) {
      cli->mode = MODE_BUILD;
    } else if (!strcmp(a, "--run")) {
      cli->mode = MODE_RUN;
    } else if (!strcmp(a, "--no-line")) {
      cli->line_directives = false;
    } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
      cli->verbose = true;
    } else if (!strncmp(a, "--format=", 9)) {
      cli->format = a + 9;
      if (explain_format(cli->format) == FMT_BAD) {
        fprintf(stderr, "parrayc: error: '%s': the format is text, svg or html\n", a);
        return 2;
      }
    } else if (!strncmp(a, "-D", 2)) {
      const char *v = a[2] ? a + 2 : i + 1 < argc ? argv[++i] : NULL;
      if (!v || !is_ident_start(*v) || cli->ndefines == 64) {
        fprintf(stderr, "parrayc: error: '-D' needs NAME or NAME=VALUE (at most 64 of them)\n");
        return 2;
      }
      cli->defines[cli->ndefines++] = v;
    } else if (!strcmp(a, "--explain-access")) {
      char *v = i + 1 < argc ? argv[++i] : NULL, *colon = v ? strrchr(v, ':') : NULL;
      if (!colon || (cli->access_line = atoi(colon + 1)) <= 0) {
        fprintf(stderr, "parrayc: error: '--explain-access' needs FILE.pa:LINE\n");
        return 2;
      }
      *colon = 0;
      if (cli->input && strcmp(cli->input, v)) {
        fprintf(stderr, "parrayc: error: more than one input file ('%s' and '%s')\n", cli->input, v);
        return 2;
      }
      cli->input = v;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--explain") || !strcmp(a, "--np")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "parrayc: error: '%s' needs an argument\n", a);
        return 2;
      }
      const char *v = argv[++i];
      if (!strcmp(a, "-o"))
        cli->output = v;
      else if (!strcmp(a, "--explain"))
        cli->explain = v;
      else if ((cli->nprocs = atoi(v)) <= 0) {
        fprintf(stderr, "parrayc: error: '--np %s': expected a positive number\n", v);
        return 2;
      }
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "parrayc: error: unknown option '%s' (see parrayc --help)\n", a);
      return 2;
    } else if (cli->input && (!cli->access_line || strcmp(cli->input, a))) {
      fprintf(stderr, "parrayc: error: more than one input file ('%s' and '%s')\n", cli->input, a);
      return 2;
    } else if (!cli->input) {
      cli->input = a;
    }
  }
  if (!cli->input) {
    fputs("parrayc: error: no input file (see parrayc --help)\n", stderr);
    return 2;
  }
  return 0;
}

static char *read_file(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  Buf b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    for (size_t i = 0; i < n; i++)
      buf_putc(&b, chunk[i]);
  bool bad = ferror(f);
  fclose(f);
  if (bad) {
    buf_free(&b);
    return NULL;
  }
  *len = b.len;
  return buf_detach(&b);
}

/* Writes all of text or nothing: a temporary file renamed into place. */
static bool write_file(const char *path, const char *text)
{
  size_t n = strlen(path) + 16;
  char *tmp = malloc(n);
  snprintf(tmp, n, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    fprintf(stderr, "parrayc: error: cannot write '%s': %s\n", path, strerror(errno));
    free(tmp);
    return false;
  }
  size_t len = strlen(text), done = 0;
  while (done < len) {
    ssize_t w = write(fd, text + done, len - done);
    if (w <= 0)
      break;
    done += (size_t)w;
  }
  fchmod(fd, 0644);
  bool ok = done == len && close(fd) == 0;
  if (ok && rename(tmp, path) != 0)
    ok = false;
  if (!ok) {
    fprintf(stderr, "parrayc: error: cannot write '%s': %s\n", path, strerror(errno));
    unlink(tmp);
  }
  free(tmp);
  return ok;
}

static char *strip_ext(const char *path)
{
  char *s = strdup(path);
  char *dot = strrchr(s, '.');
  char *slash = strrchr(s, '/');
  if (dot && (!slash || dot > slash))
    *dot = 0;
  return s;
}

static bool is_dir(const char *p)
{
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* where the runtime's headers and libraries are */
static void runtime_dirs(const char **inc, const char **lib)
{
  static char ibuf[4096], lbuf[4096];
  const char *home = getenv("PARRAY_HOME");
  if (home && *home) {
    snprintf(ibuf, sizeof ibuf, "%s/include", home);
    snprintf(lbuf, sizeof lbuf, "%s/lib", home);
    *inc = ibuf;
    *lib = lbuf;
  } else if (is_dir(PARRAY_BUILD_LIB_DIR) && is_dir(PARRAY_SOURCE_INCLUDE_DIR)) {
    *inc = PARRAY_SOURCE_INCLUDE_DIR;
    *lib = PARRAY_BUILD_LIB_DIR;
  } else {
    *inc = PARRAY_INSTALL_INCLUDE_DIR;
    *lib = PARRAY_INSTALL_LIB_DIR;
  }
}

typedef struct Argv {
  char **v;
  int n, cap;
} Argv;

static void arg(Argv *a, const char *s)
{
  if (a->n + 2 > a->cap) {
    a->cap = a->cap ? a->cap * 2 : 32;
    a->v = realloc(a->v, sizeof(char *) * a->cap);
  }
  a->v[a->n++] = strdup(s);
  a->v[a->n] = NULL;
}

static void args_split(Argv *a, const char *s)
{
  char *copy = strdup(s);
  for (char *t = strtok(copy, " \t\n"); t; t = strtok(NULL, " \t\n"))
    arg(a, t);
  free(copy);
}

static void args_free(Argv *a)
{
  for (int i = 0; i < a->n; i++)
    free(a->v[i]);
  free(a->v);
}

static int spawn(Argv *a, bool verbose)
{
  if (verbose) {
    for (int i = 0; i < a->n; i++)
      fprintf(stderr, "%s%s", i ? " " : "", a->v[i]);
    fputc('\n', stderr);
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "parrayc: error: cannot start '%s': %s\n", a->v[0], strerror(errno));
    return 127;
  }
  if (pid == 0) {
    execvp(a->v[0], a->v);
    fprintf(stderr, "parrayc: error: cannot run '%s': %s\n", a->v[0], strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return 127;
  if (WIFSIGNALED(status)) {
    fprintf(stderr, "parrayc: '%s' was killed by signal %d (%s)\n", a->v[0], WTERMSIG(status),
            strsignal(WTERMSIG(status)));
    return 128 + WTERMSIG(status);
  }
  return WEXITSTATUS(status);
}

/* The sanitizer flags for nvcc's host compiler, one -Xcompiler each (nvcc
 * splits -Xcompiler values at commas): the runtime libraries of a
 * sanitizer build need the sanitizer runtimes at link time. */
static void nvcc_host_flags(Argv *a, const char *flags)
{
  char *copy = strdup(flags);
  char buf[256];
  for (char *t = strtok(copy, " \t\n"); t; t = strtok(NULL, " \t\n")) {
    if (strncmp(t, "-fsanitize=", 11)) {
      snprintf(buf, sizeof buf, "-Xcompiler=%s", t);
      arg(a, buf);
      continue;
    }
    char *list = t + 11, *save = NULL;
    for (char *s = strtok_r(list, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
      snprintf(buf, sizeof buf, "-Xcompiler=-fsanitize=%s", s);
      arg(a, buf);
    }
  }
  free(copy);
}

static const char *env_or(const char *name, const char *fallback)
{
  const char *v = getenv(name);
  return v && *v ? v : fallback;
}

static int build(Ctx *ctx, const char *source, const char *exe, bool cuda, bool verbose)
{
  const char *inc, *lib;
  runtime_dirs(&inc, &lib);
  Argv a = {0};
  const char *cflags = env_or("PARRAY_CFLAGS", "-O2");
  if (cuda) {
    const char *nvcc = env_or("NVCC", *PARRAY_NVCC ? PARRAY_NVCC : "nvcc");
    arg(&a, nvcc);
    args_split(&a, cflags);
    arg(&a, "-arch=sm_" PARRAY_CUDA_ARCH);
    arg(&a, "-Xcompiler=-Wall,-Wextra");
    nvcc_host_flags(&a, PARRAY_SANITIZE_FLAGS);
    if (ctx->uses_omp)
      arg(&a, "-Xcompiler=-fopenmp");
  } else {
    const char *cc = ctx->uses_mpi ? env_or("MPICC", *PARRAY_MPICC ? PARRAY_MPICC : "mpicc") : env_or("CC", "cc");
    arg(&a, cc);
    arg(&a, "-std=gnu11");
    args_split(&a, cflags);
    arg(&a, "-Wall");
    arg(&a, "-Wextra");
    args_split(&a, PARRAY_SANITIZE_FLAGS);
    if (ctx->uses_omp)
      arg(&a, "-fopenmp");
  }
  arg(&a, "-I");
  arg(&a, inc);
  arg(&a, source);
  arg(&a, "-o");
  arg(&a, exe);
  arg(&a, "-L");
  arg(&a, lib);
  if (ctx->uses_mpi)
    arg(&a, "-lparray_mpi");
  if (cuda)
    arg(&a, "-lparray_cuda");
  arg(&a, "-lparray");
  if (cuda && ctx->uses_omp)
    arg(&a, "-lgomp");
  arg(&a, "-lpthread");
  arg(&a, "-lm");
  int rc = spawn(&a, verbose);
  args_free(&a);
  if (rc != 0)
    fprintf(stderr, "parrayc: error: compiling '%s' failed\n", source);
  return rc;
}

static int mpi_procs(Ctx *ctx)
{
  long long n = 0, v;
  for (Type *t = ctx->types; t; t = t->next)
    if (t->kind == TK_MPI && poly_is_const(t->root->extent, &v) && v > n)
      n = v;
  return n > 0 ? (int)n : 1;
}

static int run(Ctx *ctx, Cli *cli, const char *exe)
{
  Argv a = {0};
  char *path = exe[0] == '/' ? strdup(exe) : NULL;
  if (!path) {
    size_t n = strlen(exe) + 3;
    path = malloc(n);
    snprintf(path, n, "%s%s", strchr(exe, '/') ? "" : "./", exe);
  }
  if (ctx->uses_mpi) {
    int np = cli->nprocs ? cli->nprocs : mpi_procs(ctx);
    arg(&a, env_or("MPIRUN", *PARRAY_MPIRUN ? PARRAY_MPIRUN : "mpirun"));
    if (geteuid() == 0) {
      setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
      setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    }
    arg(&a, "--oversubscribe");
    arg(&a, "-np");
    char buf[32];
    snprintf(buf, sizeof buf, "%d", np);
    arg(&a, buf);
  }
  arg(&a, path);
  free(path);
  for (int i = 0; i < cli->nrun_args; i++)
    arg(&a, cli->run_args[i]);
  int rc = spawn(&a, cli->verbose);
  args_free(&a);
  return rc;
}

int main(int argc, char **argv)
{
  Cli cli = {0};
  int rc = parse_cli(argc, argv, &cli);
  if (rc)
    return rc;
  size_t len;
  char *src = read_file(cli.input, &len);
  if (!src) {
    fprintf(stderr, "parrayc: error: cannot read '%s': %s\n", cli.input, strerror(errno));
    return 1;
  }
  Options opt = {.input = cli.input, .display = cli.input, .line_directives = cli.line_directives, .explain = cli.explain,
                 .explain_format = cli.format, .defines = cli.defines, .ndefines = cli.ndefines,
                 .access_line = cli.access_line};
  Ctx *ctx = ctx_new(&opt, src, len);
  free(src);
  char *out = NULL;
  if (parse_source(ctx))
    out = emit_program(ctx);
  if (!out) {
    fprintf(stderr, "%d error%s generated; no output written.\n", ctx->errors, ctx->errors == 1 ? "" : "s");
    ctx_free(ctx);
    return 1;
  }
  if (cli.access_line) {
    rc = explain_access(ctx, stdout) ? 0 : 1;
    free(out);
    ctx_free(ctx);
    return rc;
  }
  if (cli.explain) {
    Dim *d = dim_resolve(ctx, cli.explain, (Loc){0, 0});
    rc = d && type_explain(ctx, d, stdout) ? 0 : 1;
    free(out);
    ctx_free(ctx);
    return rc;
  }
  bool cuda = program_uses_cuda(ctx, ctx->tree);
  const char *ext = cuda ? ".cu" : ".c";
  char *base = strip_ext(cli.input);
  char *exe = strdup(cli.output && cli.mode != MODE_TRANSLATE ? cli.output : base);
  char *source;
  if (cli.mode == MODE_TRANSLATE && cli.output) {
    source = strdup(cli.output);
  } else {
    source = malloc(strlen(exe) + 4);
    sprintf(source, "%s%s", exe, ext);
  }
  if (!write_file(source, out))
    rc = 1;
  else if (cli.mode != MODE_TRANSLATE) {
    rc = build(ctx, source, exe, cuda, cli.verbose);
    if (rc == 0 && cli.mode == MODE_RUN)
      rc = run(ctx, &cli, exe);
    else if (rc != 0)
      rc = rc == 127 ? 127 : 1;
  }
  free(out);
  free(base);
  free(exe);
  free(source);
  ctx_free(ctx);
  return rc;
}
