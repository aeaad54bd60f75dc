/* Bit-fields, signed and unsigned, and their wrap-around. */
#include <stdio.h>

struct flags {
    unsigned ready : 1;
    unsigned count : 3;
    signed level : 4;
    unsigned : 0;
    unsigned long long big : 40;
};

int main(void)
{
    struct flags f = {1, 7, -8, 0};
    f.count++;                 /* wraps to 0 */
    f.level = f.level + 15;    /* 7 */
    f.big = (1ull << 40) - 1;
    f.big += 2;                /* wraps to 1 */
    printf("%u %u %d %llu %zu\n", f.ready, f.count, f.level, (unsigned long long)f.big,
           sizeof(struct flags) >= 8);
    return 0;
}
