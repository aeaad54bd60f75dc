#!/usr/bin/env bash
# install.sh BUILD_DIR SOURCE_DIR WORKDIR [--deb]
# Installs parrayc as a user would, into a prefix that is then moved (so
# nothing of the build tree or the configured prefix is at hand), and checks
# that the installed parrayc builds and runs programs from there, that
# examples/cmake-user builds and passes against it (find_package(Parray)),
# that a program builds by plain flags (pkg-config parray), and that the
# installed documentation's links and tutorial work where it is installed.
# --deb: the prefix is the .deb that cpack makes, unpacked with dpkg -x.
set -u
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR SOURCE_DIR WORKDIR [--deb]" >&2; exit 2; }
B=$(cd "$1" && pwd) S=$(cd "$2" && pwd) W=$3 deb=${4:-}
rm -rf "$W" && mkdir -p "$W" && cd "$W" && W=$(pwd) || exit 2
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
run() { local log=$1; shift; "$@" >"$log" 2>&1 || { tail -n 30 "$log" >&2; return 1; }; }

if [ "$deb" = --deb ]; then
  run cpack.log cpack --config "$B/CPackConfig.cmake" -G DEB -B "$W/pkg" || { fail "cpack"; exit 1; }
  pkg=$(ls "$W"/pkg/*.deb 2>/dev/null | head -n 1)
  [ -n "$pkg" ] || { fail "cpack made no .deb"; exit 1; }
  dpkg-deb -c "$pkg" >contents || fail "dpkg-deb -c"
  grep -q 'bin/parrayc$' contents || fail ".deb has no bin/parrayc"
  grep -q 'libparray.a$' contents || fail ".deb has no libparray.a"
  dpkg-deb -f "$pkg" Package Version
  run dpkgx.log dpkg -x "$pkg" "$W/root" || { fail "dpkg -x"; exit 1; }
  prefix=$W/root/usr
else
  # a relative prefix, as a user types it: the working folder's ($W)
  run install.log cmake --install "$B" --prefix stage || { fail "cmake --install"; exit 1; }
  mv "$W/stage" "$W/moved" && prefix=$W/moved   # relocated: the configured prefix is gone
fi
P=$prefix/bin/parrayc
[ -x "$P" ] || { fail "no $P"; exit 1; }
# the library folder: lib, or lib/<multiarch> on Debian
pc=$(find "$prefix" -path '*/pkgconfig/parray.pc' | head -n 1)
[ -n "$pc" ] || { fail "no pkgconfig/parray.pc under $prefix"; exit 1; }
libdir=$(dirname "$(dirname "$pc")")

# the installed parrayc finds its runtime next to itself, whatever PARRAY_HOME says
cp "$S/samples/fig1_natural.pa" fig1.pa
PARRAY_HOME=/nonexistent "$P" --run -v fig1.pa -o fig1 >run.out 2>run.err || fail "installed parrayc --run: $(cat run.err)"
grep -q 'fig1: ok' run.out || fail "installed parrayc --run: wrong output"
grep -q -- "-I $prefix/include" run.err || fail "headers not from $prefix: $(grep -- -I run.err)"
grep -q -- "-L $libdir" run.err || fail "libraries not from $prefix: $(grep -- -L run.err)"
"$P" --version >/dev/null || fail "--version"

# the example project, configured and built as a user would, then its tests
ex=$S/examples/cmake-user
run cfg.log cmake -S "$ex" -B ex -DCMAKE_PREFIX_PATH="$prefix" || fail "configuring examples/cmake-user"
grep -q 'Parray 0.1.0, back ends: c;pthd' cfg.log || fail "Parray_VERSION / Parray_BACKENDS: $(grep Parray cfg.log)"
run build.log cmake --build ex -j2 || fail "building examples/cmake-user"
if grep -q '^backends=.*cuda' "$pc" && { command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; }; then
  [ -x ex/gpu_sgemm ] || fail "gpu_sgemm not built though nvcc and Parray::cuda are here"
  cat ex/CMakeFiles/gpu_sgemm.dir/link.txt ex/CMakeFiles/gpu_sgemm.dir/linkLibs.rsp 2>/dev/null | grep -q 'libparray_cuda.a' || fail "gpu_sgemm does not link Parray::cuda"
fi
run ctest.log ctest --test-dir ex --output-on-failure || fail "examples/cmake-user tests"
grep -q 'host_sgemm .*Passed' ctest.log || fail "host_sgemm did not pass"

# a version too new is refused
mkdir -p too_new && printf 'cmake_minimum_required(VERSION 3.20)\nproject(t LANGUAGES C)\nfind_package(Parray 99 REQUIRED)\n' >too_new/CMakeLists.txt
cmake -S too_new -B too_new/b -DCMAKE_PREFIX_PATH="$prefix" >too_new.log 2>&1 && fail "find_package(Parray 99) succeeded"

# components: those of this build are found, an unknown one is refused
have=$(sed -n 's/^backends=//p' "$pc")
want=""
for c in cuda mpi; do case " $have " in *" $c "*) want="$want $c" ;; esac; done
case " $have " in *" omp "*) want="$want openmp" ;; esac
mkdir -p comps && printf 'cmake_minimum_required(VERSION 3.20)\nproject(t LANGUAGES C)\nfind_package(Parray 0.1 REQUIRED COMPONENTS %s)\nforeach(t parray cuda mpi)\n  if(TARGET Parray::${t})\n    message(STATUS "target Parray::${t}")\n  endif()\nendforeach()\n' "$want" >comps/CMakeLists.txt
run comps.log cmake -S comps -B comps/b -DCMAKE_PREFIX_PATH="$prefix" || fail "find_package(Parray COMPONENTS$want)"
for c in $want; do
  case $c in openmp) ;; *) grep -q "target Parray::$c" comps.log || fail "no Parray::$c" ;; esac
