#!/usr/bin/env bash
# projects.sh BUILD_DIR SOURCE_DIR WORKDIR
# A user's projects outside the repository against an installed (and moved)
# parrayc: tests/projects/make (README's Makefile: objects, then -lopenblas)
# builds and runs; tests/projects/plain configured with
# -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON (a machine without MPI) builds and runs,
# and COMPONENTS mpi is refused there with a message; tests/projects/mpi
# (COMPONENTS mpi) builds and runs under mpirun; tests/projects/cuda
# (parray_enable_cuda, the cuda array declared in a header found only
# through the target's include directories) is built as CUDA where nvcc is;
# an MPI and an OpenMP translation built by cc with pkg-config parray-mpi and
# parray-omp run.  A part whose back end this install lacks is reported and
# skipped; with none runnable, exit 77.
set -u
[ $# -eq 3 ] || { echo "usage: $0 BUILD_DIR SOURCE_DIR WORKDIR" >&2; exit 2; }
B=$(cd "$1" && pwd) S=$(cd "$2" && pwd) W=$3
rm -rf "$W" && mkdir -p "$W" && cd "$W" && W=$(pwd) || exit 2
T=$S/tests/projects
fails=0 ran=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
run() { local log=$1; shift; "$@" >"$log" 2>&1 || { tail -n 30 "$log" >&2; return 1; }; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

run install.log cmake --install "$B" --prefix "$W/stage" || { fail "cmake --install"; exit 1; }
mv "$W/stage" "$W/prefix" && prefix=$W/prefix
# the library folder: lib, or lib/<multiarch> on Debian
pc=$(find "$prefix" -path '*/pkgconfig/parray.pc' | head -n 1)
[ -n "$pc" ] || { fail "no pkgconfig/parray.pc under $prefix"; exit 1; }
libdir=$(dirname "$(dirname "$pc")")
have=$(sed -n 's/^backends=//p' "$pc")
has() { case " $have " in *" $1 "*) return 0 ;; esac; return 1; }

# ---- a plain C project where MPI is not found ----------------------------------
ran=$((ran + 1))
if run plain_cfg.log cmake -S "$T/plain" -B plain -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON; then
  grep -q 'Parray::mpi exists' plain_cfg.log && fail "plain: Parray::mpi defined though MPI is disabled"
  run plain_build.log cmake --build plain || fail "plain: build"
  [ "$(./plain/hello 2>&1)" = "plain: 3 12 21 30" ] || fail "plain: hello printed '$(./plain/hello 2>&1)'"
else
  fail "plain: find_package(Parray) without MPI"
fi
# asking for mpi there is an error that says why
mkdir -p plain_mpi && sed 's/OPTIONAL_COMPONENTS mpi/COMPONENTS mpi/' "$T/plain/CMakeLists.txt" >plain_mpi/CMakeLists.txt
cp "$T/plain/hello.pa" plain_mpi/
if cmake -S plain_mpi -B plain_mpi/b -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON >plain_mpi.log 2>&1; then
  fail "plain: COMPONENTS mpi accepted without MPI"
elif has mpi; then
  grep -q 'found no MPI' plain_mpi.log || fail "plain: COMPONENTS mpi refused without the reason: $(grep -i parray plain_mpi.log | head -n 3)"
fi

# ---- an MPI project ----------------------------------------------------------------
if has mpi && command -v mpirun >/dev/null 2>&1; then
  ran=$((ran + 1))
  if run mpi_cfg.log cmake -S "$T/mpi" -B mpi -DCMAKE_PREFIX_PATH="$prefix" && run mpi_build.log cmake --build mpi; then
    out=$(mpirun -np 2 ./mpi/ranks 2>&1 | sort)
    [ "$out" = "$(printf 'mpi: process 0 of 2, k 7\nmpi: process 1 of 2, k 7')" ] || fail "mpi: ranks printed '$out'"
  else
    fail "mpi: find_package(Parray COMPONENTS mpi) and build"
  fi
else
  echo "note: no mpi back end or no mpirun: the MPI project is skipped"
fi

# ---- a CUDA project (built, not run) ---------------------------------------------
nvcc=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })
if has cuda && [ -n "$nvcc" ]; then
  ran=$((ran + 1))
  if run cuda_cfg.log cmake -S "$T/cuda" -B cuda -DCMAKE_PREFIX_PATH="$prefix"; then
    arch=$(sed -n 's/^set(Parray_CUDA_ARCHITECTURES "\(.*\)")/\1/p' "$libdir"/cmake/Parray/ParrayConfig.cmake)
    grep -q "CUDA architectures: $arch\$" cuda_cfg.log || fail "cuda: default architecture not the runtime's ($arch): $(grep 'CUDA arch' cuda_cfg.log)"
    run cuda_build.log cmake --build cuda -v || fail "cuda: build"
    grep -q 'gpu.pa.cu' cuda_build.log || fail "cuda: gpu.pa was not translated to CUDA (its cuda array is in inc/kern.pah)"
    grep -q "arch=compute_$arch\|sm_$arch" cuda_build.log || fail "cuda: nvcc not given sm_$arch"
    [ -x cuda/gpu ] || fail "cuda: no executable"
  else
    fail "cuda: configuring"
  fi
