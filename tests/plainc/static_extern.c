/* static and extern: tentative definitions, block-scope extern, static
 * locals, internal functions named like library ones. */
#include <stdio.h>

int counter;
int counter;          /* a second tentative definition */
extern int limit;
int limit = 3;
static int clock(void) { static int ticks; return ++ticks; }

static int next(void)
{
    extern int counter;
    return counter += clock();
}

int main(void)
{
    for (int i = 0; i < limit; i++)
        next();
    printf("%d %d\n", counter, clock());
    return 0;
}
