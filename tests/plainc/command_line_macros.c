// plainc-cflags: -Dtype=double -Dline=7 -Dcount=3 -Dfile=f -Dsize=n -UNDEBUG
/* Macros given on the command line, named like the parameters of the
 * runtime's prototypes: in a program with no directive they reach only
 * the program. */
#include <stdio.h>

static type half(type x) { return x / 2; }

int main(void)
{
    int file = line, size = count;
    printf("%.2f %d %d\n", half(5), file, n);
    return 0;
}
