/* main.c: the parrayc command, a compiler driver in the manner of gcc:
 * translate, compile (-c), build, run, explain, dependency output. */
#include "explain.h"
#include "parray_config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

typedef enum Mode { MODE_TRANSLATE, MODE_COMPILE, MODE_BUILD, MODE_RUN } Mode;

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

static void args_free(Argv *a)
{
  for (int i = 0; i < a->n; i++)
    free(a->v[i]);
  free(a->v);
}

typedef struct Cli {
  Mode mode;
  Argv inputs;       /* Parray programs ("-": standard input) */
  Argv link;         /* sources, objects, -l, -Wl: after the translations */
  Argv cflags;       /* -I -D -U -O -g -f -W: for the C compiler */
  Argv incdirs;      /* -I: also where Parray headers are searched */
  const char *output;
  const char *explain;
  const char *arch;  /* --arch: nvcc's -arch */
  const char *format;  /* --format for --explain */
  const char *defines[64]; /* -D NAME=VALUE, also sizes for --explain */
  int ndefines;
  const char *access_file; /* --explain-access FILE:LINE */
  int access_line;
  bool line_directives;
  bool verbose;
  bool print_backends;
  bool deps_only;    /* -M */
  bool deps;         /* -MD */
  bool deps_phony;   /* -MP */
  const char *dep_file, *dep_target;
  int color;         /* -1: auto */
  int error_limit;   /* -ferror-limit=N */
  bool no_warnings;  /* -w */
  bool werror;       /* -Werror */
  int nprocs;        /* --np for mpi programs, 0: from the program */
  char **run_args;
  int nrun_args;
} Cli;

static void usage(FILE *f)
{
  fputs("usage: parrayc [options] FILE.pa... [-- ARGS...]\n"
        "\n"
        "Translates Parray programs (C with #parray array types, thread arrays and\n"
        "$...$ offset expressions) into C, CUDA or MPI C, and drives the C compiler.\n"
        "Options take one dash or two (-MD, --build, -arch=sm_90 or --arch sm_90).\n"
        "\n"
        "modes:\n"
        "  (default)        write FILE.c (FILE.cu when the program uses CUDA)\n"
        "  -c               also compile each translation to an object, FILE.o\n"
        "  --build          also compile and link the translations, with the .c, .cu,\n"
        "                   .o and .a inputs and -l libraries, against the runtime\n"
        "                   (cc, nvcc or mpicc)\n"
        "  --run            build, then run it with ARGS (mpi programs under mpirun);\n"
        "                   the exit status is the program's\n"
        "  --explain TYPE   print TYPE's dimension tree, extents and offset functions\n"
        "                   and a grid: each element's physical offset (or owner),\n"
        "                   each thread's block and thread (or rank)\n"
        "  --format=F       --explain's output: text (default), svg (a picture) or html\n"
        "                   (a self-contained page; hover a cell for its index path)\n"
        "  --explain-access FILE.pa:LINE\n"
        "                   for the $T[...]$ of dmem and smem on LINE of a cuda detour,\n"
        "                   one warp's offsets, its 32-byte sectors (dmem) or bank\n"
        "                   conflicts (smem); --format and -D apply\n"
        "  -M               print the make rule of the inputs' dependencies, nothing else\n"
        "  --print-backends print the back ends the program uses (cuda mpi omp pthd)\n"
        "\n"
        "options:\n"
        "  -o OUT           the output: the translation (- for standard output), the\n"
        "                   object with -c, or the executable with --build/--run (the\n"
        "                   translation is then OUT.c or OUT.cu)\n"
        "  -I DIR           search DIR for #include \"NAME.pah\"; passed to the compiler\n"
        "  -D NAME[=V], -U NAME, -O[N], -g, -fFLAG, -WFLAG\n"
        "                   passed to the C compiler (-c, --build, --run); -D also\n"
        "                   gives --explain a size (the program's own #define is read too)\n"
        "  -l LIB, -L DIR   libraries, after the translation (--build, --run)\n"
        "  --arch=sm_XX     the GPU architecture for nvcc (default sm_" PARRAY_CUDA_ARCH ")\n"
        "  -MD              also write the dependencies to OUT.d (or -MF FILE)\n"
        "  -MF FILE         where -M/-MD write the rule (- for standard output)\n"
        "  -MT TARGET       the rule's target (default: the output file)\n"
        "  -MP              a phony target for every header\n"
        "  --no-line        no #line directives in the output\n"
        "  --np N           processes for an mpi program run (default: its mpi array)\n"
        "  -w               no warnings\n"
        "  -Wall            accepted (warnings are on by default)\n"
        "  -Werror          warnings are errors\n"
        "  -ferror-limit=N  stop after N errors (default 20; 0: no limit)\n"
        "  -fdiagnostics-color[=auto|always|never]\n"
        "                   colours in messages (default auto: on a terminal)\n"
        "  -v, --verbose    print the compiler and run commands\n"
        "  -h, --help       this text\n"
        "  --version        the version and the back ends of this build\n"
        "\n"
        "environment:\n"
        "  CC, NVCC, MPICC  compilers for -c/--build (default cc, nvcc, mpicc)\n"
        "  PARRAY_CFLAGS    extra compiler flags (default -O2), quoted as in the shell;\n"
        "                   -l words go after the translation\n"
        "  PARRAY_MPI_CFLAGS, PARRAY_MPI_LIBS\n"
        "                   the MPI flags nvcc gets for an mpi x cuda program\n"
        "                   (default: from MPICC --showme:compile and --showme:link)\n"
        "  PARRAY_HOME      where include/ and lib/ of the runtime are, when they are\n"
        "                   not next to parrayc (PREFIX/bin/../include, ../lib)\n",
        f);
}

