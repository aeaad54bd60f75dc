/* Pragmas parrayc passes through: GCC diagnostics, pack, an OpenMP
 * loop (without -fopenmp the loop runs as plain C). */
#include <stdio.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma pack(push, 1)
struct packed { char c; int i; };
#pragma pack(pop)

int main(void)
{
    int unused;
    int sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < 10; i++)
        sum += i;
    printf("%zu %d\n", sizeof(struct packed), sum);
    return 0;
}
#pragma GCC diagnostic pop
