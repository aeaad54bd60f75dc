/* driver.h: what the command line (main.c) hands the driver (driver.c),
 * which translates the inputs and runs the C compiler, nvcc, mpicc and the
 * program as gcc's driver would. */
#ifndef PARRAYC_DRIVER_H
#define PARRAYC_DRIVER_H

#include "parrayc.h"

#include <signal.h>
#include <stdbool.h>

typedef enum Mode { MODE_TRANSLATE, MODE_COMPILE, MODE_BUILD, MODE_RUN } Mode;

/* A NULL-terminated list of malloc'd words: a command, a list of flags. */
typedef struct Argv {
  char **v;
  int n, cap;
} Argv;
void driver_argv_add(Argv *a, const char *s); /* a copy of s */
void driver_argv_free(Argv *a);

typedef struct Cli {
  Mode mode;
  Argv inputs;       /* Parray programs ("-": standard input) */
  Argv link;         /* sources, objects, -l, -Wl: after the translations */
  Argv cflags;       /* -I -D -U -O -g -f -W: for the C compiler */
  Argv incdirs;      /* -I: also where Parray headers are searched */
  Argv nvflags;      /* -G -lineinfo --use_fast_math -Xptxas -maxrregcount -std=c++NN -gencode
                      * -ccbin --expt-* -Xcudafe -Xnvlink: nvcc's */
  Argv hostflags;    /* -Xcompiler LIST (comma-separated), -std=cNN: the host compiler's */
  bool force;        /* --force: write over a file parrayc did not write */
  bool thread_map;   /* --thread-map (with --explain-access) */
  const char *diag_format; /* -fdiagnostics-format: NULL or text, json, sarif-file... */
  const char *output;
  const char *explain;
  const char *arch;  /* --arch: nvcc's -arch */
  const char *format;  /* --format for --explain */
  Argv macros;       /* -DNAME[=VALUE] and -UNAME, in the command line's order */
  const char *access_file; /* --explain-access FILE:LINE */
  int access_line;
  bool line_directives;
  bool verbose;
  bool print_backends;
  bool deps_only;    /* -M */
  bool deps;         /* -MD */
  bool deps_phony;   /* -MP */
  bool deps_missing; /* -MG: a missing C header is a dependency (generated) */
  const char *dep_file;
  Argv dep_targets;  /* -MT T (as "TT") and -MQ T (as "QT", quoted for make), in order */
  Argv ccopts;       /* cc's: -m*, -pedantic[-errors], -pipe, -isystem/-iquote DIR, -include FILE */
  bool gencode;      /* -gencode given: no default -arch */
  int color;         /* -1: auto */
  int error_limit;   /* -ferror-limit=N */
  bool no_warnings;  /* -w */
  bool werror;       /* -Werror */
  WarnFlags warn;    /* -Wno-NAME, -Werror=NAME, -Wno-error=NAME */
  int nprocs;        /* --np for mpi programs, 0: from the program */
  const char *save_temps; /* -save-temps[=cwd|obj]: NULL, "cwd" or "obj" */
  char **run_args;
  int nrun_args;
  /* the driver's own, while it runs */
  char *tmpdir;      /* the private folder of the intermediate files */
  sigset_t unheld;   /* the signal mask parrayc was started with */
  int signal;        /* a signal that ended the run (0: none) */
  Argv defines;      /* the -D in effect after -D and -U (Options.defines) */
  DiagLog log;       /* parrayc's own messages, for -fdiagnostics-format=json/sarif */
  bool ran;          /* --run started the program (its status is not parrayc's) */
} Cli;

/* -fdiagnostics-format=json or sarif: a tool reads the messages. */
bool driver_for_tool(const Cli *cli);
/* parrayc's own message (not about a place in a program), KIND error,
 * warning or note: on stderr as "parrayc: KIND: ...", or for a tool into
 * cli->log. */
void driver_say(Cli *cli, const char *kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Writes the messages of a command line refused (for a tool, the
 * document); returns rc. */
int driver_refuse(Cli *cli, int rc);
/* Inputs the C compiler takes as they are when parrayc builds. */
bool driver_is_compiler_input(const char *path);
/* Translates every input, then writes, compiles, builds or runs as cli
 * says; returns the exit status. */
int driver_run(Cli *cli);

#endif
