// plainc-status: 3
/* An exit status other than 0 and an atexit handler. */
#include <stdio.h>
#include <stdlib.h>

static void bye(void) { printf("bye\n"); }

int main(void)
{
    atexit(bye);
    printf("leaving\n");
    exit(3);
}