done
sed -i 's/COMPONENTS .*)$/COMPONENTS nonesuch)/' comps/CMakeLists.txt
cmake -S comps -B comps/b2 -DCMAKE_PREFIX_PATH="$prefix" >comps2.log 2>&1 && fail "find_package(Parray COMPONENTS nonesuch) succeeded"

# plain flags: parrayc, then cc with pkg-config's flags
export PKG_CONFIG_PATH=$libdir/pkgconfig
# the .deb's modules name /usr: unpacked elsewhere, that folder is their sysroot
[ "$deb" = --deb ] && export PKG_CONFIG_SYSROOT_DIR=$W/root
[ "$(pkg-config --variable=parrayc parray)" -ef "$P" ] || fail "pkg-config parrayc variable"
"$P" "$ex/host_sgemm.pa" -o plain.c || fail "translating host_sgemm.pa"
# shellcheck disable=SC2046
cc -I"$ex" $(pkg-config --cflags parray) plain.c "$ex/reference.c" -o plain $(pkg-config --libs parray) ||
  fail "cc with pkg-config parray"
./plain | grep -q 'all correct' || fail "the program built by plain flags"

# the installed documentation: laid out as in the repository, every relative
# link of its .md files names a file there, and the commands of the README,
# the tutorial, explain.md and language.md run in it as in the repository
# (the folder read-only, as /usr/share is)
doc=$prefix/share/doc/parrayc
{ [ -e "$doc/README.md" ] && [ -e "$doc/doc/tutorial.md" ]; } || fail "no $doc/README.md or doc/tutorial.md"
nlinks=0
while IFS= read -r md; do
  for l in $(grep -o '](\([^) #]*\)[) #]' "$md" | sed 's/^](//; s/.$//'); do
    case $l in http:*|https:*|mailto:*) continue ;; esac
    nlinks=$((nlinks + 1))
    [ -e "$(dirname "$md")/$l" ] || fail "installed ${md#"$doc"/} links to $l, which is not installed"
  done
done < <(find "$doc" -name '*.md')
[ "$nlinks" -gt 30 ] || fail "only $nlinks relative links found in the installed .md files"
chmod -R a-w "$doc"
for md in README.md doc/tutorial.md doc/explain.md doc/language.md; do
  sh "$S/tests/check_doc.sh" "$P" "$doc" "$doc/$md" >doc.log 2>&1 ||
    fail "the commands of $md, run in $doc: $(tail -n 20 doc.log)"
done
chmod -R u+w "$doc"

[ $fails -eq 0 ] && echo "install${deb:+ $deb}: ok"
exit $((fails > 0))
