/* File-scope objects: const tables, string arrays, pointers into them,
 * static locals that count calls. */
#include <stdio.h>

static const int primes[] = {2, 3, 5, 7, 11};
static const char *const names[] = {"zero", "one", "two"};
static const int *middle = &primes[2];
char greeting[] = "hello";

static int calls(void)
{
    static int n;
    return ++n;
}

int main(void)
{
    calls();
    calls();
    greeting[0] = 'j';
    printf("%d %d %s %s %d %zu\n", *middle, middle[2], names[2], greeting, calls(),
           sizeof primes / sizeof *primes);
    return 0;
}
