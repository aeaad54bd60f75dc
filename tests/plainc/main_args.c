// plainc-args: one two three
/* main with argc and argv, K&R style. */
#include <stdio.h>
#include <string.h>

int main(argc, argv)
int argc;
char **argv;
{
    printf("argc %d\n", argc);
    for (int i = 1; i < argc; i++)
        printf("argv[%d] %s %zu\n", i, argv[i], strlen(argv[i]));
    return argv[argc] == NULL ? 0 : 1;
}
