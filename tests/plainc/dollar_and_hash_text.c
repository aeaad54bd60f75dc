/* Text that looks like Parray inside strings, character constants and
 * comments: $A[1]$, #parray, #copy, #detour.  None of it is a directive. */
#include <stdio.h>

#define STR(x) #x
#define CAT(a, b) a##b

/* #parray {paged float [4]} A and $A[1]$ in a comment */
// #copy A(x) to B(y)
int main(void)
{
    const char *s = "$A[1]$ costs $5";
    const char *t = "#parray {pthd [2]} T";
    char dollar = '$', hash = '#';
    int CAT(my, var) = 12;
    printf("%s | %s | %c%c | %s | %d\n", s, t, dollar, hash, STR(#detour T), myvar);
    printf("%s\n", "line one \
continued");
    return 0;
}
