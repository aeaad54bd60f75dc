#!/usr/bin/env bash
# driver.sh PARRAYC TESTS_DIR WORKDIR
# The command as build systems use it: several inputs sharing a Parray header,
# -I, -c, -o -, stdin, -M/-MD/-MF/-MT, -l/-L and PARRAY_CFLAGS after the
# translation, --arch, diagnostics colour, exit statuses, and make and ninja
# rebuilding after an included header changes.
set -u
[ $# -eq 3 ] || { echo "usage: $0 PARRAYC TESTS_DIR WORKDIR" >&2; exit 2; }
P=$1 T=$2 W=$3
case $P in /*) ;; *) P=$(pwd)/$P ;; esac
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 2
cp -r "$T/multi" src && cp "$T/../samples/fig1_natural.pa" fig1.pa || exit 2
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
check() { local what=$1; shift; "$@" >/dev/null 2>&1 || fail "$what"; }

# several inputs, one header included twice, -I for the C header it includes
"$P" --run -I src/inc src/main.pa src/trace.pa -o multi >out.txt 2>err.txt || fail "--run main.pa trace.pa: $(cat err.txt)"
grep -qx 'trace 66, transpose ok' out.txt || fail "multi-file program output: $(cat out.txt)"
# -c each, then link the objects
check "-c main.pa" "$P" -c -I src/inc src/main.pa -o main.o
check "-c trace.pa" "$P" -c -I src/inc src/trace.pa
[ -f main.o ] && [ -f trace.o ] || fail "-c wrote no objects"
check "--build from objects" "$P" --build -I src/inc src/main.pa trace.o -o fromobj
[ "$(./fromobj 2>&1)" = "trace 66, transpose ok" ] || fail "program linked from an object"

# dependency output: the .pa, the Parray header, the C header it includes
"$P" -M -I src/inc src/main.pa >deps.txt || fail "-M"
for f in src/main.pa src/layout.pah src/inc/sizes.h; do grep -q "$f" deps.txt || fail "-M does not list $f"; done
grep -q '^src/main.c:' deps.txt || fail "-M target is not the translation: $(head -1 deps.txt)"
check "-c -MD -MF -MT" "$P" -c -MD -MF dep.d -MT obj.o -I src/inc src/main.pa -o main2.o
grep -q '^obj.o:' dep.d && grep -q layout.pah dep.d || fail "-MD -MF -MT: $(cat dep.d)"
check "-c -MD -MP" "$P" -c -MD -MP -I src/inc src/trace.pa -o t.o
grep -q '^src/layout.pah:$' t.d || fail "-MD writes OUT.d with -MP phony targets: $(cat t.d)"

# standard input and output
"$P" - -o - <fig1.pa >stdout.c 2>err.txt || fail "stdin to stdout: $(cat err.txt)"
grep -q 'pa_main' stdout.c && grep -q '#line 1 "<stdin>"' stdout.c || fail "stdin to stdout: no translation"
[ ! -e ./- ] || fail "-o - wrote a file named -"

# never overwrite an input; usage errors exit 1 as gcc's
cp fig1.pa self.c && cp self.c self.c.orig
"$P" self.c 2>err.txt; [ $? -eq 1 ] || fail "parrayc self.c: exit status not 1"
cmp -s self.c self.c.orig || fail "parrayc self.c overwrote its input"
grep -q 'would overwrite the input' err.txt || fail "parrayc self.c: no clear error: $(cat err.txt)"
cp fig1.pa self.pa
"$P" -o self.pa self.pa 2>/dev/null; [ $? -eq 1 ] || fail "-o self.pa self.pa: exit status not 1"
cmp -s self.pa fig1.pa || fail "-o self.pa self.pa overwrote its input"
"$P" --frobnicate fig1.pa 2>/dev/null; [ $? -eq 1 ] || fail "unknown option: exit status not 1"
"$P" -I 2>/dev/null; [ $? -eq 1 ] || fail "missing argument: exit status not 1"
"$P" --version | grep -q 'back ends: c' || fail "--version names no back ends"

# --run's exit status is the program's; arguments after --
printf '#include <stdlib.h>\n#mainhost {\n  return atoi(argv[1]);\n}\n' >exit.pa
"$P" --run exit.pa -- 7 >/dev/null 2>&1; [ $? -eq 7 ] || fail "--run exit status"

# libraries after the translation; PARRAY_CFLAGS quoted as in the shell
printf 'int extra(void) { return 42; }\n' >extra.c
cc -c extra.c -o extra.o && ar rc libextra.a extra.o || exit 2
printf '#include <stdio.h>\nint extra(void);\n#mainhost {\n  printf("%%s %%d\\n", MSG, extra());\n}\n' >uselib.pa
PARRAY_CFLAGS='-O1 -DMSG="\"two words\""' "$P" --build uselib.pa -L. -lextra -o uselib 2>err.txt ||
  fail "--build -L. -lextra: $(cat err.txt)"
[ "$(./uselib)" = "two words 42" ] || fail "-lextra / quoted PARRAY_CFLAGS: $(./uselib)"
PARRAY_CFLAGS="-DMSG=\\\"env\\\" -L$W -lextra" "$P" --build uselib.pa -o uselib2 2>err.txt ||
  fail "-l in PARRAY_CFLAGS: $(cat err.txt)"
[ "$(./uselib2)" = "env 42" ] || fail "-l in PARRAY_CFLAGS goes after the translation"
check "extra .c source" "$P" --build uselib.pa extra.c -DMSG='"src"' -o uselib3
[ "$(./uselib3)" = "src 42" ] || fail "an extra .c source"

# --arch / -arch reach nvcc (NVCC=echo: the command is printed, not run)
gpu=$T/../samples/gpu_fig7_transpose.pa
NVCC=echo "$P" --build --arch=sm_80 "$gpu" -o g1 >arch.txt 2>&1 || fail "--arch=sm_80"
grep -q -- '-arch=sm_80' arch.txt || fail "--arch=sm_80 not passed to nvcc: $(cat arch.txt)"
NVCC=echo "$P" --build -arch 75 "$gpu" -o g2 >arch.txt 2>&1 || fail "-arch 75"
grep -q -- '-arch=sm_75' arch.txt || fail "-arch 75 not passed to nvcc as sm_75"
# an -O level on the command line replaces the default -O2 (nvcc warns of two)
NVCC=echo "$P" --build -O0 "$gpu" -o g3 >arch.txt 2>&1 || fail "-O0 with nvcc"
grep -Eq -- '(^| )-O0( |$)' arch.txt && ! grep -Eq -- '(^| )-O2( |$)' arch.txt || fail "-O0 and the default -O2 both passed: $(cat arch.txt)"
NVCC=echo "$P" --build "$gpu" -o g4 >arch.txt 2>&1 || fail "nvcc's default level"
grep -Eq -- '(^| )-O2( |$)' arch.txt || fail "no default -O2: $(cat arch.txt)"

# diagnostics colour
printf '#mainhost {\n  int x = $dim(Nope)$;\n}\n' >bad.pa
"$P" -fdiagnostics-color=always bad.pa 2>err.txt
grep -q $'\033\\[01;31merror' err.txt || fail "-fdiagnostics-color=always: no colour"
"$P" -fdiagnostics-color=never bad.pa 2>err.txt
! grep -q $'\033' err.txt || fail "-fdiagnostics-color=never: colour"
"$P" bad.pa 2>err.txt   # auto, not a terminal
! grep -q $'\033' err.txt || fail "-fdiagnostics-color=auto: colour on a file"

# outputs as gcc writes them (made here, never the system's /dev/null): a
# device node and a FIFO are written through, a symlink's target is written
# and the link stays; nothing is written next to them
mkdir -p outs && cd outs || exit 2
if mknod devnull c 1 3 2>/dev/null; then
  "$P" ../fig1.pa -o devnull 2>err.txt || fail "-o DEVICE: $(cat err.txt)"
  [ -c devnull ] || fail "-o DEVICE replaced the device node"
  "$P" --build ../fig1.pa -o devnull 2>err.txt || fail "--build -o DEVICE: $(cat err.txt)"
  "$P" -c ../fig1.pa -o devnull 2>err.txt || fail "-c -o DEVICE: $(cat err.txt)"
  [ -c devnull ] && [ ! -e devnull.c ] || fail "--build/-c -o DEVICE: $(ls -l)"
  rm -f devnull
else
  echo "note: mknod not permitted: the device node test is skipped"
fi
mkfifo fifo || exit 2
timeout 20 cat fifo >fifo.out &   # (timeouts: a failure must not hang the test)
timeout 20 "$P" ../fig1.pa -o fifo 2>err.txt || fail "-o FIFO: $(cat err.txt)"
wait
[ -p fifo ] && grep -q pa_main fifo.out || fail "-o FIFO not written through: $(ls -l fifo)"
echo old >real.c && ln -s real.c link.c
"$P" --force ../fig1.pa -o link.c 2>err.txt || fail "-o SYMLINK: $(cat err.txt)"
[ -L link.c ] && grep -q pa_main real.c || fail "-o SYMLINK: the link was replaced or its target not written"
# an error removes the old translation as gcc -S does (no stale output), but
# never a file parrayc did not write; no temporary is left beside it
"$P" ../bad.pa -o real.c 2>/dev/null && fail "bad.pa translated"
[ -L link.c ] && [ ! -e real.c ] && [ "$(ls | grep -c tmp)" = 0 ] || fail "a failed translation left: $(ls)"
echo 'int mine;' >mine.c && "$P" ../bad.pa -o mine.c 2>/dev/null
[ "$(cat mine.c)" = 'int mine;' ] || fail "a failed translation removed a hand-written file"
# --build and --run keep their intermediates in a private folder (TMPDIR),
# unless -save-temps; --run works on a read-only input (root may write there
# all the same: the test checks that nothing is written next to the input)
mkdir -p tmp ro && cp ../fig1.pa ro/ && chmod 555 ro
TMPDIR=$PWD/tmp "$P" --run ro/fig1.pa >run.txt 2>err.txt || fail "--run on a read-only input: $(cat err.txt)"
grep -q 'fig1: ok' run.txt || fail "--run read-only: $(cat run.txt)"
[ -z "$(ls tmp)" ] && [ "$(ls ro)" = fig1.pa ] && [ ! -e fig1 ] || fail "--run left files: $(ls tmp ro .)"
TMPDIR=$PWD/tmp "$P" --build ro/fig1.pa -o prog 2>err.txt || fail "--build: $(cat err.txt)"
[ -x prog ] && [ ! -e prog.c ] && [ -z "$(ls tmp)" ] || fail "--build left intermediates: $(ls . tmp)"
"$P" --build -save-temps ro/fig1.pa -o sub.prog 2>err.txt && [ -e sub.prog.c ] ||
  fail "--build -save-temps: no sub.prog.c: $(cat err.txt)"
"$P" -c -save-temps=obj ro/fig1.pa -o ../objs.o 2>err.txt && [ -e ../objs.c ] ||
  fail "-c -save-temps=obj: no ../objs.c: $(cat err.txt)"
# truly read-only for a user who is not root: --run works, -o into a writable
# file of a read-only folder writes it in place, a new file there is refused
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  nb=$(mktemp -d) && chmod 755 "$nb" && cp ../fig1.pa "$nb/" && : >"$nb/out.c" && chmod 666 "$nb/out.c" || exit 2
  as_nobody() { (cd "$nb" && setpriv --reuid=65534 --regid=65534 --clear-groups "$@"); }
  as_nobody "$P" --run fig1.pa >run.txt 2>err.txt && grep -q 'fig1: ok' run.txt ||
    fail "--run in a read-only folder, as nobody: $(cat err.txt)"
  as_nobody "$P" --force fig1.pa -o out.c 2>err.txt && grep -q pa_main "$nb/out.c" ||
    fail "-o a writable file in a read-only folder: $(cat err.txt)"
  as_nobody "$P" fig1.pa -o new.c 2>err.txt; grep -q "cannot write 'new.c': Permission denied" err.txt ||
    fail "-o a new file in a read-only folder: $(cat err.txt)"
  [ "$(ls "$nb" | sort | tr '\n' ' ')" = "fig1.pa out.c " ] || fail "as nobody, files were left: $(ls "$nb")"
  rm -rf "$nb"
fi
# a signal during the run: the intermediates go, parrayc ends by the signal
printf '#include <unistd.h>\n#mainhost {\n  sleep(30);\n  return 0;\n}\n' >sleep.pa
TMPDIR=$PWD/tmp "$P" --run sleep.pa &
pid=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -n "$(ls tmp)" ] && [ -e tmp/*/sleep ] && break; sleep 1; done
kill -TERM $pid
wait $pid
st=$?
[ $st -eq 143 ] && [ -z "$(ls tmp)" ] || fail "SIGTERM during --run: status $st, left $(ls -R tmp)"
# a signal while translating ends parrayc at once (signals are held only
# while it writes and builds): an input that never ends, on standard input
# from a FIFO of the test's own that this shell keeps open
rm -f never.fifo && mkfifo never.fifo && exec 3<>never.fifo || exit 2
"$P" - -o stdin.c <never.fifo 2>/dev/null &
pid=$!
sleep 1
t0=$(date +%s)
kill -TERM $pid
wait $pid
st=$? t1=$(date +%s)
exec 3>&-
rm -f never.fifo
[ $st -eq 143 ] && [ $((t1 - t0)) -lt 20 ] && [ ! -e stdin.c ] ||
  fail "SIGTERM while translating: status $st after $((t1 - t0)) s$( [ -e stdin.c ] && echo ', stdin.c written')"
