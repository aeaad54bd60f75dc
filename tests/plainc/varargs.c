/* Variadic functions of the program's own, one named like the library's. */
#include <stdarg.h>
#include <stdio.h>

static int sum(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

static void vlog(const char *tag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("[%s] ", tag);
    vprintf(fmt, ap);
    va_end(ap);
}

int error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

int main(void)
{
    printf("%d %d\n", sum(3, 1, 2, 3), sum(0));
    vlog("info", "%s=%d\n", "x", 5);
    error("%d chars\n", error("abc\n"));
    return 0;
}
