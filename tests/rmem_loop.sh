#!/usr/bin/env bash
# rmem_loop.sh PARRAYC WORKDIR: an rmem block whose size names a macro, created
# 200,000 times in a loop, runs in a fraction of a second: the runtime's check that
# the block fits on the thread's stack asks the system for the stack once a thread
# (pthread_getattr_np reads /proc/self/maps on the main thread: 6 s of CPU before).
# A wide margin, not a timing: the program must finish within 2 s of CPU (ulimit -t),
# and print the right sum.
set -u
[ $# -eq 2 ] || { echo "usage: $0 PARRAYC WORKDIR" >&2; exit 2; }
P=$1 W=$2
case $P in /*) ;; *) P=$(pwd)/$P ;; esac
rm -rf "$W" && mkdir -p "$W" && cd "$W" || exit 2
cat >loop.pa <<'PA'
#include <stdio.h>
#define T 8
#parray {rmem float [T][T]} R
int main(void)
{
  double s = 0;
  for (int i = 0; i < 200000; i++) {
    #create R(r)
    r[i % 64] = (float)(i % 1000);
    s += r[i % 64];
  }
  printf("%.0f\n", s);
  return 0;
}
PA
"$P" --build loop.pa -o loop || { echo "FAIL: loop.pa did not build" >&2; exit 1; }
out=$( (ulimit -t 2; ./loop) 2>&1)
rc=$?
if [ $rc -ne 0 ] || [ "$out" != 99900000 ]; then
  echo "FAIL: 200,000 rmem #creates in a loop: status $rc, printed '$out' (want 99900000 within 2 s of CPU)" >&2
  exit 1
fi
echo "ok: 200,000 rmem #creates in a loop"
