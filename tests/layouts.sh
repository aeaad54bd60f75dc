#!/usr/bin/env bash
# layouts.sh BUILD_DIR SOURCE_DIR WORKDIR
# parray_add_sources in every layout of a user's project, against an
# installed (and moved) parrayc: tests/projects/layouts (one .pa in two
# targets whose definitions, one a generator expression, decide a #parray;
# two hello.pa in different folders in one target; calls from a
# subdirectory on a target above and on one of a directory read already; a
# definition from a linked library), with make and with ninja where it is:
# configure, build, run; build again (nothing to do); touch a header (its
# dependents rebuild, nothing else); touch a .pa (likewise).  Then the
# errors: each names the caller's line, not CMakeLists.txt:DEFERRED.
set -u
[ $# -eq 3 ] || { echo "usage: $0 BUILD_DIR SOURCE_DIR WORKDIR" >&2; exit 2; }
B=$(cd "$1" && pwd) S=$(cd "$2" && pwd) W=$3
rm -rf "$W" && mkdir -p "$W" && cd "$W" && W=$(pwd) || exit 2
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
run() { local log=$1; shift; "$@" >"$log" 2>&1 || { tail -n 30 "$log" >&2; return 1; }; }

run install.log cmake --install "$B" --prefix "$W/stage" || { fail "cmake --install"; exit 1; }
mv "$W/stage" "$W/prefix" && prefix=$W/prefix

# what a build did: the lines that are not make's or ninja's bookkeeping
# (CMake running again counts)
work() { grep -v -e 'Built target' -e '^g\?make' -e '^ninja: no work to do' "$1"; }
# the outputs newer than the stamp file
newer() { find "$1" -newer "$2" -type f \( -name '*.o' -o -name '*.pa.c' -o -name '*.pa.cu' -o -name '*.a' \
               -o -name big -o -name small -o -name names \) | sed "s|^$1/||" | sort; }
expect_out() {
  local got
  got=$("$1" 2>&1)
  [ "$got" = "$2" ] || fail "$3: $(basename "$1") printed '$got', not '$2'"
}

gens="Unix Makefiles"
command -v ninja >/dev/null 2>&1 && gens="$gens;Ninja"
IFS=';'
for gen in $gens; do
  unset IFS
  g=${gen%% *}
  src=$W/$g-src b=$W/$g-build
  cp -r "$S/tests/projects/layouts" "$src"
  if ! run "$g-cfg.log" cmake -G "$gen" -S "$src" -B "$b" -DCMAKE_PREFIX_PATH="$prefix"; then
    fail "$g: configuring"; continue
  fi
  grep -q 'DEFERRED\|Warning' "$g-cfg.log" && fail "$g: configuring warned: $(grep -A3 'DEFERRED\|Warning' "$g-cfg.log")"
  run "$g-build1.log" cmake --build "$b" -j2 || { fail "$g: first build"; continue; }
  expect_out "$b/big" "big: 8 elements, sum 28" "$g: BIG from \$<\$<BOOL:1>:BIG>"
  expect_out "$b/small" "small: 4 elements, sum 6" "$g: the same .pa without BIG"
  expect_out "$b/names" "names: app 4 9, lib 6, extra 5, early 7" "$g: two hello.pa, sub/extra.pa, late/hello.pa, WIDE"
  for f in parray/big/shared.pa.c parray/small/shared.pa.c parray/names/app/hello.pa.c parray/names/lib/hello.pa.c \
           sub/parray/names/extra.pa.c late/parray/early/hello.pa.c; do
    [ -e "$b/$f" ] || fail "$g: no translation $f"
  done

  # a second build does nothing
  sleep 1 && touch "$W/stamp"
  run "$g-build2.log" cmake --build "$b" -j2 || fail "$g: second build"
  [ -z "$(work "$g-build2.log")" ] || fail "$g: the second build did work: $(work "$g-build2.log")"
  [ -z "$(newer "$b" "$W/stamp")" ] || fail "$g: the second build rewrote $(newer "$b" "$W/stamp" | tr '\n' ' ')"

  # a header: what includes it (big, small, names' app/hello.pa) is rebuilt, early is not
  sleep 1 && touch "$W/stamp" "$src/common/shape.pah"
  run "$g-build3.log" cmake --build "$b" -j2 || fail "$g: the build after touching common/shape.pah"
  got=$(newer "$b" "$W/stamp" | tr '\n' ' ')
  for f in parray/big/shared.pa.c parray/small/shared.pa.c parray/names/app/hello.pa.c big small names; do
    case " $got " in *" $f "*) ;; *) fail "$g: touching common/shape.pah did not rebuild $f (rebuilt: $got)" ;; esac
  done
  case " $got " in *libearly.a*|*lib/hello.pa.c*) fail "$g: touching common/shape.pah rebuilt $got" ;; esac
  # a .pa of a target of another directory: that library and what links it
  sleep 1 && touch "$W/stamp" "$src/late/hello.pa"
  run "$g-build4.log" cmake --build "$b" -j2 || fail "$g: the build after touching late/hello.pa"
  got=$(newer "$b" "$W/stamp" | tr '\n' ' ')
  [ "$got" = "early/CMakeFiles/early.dir/__/late/parray/early/hello.pa.c.o early/libearly.a late/parray/early/hello.pa.c names " ] ||
    fail "$g: touching late/hello.pa rebuilt '$got'"
  expect_out "$b/names" "names: app 4 9, lib 6, extra 5, early 7" "$g: after the rebuilds"
  sleep 1 && touch "$W/stamp"
  run "$g-build5.log" cmake --build "$b" -j2 || fail "$g: last build"
  [ -z "$(work "$g-build5.log")$(newer "$b" "$W/stamp")" ] || fail "$g: the build after the rebuilds did work: $(work "$g-build5.log")"
  IFS=';'
