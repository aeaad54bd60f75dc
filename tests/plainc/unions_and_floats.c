/* Unions, floating point and names from <math.h> that the program never
 * includes: y0, j1, gamma, nan. */
#include <stdio.h>

union bits { float f; unsigned u; };
static double y0 = 0.25, j1 = 4.0;
static int gamma(int n) { return n <= 1 ? 1 : n * gamma(n - 1); }
static const char *nan(void) { return "not a number"; }

int main(void)
{
    union bits b = {.f = 1.0f};
    printf("%08x %.2f %d %s\n", b.u, y0 * j1, gamma(5), nan());
    printf("%.3f %g\n", 1.0 / 3, 1e10);
    return 0;
}
