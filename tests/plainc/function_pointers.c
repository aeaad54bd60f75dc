/* Function pointers and recursion, named signal, raise, qsort. */
#include <stdio.h>

typedef int (*op)(int, int);
static int plus(int a, int b) { return a + b; }
static int times(int a, int b) { return a * b; }
static op signal[2] = {plus, times};

static int raise(op f, int n) { return n <= 1 ? 1 : f(n, raise(f, n - 1)); }

static void qsort(int *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

int main(void)
{
    int v[] = {5, 2, 9, 1};
    qsort(v, 4);
    printf("%d %d %d %d | %d %d\n", v[0], v[1], v[2], v[3], raise(signal[0], 4), raise(signal[1], 5));
    return 0;
}