done
unset IFS

# ---- errors at the caller's line -------------------------------------------------
mkdir -p errs && cp "$S/tests/projects/plain/hello.pa" "$S/tests/projects/cuda/gpu.pa" errs/
cp -r "$S/tests/projects/cuda/inc" errs/
n=0
while IFS='|' read -r call want; do
  n=$((n + 1))
  printf 'cmake_minimum_required(VERSION 3.20)\nproject(e LANGUAGES C)\nfind_package(Parray REQUIRED)\nadd_executable(x)\n%s\n' \
    "$call" >errs/CMakeLists.txt
  if cmake -S errs -B "errs/b$n" -DCMAKE_PREFIX_PATH="$prefix" >"err$n.log" 2>&1; then
    fail "'$call' configured"
  else
    grep -q "$want" "err$n.log" || fail "'$call': the error does not say '$want': $(grep -A3 'CMake Error' "err$n.log")"
    grep -q '^  CMakeLists.txt:5 (parray_add_\(sources\|executable\))' "err$n.log" ||
      fail "'$call': the error is not located at CMakeLists.txt:5: $(grep -A6 'CMake Error' "err$n.log")"
  fi
done <<'EOF'
parray_add_sources(nosuch hello.pa)|no target 'nosuch'
parray_add_sources(x missing.pa)|no file 'missing.pa'
parray_add_sources(x hello.pa ./hello.pa)|already a source of target 'x'
parray_add_sources(x hello.pa LANGUAGE FORTRAN)|LANGUAGE FORTRAN: C or CUDA
parray_add_sources(x gpu.pa INCLUDE_DIRECTORIES inc)|gpu.pa uses CUDA
parray_add_executable(y hello.pa missing.pa)|no file 'missing.pa'
parray_add_sources(Parray::parray hello.pa)|is an imported target
EOF

[ $fails -eq 0 ] && echo "layouts: ok ($gens)"
exit $((fails > 0))
