/* goto, labels named like library functions, a loop made of jumps. */
#include <stdio.h>

int main(void)
{
    int i = 0, total = 0;
again:
    total += i;
    if (++i < 5)
        goto again;
    if (total != 10)
        goto abort;
    printf("total %d\n", total);
    goto free;
abort:
    printf("wrong\n");
    return 1;
free:
    {
        int j = 3;
        while (j--) {
            if (j == 1)
                continue;
            printf("j %d\n", j);
        }
    }
    return 0;
}
