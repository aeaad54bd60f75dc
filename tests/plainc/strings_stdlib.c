/* A program that includes the library headers itself and uses them as
 * usual: what the translation adds must not disturb them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <time.h>

struct rec { char name[8]; int score; };

static int by_score(const void *a, const void *b)
{
    return ((const struct rec *)a)->score - ((const struct rec *)b)->score;
}

int main(void)
{
    struct rec r[3] = {{"c", 30}, {"a", 10}, {"b", 20}};
    qsort(r, 3, sizeof r[0], by_score);
    char *s = malloc(16);
    strcpy(s, r[0].name);
    strcat(s, r[2].name);
    size_t n = strlen(s);
    printf("%s %zu %zu %d\n", s, n, offsetof(struct rec, score), NULL == (void *)0);
    printf("%d\n", time(NULL) > 0);
    free(s);
    return 0;
}