static void version(void)
{
  printf("parrayc %s\nback ends: c pthd%s%s%s\n", PARRAY_VERSION, PARRAY_HAVE_OPENMP ? " omp" : "",
         PARRAY_HAVE_CUDA_LIB ? " cuda (sm_" PARRAY_CUDA_ARCH ")" : "", PARRAY_HAVE_MPI_LIB ? " mpi" : "");
}

static int cli_error(const char *fmt, const char *a, const char *b)
{
  fputs("parrayc: error: ", stderr);
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  return 1;
}

static bool has_ext(const char *path, const char *const *exts)
{
  const char *dot = strrchr(path, '.');
  if (!dot || strchr(dot, '/'))
    return false;
  for (; *exts; exts++)
    if (!strcmp(dot, *exts))
      return true;
  return false;
}

/* Inputs the C compiler takes as they are when parrayc builds. */
static bool is_compiler_input(const char *path)
{
  static const char *const exts[] = {".c", ".cu", ".cc", ".cpp", ".o", ".a", ".so", NULL};
  return has_ext(path, exts);
}

enum {
  OPT_BUILD = 256, OPT_RUN, OPT_EXPLAIN, OPT_NO_LINE, OPT_NP, OPT_VERSION, OPT_ARCH, OPT_MD,
  OPT_MF, OPT_MT, OPT_MP, OPT_WALL, OPT_WERROR, OPT_COLOR, OPT_ERROR_LIMIT, OPT_PRINT_BACKENDS,
  OPT_FORMAT, OPT_EXPLAIN_ACCESS,
};

static const struct option long_options[] = {
  {"build", no_argument, 0, OPT_BUILD},
  {"run", no_argument, 0, OPT_RUN},
  {"explain", required_argument, 0, OPT_EXPLAIN},
  {"no-line", no_argument, 0, OPT_NO_LINE},
  {"np", required_argument, 0, OPT_NP},
  {"verbose", no_argument, 0, 'v'},
  {"help", no_argument, 0, 'h'},
  {"version", no_argument, 0, OPT_VERSION},
  {"arch", required_argument, 0, OPT_ARCH},
  {"MD", no_argument, 0, OPT_MD},
  {"MMD", no_argument, 0, OPT_MD},
  {"MF", required_argument, 0, OPT_MF},
  {"MT", required_argument, 0, OPT_MT},
  {"MP", no_argument, 0, OPT_MP},
  {"Wall", no_argument, 0, OPT_WALL},
  {"Werror", no_argument, 0, OPT_WERROR},
  {"fdiagnostics-color", optional_argument, 0, OPT_COLOR},
  {"ferror-limit", required_argument, 0, OPT_ERROR_LIMIT},
  {"print-backends", no_argument, 0, OPT_PRINT_BACKENDS},
  {"format", required_argument, 0, OPT_FORMAT},
  {"explain-access", required_argument, 0, OPT_EXPLAIN_ACCESS},
  {0, 0, 0, 0},
};

