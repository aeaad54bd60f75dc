/* Old C: implicit int main, a function declared without a prototype and
 * defined K&R style, a char promoted through it. */
int printf();
int twice();

main()
{
    char c = 'A';
    printf("%d %d\n", twice(c), twice(21));
    return 0;
}

int twice(x)
int x;
{
    return 2 * x;
}
