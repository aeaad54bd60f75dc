/* main.c: the parrayc command line: options as gcc and nvcc spell them,
 * checked, into a Cli for the driver (driver.c). */
#include "driver.h"
#include "explain/explain.h"
#include "parray_config.h"

#include <errno.h>
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
        "Options take one dash or two (-MD, --build, -arch=sm_90 or --arch sm_90) and\n"
        "are matched whole: an unknown or abbreviated one is an error (-MM is -M).\n"
        "The modes exclude each other.\n"
        "\n"
        "modes:\n"
        "  (default)        write FILE.c (FILE.cu when the program uses CUDA; CUDA\n"
        "                   never goes to a .c file)\n"
        "  -c               also compile each translation to an object, FILE.o\n"
        "  --build          also compile and link the translations, with the .c, .cu,\n"
        "                   .o and .a inputs and -l libraries, against the runtime\n"
        "                   (cc, nvcc or mpicc)\n"
        "  --run            build, then run it with ARGS (mpi programs under mpirun);\n"
        "                   the exit status is the program's\n"
        "  --explain TYPE   print TYPE's dimension tree, extents and offset functions\n"
        "                   and a grid: each element's physical offset (or owner),\n"
        "                   each thread's block and thread (or rank)\n"
        "  --format=F       --explain's output: text (default), svg (a picture), html\n"
        "                   (a self-contained page; hover a cell for its index path)\n"
        "                   or tex (a standalone LaTeX document with a TikZ picture)\n"
        "  --explain-access FILE.pa:LINE\n"
        "                   for the $T[...]$ of dmem and smem on LINE of a cuda detour,\n"
        "                   one warp's offsets, its 32-byte sectors (dmem) or bank\n"
        "                   conflicts (smem); --format and -D apply.  A pointer or\n"
        "                   index that differs per thread in a way parrayc does not\n"
        "                   follow is reported as not predicted\n"
        "  --thread-map     with --explain-access: also draw which thread touches\n"
        "                   which element (cuda: block 0, or every block of a grid\n"
        "                   of at most 1024 threads; pthd and omp detours: always)\n"
        "  -M, -MM          print the make rule of the inputs' dependencies, nothing else\n"
        "  --print-backends print the back ends the program uses (cuda mpi omp pthd)\n"
        "\n"
        "options:\n"
        "  -o OUT           the output: the translation (- for standard output), the\n"
        "                   object with -c, or the executable with --build/--run.  A\n"
        "                   file is written whole, then renamed into place; a device,\n"
        "                   a FIFO or a symlink is written through.  Without -o:\n"
        "                   FILE.c next to FILE.pa; FILE.o and (--build) FILE in the\n"
        "                   current directory; --run's program is removed after the\n"
        "                   run (an mpi program's stays in the current directory)\n"
        "  -save-temps[=cwd|obj]\n"
        "                   keep the translations of -c, --build and --run (else\n"
        "                   written to a private temporary folder, then removed) as\n"
        "                   OUT.c or OUT.cu in the current directory (cwd) or next\n"
        "                   to OUT (obj)\n"
        "  -I DIR           search DIR for #include \"NAME.pah\"; passed to the compiler\n"
        "  -D NAME[=V], -U NAME, -O[N], -g, -fFLAG, -WFLAG\n"
        "                   passed to the C compiler (-c, --build, --run); -D and -U\n"
        "                   also give parrayc its macros, in order (-DX -UX: X is not\n"
        "                   defined; no limit on their number; the program's own\n"
        "                   #define is read too): sizes, --explain, the #if branches\n"
        "                   that declare types\n"
        "  -l LIB, -L DIR   libraries, after the translation (--build, --run), in the\n"
        "                   command line's order among the objects and other inputs\n"
        "  -m..., -pedantic, -pedantic-errors, -pipe, -isystem DIR, -iquote DIR,\n"
        "  -include FILE    cc's: passed to cc, or to nvcc (-isystem, -include, -m64)\n"
        "                   or its host compiler (-Xcompiler); -iquote DIR is also\n"
        "                   searched for Parray headers\n"
        "  -G, -lineinfo, --use_fast_math, -Xptxas OPTS, -maxrregcount N,\n"
        "  -gencode arch=A,code=C (repeatable), -ccbin DIR (--compiler-bindir),\n"
        "  --expt-relaxed-constexpr, --expt-extended-lambda, -Xcudafe OPTS,\n"
        "  -Xnvlink OPTS    nvcc's: passed to nvcc (a program cc compiles: left out,\n"
        "                   with a warning)\n"
        "  -Xcompiler FLAGS the host compiler's (comma-separated): to cc, or to nvcc\n"
        "                   as -Xcompiler\n"
        "  -std=STD         a C standard to cc, a C++ one (c++17) to nvcc\n"
        "  -pthread         passed to the C compiler\n"
        "  --arch=sm_XX, -arch sm_XX, --gpu-architecture sm_XX\n"
        "                   the GPU architecture for nvcc (default sm_" PARRAY_CUDA_ARCH ", none\n"
        "                   where -gencode is given)\n"
        "  -MD              also write the dependencies to OUT.d (or -MF FILE)\n"
        "  -MF FILE         where -M/-MD write the rule (- for standard output)\n"
        "  -MT TARGET       a target of the rule, as it is (default: the output file);\n"
        "                   repeated, all of them\n"
        "  -MQ TARGET       the same, quoted for make ($ as $$, blanks escaped)\n"
        "  -MG              a C header that is not found is a dependency all the same\n"
        "                   (a file the build generates)\n"
        "  -MP              a phony target for every header\n"
        "  --no-line        no #line directives in the output\n"
        "  --force          replace an existing file parrayc did not write (without it,\n"
        "                   a translation never replaces a hand-written FILE.c)\n"
        "  --np N           processes for an mpi program run (default: its mpi array)\n"
        "  -w               no warnings (parrayc's and the C compiler's)\n"
        "  -Wall            accepted (warnings are on by default)\n"
        "  -Werror          warnings are errors (-Wno-error: not)\n"
        "  -WNAME, -Wno-NAME, -Werror=NAME, -Wno-error=NAME\n"
        "                   one kind of warning on, off, an error, not an error; the\n"
        "                   kinds (named in each warning, [-WNAME]): size-reference,\n"
        "                   thread-extent, reshape,\n"
        "                   unused-command-line-argument; other -W options are the\n"
        "                   C compiler's\n"
        "  -ferror-limit=N  stop after N errors (default 20; 0: no limit)\n"
        "  -fdiagnostics-format=F\n"
        "                   text (default), json (gcc's JSON on stderr), json-file\n"
        "                   (NAME.gcc.json), sarif-stderr, sarif-file (NAME.sarif, SARIF\n"
        "                   2.1.0); every message is in it, parrayc's own and the\n"
        "                   C compiler's included\n"
        "  -fdiagnostics-color[=auto|always|never], -fno-diagnostics-color,\n"
        "  -f[no-]color-diagnostics\n"
        "                   colours in messages (default auto: on a terminal, unless\n"
        "                   NO_COLOR is set); always or never also to the C compiler\n"
        "  @FILE, --options-file FILE[,FILE...] (-optf)\n"
        "                   more options and inputs, read from FILE as gcc and nvcc\n"
        "                   do (blanks separate words; quotes and backslashes as in\n"
        "                   the shell; an @FILE in it is read too)\n"
        "  -v, --verbose    print the compiler and run commands\n"
        "  -h, --help       this text\n"
        "  --version        the version and the back ends of this build\n"
        "\n"
        "environment:\n"
        "  CC, NVCC, MPICC  compilers for -c/--build (default cc, nvcc, mpicc)\n"
        "  PARRAY_CFLAGS    extra compiler flags (default -O2, none where the command\n"
        "                   line gives -O), quoted as in the shell;\n"
        "                   -l words go after the translation\n"
        "  PARRAY_MPI_CFLAGS, PARRAY_MPI_LIBS\n"
        "                   the MPI flags nvcc gets for an mpi x cuda program\n"
        "                   (default: from MPICC --showme:compile and --showme:link)\n"
        "  MPIRUN           the launcher of --run for mpi programs (default mpirun;\n"
        "                   it gets --oversubscribe -np N)\n"
        "  PARRAY_LAUNCH    a launcher with its options for --run (\"srun -n 8\"):\n"
        "                   the program follows it, nothing is added\n"
        "  NO_COLOR         set and not empty: no colours unless asked for\n"
        "  TMPDIR           where -c, --build and --run make their private folder\n"
        "  PARRAY_HOME      where include/ and lib/ of the runtime are, when they are\n"
        "                   not next to parrayc (PREFIX/bin/../include, ../lib)\n",
        f);
}

