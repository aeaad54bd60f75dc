/* No header included: size_t, NULL, offsetof, wchar_t and bool are the
 * program's own names. */
int printf(const char *, ...);

typedef int size_t;
#define NULL 7
struct offsetof { int wchar_t; };
static int bool = 1;
static int ptrdiff_t(int x) { return x - 1; }

int main(void)
{
    size_t n = -2; /* signed, unlike the library's */
    struct offsetof o = {3};
    printf("%d %d %d %d %d\n", n < 0, NULL, o.wchar_t, bool, ptrdiff_t(10));
    return 0;
}