chmod 755 ro && cd .. || exit 2

# make: objects with -MD dependencies; editing the header rebuilds both
rm -f main.o trace.o main.d trace.d prog
cat >Makefile <<EOF
prog: main.o trace.o
	"$P" --build \$^ -o \$@
%.o: src/%.pa
	"$P" -c -MD -I src/inc \$< -o \$@
-include main.d trace.d
EOF
check "make" make -s
[ "$(./prog)" = "trace 66, transpose ok" ] || fail "make: program output"
make -q || fail "make: not up to date after a build"
sleep 1 && touch src/layout.pah
make -q 2>/dev/null && fail "make: editing layout.pah does not rebuild"
check "make after editing the header" make -s
touch src/inc/sizes.h
make -q 2>/dev/null && fail "make: editing sizes.h does not rebuild"

# ninja: deps = gcc reads the same rules
if command -v ninja >/dev/null; then
  mkdir -p nj && cat >nj/build.ninja <<EOF
rule pa
  command = "$P" -c -MD -MF \$out.d -I ../src/inc \$in -o \$out
  depfile = \$out.d
  deps = gcc
rule link
  command = "$P" --build \$in -o \$out
build main.o: pa ../src/main.pa
build trace.o: pa ../src/trace.pa
build prog: link main.o trace.o
EOF
  (cd nj && ninja >/dev/null) || fail "ninja"
  [ "$(cd nj && ninja -n | grep -c 'pa\|link')" = 0 ] || fail "ninja: not up to date after a build"
  sleep 1 && touch src/layout.pah
  (cd nj && ninja -n -d explain 2>&1) | grep -q 'layout.pah' || fail "ninja: editing layout.pah does not rebuild"
fi

[ $fails -eq 0 ] && echo "driver: ok"
exit $((fails > 0))