static void version(void)
{
  printf("parrayc %s\nback ends: c pthd%s%s%s\n", PARRAY_VERSION, PARRAY_HAVE_OPENMP ? " omp" : "",
         PARRAY_HAVE_CUDA_LIB ? " cuda (sm_" PARRAY_CUDA_ARCH ")" : "", PARRAY_HAVE_MPI_LIB ? " mpi" : "");
}

/* A usage error (for a tool, into the diagnostics document); returns 1,
 * the exit status. */
static int cli_error(Cli *cli, const char *fmt, const char *a, const char *b)
{
  char msg[PATH_MAX + 512];
  snprintf(msg, sizeof msg, fmt, a, b);
  driver_say(cli, "error", "%s", msg);
  return 1;
}

enum {
  OPT_BUILD = 256, OPT_RUN, OPT_COMPILE, OPT_EXPLAIN, OPT_NO_LINE, OPT_NP, OPT_VERSION, OPT_HELP,
  OPT_VERBOSE, OPT_ARCH, OPT_M, OPT_MD, OPT_MF, OPT_MT, OPT_MP, OPT_WALL, OPT_WERROR, OPT_NOWARN,
  OPT_COLOR, OPT_ERROR_LIMIT, OPT_DIAG_FORMAT, OPT_PRINT_BACKENDS, OPT_FORMAT, OPT_EXPLAIN_ACCESS,
  OPT_FORCE, OPT_THREAD_MAP, OPT_NVCC, OPT_XCOMPILER, OPT_XPTXAS, OPT_MAXRREG, OPT_STD, OPT_PTHREAD,
  OPT_SAVE_TEMPS, OPT_COLOR_ALWAYS, OPT_COLOR_NEVER, OPT_MQ, OPT_MG, OPT_CC, OPT_CC_VALUE, OPT_GENCODE,
  OPT_CCBIN, OPT_XNVCC,
};

