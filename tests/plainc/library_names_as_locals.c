/* Locals, parameters and labels named like library functions. */
#include <stdio.h>

static int twice(int abs) { return abs * 2; }

int main(void)
{
    int abs = -3, div = 7, labs = 2, exit = 0, free = 9, malloc = 1;
    double sqrt = 2.0, pow = 3.0, exp = 1.5;
    char *strcat = "cat";
    printf("%d %d %d %d %d %d\n", abs, div, labs, exit, free, malloc);
    printf("%.1f %.1f %.1f %s %d\n", sqrt, pow, exp, strcat, twice(abs));
    if (free > 5)
        goto memset;
    printf("not here\n");
memset:
    printf("done\n");
    return exit;
}
