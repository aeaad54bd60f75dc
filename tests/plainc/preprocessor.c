/* The preprocessor: #if in cc's arithmetic, continuations, #undef,
 * __LINE__ and __func__ where cc puts them. */
#include <stdio.h>

#define TWICE(x) \
    ((x) + \
     (x))
#if -1 < 0u
#define SIGNED_LESS 0
#else
#define SIGNED_LESS 1
#endif
#if 'a' == 97 && defined(TWICE)
#define CHARS 1
#endif
#define SIZE 5
#undef SIZE
#ifndef SIZE
#define SIZE 6
#endif

int main(void)
{
    int a[SIZE];
    printf("%d %d %d %zu\n", TWICE(21), SIGNED_LESS, CHARS, sizeof a / sizeof a[0]);
    printf("line %d in %s\n", __LINE__, __func__);
#line 100
    printf("line %d\n", __LINE__);
    return 0;
}