static bool parse_count(const char *s, int *out)
{
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!*s || *end || errno || v < 0 || v > INT_MAX)
    return false;
  *out = (int)v;
  return true;
}

/* One option; returns non-zero (the exit status) on a bad one. */
static int take_option(Cli *cli, int c, const char *v, const char *spelled)
{
  char buf[PATH_MAX + 8];
  switch (c) {
  case 'h': usage(stdout); exit(0);
  case OPT_VERSION: version(); exit(0);
  case OPT_BUILD: cli->mode = MODE_BUILD; break;
  case OPT_RUN: cli->mode = MODE_RUN; break;
  case 'c': cli->mode = MODE_COMPILE; break;
  case OPT_EXPLAIN: cli->explain = v; break;
  case OPT_NO_LINE: cli->line_directives = false; break;
  case 'v': cli->verbose = true; break;
  case 'o': cli->output = v; break;
  case OPT_ARCH: cli->arch = v; break;
  case 'M': cli->deps_only = true; break;
  case OPT_MD: cli->deps = true; break;
  case OPT_MF: cli->dep_file = v; break;
  case OPT_MT: cli->dep_target = v; break;
  case OPT_MP: cli->deps_phony = true; break;
  case 'w': cli->no_warnings = true; break;
  case OPT_WALL: break;
  case OPT_WERROR: cli->werror = true; break;
  case OPT_PRINT_BACKENDS: cli->print_backends = true; break;
  case OPT_FORMAT:
    cli->format = v;
    if (explain_format(v) == FMT_BAD)
      return cli_error("'--format=%s': the format is text, svg or html%s", v, "");
    break;
  case OPT_EXPLAIN_ACCESS: {
    char *file = strdup(v), *colon = strrchr(file, ':');
    if (!colon || (cli->access_line = atoi(colon + 1)) <= 0) {
      free(file);
      return cli_error("'--explain-access %s': expected FILE.pa:LINE%s", v, "");
    }
    *colon = 0;
    cli->access_file = file;
    break;
  }
  case OPT_NP:
    if (!parse_count(v, &cli->nprocs) || cli->nprocs == 0)
      return cli_error("'--np %s': expected a positive number%s", v, "");
    break;
  case OPT_ERROR_LIMIT:
    if (!parse_count(v, &cli->error_limit))
      return cli_error("'-ferror-limit=%s': expected a number >= 0%s", v, "");
    break;
  case OPT_COLOR:
    if (!v || !strcmp(v, "always"))
      cli->color = 1;
    else if (!strcmp(v, "never"))
      cli->color = 0;
    else if (!strcmp(v, "auto"))
      cli->color = -1;
    else
      return cli_error("'-fdiagnostics-color=%s': expected auto, always or never%s", v, "");
    break;
  case 'I':
    arg(&cli->incdirs, v);
    /* fall through */
  case 'D': case 'U': case 'O': case 'g': case 'f': case 'W':
    if (c == 'D') {
      if (!is_ident_start((unsigned char)*v) || cli->ndefines == 64)
        return cli_error("'-D%s': expected NAME or NAME=VALUE (at most 64)%s", v, "");
      cli->defines[cli->ndefines++] = v;
    }
    snprintf(buf, sizeof buf, "-%c%s", c, v ? v : "");
    if (c == 'W' && !strncmp(v, "l,", 2))
      arg(&cli->link, buf); /* -Wl,...: a linker option */
    else
      arg(&cli->cflags, buf);
    break;
  case 'l': case 'L':
    snprintf(buf, sizeof buf, "-%c%s", c, v);
    arg(&cli->link, buf);
    break;
  case ':':
    return cli_error("'%s' needs an argument (see parrayc --help)%s", spelled, "");
  default:
    return cli_error("unrecognized command-line option '%s' (see parrayc --help)%s", spelled, "");
  }
  return 0;
}

/* gcc's spelling: options take one dash or two (getopt_long_only); a
 * lone `--` ends them, and what follows is the program's arguments. */