/* How an option takes its value: none; VALUE (--name V, --name=V); EQ
 * (--name=V only); OPTEQ (--name or --name=V). */
enum { NONE, VALUE, EQ, OPTEQ };

/* The named options, matched whole (no abbreviations), with one dash or
 * two.  A word that is none of these and starts with -o -I -D -U -l -L -O
 * -g -f -W is gcc's short option with its value attached (-lm, -O2). */
static const struct Opt {
  const char *name;
  int code, arg;
} options[] = {
  {"build", OPT_BUILD, NONE}, {"run", OPT_RUN, NONE}, {"c", OPT_COMPILE, NONE},
  {"explain", OPT_EXPLAIN, VALUE}, {"explain-access", OPT_EXPLAIN_ACCESS, VALUE},
  {"format", OPT_FORMAT, VALUE}, {"print-backends", OPT_PRINT_BACKENDS, NONE},
  {"thread-map", OPT_THREAD_MAP, NONE}, {"no-line", OPT_NO_LINE, NONE},
  {"save-temps", OPT_SAVE_TEMPS, OPTEQ}, {"np", OPT_NP, VALUE}, {"force", OPT_FORCE, NONE},
  {"v", OPT_VERBOSE, NONE}, {"verbose", OPT_VERBOSE, NONE},
  {"h", OPT_HELP, NONE}, {"help", OPT_HELP, NONE}, {"version", OPT_VERSION, NONE},
  {"arch", OPT_ARCH, VALUE},
  /* -MM is -M and -MMD is -MD: parrayc's rules never list system headers */
  {"M", OPT_M, NONE}, {"MM", OPT_M, NONE}, {"MD", OPT_MD, NONE}, {"MMD", OPT_MD, NONE},
  {"MF", OPT_MF, VALUE}, {"MT", OPT_MT, VALUE}, {"MP", OPT_MP, NONE},
  {"w", OPT_NOWARN, NONE}, {"Wall", OPT_WALL, NONE}, {"Werror", OPT_WERROR, NONE},
  {"fdiagnostics-color", OPT_COLOR, OPTEQ}, {"ferror-limit", OPT_ERROR_LIMIT, EQ},
  {"fdiagnostics-format", OPT_DIAG_FORMAT, EQ},
  /* nvcc's options, for CUDA programs */
  {"fno-diagnostics-color", OPT_COLOR_NEVER, NONE}, /* gcc's; clang's: */
  {"fcolor-diagnostics", OPT_COLOR_ALWAYS, NONE}, {"fno-color-diagnostics", OPT_COLOR_NEVER, NONE},
  {"MQ", OPT_MQ, VALUE}, {"MG", OPT_MG, NONE},
  /* cc's own (nvcc's host compiler's) */
  {"pedantic", OPT_CC, NONE}, {"pedantic-errors", OPT_CC, NONE}, {"pipe", OPT_CC, NONE},
  {"isystem", OPT_CC_VALUE, VALUE}, {"iquote", OPT_CC_VALUE, VALUE}, {"include", OPT_CC_VALUE, VALUE},
  {"G", OPT_NVCC, NONE}, {"lineinfo", OPT_NVCC, NONE}, {"use_fast_math", OPT_NVCC, NONE},
  {"expt-relaxed-constexpr", OPT_NVCC, NONE}, {"expt-extended-lambda", OPT_NVCC, NONE},
  {"gencode", OPT_GENCODE, VALUE}, {"gpu-architecture", OPT_ARCH, VALUE},
  {"ccbin", OPT_CCBIN, VALUE}, {"compiler-bindir", OPT_CCBIN, VALUE},
  {"Xcudafe", OPT_XNVCC, VALUE}, {"Xnvlink", OPT_XNVCC, VALUE},
  {"Xptxas", OPT_XPTXAS, VALUE}, {"maxrregcount", OPT_MAXRREG, VALUE},
  /* the host compiler's: cc's own, or nvcc's -Xcompiler */
  {"Xcompiler", OPT_XCOMPILER, VALUE}, {"std", OPT_STD, EQ}, {"pthread", OPT_PTHREAD, NONE},
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

static bool diag_format_known(const char *v)
{
  static const char *const formats[] = {"text", "json", "json-stderr", "json-file", "sarif-stderr", "sarif-file", NULL};
  for (int i = 0; formats[i]; i++)
    if (!strcmp(v, formats[i]))
      return true;
  return false;
}

/* -c, --build, --run and the modes that only look (--explain,
 * --explain-access, --print-backends, -M) exclude each other. */
static int set_mode(Cli *cli, const char **seen, const char *spelled)
{
  if (*seen && strcmp(*seen, spelled))
    return cli_error(cli, "'%s' and '%s' cannot be used together (one of -c, --build, --run, --explain, "
                     "--explain-access, --print-backends, -M)", *seen, spelled);
  *seen = spelled;
  return 0;
}

/* -WNAME, -Wno-NAME, -Werror=NAME, -Wno-error=NAME and -Wno-error for
 * the warnings parrayc gives (parrayc --help names them): parrayc's own,
 * not passed on.  Other -W options are the C compiler's. */
static bool own_warning(Cli *cli, const char *v)
{
  if (!strcmp(v, "no-error")) {
    cli->werror = false;
    return true;
  }
  bool no = !strncmp(v, "no-", 3);
  const char *name = v + (no ? 3 : 0);
  bool error = !strncmp(name, "error=", 6);
  int w = diag_warn_find(name + (error ? 6 : 0));
  if (w < 0)
    return false;
  unsigned bit = 1u << w;
  if (error) { /* -Werror=NAME also turns the warning on; -Wno-error=NAME does not */
    cli->warn.error = no ? cli->warn.error & ~bit : cli->warn.error | bit;
    cli->warn.noerror = no ? cli->warn.noerror | bit : cli->warn.noerror & ~bit;
    if (!no)
      cli->warn.off &= ~bit;
  } else {
    cli->warn.off = no ? cli->warn.off | bit : cli->warn.off & ~bit;
  }
  return true;
}

/* One option; returns non-zero (the exit status) on a bad one. */
static int take_option(Cli *cli, int c, const char *v, const char *spelled, const char **mode)
{
  char buf[PATH_MAX + 16];
  const char *name = spelled + 1 + (spelled[1] == '-'); /* without its dashes */
  switch (c) {
  case OPT_HELP: usage(stdout); exit(0);
  case OPT_VERSION: version(); exit(0);
  case OPT_BUILD: cli->mode = MODE_BUILD; return set_mode(cli, mode, "--build");
  case OPT_RUN: cli->mode = MODE_RUN; return set_mode(cli, mode, "--run");
  case OPT_COMPILE: cli->mode = MODE_COMPILE; return set_mode(cli, mode, "-c");
  case OPT_EXPLAIN: cli->explain = v; return set_mode(cli, mode, "--explain");
  case OPT_M: cli->deps_only = true; return set_mode(cli, mode, "-M");
  case OPT_PRINT_BACKENDS: cli->print_backends = true; return set_mode(cli, mode, "--print-backends");
  case OPT_NO_LINE: cli->line_directives = false; break;
  case OPT_VERBOSE: cli->verbose = true; break;
  case OPT_FORCE: cli->force = true; break;
  case OPT_THREAD_MAP: cli->thread_map = true; break;
  case 'o': cli->output = v; break;
  case OPT_ARCH: cli->arch = v; break;
  case OPT_MD: cli->deps = true; break;
  case OPT_MF: cli->dep_file = v; break;
  case OPT_MT: case OPT_MQ: /* every target, in order; -MQ's quoted for make */
    snprintf(buf, sizeof buf, "%c%s", c == OPT_MT ? 'T' : 'Q', v);
    driver_argv_add(&cli->dep_targets, buf);
    break;
  case OPT_MG: cli->deps_missing = true; break;
  case OPT_COLOR_ALWAYS: cli->color = 1; break;
  case OPT_COLOR_NEVER: cli->color = 0; break;
  case OPT_CC: /* -pedantic, -pedantic-errors, -pipe, -m...: as spelled, with one dash */
    driver_argv_add(&cli->ccopts, spelled + (spelled[1] == '-'));
    break;
  case OPT_CC_VALUE: /* -isystem DIR, -iquote DIR, -include FILE */
    snprintf(buf, sizeof buf, "-%.*s", (int)strcspn(name, "="), name);
    driver_argv_add(&cli->ccopts, buf);
    driver_argv_add(&cli->ccopts, v);
    if (!strcmp(buf, "-iquote"))
      driver_argv_add(&cli->incdirs, v); /* #include "x.pah" is searched there too */
    break;
  case OPT_GENCODE: /* nvcc's, repeatable: -gencode arch=compute_90,code=sm_90 */
    snprintf(buf, sizeof buf, "-gencode=%s", v);
    driver_argv_add(&cli->nvflags, buf);
    cli->gencode = true;
    break;
  case OPT_CCBIN:
    snprintf(buf, sizeof buf, "-ccbin=%s", v);
    driver_argv_add(&cli->nvflags, buf);
    break;
  case OPT_XNVCC: /* -Xcudafe OPTS, -Xnvlink OPTS */
    snprintf(buf, sizeof buf, "-%.*s=%s", (int)strcspn(name, "="), name, v);
    driver_argv_add(&cli->nvflags, buf);
    break;
  case OPT_MP: cli->deps_phony = true; break;
  case OPT_NOWARN: /* as gcc's: the C compiler's warnings too */
    cli->no_warnings = true;
    driver_argv_add(&cli->cflags, "-w");
    break;
  case OPT_WALL: break;
  case OPT_WERROR: cli->werror = true; break;
  case OPT_FORMAT:
    cli->format = v;
    if (explain_format(v) == FMT_BAD)
      return cli_error(cli, "'--format=%s': the format is text, svg, html or tex%s", v, "");
    break;
  case OPT_DIAG_FORMAT:
    if (!diag_format_known(v))
      return cli_error(cli, "'-fdiagnostics-format=%s': expected text, json, json-stderr, json-file, sarif-stderr "
                       "or sarif-file%s", v, "");
    cli->diag_format = v;
    break;
  case OPT_EXPLAIN_ACCESS: {
    if (set_mode(cli, mode, "--explain-access"))
      return 1;
    char *file = strdup(v), *colon = strrchr(file, ':');
    if (!colon || (cli->access_line = atoi(colon + 1)) <= 0) {
      free(file);
      return cli_error(cli, "'--explain-access %s': expected FILE.pa:LINE%s", v, "");
    }
    *colon = 0;
    free((char *)cli->access_file);
    cli->access_file = file;
    break;
  }
  case OPT_SAVE_TEMPS:
    if (v && strcmp(v, "cwd") && strcmp(v, "obj"))
      return cli_error(cli, "'-save-temps=%s': expected cwd or obj%s", v, "");
    cli->save_temps = v ? v : "cwd";
    break;
  case OPT_NP:
    if (!parse_count(v, &cli->nprocs) || cli->nprocs == 0)
      return cli_error(cli, "'--np %s': expected a positive number%s", v, "");
    break;
  case OPT_ERROR_LIMIT:
    if (!parse_count(v, &cli->error_limit))
      return cli_error(cli, "'-ferror-limit=%s': expected a number >= 0%s", v, "");
    break;
  case OPT_COLOR:
    if (!v || !strcmp(v, "always"))
      cli->color = 1;
    else if (!strcmp(v, "never"))
      cli->color = 0;
    else if (!strcmp(v, "auto"))
      cli->color = -1;
    else
      return cli_error(cli, "'-fdiagnostics-color=%s': expected auto, always or never%s", v, "");
    break;
  case OPT_NVCC: { /* -G, -lineinfo, --use_fast_math, --expt-..., as nvcc spells them */
    snprintf(buf, sizeof buf, "%s%s", strcmp(name, "G") && strcmp(name, "lineinfo") ? "--" : "-", name);
    driver_argv_add(&cli->nvflags, buf);
    break;
  }
  case OPT_XPTXAS:
    snprintf(buf, sizeof buf, "-Xptxas=%s", v);
    driver_argv_add(&cli->nvflags, buf);
    break;
  case OPT_MAXRREG: {
    int n;
    if (!parse_count(v, &n) || n == 0)
      return cli_error(cli, "'-maxrregcount %s': expected a positive number%s", v, "");
    snprintf(buf, sizeof buf, "-maxrregcount=%d", n);
    driver_argv_add(&cli->nvflags, buf);
    break;
  }
  case OPT_XCOMPILER: /* nvcc's: a comma-separated list of host compiler flags */
    driver_argv_add(&cli->hostflags, v);
    break;
  case OPT_STD:
    snprintf(buf, sizeof buf, "-std=%s", v);
    /* a C++ standard is for nvcc (the .cu translation), a C one for cc */
    driver_argv_add(strstr(v, "++") ? &cli->nvflags : &cli->hostflags, buf);
    break;
  case OPT_PTHREAD:
    driver_argv_add(&cli->cflags, "-pthread");
    break;
  case 'I':
    driver_argv_add(&cli->incdirs, v);
    /* fall through */
  case 'D': case 'U': case 'O': case 'g': case 'f': case 'W':
    if (c == 'W' && own_warning(cli, v))
      break;
    snprintf(buf, sizeof buf, "-%c%s", c, v ? v : "");
    if ((c == 'D' || c == 'U') && (!util_is_ident_start((unsigned char)*v) || (c == 'U' && strchr(v, '='))))
      return cli_error(cli, "'%s': expected NAME or NAME=VALUE after -D, NAME after -U%s", buf, "");
    if (c == 'D' || c == 'U') /* parrayc's macros too, in order (-DX -UX: X undefined) */
      driver_argv_add(&cli->macros, buf);
    if (c == 'W' && !strncmp(v, "l,", 2))
      driver_argv_add(&cli->link, buf); /* -Wl,...: a linker option, in its place among the inputs */
    else
      driver_argv_add(&cli->cflags, buf);
    break;
  case 'l': case 'L':
    snprintf(buf, sizeof buf, "-%c%s", c, v);
    driver_argv_add(&cli->link, buf);
    break;
  }
  return 0;
}

/* The value of the option at argv[*i] spelled `word` (its name `name`,
 * `eq` what follows '=' or NULL): from eq or the next word. */
static const char *value_of(Cli *cli, int argc, char **argv, int *i, const struct Opt *o, const char *eq, int *rc)
{
  *rc = 0;
  switch (o->arg) {
  case NONE:
    if (eq)
      *rc = cli_error(cli, "'%s' takes no value (see parrayc --help)%s", argv[*i], "");
    return NULL;
  case EQ:
    if (!eq || !*eq) {
      char *word = strdup(argv[*i]), *at = strchr(word, '=');
      if (at)
        *at = 0;
      *rc = cli_error(cli, "'%s' needs a value: %s=VALUE (see parrayc --help)", argv[*i], word);
      free(word);
    }
    return eq;
  case OPTEQ:
    return eq;
  default:
    if (eq)
      return eq;
    if (*i + 1 >= argc) {
      *rc = cli_error(cli, "'%s' needs an argument (see parrayc --help)%s", argv[*i], "");
      return NULL;
    }
    return argv[++*i];
  }
}

/* gcc's -isystemDIR, -iquoteDIR, -includeFILE: the value, or NULL. */
static const char *cc_value_attached(const char *a)
{
  static const char *const names[] = {"-isystem", "-iquote", "-include"};
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(names[i]);
    if (!strncmp(a, names[i], n) && a[n] && a[n] != '=')
      return a + n;
  }
  return NULL;
}

