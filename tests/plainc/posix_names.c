/* Functions and objects named like POSIX and C library functions the
 * program never includes: index, send, time, log, read, select, kill. */
#include <stdio.h>

static int index[4] = {3, 1, 4, 1};
int send(int to, int what) { return to * 100 + what; }
static long time = 1700;
int log(int x) { return x * 2; }
static int read(void) { return index[2]; }
struct select { int kill; int wait; };

int main(void)
{
    struct select s = {5, 6};
    int sleep = 3, fork = send(2, 7);
    printf("%d %d %ld %d %d\n", index[0], fork, time + sleep, log(21), read());
    printf("%d %d\n", s.kill, s.wait);
    return 0;
}
