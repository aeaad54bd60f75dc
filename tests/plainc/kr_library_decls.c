/* Old-style declarations of C library functions, written by the program
 * itself instead of including their headers, with types of its own. */
int printf();
int strlen(char *);
char *strcpy();
double atof();

int add(a, b)
int a, b;
{
    return a + b;
}

static char *copy_of(s)
char *s;
{
    static char buf[32];
    return strcpy(buf, s);
}

int main()
{
    char word[] = "parray";
    printf("strlen %d\n", strlen(word));
    printf("add %d\n", add(40, 2));
    printf("copy %s\n", copy_of("kr"));
    printf("atof %.2f\n", atof("2.5"));
    return 0;
}
