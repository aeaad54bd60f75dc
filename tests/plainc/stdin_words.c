// plainc-stdin: the quick brown fox 42
/* Reads standard input, words with getchar and a number with scanf. */
#include <stdio.h>

static int next_word(char *buf, int max)
{
    int c, n = 0;
    while ((c = getchar()) != EOF && c != ' ' && n < max - 1)
        buf[n++] = (char)c;
    buf[n] = 0;
    return n;
}

int main(void)
{
    char word[16];
    int words = 0, number = 0;
    for (int k = 0; k < 4 && next_word(word, sizeof word) > 0; k++)
        printf("%d:%s\n", ++words, word);
    if (scanf("%d", &number) == 1)
        printf("number %d\n", number);
    return 0;
}