static int parse_cli(int argc, char **argv, Cli *cli)
{
  cli->line_directives = true;
  cli->error_limit = 20;
  cli->color = -1;
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--")) {
      cli->run_args = argv + i + 1;
      cli->nrun_args = argc - i - 1;
      argc = i;
      break;
    }
  opterr = 0;
  int c, rc;
  while ((c = getopt_long_only(argc, argv, ":o:vhcMwI:D:U:O::g::f:W:l:L:", long_options, NULL)) != -1) {
    const char *spelled = argv[optind - 1];
    if ((rc = take_option(cli, c, optarg, spelled)))
      return rc;
  }
  for (int i = optind; i < argc; i++) {
    const char *a = argv[i];
    if (cli->mode != MODE_TRANSLATE && is_compiler_input(a))
      arg(&cli->link, a);
    else
      arg(&cli->inputs, a);
  }
  if (cli->access_file) {
    /* the file of --explain-access is the input */
    if (cli->inputs.n > 1 || (cli->inputs.n == 1 && strcmp(cli->inputs.v[0], cli->access_file)))
      return cli_error("'--explain-access' names '%s'; no other input file is taken%s", cli->access_file, "");
    if (!cli->inputs.n)
      arg(&cli->inputs, cli->access_file);
  }
  if (!cli->inputs.n && !(cli->mode == MODE_BUILD && cli->link.n))
    return cli_error("no Parray input file (see parrayc --help)%s%s", "", "");
  if (cli->output && cli->inputs.n > 1 && (cli->mode == MODE_TRANSLATE || cli->mode == MODE_COMPILE))
    return cli_error("cannot specify '-o %s' with several input files%s", cli->output, "");
  if (cli->output && !strcmp(cli->output, "-") && cli->mode != MODE_TRANSLATE)
    return cli_error("'-o -' writes the translation only: not with -c, --build or --run%s%s", "", "");
  return 0;
}

/* Writes all of text or nothing: a temporary file renamed into place;
 * "-" is standard output. */