else
  echo "note: no cuda back end or no nvcc: the CUDA project is skipped"
fi

# ---- a Make project: README's Makefile, objects then -lopenblas -----------------
if [ -e /usr/include/cblas.h ] || [ -e /usr/include/x86_64-linux-gnu/cblas.h ]; then
  ran=$((ran + 1))
  cp -r "$T/make" make
  if run make.log make -C make PARRAYC="$prefix/bin/parrayc"; then
    [ "$(./make/prog)" = "dot 14" ] || fail "make: prog printed '$(./make/prog 2>&1)'"
    grep -q 'main.pa' make/main.d || fail "make: main.d does not name main.pa"
    touch make/main.pa && run make2.log make -C make PARRAYC="$prefix/bin/parrayc" &&
      grep -q 'parrayc -c -MD main.pa' make2.log || fail "make: editing main.pa did not rebuild main.o"
  else
    fail "make: README's Makefile (parrayc --build main.o util.o -lopenblas)"
  fi
else
  echo "note: no cblas.h: the Make project is skipped"
fi

# ---- pkg-config: an MPI and an OpenMP translation built by cc --------------------
export PKG_CONFIG_PATH=$libdir/pkgconfig
P=$prefix/bin/parrayc
if has mpi && command -v mpirun >/dev/null 2>&1; then
  ran=$((ran + 1))
  "$P" "$T/mpi/ranks.pa" -o ranks.c || fail "pkg-config mpi: translating"
  # shellcheck disable=SC2046
  if run pc_mpi.log cc $(pkg-config --cflags parray-mpi) ranks.c -o ranks $(pkg-config --libs parray-mpi); then
    out=$(mpirun -np 2 ./ranks 2>&1 | sort)
    [ "$out" = "$(printf 'mpi: process 0 of 2, k 7\nmpi: process 1 of 2, k 7')" ] || fail "pkg-config mpi: printed '$out'"
  else
    fail "cc with pkg-config parray-mpi"
  fi
fi
if has omp; then
  ran=$((ran + 1))
  "$P" "$T/omp.pa" -o omp.c || fail "pkg-config omp: translating"
  # shellcheck disable=SC2046
  if run pc_omp.log cc $(pkg-config --cflags parray-omp) omp.c -o omp $(pkg-config --libs parray-omp); then
    [ "$(./omp)" = "omp: 4 4 4 4" ] || fail "pkg-config omp: printed '$(./omp)'"
  else
    fail "cc with pkg-config parray-omp"
  fi
fi
for m in parray $(has omp && echo parray-omp) $(has mpi && echo parray-mpi) $(has cuda && echo parray-cuda); do
  pkg-config --exists "$m" || fail "no pkg-config module $m"
done

[ $fails -eq 0 ] && echo "projects: ok ($ran parts)"
exit $((fails > 0))
