/* Variable-length arrays, shadowing, switch with fall-through,
 * do-while and the comma operator. */
#include <stdio.h>

static int fill(int n, int m, int a[n][m])
{
    int s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            s += a[i][j] = i * m + j;
    return s;
}

int main(void)
{
    int n = 3, m = 4;
    int a[n][m];
    int x = 1;
    {
        int x = 2;
        printf("inner %d\n", x);
    }
    switch (fill(n, m, a)) {
    case 66:
        printf("sum 66, ");
        /* fall through */
    case 0:
        printf("a[2][3] %d\n", a[2][3]);
        break;
    default:
        printf("other\n");
    }
    int k = 0;
    do
        k++, x *= 2;
    while (k < 3);
    printf("outer %d %d %zu\n", x, k, sizeof a);
    return 0;
}