static bool write_file(const char *path, const char *text)
{
  if (!strcmp(path, "-")) {
    if (fputs(text, stdout) >= 0 && fflush(stdout) == 0)
      return true;
    fprintf(stderr, "parrayc: error: cannot write to standard output: %s\n", strerror(errno));
    return false;
  }
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

static char *concat(const char *a, const char *b)
{
  size_t n = strlen(a) + strlen(b) + 1;
  char *s = malloc(n);
  snprintf(s, n, "%s%s", a, b);
  return s;
}

static bool same_file(const char *a, const char *b)
{
  struct stat sa, sb;
  if (!strcmp(a, b))
    return strcmp(a, "-") != 0;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static bool file_exists(const char *dir, const char *name)
{
  char path[PATH_MAX];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return stat(path, &st) == 0;
}

/* PREFIX/include and PREFIX/LIBDIR when they hold the runtime. */
static bool runtime_at(const char *prefix, char *inc, char *lib)
{
  snprintf(inc, PATH_MAX, "%s/%s", prefix, PARRAY_REL_INCLUDEDIR);
  snprintf(lib, PATH_MAX, "%s/%s", prefix, PARRAY_REL_LIBDIR);
  if (file_exists(inc, "parray.h") && file_exists(lib, "libparray.a"))
    return true;
  snprintf(lib, PATH_MAX, "%s/lib", prefix);
  return file_exists(inc, "parray.h") && file_exists(lib, "libparray.a");
}

/* Where the runtime's headers and libraries are: next to parrayc
 * (PREFIX/bin/parrayc: PREFIX/include, PREFIX/lib), PARRAY_HOME, the build
 * tree parrayc was built in, the configured install prefix. */
static void runtime_dirs(char *inc, char *lib)
{
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    for (int up = 0; up < 2; up++) {
      char *slash = strrchr(exe, '/');
      if (slash)
        *slash = 0;
    }
    if (runtime_at(exe, inc, lib))
      return;
  }
  const char *home = getenv("PARRAY_HOME");
  if (home && *home && runtime_at(home, inc, lib))
    return;
  if (file_exists(PARRAY_SOURCE_INCLUDE_DIR, "parray.h") && file_exists(PARRAY_BUILD_LIB_DIR, "libparray.a")) {
    snprintf(inc, PATH_MAX, "%s", PARRAY_SOURCE_INCLUDE_DIR);
    snprintf(lib, PATH_MAX, "%s", PARRAY_BUILD_LIB_DIR);
    return;
  }
  if (home && *home) {
    runtime_at(home, inc, lib); /* not there: -I and -L name it all the same */
    return;
  }
  snprintf(inc, PATH_MAX, "%s", PARRAY_INSTALL_INCLUDE_DIR);
  snprintf(lib, PATH_MAX, "%s", PARRAY_INSTALL_LIB_DIR);
}

/* Splits flags as the shell would (quotes, backslashes, $VAR; no command
 * substitution); false, with a message, when it cannot. */
static bool split_flags(const char *name, const char *flags, Argv *before, Argv *after)
{
  wordexp_t w;
  int rc = wordexp(flags, &w, WRDE_NOCMD);
  if (rc) {
    fprintf(stderr, "parrayc: error: cannot split %s '%s' into words%s\n", name, flags,
            rc == WRDE_BADCHAR ? " (quote | & ; < > ( ) { } and newlines)"
            : rc == WRDE_CMDSUB ? " (no command substitution)" : "");
    if (rc == WRDE_NOSPACE)
      wordfree(&w);
    return false;
  }
  for (size_t i = 0; i < w.we_wordc; i++) {
    const char *t = w.we_wordv[i];
    arg(!strncmp(t, "-l", 2) || !strncmp(t, "-Wl,", 4) || is_compiler_input(t) ? after : before, t);
  }
  wordfree(&w);
  return true;
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

/* The words `MPICC --showme:WHAT` prints (Open MPI's wrapper), or the
 * environment variable that overrides them, into a. */
static bool mpi_wrapper_words(const char *what, const char *env, Argv *a)
{
  const char *set = getenv(env);
  if (set)
    return split_flags(env, set, a, a);
  const char *mpicc = env_or("MPICC", *PARRAY_MPICC ? PARRAY_MPICC : "mpicc");
  char cmd[PATH_MAX + 64], line[8192] = "";
  snprintf(cmd, sizeof cmd, "%s --showme:%s 2>/dev/null", mpicc, what);
  FILE *f = popen(cmd, "r");
  size_t got = f ? fread(line, 1, sizeof line - 1, f) : 0;
  int rc = f ? pclose(f) : -1;
  line[got] = 0;
  if (rc != 0 || got == 0) {
    fprintf(stderr, "parrayc: error: cannot ask '%s' for the MPI %s flags (an mpi x cuda program is built by nvcc "
            "with them); set %s to them\n", mpicc, what, env);
    return false;
  }
  line[strcspn(line, "\n")] = 0;
  return split_flags(env, line, a, a);
}

/* nvcc takes -I, -D, -L and -l itself; anything else the MPI wrapper adds
 * (-pthread, -Wl,...) goes to the host compiler or the linker. */
static void nvcc_mpi_flags(Argv *a, Argv *words)
{
  char buf[PATH_MAX + 32];
  for (int i = 0; i < words->n; i++) {
    const char *t = words->v[i];
    if (t[0] == '-' && strchr("IDLl", t[1]))
      snprintf(buf, sizeof buf, "%s", t);
    else if (!strncmp(t, "-Wl,", 4))
      snprintf(buf, sizeof buf, "-Xlinker=%s", t + 4);
    else
      snprintf(buf, sizeof buf, "-Xcompiler=%s", t);
    arg(a, buf);
  }
}

/* One translated input. */
typedef struct Unit {
  const char *input;
  Ctx *ctx;
  char *text;        /* the translation */
  bool cuda;
  char *source;      /* where the translation is written */
  char *object;      /* -c: the object */
} Unit;

/* The compiler command for units (one with -c, all with --build):
 * compiler, flags, translations, the other inputs, runtime libraries. */
static int compile(Cli *cli, Unit *units, int n, const char *out)
{
  bool cuda = false, mpi = false, omp = false;
  for (int i = 0; i < n; i++) {
    cuda |= units[i].cuda;
    mpi |= units[i].ctx->uses_mpi;
    omp |= units[i].ctx->uses_omp;
  }
  char inc[PATH_MAX], lib[PATH_MAX];
  runtime_dirs(inc, lib);
  Argv pre = {0}, post = {0}, a = {0}, mpi_libs = {0};
  if (!split_flags("PARRAY_CFLAGS", env_or("PARRAY_CFLAGS", "-O2"), &pre, &post))
    return 1;
  if (cuda) {
    arg(&a, env_or("NVCC", *PARRAY_NVCC ? PARRAY_NVCC : "nvcc"));
    for (int i = 0; i < pre.n; i++)
      arg(&a, pre.v[i]);
    const char *arch = cli->arch ? cli->arch : env_or("PARRAY_CUDA_ARCH", PARRAY_CUDA_ARCH);
    char buf[PATH_MAX + 32];
    snprintf(buf, sizeof buf, "-arch=%s%s", strchr(arch, '_') || !strcmp(arch, "native") || !strcmp(arch, "all") ? "" : "sm_", arch);
    arg(&a, buf);
    arg(&a, "-Xcompiler=-Wall,-Wextra");
    nvcc_host_flags(&a, PARRAY_SANITIZE_FLAGS);
    if (omp)
      arg(&a, "-Xcompiler=-fopenmp");
    if (mpi) {
      /* mpi x cuda: nvcc with the MPI wrapper's flags */
      Argv words = {0}, libs = {0};
      bool ok = mpi_wrapper_words("compile", "PARRAY_MPI_CFLAGS", &words);
      if (ok && cli->mode != MODE_COMPILE)
        ok = mpi_wrapper_words("link", "PARRAY_MPI_LIBS", &libs);
      nvcc_mpi_flags(&a, &words);
      nvcc_mpi_flags(&mpi_libs, &libs);
      args_free(&words);
      args_free(&libs);
      if (!ok) {
        args_free(&a);
        args_free(&pre);
        args_free(&post);
        args_free(&mpi_libs);
        return 1;
      }
    }
    for (int i = 0; i < cli->cflags.n; i++) {
      const char *f = cli->cflags.v[i];
      if (f[1] == 'f' || f[1] == 'W')
        snprintf(buf, sizeof buf, "-Xcompiler=%s", f);
      else
        snprintf(buf, sizeof buf, "%s", f);
      arg(&a, buf);
    }
  } else {
    arg(&a, mpi ? env_or("MPICC", *PARRAY_MPICC ? PARRAY_MPICC : "mpicc") : env_or("CC", "cc"));
    arg(&a, "-std=gnu11");
    for (int i = 0; i < pre.n; i++)
      arg(&a, pre.v[i]);
    arg(&a, "-Wall");
    arg(&a, "-Wextra");
    split_flags("the sanitizer flags", PARRAY_SANITIZE_FLAGS, &a, &a);
    if (omp)
      arg(&a, "-fopenmp");
    for (int i = 0; i < cli->cflags.n; i++)
      arg(&a, cli->cflags.v[i]);
  }
  /* #include "x.h" of a .pa file: next to it, wherever the translation is */
  for (int i = 0; i < n; i++) {
    char *dir = strcmp(units[i].input, "-") ? strdup(units[i].input) : strdup(".");
    char *slash = strrchr(dir, '/');
    if (slash)
      *slash = 0;
    arg(&a, cuda ? "-I" : "-iquote");
    arg(&a, slash ? dir : ".");
    free(dir);
  }
  arg(&a, "-I");
  arg(&a, inc);
  if (cli->mode == MODE_COMPILE)
    arg(&a, "-c");
  for (int i = 0; i < n; i++)
    arg(&a, units[i].source);
  arg(&a, "-o");
  arg(&a, out);
  if (cli->mode != MODE_COMPILE) {
    for (int i = 0; i < cli->link.n; i++)
      arg(&a, cli->link.v[i]);
    for (int i = 0; i < post.n; i++)
      arg(&a, post.v[i]);
    arg(&a, "-L");
    arg(&a, lib);
    if (mpi)
      arg(&a, "-lparray_mpi");
    if (cuda)
      arg(&a, "-lparray_cuda");
    arg(&a, "-lparray");
    for (int i = 0; i < mpi_libs.n; i++)
      arg(&a, mpi_libs.v[i]);
    if (cuda && omp)
      arg(&a, "-lgomp");
    arg(&a, "-lpthread");
    arg(&a, "-lm");
  }
  int rc = spawn(&a, cli->verbose);
  args_free(&a);
  args_free(&pre);
  args_free(&post);
  args_free(&mpi_libs);
  if (rc != 0) {
    fprintf(stderr, "parrayc: error: compiling '%s' failed\n", n == 1 ? units[0].source : out);
    return 1;
  }
  return 0;
}

/* A make rule: target, the input and every file it includes. */
static void put_path(FILE *f, const char *p)
{
  for (; *p; p++) {
    if (*p == ' ' || *p == '#')
      fputc('\\', f);
    else if (*p == '$')
      fputc('$', f);
    fputc(*p, f);
  }
}

static void put_rule(Cli *cli, Unit *u, const char *target, FILE *f)
{
  put_path(f, cli->dep_target ? cli->dep_target : target);
  fputc(':', f);
  for (int i = 0; i < u->ctx->ndeps; i++) {
    if (strcmp(u->ctx->deps[i], "<stdin>")) {
      fputs(" \\\n ", f);
      put_path(f, u->ctx->deps[i]);
    }
  }
  fputc('\n', f);
  if (cli->deps_phony)
    for (int i = 1; i < u->ctx->ndeps; i++) {
      fputc('\n', f);
      put_path(f, u->ctx->deps[i]);
      fputs(":\n", f);
    }
}

/* -M / -MD: the rule of unit u into -MF, standard output or OUT.d. */
static bool write_deps(Cli *cli, Unit *u, const char *target, bool first)
{
  const char *path = cli->dep_file;
  char *own = NULL;
  if (!path && cli->deps_only)
    path = "-";
  if (!path) {
    char *base = strip_ext(strcmp(target, "-") ? target : "stdin");
    path = own = concat(base, ".d");
    free(base);
  }
  FILE *f = !strcmp(path, "-") ? stdout : fopen(path, first || own ? "w" : "a");
  if (!f) {
    fprintf(stderr, "parrayc: error: cannot write '%s': %s\n", path, strerror(errno));
    free(own);
    return false;
  }
  put_rule(cli, u, target, f);
  bool ok = f == stdout ? fflush(f) == 0 : fclose(f) == 0;
  free(own);
  return ok;
}

static void print_backends(Ctx *ctx, bool cuda)
{
  printf("%s%s%s%s\n", cuda ? "cuda " : "", ctx->uses_mpi ? "mpi " : "", ctx->uses_omp ? "omp " : "",
         ctx->uses_pthd ? "pthd" : "");
}

static bool use_color(int color)
{
  if (color >= 0)
    return color;
  const char *term = getenv("TERM");
  return isatty(2) && term && strcmp(term, "dumb");
}

/* Reads, splices headers, parses and translates one input. */
static bool translate(Cli *cli, Unit *u)
{
  size_t len;
  char *src = file_read(u->input, &len);
  if (!src) {
    fprintf(stderr, "parrayc: error: cannot read '%s': %s\n", u->input, strerror(errno));
    return false;
  }
  bool from_stdin = !strcmp(u->input, "-");
  Options opt = {
    .input = u->input, .display = from_stdin ? "<stdin>" : u->input,
    .line_directives = cli->line_directives, .explain = cli->explain,
    .explain_format = cli->format, .defines = cli->defines, .ndefines = cli->ndefines,
    .access_line = cli->access_line,
    .error_limit = cli->error_limit, .no_warnings = cli->no_warnings, .werror = cli->werror,
    .color = use_color(cli->color),
    .include_dirs = (const char **)cli->incdirs.v, .ninclude_dirs = cli->incdirs.n,
  };
  u->ctx = ctx_new(&opt, src, len);
  free(src);
  if (include_headers(u->ctx) && parse_source(u->ctx))
    u->text = emit_program(u->ctx);
  int w = u->ctx->warnings;
  if (!u->text) {
    if (w)
      fprintf(stderr, "%d warning%s and ", w, w == 1 ? "" : "s");
    fprintf(stderr, "%d error%s generated; no output written.\n", u->ctx->errors, u->ctx->errors == 1 ? "" : "s");
    return false;
  }
  if (w)
    fprintf(stderr, "%d warning%s generated.\n", w, w == 1 ? "" : "s");
  u->cuda = program_uses_cuda(u->ctx, u->ctx->tree);
  return true;
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

static char *base_name(const char *path)
{
  const char *slash = strrchr(path, '/');
  return strip_ext(slash ? slash + 1 : path);
}

/* Where unit u's translation (and object) go; exe: the program built. */
static void name_outputs(Cli *cli, Unit *u, int n, const char *exe)
{
  const char *ext = u->cuda ? ".cu" : ".c";
  bool from_stdin = !strcmp(u->input, "-");
  char *b;
  switch (cli->mode) {
  case MODE_TRANSLATE:
    if (cli->output || from_stdin) {
      u->source = strdup(cli->output ? cli->output : "-");
      return;
    }
    b = strip_ext(u->input);
    break;
  case MODE_COMPILE:
    if (cli->output) {
      u->object = strdup(cli->output);
    } else {
      b = base_name(from_stdin ? "stdin" : u->input);
      u->object = concat(b, ".o");
      free(b);
    }
    b = strip_ext(u->object);
    break;
  default:
    if (n == 1) {
      b = strdup(exe);
    } else {
      char *name = base_name(from_stdin ? "stdin" : u->input), *dot = concat(exe, ".");
      b = concat(dot, name);
      free(dot);
      free(name);
    }
  }
  u->source = concat(b, ext);
  free(b);
}

/* `parrayc FILE.c`, `-o self.pa self.pa`: never write over an input. */
static bool overwrites_input(Cli *cli, const char *out)
{
  for (int i = 0; i < cli->inputs.n; i++)
    if (out && same_file(out, cli->inputs.v[i])) {
      fprintf(stderr, "parrayc: error: the output '%s' would overwrite the input '%s'\n", out, cli->inputs.v[i]);
      return true;
    }
  for (int i = 0; i < cli->link.n; i++)
    if (out && cli->link.v[i][0] != '-' && same_file(out, cli->link.v[i])) {
      fprintf(stderr, "parrayc: error: the output '%s' would overwrite the input '%s'\n", out, cli->link.v[i]);
      return true;
    }
  return false;
}

static int explain(Unit *u, const char *name)
{
  Dim *d = dim_resolve(u->ctx, name, (Loc){0, 0});
  return d && type_explain(u->ctx, d, stdout) ? 0 : 1;
}

/* Names, checks, dependency rules, translations, compiler runs. */
static int drive(Cli *cli, Unit *units, int n)
{
  if (cli->access_line && n)
    return explain_access(units[0].ctx, stdout) ? 0 : 1;
  if (cli->explain && n)
    return explain(&units[0], cli->explain);
  if (cli->print_backends) {
    for (int i = 0; i < n; i++)
      print_backends(units[i].ctx, units[i].cuda);
    return 0;
  }
  char *exe = NULL;
  if (cli->mode == MODE_BUILD || cli->mode == MODE_RUN)
    exe = cli->output ? strdup(cli->output) : !n || !strcmp(units[0].input, "-") ? strdup("a.out") : strip_ext(units[0].input);
  int rc = overwrites_input(cli, exe);
  for (int i = 0; i < n && !rc; i++) {
    name_outputs(cli, &units[i], n, exe);
    rc = overwrites_input(cli, units[i].source) || overwrites_input(cli, units[i].object);
  }
  for (int i = 0; i < n && !rc && (cli->deps || cli->deps_only); i++) {
    Unit *u = &units[i];
    if (!write_deps(cli, u, exe ? exe : u->object ? u->object : u->source, i == 0))
      rc = 1;
  }
  if (rc || cli->deps_only) {
    free(exe);
    return rc;
  }
  for (int i = 0; i < n && !rc; i++)
    if (!write_file(units[i].source, units[i].text))
      rc = 1;
  if (!rc && cli->mode == MODE_COMPILE)
    for (int i = 0; i < n && !rc; i++)
      rc = compile(cli, &units[i], 1, units[i].object);
  if (!rc && exe) {
    rc = compile(cli, units, n, exe);
    if (!rc && cli->mode == MODE_RUN)
      rc = run(units[0].ctx, cli, exe);
  }
  free(exe);
  return rc;
}

int main(int argc, char **argv)
{
  Cli cli = {0};
  int rc = parse_cli(argc, argv, &cli);
  int n = rc ? 0 : cli.inputs.n;
  Unit *units = calloc((size_t)n + 1, sizeof *units);
  for (int i = 0; i < n; i++) {
    units[i].input = cli.inputs.v[i];
    if (!translate(&cli, &units[i]))
      rc = 1;
  }
  if (!rc && (n || cli.link.n))
    rc = drive(&cli, units, n);
  for (int i = 0; i < n; i++) {
    free(units[i].text);
    free(units[i].source);
    free(units[i].object);
    ctx_free(units[i].ctx);
  }
  free(units);
  args_free(&cli.inputs);
  args_free(&cli.link);
  args_free(&cli.cflags);
  args_free(&cli.incdirs);
  free((char *)cli.access_file);
  return rc;
}
