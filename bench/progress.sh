# shellcheck shell=bash
# bench/progress.sh, sourced by the benchmark's scripts: progress lines on
# standard error, so a long build or run says where it is and how long it
# has taken while the logs and tables keep their form.
#   progress I N WHAT     "[I/N] WHAT (M:SS)": step I of N, the time since the script began
#   wait_jobs WHAT PID NAME...   waits for each background job PID, printing
#                                "[i/n] NAME WHAT (M:SS)", or "[i/n] NAME FAILED
#                                (M:SS)", as it ends; false when one failed
progress() {
  printf '[%d/%d] %s (%d:%02d)\n' "$1" "$2" "$3" $((SECONDS / 60)) $((SECONDS % 60)) >&2
}

wait_jobs() {
  local what=$1 i=0 n fail=0
  shift
  n=$(($# / 2))
  while [ $# -ge 2 ]; do
    i=$((i + 1))
    if wait "$1"; then
      progress "$i" "$n" "$2 $what"
    else
      progress "$i" "$n" "$2 FAILED"
      fail=1
    fi
    shift 2
  done
  return $fail
}
