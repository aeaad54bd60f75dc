#!/usr/bin/env bash
# perf_sgemm_host_sizes.sh PARRAYC SOURCE_DIR WORKDIR: samples/perf_sgemm_host.pa at
# sizes and thread counts other than its N = 256 and 2 threads: N not a multiple of
# the blocking (up to 1024 A read and C written in place, a last micro-panel of 1 to 5
# rows in a tile of as many, the last columns' vector stored in part; below 256 B read
# in place, its last strip's last vector moved left to end at column N - 1: at 33 one
# column, over the strip before, at 45 and 61 part of the strip; at 10 rows shorter
# than an AVX-512 vector, read masked; at 128 whole; at 1025 A and B packed from the
# caller's arrays with zeros and C through its padded copy; at 2048 on one thread the
# columns in two parts, C through a copy whose rows are not 4 KB apart; at 384 k in
# three whole blocks of 128, packed by #copy; k in blocks of 256, KC as built for AMD Zen,
# at 100, 300, 512 and 1025, and KC's choice by gcc's target), 1, 2, 3, 4, 5 and 12
# threads (one up to N = 64, whatever THREADS says; at N = 600 more threads than parts
# of the columns), each product checked by the sample against float64 (into a C on 64
# bytes, one 4 bytes past, and with A and B ending at an unreadable page: a read past
# either stops it); on x86, the vector widths of AVX2 and AVX-512 built warning-free at
# N = 33, 61, 66, 100 (the last 4 columns in half vectors), 129 and 300, their
# register tiles in registers (objdump), and run where this CPU has them; and the
# sizes it cannot take stop the build at the sample's #error, which names them.
set -u
[ $# -eq 3 ] || { echo "usage: $0 PARRAYC SOURCE_DIR WORKDIR" >&2; exit 2; }
P=$1 S=$(cd "$2" && pwd) W=$3
case $P in /*) ;; *) P=$(pwd)/$P ;; esac
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 2
pa=$S/samples/perf_sgemm_host.pa
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

for case in "1 1" "10 1" "33 1" "45 2" "61 1" "100 3" "128 2" "257 1" "300 5" "512 4" "600 12" "1025 2" "2048 1" "384 1"; do
  read -r n t <<<"$case"
  out=$("$P" --run -DN="$n" -DTHREADS="$t" "$pa" -o "sgemm_${n}_$t" 2>err.txt) ||
    fail "N = $n, $t threads: $(cat err.txt)"
  [ "$n" -le 64 ] && t=1 # the sample's one thread up to N = 64
  [ "$out" = "perf_sgemm_host: N = $n, $t omp threads, ok" ] || fail "N = $n, $t threads printed '$out'"
done

# k in blocks of 256 (KC, AMD Zen's): a last block part-filled (N = 300 and 1025), two
# whole ones (512), one (100: below 256 B read in place)
for case in "100 3" "300 2" "512 1" "1025 2"; do
  read -r n t <<<"$case"
  out=$("$P" --run -DN="$n" -DTHREADS="$t" -DKC=256 "$pa" -o "sgemm_kc256_${n}_$t" 2>err.txt) ||
    fail "KC = 256, N = $n, $t threads: $(cat err.txt)"
  [ "$out" = "perf_sgemm_host: N = $n, $t omp threads, ok" ] || fail "KC = 256, N = $n, $t threads printed '$out'"
done

if [ "$(uname -m)" = x86_64 ]; then
  # KC as the C compiler chooses it: 256 where gcc builds for a Zen (__znverN__), 128 for
  # generic code, -DKC over both (the translation is one text for every KC)
  if "$P" -DN=300 -DTHREADS=2 "$pa" -o kc.c 2>err.txt; then
    for want in "-march=znver3:256" "-march=x86-64-v3:128" "-march=znver3 -DKC=128:128"; do
      opts=${want%:*} kc=${want##*:}
      # shellcheck disable=SC2086 # opts: one or two options
      got=$(gcc $opts -fopenmp -I"$S/include" -dM -E kc.c 2>err.txt | sed -n 's/^#define KC //p')
      [ "$got" = "$kc" ] || fail "KC built with $opts: '$got', want $kc ($(head -2 err.txt))"
    done
  else
    fail "translating for KC: $(head -3 err.txt)"
  fi
  for isa in "avx2:-mavx2 -mfma" "avx512f:-mavx512f -mfma"; do
    for n in 33 61 66 100 129 300; do
      flag=${isa%%:*} opts=${isa#*:}
      # shellcheck disable=SC2086 # opts: two options
      "$P" --build -DN=$n -DTHREADS=2 $opts -Wall -Wextra -Werror "$pa" -o "sgemm_${flag}_$n" 2>err.txt ||
        { fail "$flag, N = $n: $(head -3 err.txt)"; continue; }
      # every register tile in registers: an FMA whose addend is in memory (vfmadd213ps
      # from memory; with 132 and 231 memory is a factor, A's or B's) is a tile gcc kept
      # in memory, a load and a store an FMA (N = 66 and 129 once, 12 % of the time); not
      # under a sanitizer (parrayc --build of a sanitized build adds it), whose checks
      # keep everything in memory
      if command -v objdump >/dev/null && ! nm "sgemm_${flag}_$n" 2>/dev/null | grep -q '__[at]san_init' &&
        objdump -d "sgemm_${flag}_$n" | grep -E 'vfmadd213ps +[^,{]*\([^)]*\),' >spills.txt; then
        fail "$flag, N = $n: a register tile kept in memory: $(head -2 spills.txt)"
      fi
      grep -qw "$flag" /proc/cpuinfo || continue # built only: this CPU lacks it
      out=$("./sgemm_${flag}_$n") || fail "$flag, N = $n: exit status $?"
      t=2 && [ "$n" -le 64 ] && t=1
      [ "$out" = "perf_sgemm_host: N = $n, $t omp threads, ok" ] || fail "$flag, N = $n printed '$out'"
    done
  done
fi

for bad in "-DN=0:N must be between 1 and 40000" "-DN=40001:N must be between 1 and 40000" \
           "-DTHREADS=0:THREADS must be between 1 and 256" "-DTHREADS=257:THREADS must be between 1 and 256" \
           "-DKC=64:KC must be 128 or 256"; do
  flag=${bad%%:*} msg=${bad#*:}
  if "$P" --build "$flag" "$pa" -o bad 2>err.txt; then
    fail "$flag built"
  else
    grep -q "perf_sgemm_host.pa:[0-9]*:[0-9]*: error: #error \"$msg\"" err.txt || fail "$flag: no '$msg' in: $(head -3 err.txt)"
  fi
done

[ $fails -eq 0 ] && echo "perf_sgemm_host_sizes: ok"
exit $((fails != 0))
