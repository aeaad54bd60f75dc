/* C11: compound literals, designated initializers, _Generic,
 * _Static_assert, _Alignas, anonymous structs and unions. */
#include <stdio.h>

struct point { int x, y; };
#define KIND(v) _Generic((v), int: "int", double: "double", default: "other")
_Static_assert(sizeof(int) >= 2, "int too small");

struct shape {
    int kind;
    union { struct { int w, h; }; int r; };
};

static int area(struct point p) { return p.x * p.y; }

int main(void)
{
    int *a = (int[]){4, 5, 6};
    struct shape s = {.kind = 1, .w = 3, .h = 4};
    _Alignas(16) char buf[16] = {[3] = 'z'};
    printf("%d %d %s %s %d %c\n", a[2], area((struct point){.y = 7, .x = 2}), KIND(1), KIND(2.0),
           s.w * s.h, buf[3]);
    return 0;
}
