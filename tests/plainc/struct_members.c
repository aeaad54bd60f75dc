/* Struct tags and members named like the library's structs and like the
 * runtime's parameters: timespec, tm, stat, count, type, line, file. */
#include <stdio.h>

struct timespec { int count; const char *type; };
struct tm { int line; int file; };
struct stat { struct timespec ts; struct tm when; };

int main(void)
{
    struct stat s = {{3, "int"}, {42, 7}};
    int line = s.when.line, file = s.when.file, count = s.ts.count;
    printf("%d %s %d %d\n", count, s.ts.type, line, file);
    return 0;
}
