/* Macros and names like the ones parrayc's runtime uses: in a program
 * with no directive they are the program's. */
#include <stdio.h>

#define PARRAY_H 42
#define PARRAY_VERSION_STRING "mine"
#define PA_STATIC_ASSERT(x) ((x) ? 1 : 0)
#define PA_NULL (-1)
#define pa_memcpy(a, b) ((a) + (b))
#define INIT_GPU(d) ((d) * 3)

typedef long pa_size_t;
static int pa_init = 5;
static int pa_main(int x) { return x + pa_init; }
enum pa_mem { PA_PAGED = 10, PA_DMEM = 20 };

int main(void)
{
    pa_size_t s = PARRAY_H;
    printf("%ld %s %d %d %d %d\n", s, PARRAY_VERSION_STRING, PA_STATIC_ASSERT(0), PA_NULL,
           pa_memcpy(2, 3), INIT_GPU(4));
    printf("%d %d %d\n", pa_main(1), PA_PAGED, PA_DMEM);
    return 0;
}
