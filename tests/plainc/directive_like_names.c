/* Identifiers named like Parray's directives, digraphs, an #include
 * through a macro, and an #if inside a macro's arguments. */
%:include <stdio.h>
#define HDR <string.h>
#include HDR
#define ID(x) x

int mainhost = 1, detour = 2, create = 3, destroy = 4, copy = 5, sync = 6;
int global = 7, subprog = 8, insert = 9, parray = 10, tid = 11, dim = 12;

static int end(int size) { return size + 1; }

int main(void)
<%
    int v<:2:> = <%1, 2%>;
    printf("%d %d %zu\n", v<:1:>, mainhost + detour + create + destroy + copy + sync + global + subprog +
           insert + parray + tid + dim, strlen("ab"));
    printf("%d\n", ID(
#if 1
        end(6)
#else
        8
#endif
    ));
    return 0;
%>