/* gcc's spelling: named options take one dash or two and are matched whole
 * (-MM is not -MMD, -lineinfo is not -l ineinfo); gcc's short options take
 * their value attached or as the next word; a lone `--` ends the options,
 * and what follows is the program's arguments.  Inputs, objects, -l, -L
 * and -Wl, keep their order (the linker's order). */
static int parse_cli(int argc, char **argv, Cli *cli)
{
  cli->line_directives = true;
  cli->error_limit = 20;
  cli->color = -1;
  const char *mode = NULL;
  Argv operands = {0}; /* inputs and link words, in order; link words marked by a leading \1 */
  int rc = 0;
  for (int i = 1; i < argc && !rc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      cli->run_args = argv + i + 1;
      cli->nrun_args = argc - i - 1;
      break;
    }
    if (a[0] != '-' || !a[1]) {
      driver_argv_add(&operands, a);
      continue;
    }
    const char *body = a + 1 + (a[1] == '-');
    const char *eq = strchr(body, '=');
    size_t len = eq ? (size_t)(eq - body) : strlen(body);
    const struct Opt *o = NULL;
    for (size_t k = 0; k < sizeof options / sizeof *options; k++)
      if (strlen(options[k].name) == len && !strncmp(options[k].name, body, len)) {
        o = &options[k];
        break;
      }
    if (o && o->code == OPT_WERROR && eq)
      o = NULL; /* -Werror=NAME: a -W option */
    if (o) {
      const char *v = value_of(cli, argc, argv, &i, o, eq ? eq + 1 : NULL, &rc);
      if (!rc)
        rc = take_option(cli, o->code, v, a, &mode);
      continue;
    }
    if (a[1] == 'm' && a[2]) { /* -march=native, -mavx2, -m64: cc's machine options */
      rc = take_option(cli, OPT_CC, NULL, a, &mode);
      continue;
    }
    const char *attached = cc_value_attached(a);
    if (attached) { /* -isystemDIR, -iquoteDIR, -includeFILE */
      char spelled[16];
      snprintf(spelled, sizeof spelled, "%.*s", (int)(attached - a), a);
      rc = take_option(cli, OPT_CC_VALUE, attached, spelled, &mode);
      continue;
    }
    char c = a[1];
    if (a[1] == '-' || !strchr("oIDULlOgfW", c)) {
      rc = cli_error(cli, "unrecognized command-line option '%s' (see parrayc --help)%s", a, "");
      break;
    }
    const char *v = a[2] ? a + 2 : NULL;
    if (!v && strchr("oIDULl", c)) {
      if (i + 1 >= argc) {
        rc = cli_error(cli, "'%s' needs an argument (see parrayc --help)%s", a, "");
        break;
      }
      v = argv[++i];
    }
    if (!v && (c == 'f' || c == 'W')) {
      rc = cli_error(cli, "unrecognized command-line option '%s' (see parrayc --help)%s", a, "");
      break;
    }
    if (c == 'l' || c == 'L' || (c == 'W' && !strncmp(v, "l,", 2))) {
      char buf[PATH_MAX + 8];
      snprintf(buf, sizeof buf, "\1-%c%s", c, v);
      driver_argv_add(&operands, buf);
      continue;
    }
    rc = take_option(cli, c, v, a, &mode);
  }
  for (int i = 0; i < operands.n && !rc; i++) {
    const char *a = operands.v[i];
    if (a[0] == '\1')
      driver_argv_add(&cli->link, a + 1);
    else if (cli->mode != MODE_TRANSLATE && driver_is_compiler_input(a))
      driver_argv_add(&cli->link, a);
    else
      driver_argv_add(&cli->inputs, a);
  }
  driver_argv_free(&operands);
  if (rc)
    return rc;
  if (cli->thread_map && !cli->access_file)
    return cli_error(cli, "'--thread-map' draws the threads of --explain-access: give --explain-access FILE.pa:LINE%s%s",
                     "", "");
  if (cli->access_file) {
    /* the file of --explain-access is the input */
    if (cli->inputs.n > 1 || (cli->inputs.n == 1 && strcmp(cli->inputs.v[0], cli->access_file)))
      return cli_error(cli, "'--explain-access' names '%s'; no other input file is taken%s", cli->access_file, "");
    if (!cli->inputs.n)
      driver_argv_add(&cli->inputs, cli->access_file);
  }
  if (!cli->inputs.n && !(cli->mode == MODE_BUILD && cli->link.n))
    return cli_error(cli, "no Parray input file (see parrayc --help)%s%s", "", "");
  if (cli->output && cli->inputs.n > 1 && (cli->mode == MODE_TRANSLATE || cli->mode == MODE_COMPILE))
    return cli_error(cli, "cannot specify '-o %s' with several input files%s", cli->output, "");
  if (cli->output && !strcmp(cli->output, "-") && cli->mode != MODE_TRANSLATE)
    return cli_error(cli, "'-o -' writes the translation only: not with -c, --build or --run%s%s", "", "");
  return 0;
}

