/* Enumeration constants named like library and runtime macros: EOF,
 * BUFSIZ, CLOCK_MONOTONIC, EXIT_FAILURE, PA_PAGED. */
int printf(const char *, ...);

enum io { EOF = 5, BUFSIZ, CLOCK_MONOTONIC = 100 };
enum { EXIT_FAILURE = 0, PA_PAGED = 9 };

int main(void)
{
    printf("%d %d %d %d %d\n", EOF, BUFSIZ, CLOCK_MONOTONIC, EXIT_FAILURE, PA_PAGED);
    return EXIT_FAILURE;
}
