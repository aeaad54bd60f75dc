/* The program's own strlen, memcpy and abs, with types that differ from
 * the library's: no header declares them here. */
#include <stdio.h>

int strlen(const char *s)
{
    int n = 0;
    while (s[n])
        n++;
    return n * 10; /* not the library's answer */
}

char *memcpy(char *to, const char *from, int n)
{
    for (int i = 0; i < n; i++)
        to[n - 1 - i] = from[i]; /* reversed */
    return to;
}

long abs(long x) { return x < 0 ? -x + 1000 : x; }

int main(void)
{
    char out[8] = {0};
    printf("%d\n", strlen("abcd"));
    printf("%s\n", memcpy(out, "abc", 3));
    printf("%ld %ld\n", abs(-5), abs(7));
    return 0;
}
