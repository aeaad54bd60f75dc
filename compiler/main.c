/* main.c: the parrayc command line: options as gcc and nvcc spell them,
 * checked, into a Cli for the driver (driver.c). */
#include "driver.h"
#include "explain/explain.h"
#include "parray_config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    driver_argv_add(&cli->incdirs, v);
    /* fall through */
  case 'D': case 'U': case 'O': case 'g': case 'f': case 'W':
    if (c == 'D') {
      if (!util_is_ident_start((unsigned char)*v) || cli->ndefines == 64)
        return cli_error("'-D%s': expected NAME or NAME=VALUE (at most 64)%s", v, "");
      cli->defines[cli->ndefines++] = v;
    }
    snprintf(buf, sizeof buf, "-%c%s", c, v ? v : "");
    if (c == 'W' && !strncmp(v, "l,", 2))
      driver_argv_add(&cli->link, buf); /* -Wl,...: a linker option */
    else
      driver_argv_add(&cli->cflags, buf);
    break;
  case 'l': case 'L':
    snprintf(buf, sizeof buf, "-%c%s", c, v);
    driver_argv_add(&cli->link, buf);
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
    if (cli->mode != MODE_TRANSLATE && driver_is_compiler_input(a))
      driver_argv_add(&cli->link, a);
    else
      driver_argv_add(&cli->inputs, a);
  }
  if (cli->access_file) {
    /* the file of --explain-access is the input */
    if (cli->inputs.n > 1 || (cli->inputs.n == 1 && strcmp(cli->inputs.v[0], cli->access_file)))
      return cli_error("'--explain-access' names '%s'; no other input file is taken%s", cli->access_file, "");
    if (!cli->inputs.n)
      driver_argv_add(&cli->inputs, cli->access_file);
  }
  if (!cli->inputs.n && !(cli->mode == MODE_BUILD && cli->link.n))
    return cli_error("no Parray input file (see parrayc --help)%s%s", "", "");
  if (cli->output && cli->inputs.n > 1 && (cli->mode == MODE_TRANSLATE || cli->mode == MODE_COMPILE))
    return cli_error("cannot specify '-o %s' with several input files%s", cli->output, "");
  if (cli->output && !strcmp(cli->output, "-") && cli->mode != MODE_TRANSLATE)
    return cli_error("'-o -' writes the translation only: not with -c, --build or --run%s%s", "", "");
  return 0;
}

int main(int argc, char **argv)
{
  Cli cli = {0};
  int rc = parse_cli(argc, argv, &cli);
  if (!rc)
    rc = driver_run(&cli);
  driver_argv_free(&cli.inputs);
  driver_argv_free(&cli.link);
  driver_argv_free(&cli.cflags);
  driver_argv_free(&cli.incdirs);
  free((char *)cli.access_file);
  return rc;
}