/* The diagnostics' format, before anything else: an error in any option
 * (or in reading an @FILE) goes into it. */
static void find_diag_format(Cli *cli, int argc, char **argv)
{
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
    if (argv[i][0] != '-')
      continue;
    const char *v = argv[i] + 1 + (argv[i][1] == '-');
    if (!strncmp(v, "fdiagnostics-format=", 20) && diag_format_known(v + 20))
      cli->diag_format = v + 20;
  }
}

/* The words of a response file as gcc (libiberty's buildargv) reads them:
 * blanks separate them, '...' and "..." quote, a backslash takes the
 * next character as it is (in quotes too); "" is an empty word. */
static bool file_words(const char *path, Argv *out)
{
  size_t len;
  char *text = util_file_read(path, &len);
  if (!text)
    return false;
  char *word = malloc(len + 1);
  size_t n = 0;
  bool in_word = false, bs = false;
  char quote = 0;
  for (const char *p = text;; p++) {
    if (!*p || (!bs && !quote && strchr(" \t\r\n\v\f", *p))) {
      if (in_word) {
        word[n] = 0;
        driver_argv_add(out, word);
      }
      if (!*p)
        break;
      in_word = false;
      n = 0;
      continue;
    }
    in_word = true;
    if (bs)
      word[n++] = *p, bs = false;
    else if (*p == '\\')
      bs = true;
    else if (quote && *p == quote)
      quote = 0;
    else if (!quote && (*p == '\'' || *p == '"'))
      quote = *p;
    else
      word[n++] = *p;
  }
  free(word);
  free(text);
  return true;
}

