#!/bin/bash
# bench/host_bench.sh [OUTDIR]: on this (CPU) machine, translate samples/perf_sgemm_host.pa
# with parrayc, build it with -DN (default 2048) and -DTHREADS beside bench/host_bench.c for
# each instruction set of HOST_ISA, and time it against OpenBLAS cblas_sgemm (Debian's
# libopenblas, as many threads as the sample) held to the same instruction set, in
# alternating rounds (BENCH_REPS of them, default 11), and a naive loop once with
# BENCH_NAIVE=1.
#   HOST_ISA   "avx2 avx512" where the CPU has AVX-512, else "avx2":
#              avx2    gcc -march=x86-64-v3 (AVX2, FMA), OpenBLAS with OPENBLAS_CORETYPE=Haswell
#              avx512  gcc -march=native (AVX-512 required), OpenBLAS's own choice for the CPU
#              native  gcc -march=native, OpenBLAS's own choice (any CPU)
#              ARCH/CORE  gcc -march=ARCH, OPENBLAS_CORETYPE=CORE: another machine's code on this
#                      one (znver3/Zen: an AVX2 EPYC's -march=native)
#   THREADS    OpenBLAS's thread count and the sample's above N = 64 (it runs one thread
#              up to 64 and prints the count it used), default nproc
#   BENCH_CPUTIME=1  time each call by the calling thread's CPU time instead of the
#              clock (meaningful with THREADS=1 only: a loaded machine's preemption left out)
#   BENCH_CALLS=n  calls timed together in a round (default: one; with BENCH_CPUTIME=1, as
#              many as last 1 ms where a call is shorter: small N)
#   BENCH_C_OFFSET=bytes  C that many bytes past a page instead of where malloc puts it
#   BENCH_AB=REV  also time the sample as of git revision REV (translated and built alike,
#              its function renamed), in the same rounds: what a change to it bought
# Writes OUTDIR/host.csv (one row per instruction set and variant) and host_machine.txt,
# and prints a table.
set -eo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
parrayc=${PARRAYC:-$root/build-perf/compiler/parrayc}
out=${1:-/tmp/host-bench}
n=${BENCH_N:-2048}
threads=${THREADS:-$(nproc)}
has_avx512=$(grep -qw avx512f /proc/cpuinfo && echo 1 || echo 0)
if [ "$has_avx512" = 1 ]; then isas=${HOST_ISA:-avx2 avx512}; else isas=${HOST_ISA:-avx2}; fi
build=$root/build-perf/host
mkdir -p "$out" "$build"
. "$root/bench/progress.sh"
read -ra isa_list <<<"$isas"
steps=$((1 + 2 * ${#isa_list[@]}))
progress 1 "$steps" "translating perf_sgemm_host.pa (N = $n, $threads threads)"
"$parrayc" -DN="$n" -DTHREADS="$threads" "$root/samples/perf_sgemm_host.pa" -o "$build/perf_sgemm_host.c"
ab=${BENCH_AB:-}
if [ -n "$ab" ]; then
  git -C "$root" show "$ab:samples/perf_sgemm_host.pa" > "$build/perf_sgemm_host_ab.pa" ||
    { echo "host_bench.sh: BENCH_AB=$ab: no samples/perf_sgemm_host.pa at that revision" >&2; exit 2; }
  "$parrayc" -DN="$n" -DTHREADS="$threads" "$build/perf_sgemm_host_ab.pa" -o "$build/perf_sgemm_host_ab.c"
fi
libdir=$(dirname "$parrayc")/../runtime
lscpu | grep -E "Model name|^CPU\(s\)" | tee "$out/host_machine.txt"
{ grep -m2 -E "^(cpu family|model)\s" /proc/cpuinfo || true; } | tr -s '\t ' ' ' | tee -a "$out/host_machine.txt"
echo "isa,variant,N,unit,ms_median,ms_min,rate,ratio,relerr,round_ratio_median,round_ratio_min,round_ratio_max" > "$out/host.csv"
step=1
for isa in "${isa_list[@]}"; do
  coretype=
  case $isa in
    avx2) march=x86-64-v3 coretype=Haswell ;;
    avx512) march=native
      [ "$has_avx512" = 1 ] || { echo "host_bench.sh: HOST_ISA avx512: this CPU has no AVX-512" >&2; exit 2; } ;;
    native) march=native ;;
    */*) march=${isa%%/*} coretype=${isa#*/} ;;
    *) echo "host_bench.sh: HOST_ISA: unknown instruction set '$isa' (avx2, avx512, native or ARCH/CORE)" >&2; exit 2 ;;
  esac
  tag=${isa//\//_} # a file name
  cflags=(-O3 -march="$march" -fopenmp -I"$root/include" -Wall -Wextra)
  step=$((step + 1))
  progress "$step" "$steps" "$isa: building (gcc -march=$march)"
  gcc "${cflags[@]}" -DN="$n" -DTHREADS="$threads" -Dmain=pa_sample_main -c "$build/perf_sgemm_host.c" \
    -o "$build/perf_sgemm_host_$tag.o"
  ab_objs=()
  if [ -n "$ab" ]; then
    gcc "${cflags[@]}" -DN="$n" -DTHREADS="$threads" -Dmain=pa_sample_main -c "$build/perf_sgemm_host_ab.c" \
      -o "$build/perf_sgemm_host_ab_$tag.o"
    objcopy --redefine-sym perf_sgemm_host=perf_sgemm_host_ab --redefine-sym pa_sample_main=pa_sample_main_ab \
      "$build/perf_sgemm_host_ab_$tag.o"
    ab_objs=(-DBENCH_AB "$build/perf_sgemm_host_ab_$tag.o")
  fi
  gcc "${cflags[@]}" -DBENCH_N="$n" "$root/bench/host_bench.c" "$build/perf_sgemm_host_$tag.o" "${ab_objs[@]}" \
    -L"$libdir" -lparray -lopenblas -lm -lpthread -o "$build/host_bench_$tag"
  step=$((step + 1))
  progress "$step" "$steps" "$isa: timing it against OpenBLAS${coretype:+ ($coretype)} (${BENCH_REPS:-11} rounds)"
  echo "== $isa: gcc -march=$march, OpenBLAS ${coretype:-as it chooses}, $threads threads"
  part=$out/host_$tag.part
  OPENBLAS_CORETYPE=$coretype OPENBLAS_NUM_THREADS=$threads "$build/host_bench_$tag" "$part"
  sed "s|^|$isa,|" "$part" >> "$out/host.csv"
  rm -f "$part"
done
echo
echo "| isa | variant | ms (median) | GFLOP/s | of OpenBLAS | per round: median (range) |"
echo "|---|---|---|---|---|---|"
awk -F, 'NR > 1 { printf "| %s | %s | %.4g | %.1f | %.3f | %.3f (%.3f to %.3f) |\n", $1, $2, $5, $7, $8, $10, $11, $12 }' \
  "$out/host.csv"
