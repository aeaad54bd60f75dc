/* inline, restrict, register, volatile, _Bool, _Noreturn and a
 * program's own function named exit_now. */
#include <stdio.h>
#include <stdlib.h>

static inline int square(int x) { return x * x; }

static void add(int n, int *restrict out, const int *restrict in)
{
    for (register int i = 0; i < n; i++)
        out[i] += in[i];
}

_Noreturn static void exit_now(int code)
{
    fflush(stdout);
    exit(code);
}

int main(void)
{
    int a[3] = {1, 2, 3}, b[3] = {10, 20, 30};
    volatile int v = square(9);
    _Bool flag = v;
    add(3, a, b);
    printf("%d %d %d %d %d\n", a[0], a[1], a[2], v, flag);
    exit_now(0);
}