/* gcc's and clang's @FILE (an @FILE that cannot be read stays a word, as
 * gcc leaves it) and nvcc's --options-file F,... (-optf): their words in
 * their place, themselves expanded; what follows -- is left as it is. */
static int expand_args(Cli *cli, char **words, int n, Argv *out, int depth)
{
  if (depth > 16)
    return cli_error(cli, "response files nested more than 16 deep (one includes itself?)%s%s", "", "");
  for (int i = 0; i < n; i++) {
    const char *w = words[i], *body = w + 1 + (w[0] == '-' && w[1] == '-');
    if (!strcmp(w, "--")) {
      for (; i < n; i++)
        driver_argv_add(out, words[i]);
      break;
    }
    Argv got = {0};
    int rc = 0;
    if (w[0] == '@' && w[1] && file_words(w + 1, &got)) {
      rc = expand_args(cli, got.v, got.n, out, depth + 1);
    } else if (w[0] == '-' && (!strcmp(body, "options-file") || !strcmp(body, "optf") ||
                               !strncmp(body, "options-file=", 13) || !strncmp(body, "optf=", 5))) {
      const char *list = strchr(body, '=') ? strchr(body, '=') + 1 : i + 1 < n ? words[++i] : NULL;
      if (!list) {
        driver_argv_free(&got);
        return cli_error(cli, "'%s' needs an argument (see parrayc --help)%s", w, "");
      }
      char *copy = strdup(list), *save = NULL;
      for (char *f = strtok_r(copy, ",", &save); f && !rc; f = strtok_r(NULL, ",", &save))
        rc = file_words(f, &got) ? 0 : cli_error(cli, "cannot read the options file '%s': %s", f, strerror(errno));
      free(copy);
      if (!rc)
        rc = expand_args(cli, got.v, got.n, out, depth + 1);
    } else {
      driver_argv_add(out, w);
    }
    driver_argv_free(&got);
    if (rc)
      return rc;
  }
  return 0;
}

int main(int argc, char **argv)
{
  Cli cli = {0};
  Argv args = {0};
  find_diag_format(&cli, argc, argv);
  driver_argv_add(&args, argv[0]);
  int rc = expand_args(&cli, argv + 1, argc - 1, &args, 0);
  if (!rc) {
    find_diag_format(&cli, args.n, args.v);
    rc = parse_cli(args.n, args.v, &cli);
  }
  rc = rc ? driver_refuse(&cli, rc) : driver_run(&cli);
  driver_argv_free(&cli.inputs);
  driver_argv_free(&cli.link);
  driver_argv_free(&cli.cflags);
  driver_argv_free(&cli.incdirs);
  driver_argv_free(&cli.nvflags);
  driver_argv_free(&cli.hostflags);
  driver_argv_free(&cli.macros);
  driver_argv_free(&cli.dep_targets);
  driver_argv_free(&cli.ccopts);
  driver_argv_free(&args);
  free((char *)cli.access_file);
  return rc;
}
