/work/wt/drv32/tests/cli/explain.c: \
 /work/wt/drv32/tests/cli/explain.pa
