/* driver.c: the compiler driver: translates each input (front end,
 * model, walk), writes the translations and dependency rules, and runs the
 * C compiler, nvcc or mpicc and the program built, in the manner of gcc. */
#include "driver.h"
#include "emit/emit.h"
#include "targets/all.h"
#include "explain/explain.h"
#include "parray_config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>


void driver_argv_add(Argv *a, const char *s)
{
  if (a->n + 2 > a->cap) {
    a->cap = a->cap ? a->cap * 2 : 32;
    a->v = realloc(a->v, sizeof(char *) * a->cap);
  }
  a->v[a->n++] = strdup(s);
  a->v[a->n] = NULL;
}

void driver_argv_free(Argv *a)
{
  for (int i = 0; i < a->n; i++)
    free(a->v[i]);
  free(a->v);
}

bool driver_for_tool(const Cli *cli)
{
  return cli->diag_format && strcmp(cli->diag_format, "text");
}

static void say(Cli *cli, const char *kind, const char *option, const char *fmt, va_list ap)
{
  if (driver_for_tool(cli)) {
    char msg[PATH_MAX + 1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    diag_log_add(&cli->log, kind, NULL, 0, 0, msg, option);
    return;
  }
  fprintf(stderr, "parrayc: %s: ", kind);
  vfprintf(stderr, fmt, ap);
  if (option)
    fprintf(stderr, " [%s]", option);
  fputc('\n', stderr);
}

void driver_say(Cli *cli, const char *kind, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  say(cli, kind, NULL, fmt, ap);
  va_end(ap);
}

/* A warning of parrayc's own, of kind w; true when it is an error
 * (-Werror). */
static bool driver_warn(Cli *cli, Warn w, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool driver_warn(Cli *cli, Warn w, const char *fmt, ...)
{
  char option[64];
  const char *kind = diag_warn_kind(cli->no_warnings, cli->werror, cli->warn, w, option);
  if (!kind)
    return false;
  va_list ap;
  va_start(ap, fmt);
  say(cli, kind, option, fmt, ap);
  va_end(ap);
  return kind[0] == 'e';
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
bool driver_is_compiler_input(const char *path)
{
  static const char *const exts[] = {".c", ".cu", ".cc", ".cpp", ".o", ".a", ".so", NULL};
  return has_ext(path, exts);
}

/* Writes text to fd; false, errno set, when it cannot. */
static bool write_all(int fd, const char *text)
{
  size_t len = strlen(text), done = 0;
  while (done < len) {
    ssize_t w = write(fd, text + done, len - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    done += (size_t)w;
  }
  return true;
}

/* A device, a FIFO or a dangling symlink is written through, as gcc does
 * (never replaced by a regular file); the signals are let through while
 * open or write waits on a reader. */
static bool write_through(Cli *cli, const char *path, const char *text)
{
  sigset_t held;
  sigprocmask(SIG_SETMASK, &cli->unheld, &held);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  bool ok = fd >= 0 && write_all(fd, text);
  int err = errno;
  if (fd >= 0 && close(fd) != 0 && ok)
    ok = false, err = errno;
  sigprocmask(SIG_SETMASK, &held, NULL);
  if (!ok)
    driver_say(cli, "error", "cannot write '%s': %s", path, strerror(err));
  return ok;
}

/* Writes all of text or nothing, as gcc writes its outputs: a regular or
 * absent file through a temporary renamed into place (signals are held
 * meanwhile: no half-written file); a symlink's target the same way (the
 * link stays); a device or a FIFO through; "-" is standard output. */
static bool write_file(Cli *cli, const char *path, const char *text)
{
  struct stat st;
  if (!strcmp(path, "-")) {
    sigset_t held;
    sigprocmask(SIG_SETMASK, &cli->unheld, &held);
    bool ok = fputs(text, stdout) >= 0 && fflush(stdout) == 0;
    sigprocmask(SIG_SETMASK, &held, NULL);
    if (!ok)
      driver_say(cli, "error", "cannot write to standard output: %s", strerror(errno));
    return ok;
  }
  if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
    char *target = realpath(path, NULL);
    if (!target) /* dangling: the link makes the file */
      return write_through(cli, path, text);
    bool ok = write_file(cli, target, text);
    free(target);
    return ok;
  }
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return write_through(cli, path, text);
  size_t n = strlen(path) + 16;
  char *tmp = malloc(n);
  snprintf(tmp, n, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp), err = errno;
  if (fd < 0 && (err == EACCES || err == EROFS) && access(path, W_OK) == 0) {
    free(tmp); /* a writable file in a folder that is not: written in place, as gcc writes */
    return write_through(cli, path, text);
  }
  if (fd < 0) {
    driver_say(cli, "error", "cannot write '%s': %s", path, strerror(err));
    free(tmp);
    return false;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  bool ok = write_all(fd, text);
  ok = close(fd) == 0 && ok;
  if (ok && rename(tmp, path) != 0)
    ok = false;
  if (!ok) {
    driver_say(cli, "error", "cannot write '%s': %s", path, strerror(errno));
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
static bool split_flags(Cli *cli, const char *name, const char *flags, Argv *before, Argv *after)
{
  wordexp_t w;
  int rc = wordexp(flags, &w, WRDE_NOCMD);
  if (rc) {
    driver_say(cli, "error", "cannot split %s '%s' into words%s", name, flags,
            rc == WRDE_BADCHAR ? " (quote | & ; < > ( ) { } and newlines)"
            : rc == WRDE_CMDSUB ? " (no command substitution)" : "");
    if (rc == WRDE_NOSPACE)
      wordfree(&w);
    return false;
  }
  for (size_t i = 0; i < w.we_wordc; i++) {
    const char *t = w.we_wordv[i];
    driver_argv_add(!strncmp(t, "-l", 2) || !strncmp(t, "-Wl,", 4) || driver_is_compiler_input(t) ? after : before, t);
  }
  wordfree(&w);
  return true;
}

/* The signals that end parrayc (those not ignored): held while it writes
 * and builds (not while it translates, which writes nothing), so that an
 * interrupted run removes its temporaries, then ends by the signal; a
 * child runs with the mask parrayc was started with. */
static void ending_signals(sigset_t *set)
{
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  sigemptyset(set);
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
    struct sigaction sa;
    if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
      sigaddset(set, sigs[i]);
  }
}

static void hold_signals(Cli *cli)
{
  sigset_t set;
  ending_signals(&set);
  sigaddset(&set, SIGCHLD);
  sigprocmask(SIG_BLOCK, &set, &cli->unheld);
}

/* After the cleanup: a signal that came meanwhile ends parrayc now. */
static int release_signals(Cli *cli, int rc)
{
  sigset_t ending, pending;
  ending_signals(&ending);
  sigpending(&pending);
  for (int sig = 1; sig < NSIG && !cli->signal; sig++)
    if (sigismember(&ending, sig) && sigismember(&pending, sig))
      cli->signal = sig;
  sigprocmask(SIG_SETMASK, &cli->unheld, NULL);
  if (cli->signal) {
    signal(cli->signal, SIG_DFL);
    raise(cli->signal);
    return 128 + cli->signal;
  }
  return rc;
}

/* Runs a and waits for it; an ending signal sent to parrayc alone (kill,
 * not the terminal's, which the child has too) is passed on to it.  said:
 * NULL, or where the child's standard error is kept (for a tool reading
 * the diagnostics, which the compiler's text would break). */
static int spawn(Cli *cli, Argv *a, char **said)
{
  if (cli->verbose) { /* -v: the command, as a note for a tool */
    char *line = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&line, &len);
    for (int i = 0; i < a->n; i++)
      fprintf(f, "%s%s", i ? " " : "", a->v[i]);
    fclose(f);
    if (driver_for_tool(cli))
      driver_say(cli, "note", "%s", line);
    else
      fprintf(stderr, "%s\n", line);
    free(line);
  }
  fflush(stdout);
  fflush(stderr);
  int failed[2]; /* the child's errno when it cannot exec */
  if (pipe(failed) != 0) {
    driver_say(cli, "error", "cannot start '%s': %s", a->v[0], strerror(errno));
    return 127;
  }
  FILE *err = said ? tmpfile() : NULL;
  pid_t pid = fcntl(failed[1], F_SETFD, FD_CLOEXEC) == 0 ? fork() : -1;
  if (pid < 0) {
    driver_say(cli, "error", "cannot start '%s': %s", a->v[0], strerror(errno));
    close(failed[0]);
    close(failed[1]);
    if (err)
      fclose(err);
    return 127;
  }
  if (pid == 0) {
    sigprocmask(SIG_SETMASK, &cli->unheld, NULL);
    if (err)
      dup2(fileno(err), 2);
    execvp(a->v[0], a->v);
    int e = errno;
    if (write(failed[1], &e, sizeof e) < 0)
      _exit(127);
    _exit(127);
  }
  close(failed[1]);
  int exec_errno = 0;
  if (read(failed[0], &exec_errno, sizeof exec_errno) != sizeof exec_errno)
    exec_errno = 0;
  close(failed[0]);
  sigset_t wait_for;
  ending_signals(&wait_for);
  sigaddset(&wait_for, SIGCHLD);
  int status;
  for (;;) {
    pid_t got = waitpid(pid, &status, WNOHANG);
    if (got == pid)
      break;
    if (got < 0 && errno != EINTR)
      return 127;
    siginfo_t si;
    int sig = sigwaitinfo(&wait_for, &si);
    if (sig <= 0 || sig == SIGCHLD)
      continue;
    if (!cli->signal)
      cli->signal = sig;
    if (si.si_code == SI_USER || si.si_code == SI_QUEUE)
      kill(pid, sig);
  }
  if (err) {
    long len = ftell(err);
    *said = NULL;
    if (len > 0 && (*said = calloc(1, (size_t)len + 1))) {
      rewind(err);
      if (fread(*said, 1, (size_t)len, err) != (size_t)len)
        (*said)[0] = 0;
    }
    fclose(err);
  }
  if (exec_errno) {
    driver_say(cli, "error", "cannot run '%s': %s", a->v[0], strerror(exec_errno));
    return 127;
  }
  if (WIFSIGNALED(status)) {
    if (WTERMSIG(status) != cli->signal)
      driver_say(cli, "error", "'%s' was killed by signal %d (%s)", a->v[0], WTERMSIG(status),
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
      driver_argv_add(a, buf);
      continue;
    }
    char *list = t + 11, *save = NULL;
    for (char *s = strtok_r(list, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
      snprintf(buf, sizeof buf, "-Xcompiler=-fsanitize=%s", s);
      driver_argv_add(a, buf);
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
static bool mpi_wrapper_words(Cli *cli, const char *what, const char *env, Argv *a)
{
  const char *set = getenv(env);
  if (set)
    return split_flags(cli, env, set, a, a);
  const char *mpicc = env_or("MPICC", *PARRAY_MPICC ? PARRAY_MPICC : "mpicc");
  char cmd[PATH_MAX + 64], line[8192] = "";
  snprintf(cmd, sizeof cmd, "%s --showme:%s 2>/dev/null", mpicc, what);
  FILE *f = popen(cmd, "r");
  size_t got = f ? fread(line, 1, sizeof line - 1, f) : 0;
  int rc = f ? pclose(f) : -1;
  line[got] = 0;
  if (rc != 0 || got == 0) {
    driver_say(cli, "error", "cannot ask '%s' for the MPI %s flags (an mpi x cuda program is built by nvcc "
               "with them); set %s to them", mpicc, what, env);
    return false;
  }
  line[strcspn(line, "\n")] = 0;
  return split_flags(cli, env, line, a, a);
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
    driver_argv_add(a, buf);
  }
}

/* An option that the compiler of this program does not take: said, once;
 * true when -Werror makes that an error. */
static bool note_dropped(Cli *cli, const char *flag, const char *why)
{
  return driver_warn(cli, WARN_UNUSED_ARGUMENT, "'%s' is not passed on: it is %s", flag, why);
}

/* One translated input. */
typedef struct Unit {
  const char *input;
  Ctx *ctx;
  char *text;        /* the translation */
  bool cuda;
  char *source;      /* where the translation is written */
  char *object;      /* -c: the object */
  DiagLog log;       /* -fdiagnostics-format=json/sarif: its diagnostics */
} Unit;

/* -O, -O0 .. -O3, -Os ... on the command line: then the default -O2 is
 * left out (nvcc warns of two levels, and the user's is meant). */
static bool sets_level(const Cli *cli)
{
  for (int i = 0; i < cli->cflags.n; i++)
    if (!strncmp(cli->cflags.v[i], "-O", 2))
      return true;
  return false;
}

/* cc's options for nvcc: -isystem, -include, -m64 and -m32 are nvcc's
 * too; the others go to its host compiler (-Xcompiler splits at commas:
 * -iquote and its folder are two words). */
static void nvcc_cc_options(Cli *cli, Argv *a)
{
  char buf[PATH_MAX + 32];
  for (int i = 0; i < cli->ccopts.n; i++) {
    const char *f = cli->ccopts.v[i];
    bool valued = !strcmp(f, "-isystem") || !strcmp(f, "-iquote") || !strcmp(f, "-include");
    if (valued && strcmp(f, "-iquote")) {
      driver_argv_add(a, f);
      driver_argv_add(a, cli->ccopts.v[++i]);
      continue;
    }
    if (!strcmp(f, "-m64") || !strcmp(f, "-m32")) {
      driver_argv_add(a, f);
      continue;
    }
    snprintf(buf, sizeof buf, "-Xcompiler=%s%s%s", f, valued ? "," : "", valued ? cli->ccopts.v[i + 1] : "");
    i += valued;
    driver_argv_add(a, buf);
  }
}

/* The compiler command for units (one with -c, all with --build):
 * compiler, flags, translations, the other inputs, runtime libraries. */
static int compile(Cli *cli, Unit *units, int n, const char *out)
{
  bool cuda = false, mpi = false, omp = false, refused = false;
  for (int i = 0; i < n; i++) {
    cuda |= units[i].cuda;
    mpi |= units[i].ctx->uses_mpi;
    omp |= units[i].ctx->uses_omp;
  }
  char inc[PATH_MAX], lib[PATH_MAX];
  runtime_dirs(inc, lib);
  Argv pre = {0}, post = {0}, a = {0}, mpi_libs = {0};
  if (!split_flags(cli, "PARRAY_CFLAGS", env_or("PARRAY_CFLAGS", sets_level(cli) ? "" : "-O2"), &pre, &post))
    return 1;
  if (cuda) {
    driver_argv_add(&a, env_or("NVCC", *PARRAY_NVCC ? PARRAY_NVCC : "nvcc"));
    for (int i = 0; i < pre.n; i++)
      driver_argv_add(&a, pre.v[i]);
    const char *arch = cli->arch ? cli->arch : env_or("PARRAY_CUDA_ARCH", PARRAY_CUDA_ARCH);
    char buf[PATH_MAX + 32];
    snprintf(buf, sizeof buf, "-arch=%s%s", strchr(arch, '_') || !strcmp(arch, "native") || !strcmp(arch, "all") ? "" : "sm_", arch);
    if (cli->arch || !cli->gencode) /* -gencode alone: its architectures only, as nvcc */
      driver_argv_add(&a, buf);
    driver_argv_add(&a, "-Xcompiler=-Wall,-Wextra");
    nvcc_host_flags(&a, PARRAY_SANITIZE_FLAGS);
    if (omp)
      driver_argv_add(&a, "-Xcompiler=-fopenmp");
    if (mpi) {
      /* mpi x cuda: nvcc with the MPI wrapper's flags */
      Argv words = {0}, libs = {0};
      bool ok = mpi_wrapper_words(cli, "compile", "PARRAY_MPI_CFLAGS", &words);
      if (ok && cli->mode != MODE_COMPILE)
        ok = mpi_wrapper_words(cli, "link", "PARRAY_MPI_LIBS", &libs);
      nvcc_mpi_flags(&a, &words);
      nvcc_mpi_flags(&mpi_libs, &libs);
      driver_argv_free(&words);
      driver_argv_free(&libs);
      if (!ok) {
        driver_argv_free(&a);
        driver_argv_free(&pre);
        driver_argv_free(&post);
        driver_argv_free(&mpi_libs);
        return 1;
      }
    }
    for (int i = 0; i < cli->cflags.n; i++) {
      const char *f = cli->cflags.v[i];
      if (f[1] == 'f' || f[1] == 'W' || !strcmp(f, "-pthread"))
        snprintf(buf, sizeof buf, "-Xcompiler=%s", f);
      else
        snprintf(buf, sizeof buf, "%s", f);
      driver_argv_add(&a, buf);
    }
    for (int i = 0; i < cli->hostflags.n; i++) {
      const char *f = cli->hostflags.v[i];
      if (!strncmp(f, "-std=", 5)) {
        refused |= note_dropped(cli, f, "cc's (a C standard), and this program is compiled by nvcc as CUDA C++");
        continue;
      }
      snprintf(buf, sizeof buf, "-Xcompiler=%s", f);
      driver_argv_add(&a, buf);
    }
    nvcc_cc_options(cli, &a);
    if (cli->color >= 0) /* the host compiler's messages coloured as parrayc's */
      driver_argv_add(&a, cli->color ? "-Xcompiler=-fdiagnostics-color=always" : "-Xcompiler=-fdiagnostics-color=never");
    for (int i = 0; i < cli->nvflags.n; i++)
      driver_argv_add(&a, cli->nvflags.v[i]);
  } else {
    driver_argv_add(&a, mpi ? env_or("MPICC", *PARRAY_MPICC ? PARRAY_MPICC : "mpicc") : env_or("CC", "cc"));
    driver_argv_add(&a, "-std=gnu11");
    for (int i = 0; i < pre.n; i++)
      driver_argv_add(&a, pre.v[i]);
    driver_argv_add(&a, "-Wall");
    driver_argv_add(&a, "-Wextra");
    split_flags(cli, "the sanitizer flags", PARRAY_SANITIZE_FLAGS, &a, &a);
    if (omp)
      driver_argv_add(&a, "-fopenmp");
    for (int i = 0; i < cli->cflags.n; i++)
      driver_argv_add(&a, cli->cflags.v[i]);
    for (int i = 0; i < cli->ccopts.n; i++)
      driver_argv_add(&a, cli->ccopts.v[i]);
    if (cli->color >= 0) /* cc's messages coloured as parrayc's (gcc's and clang's spelling) */
      driver_argv_add(&a, cli->color ? "-fdiagnostics-color=always" : "-fdiagnostics-color=never");
    /* -Xcompiler A,B: the host compiler is cc itself */
    for (int i = 0; i < cli->hostflags.n; i++) {
      char *copy = strdup(cli->hostflags.v[i]), *save = NULL;
      bool std = !strncmp(copy, "-std=", 5);
      for (char *t = std ? copy : strtok_r(copy, ",", &save); t; t = std ? NULL : strtok_r(NULL, ",", &save))
        driver_argv_add(&a, t);
      free(copy);
    }
    for (int i = 0; i < cli->nvflags.n; i++)
      refused |= note_dropped(cli, cli->nvflags.v[i], "nvcc's, and this program has no CUDA: cc compiles it");
  }
  /* #include "x.h" of a .pa file: next to it, wherever the translation is */
  for (int i = 0; i < n; i++) {
    char *dir = strcmp(units[i].input, "-") ? strdup(units[i].input) : strdup(".");
    char *slash = strrchr(dir, '/');
    if (slash)
      *slash = 0;
    driver_argv_add(&a, cuda ? "-I" : "-iquote");
    driver_argv_add(&a, slash ? dir : ".");
    free(dir);
  }
  driver_argv_add(&a, "-I");
  driver_argv_add(&a, inc);
  if (cli->mode == MODE_COMPILE)
    driver_argv_add(&a, "-c");
  for (int i = 0; i < n; i++)
    driver_argv_add(&a, units[i].source);
  driver_argv_add(&a, "-o");
  driver_argv_add(&a, out);
  if (cli->mode != MODE_COMPILE) {
    for (int i = 0; i < cli->link.n; i++)
      driver_argv_add(&a, cli->link.v[i]);
    for (int i = 0; i < post.n; i++)
      driver_argv_add(&a, post.v[i]);
    driver_argv_add(&a, "-L");
    driver_argv_add(&a, lib);
    if (mpi)
      driver_argv_add(&a, "-lparray_mpi");
    if (cuda)
      driver_argv_add(&a, "-lparray_cuda");
    driver_argv_add(&a, "-lparray");
    for (int i = 0; i < mpi_libs.n; i++)
      driver_argv_add(&a, mpi_libs.v[i]);
    if (cuda && omp)
      driver_argv_add(&a, "-lgomp");
    driver_argv_add(&a, "-lpthread");
    driver_argv_add(&a, "-lm");
  }
  char *said = NULL;
  int rc = refused ? 1 : spawn(cli, &a, driver_for_tool(cli) ? &said : NULL);
  driver_argv_free(&a);
  driver_argv_free(&pre);
  driver_argv_free(&post);
  driver_argv_free(&mpi_libs);
  if (rc != 0 && !refused) /* the translation is in the private folder: name the input */
    driver_say(cli, "error", "compiling '%s' failed", n != 1 ? out : cli->tmpdir ? units[0].input : units[0].source);
  if (said && *said) /* the compiler's own text, kept whole */
    driver_say(cli, "note", "the compiler said:\n%s", said);
  free(said);
  return rc != 0;
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
  /* -MT as it is, -MQ quoted, as gcc: all of them, in order */
  for (int i = 0; i < cli->dep_targets.n; i++) {
    const char *t = cli->dep_targets.v[i];
    fputs(i ? " " : "", f);
    if (t[0] == 'Q')
      put_path(f, t + 1);
    else
      fputs(t + 1, f);
  }
  if (!cli->dep_targets.n)
    put_path(f, target);
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

/* -M / -MD: the units' rules into -MF (all of them), standard output
 * (-M) or OUT.d (each its own, OUT its target), each file whole. */
static bool write_deps(Cli *cli, Unit *units, int n, const char *exe)
{
  const char *shared = cli->dep_file ? cli->dep_file : cli->deps_only ? "-" : NULL;
  char *text = NULL;
  size_t len = 0;
  FILE *f = NULL;
  bool ok = true;
  for (int i = 0; i < n && ok; i++) {
    Unit *u = &units[i];
    const char *target = exe ? exe : u->object ? u->object : u->source;
    if (!f)
      f = open_memstream(&text, &len);
    put_rule(cli, u, target, f);
    if (shared && i < n - 1)
      continue;
    fclose(f);
    f = NULL;
    char *base = strip_ext(strcmp(target, "-") ? target : "stdin"), *own = concat(base, ".d");
    ok = write_file(cli, shared ? shared : own, text);
    free(base);
    free(own);
    free(text);
    text = NULL;
  }
  return ok;
}

static void print_backends(Ctx *ctx, bool cuda)
{
  printf("%s%s%s%s\n", cuda ? "cuda " : "", ctx->uses_mpi ? "mpi " : "", ctx->uses_omp ? "omp " : "",
         ctx->uses_pthd ? "pthd" : "");
}

/* -fdiagnostics-color=auto (the default): on a terminal, unless NO_COLOR
 * is set (no-color.org); always and never as they say. */
static bool use_color(int color)
{
  if (color >= 0)
    return color;
  const char *no = getenv("NO_COLOR");
  if (no && *no)
    return false;
  const char *term = getenv("TERM");
  return isatty(2) && term && strcmp(term, "dumb");
}

/* The -D macros in effect after the command line's -D and -U, in order, as
 * gcc's: a -U drops every -D of its name before it, a -D replaces one
 * before it.  Each is NAME or NAME=VALUE, for the model (Options.defines). */
static void macros_in_effect(const Argv *macros, Argv *out)
{
  for (int i = 0; i < macros->n; i++) {
    const char *m = macros->v[i] + 2; /* -DNAME=V, -UNAME */
    size_t len = strcspn(m, "=");
    for (int k = 0; k < out->n; k++)
      if (!strncmp(out->v[k], m, len) && (out->v[k][len] == '=' || !out->v[k][len])) {
        free(out->v[k]);
        memmove(out->v + k, out->v + k + 1, sizeof *out->v * (size_t)(out->n - k));
        out->n--;
        break;
      }
    if (macros->v[i][1] == 'D')
      driver_argv_add(out, m);
  }
}

/* Reads, splices headers, parses and translates one input. */
static bool translate(Cli *cli, Unit *u)
{
  size_t len;
  char *src = util_file_read(u->input, &len);
  if (!src) {
    char msg[PATH_MAX + 128];
    snprintf(msg, sizeof msg, "cannot read '%s': %s", u->input, strerror(errno));
    if (cli->diag_format && strcmp(cli->diag_format, "text")) /* a tool reads it, with the rest */
      diag_log_add(&u->log, "error", u->input, 0, 0, msg, NULL);
    else
      driver_say(cli, "error", "%s", msg);
    return false;
  }
  bool from_stdin = !strcmp(u->input, "-");
  Options opt = {
    .input = u->input, .display = from_stdin ? "<stdin>" : u->input,
    .line_directives = cli->line_directives, .explain = cli->explain,
    .explain_format = cli->format, .defines = (const char **)cli->defines.v, .ndefines = cli->defines.n,
    .deps_missing = cli->deps_missing,
    .access_line = cli->access_line, .thread_map = cli->thread_map,
    .error_limit = cli->error_limit, .no_warnings = cli->no_warnings, .werror = cli->werror, .warn = cli->warn,
    .color = use_color(cli->color),
    .include_dirs = (const char **)cli->incdirs.v, .ninclude_dirs = cli->incdirs.n,
    .log = cli->diag_format && strcmp(cli->diag_format, "text") ? &u->log : NULL,
  };
  u->ctx = ctx_new(&opt, src, len);
  free(src);
  if (include_headers(u->ctx) && parse_source(u->ctx))
    u->text = emit_program(u->ctx, targets_all);
  int w = u->ctx->warnings;
  if (opt.log) /* a tool reads the diagnostics: no summary line */
    w = 0;
  if (!u->text) {
    if (opt.log)
      return false;
    if (w)
      fprintf(stderr, "%d warning%s and ", w, w == 1 ? "" : "s");
    fprintf(stderr, "%d error%s generated; no output written.\n", u->ctx->errors, u->ctx->errors == 1 ? "" : "s");
    return false;
  }
  if (w)
    fprintf(stderr, "%d warning%s generated.\n", w, w == 1 ? "" : "s");
  u->cuda = u->ctx->uses_gpu; /* emit_program found it */
  return true;
}

/* The processes of an mpi program: its largest mpi array, whose extent
 * may name a macro (-DGPUS=4, or the program's #define GPUS 2). */
static int mpi_procs(Ctx *ctx)
{
  long long n = 0, v;
  for (Type *t = ctx->types; t; t = t->next)
    if (t->kind == TK_MPI && explain_size(ctx, t->root->extent, &v) && v > n)
      n = v;
  return n > 0 && n <= INT_MAX ? (int)n : 1;
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
  const char *launch = getenv("PARRAY_LAUNCH");
  if (ctx->uses_mpi && launch && *launch) {
    /* a cluster's launcher with its own options (srun ..., mpirun
     * --hostfile ...): used as it is, the process count its own */
    if (cli->nprocs) {
      driver_say(cli, "error", "--np with PARRAY_LAUNCH='%s': give the number of processes in "
              "PARRAY_LAUNCH", launch);
      free(path);
      return 1;
    }
    if (!split_flags(cli, "PARRAY_LAUNCH", launch, &a, &a)) {
      free(path);
      driver_argv_free(&a);
      return 1;
    }
  } else if (ctx->uses_mpi) {
    int np = cli->nprocs ? cli->nprocs : mpi_procs(ctx);
    driver_argv_add(&a, env_or("MPIRUN", *PARRAY_MPIRUN ? PARRAY_MPIRUN : "mpirun"));
    if (geteuid() == 0) {
      setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
      setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    }
    driver_argv_add(&a, "--oversubscribe");
    driver_argv_add(&a, "-np");
    char buf[32];
    snprintf(buf, sizeof buf, "%d", np);
    driver_argv_add(&a, buf);
  }
  driver_argv_add(&a, path);
  free(path);
  for (int i = 0; i < cli->nrun_args; i++)
    driver_argv_add(&a, cli->run_args[i]);
  cli->ran = true;
  int rc = spawn(cli, &a, NULL);
  driver_argv_free(&a);
  return rc;
}

static char *base_name(const char *path)
{
  const char *slash = strrchr(path, '/');
  return strip_ext(slash ? slash + 1 : path);
}

/* Where an intermediate file goes: the private folder (as NAME.EXT), or
 * with -save-temps as STEM.EXT (=obj: next to the output STEM names) or
 * in the current directory (=cwd). */
static char *temp_path(Cli *cli, const char *stem, const char *name, const char *ext)
{
  char *path;
  if (cli->tmpdir) {
    path = malloc(strlen(cli->tmpdir) + strlen(name) + strlen(ext) + 2);
    sprintf(path, "%s/%s%s", cli->tmpdir, name, ext);
  } else {
    const char *slash = strrchr(stem, '/');
    path = concat(!strcmp(cli->save_temps, "obj") || !slash ? stem : slash + 1, ext);
  }
  return path;
}

/* Where unit u (the i-th of n) is translated to, and compiled to with -c;
 * exe: the program built.  The translation is the output itself only
 * without -c, --build, --run; then it is an intermediate file. */
static void name_outputs(Cli *cli, Unit *u, int i, int n, const char *exe)
{
  const char *ext = u->cuda ? ".cu" : ".c";
  bool from_stdin = !strcmp(u->input, "-");
  char *base = base_name(from_stdin ? "stdin" : u->input), *stem;
  char *name = malloc(strlen(base) + 16); /* two inputs of one name in two folders: 1-main, 2-main */
  sprintf(name, cli->tmpdir && n > 1 ? "%2$d-%1$s" : "%s", base, i + 1);
  switch (cli->mode) {
  case MODE_TRANSLATE:
    stem = strip_ext(u->input);
    u->source = cli->output || from_stdin ? strdup(cli->output ? cli->output : "-") : concat(stem, ext);
    break;
  case MODE_COMPILE:
    u->object = cli->output ? strdup(cli->output) : concat(base, ".o");
    stem = strip_ext(u->object);
    u->source = temp_path(cli, stem, name, ext);
    break;
  default: { /* -save-temps: EXE.c, or EXE.NAME.c for one of several */
    char *dot = concat(exe, ".");
    stem = n == 1 ? strdup(exe) : concat(dot, name);
    free(dot);
    u->source = temp_path(cli, stem, name, ext);
  }
  }
  free(stem);
  free(name);
  free(base);
}

static bool is_input(Cli *cli, const char *path)
{
  for (int i = 0; i < cli->inputs.n; i++)
    if (same_file(path, cli->inputs.v[i]))
      return true;
  return false;
}

/* `parrayc FILE.c`, `-o self.pa self.pa`: never write over an input. */
static bool overwrites_input(Cli *cli, const char *out)
{
  for (int i = 0; i < cli->inputs.n; i++)
    if (out && same_file(out, cli->inputs.v[i])) {
      driver_say(cli, "error", "the output '%s' would overwrite the input '%s'", out, cli->inputs.v[i]);
      return true;
    }
  for (int i = 0; i < cli->link.n; i++)
    if (out && cli->link.v[i][0] != '-' && same_file(out, cli->link.v[i])) {
      driver_say(cli, "error", "the output '%s' would overwrite the input '%s'", out, cli->link.v[i]);
      return true;
    }
  return false;
}

/* A file parrayc wrote starts with its banner (emit.c). */
#define BANNER "/* Generated by parrayc "

/* Is path a regular file that does not begin with parrayc's banner (1),
 * one that does (0), or no regular file (-1)?  A device or a FIFO is
 * written through, never read. */
static int foreign(const char *path)
{
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
    return -1;
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  char head[sizeof BANNER] = "";
  size_t got = fread(head, 1, sizeof BANNER - 1, f);
  fclose(f);
  head[got] = 0;
  return got > 0 && strcmp(head, BANNER);
}

/* Never replace a file parrayc did not write (a hand-written helper.c
 * next to helper.pa): its first line is not the banner.  --force does. */
static bool replaces_foreign(Cli *cli, const char *path)
{
  if (!path || !strcmp(path, "-") || cli->force || cli->deps_only || foreign(path) != 1)
    return false;
  driver_say(cli, "error", "'%s' exists and parrayc did not write it (it does not begin with '%s...'); "
             "not replacing it: move it, name another output with -o, or pass --force", path, BANNER);
  return true;
}

/* The translation's kind is its content's: CUDA code never goes to a .c
 * file (cc would compile it as C). */
static bool wrong_kind(Cli *cli, Unit *u)
{
  static const char *const c_exts[] = {".c", ".h", NULL};
  if (cli->mode != MODE_TRANSLATE || !u->cuda || !u->source || !has_ext(u->source, c_exts))
    return false;
  char *base = strip_ext(u->source);
  driver_say(cli, "error", "'%s' uses CUDA (cuda thread arrays or dmem/smem data), so its translation is "
          "CUDA C++, not C: not writing it to '%s'; name the output '%s.cu'", u->input, u->source, base);
  free(base);
  return true;
}

static int explain(Unit *u, const char *name)
{
  Dim *d = dim_resolve(u->ctx, name, (Loc){0, 0});
  return d && explain_type(u->ctx, d, stdout) ? 0 : 1;
}

/* The private folder of the intermediate files (-c, --build, --run). */
static bool make_tmpdir(Cli *cli)
{
  const char *dir = env_or("TMPDIR", "/tmp");
  cli->tmpdir = concat(dir, "/parrayc-XXXXXX");
  if (mkdtemp(cli->tmpdir))
    return true;
  driver_say(cli, "error", "cannot make a temporary folder in '%s': %s", dir, strerror(errno));
  free(cli->tmpdir);
  cli->tmpdir = NULL;
  return false;
}

/* Removes the private folder and what the run left in it. */
static void remove_tmpdir(Cli *cli)
{
  DIR *d = cli->tmpdir ? opendir(cli->tmpdir) : NULL;
  if (!d)
    return;
  for (struct dirent *e; (e = readdir(d));)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      char *slash = concat(cli->tmpdir, "/"), *path = concat(slash, e->d_name);
      unlink(path);
      free(slash);
      free(path);
    }
  closedir(d);
  rmdir(cli->tmpdir);
  free(cli->tmpdir);
  cli->tmpdir = NULL;
}

/* The program --build and --run make: -o; else the first input's name in
 * the current directory (a.out from standard input), never next to the
 * input (which may be read-only).  --run keeps a program in the private
 * folder, but an mpi program in the current directory, which the
 * launcher's other nodes share. */
static char *program_name(Cli *cli, Unit *units, int n)
{
  if (cli->output)
    return strdup(cli->output);
  char *name = !n || !strcmp(units[0].input, "-") ? strdup("a.out") : base_name(units[0].input);
  bool mpi = false;
  for (int i = 0; i < n; i++)
    mpi |= units[i].ctx->uses_mpi;
  if (cli->mode != MODE_RUN || !cli->tmpdir || mpi)
    return name;
  char *slash = concat(cli->tmpdir, "/"), *path = concat(slash, name);
  free(slash);
  free(name);
  return path;
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
  if (cli->mode != MODE_TRANSLATE && !cli->save_temps && !make_tmpdir(cli))
    return 1;
  char *exe = NULL;
  if (cli->mode == MODE_BUILD || cli->mode == MODE_RUN)
    exe = program_name(cli, units, n);
  int rc = overwrites_input(cli, exe);
  for (int i = 0; i < n && !rc; i++) {
    name_outputs(cli, &units[i], i, n, exe);
    rc = overwrites_input(cli, units[i].source) || overwrites_input(cli, units[i].object);
  }
  for (int i = 0; i < n && !rc; i++)
    rc = wrong_kind(cli, &units[i]) || replaces_foreign(cli, units[i].source);
  if (!rc && (cli->deps || cli->deps_only) && !write_deps(cli, units, n, exe))
    rc = 1;
  if (rc || cli->deps_only) {
    free(exe);
    return rc;
  }
  for (int i = 0; i < n && !rc; i++)
    if (!write_file(cli, units[i].source, units[i].text))
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

/* -fdiagnostics-format=json[-stderr|-file], sarif-stderr|sarif-file: the
 * diagnostics as gcc writes them, with parrayc's own messages: the
 * -stderr forms one document for all the inputs; json-file NAME.gcc.json
 * and sarif-file NAME.sarif (NAME the input's file name, in the current
 * directory) one for each input, parrayc's messages in each (in
 * parrayc.gcc.json or parrayc.sarif when no input is read). */
static bool write_diag_logs(Cli *cli, Unit *units, int n, int rc)
{
  const char *fmt = cli->diag_format;
  if (!driver_for_tool(cli))
    return true;
  bool ok = true, to_file = !strcmp(fmt, "json-file") || !strcmp(fmt, "sarif-file");
  bool worked = !cli->signal && !diag_log_has_error(&cli->log) && (rc == 0 || cli->ran);
  const char **inputs = calloc((size_t)n + 1, sizeof *inputs);
  for (int i = 0; i < n; i++) {
    inputs[i] = strcmp(units[i].input, "-") ? units[i].input : "<stdin>";
    worked &= !diag_log_has_error(&units[i].log);
  }
  for (int i = 0; i < (to_file ? (n ? n : 1) : 1); i++) {
    DiagLog all = {0};
    for (int k = to_file ? i : 0; k < (to_file ? i + 1 : n); k++)
      if (k < n)
        diag_log_append(&all, &units[k].log);
    diag_log_append(&all, &cli->log);
    char *text = NULL;
    size_t len = 0;
    FILE *f = to_file ? open_memstream(&text, &len) : stderr;
    if (!strncmp(fmt, "json", 4))
      diag_log_json(&all, f);
    else
      diag_log_sarif(&all, to_file ? inputs + i : inputs, to_file ? (n > 0) : n, PARRAY_VERSION, worked, f);
    diag_log_free(&all);
    if (to_file) {
      const char *in = n ? units[i].input : "parrayc", *slash = strrchr(in, '/');
      const char *name = strcmp(in, "-") ? slash ? slash + 1 : in : "stdin";
      char *path = concat(name, !strcmp(fmt, "json-file") ? ".gcc.json" : ".sarif");
      fclose(f);
      Cli text_mode = *cli; /* a failure to write it is said on stderr */
      text_mode.diag_format = NULL;
      ok = write_file(&text_mode, path, text) && ok;
      free(path);
      free(text);
    }
  }
  free(inputs);
  return ok;
}

int driver_refuse(Cli *cli, int rc)
{
  hold_signals(cli);
  write_diag_logs(cli, NULL, 0, rc);
  diag_log_free(&cli->log);
  return release_signals(cli, rc);
}

/* After a failed translation, as gcc -S: the old translation of each
 * input (one parrayc wrote: a regular file with its banner) is removed,
 * so that no stale output looks up to date. */
static void remove_stale(Cli *cli, Unit *units, int n)
{
  if (cli->mode != MODE_TRANSLATE || cli->deps_only || cli->explain || cli->access_line || cli->print_backends)
    return;
  for (int i = 0; i < n; i++) {
    if (!strcmp(units[i].input, "-") && !cli->output)
      continue;
    char *stem = strip_ext(units[i].input), *c = concat(stem, ".c"), *cu = concat(stem, ".cu");
    const char *olds[] = {cli->output ? cli->output : c, cli->output ? NULL : cu};
    for (int k = 0; k < 2; k++)
      if (olds[k] && strcmp(olds[k], "-") && !is_input(cli, olds[k]) && foreign(olds[k]) == 0)
        unlink(olds[k]);
    free(stem);
    free(c);
    free(cu);
  }
}

/* Translates every input, then writes, compiles, builds or runs as cli
 * says; returns the exit status. */
int driver_run(Cli *cli)
{
  int n = cli->inputs.n, rc = 0;
  Unit *units = calloc((size_t)n + 1, sizeof *units);
  macros_in_effect(&cli->macros, &cli->defines);
  /* translation writes no file: an ending signal (^C, a timeout) ends it
   * at once, however long an input takes */
  for (int i = 0; i < n; i++) {
    units[i].input = cli->inputs.v[i];
    if (!translate(cli, &units[i]))
      rc = 1;
  }
  hold_signals(cli);
  if (rc)
    remove_stale(cli, units, n);
  if (!rc && (n || cli->link.n))
    rc = drive(cli, units, n);
  if (!write_diag_logs(cli, units, n, rc) && !rc)
    rc = 1;
  for (int i = 0; i < n; i++) {
    diag_log_free(&units[i].log);
    free(units[i].text);
    free(units[i].source);
    free(units[i].object);
    ctx_free(units[i].ctx);
  }
  free(units);
  diag_log_free(&cli->log);
  driver_argv_free(&cli->defines);
  remove_tmpdir(cli);
  return release_signals(cli, rc);
}
