/* Types named like the library's: FILE, time_t, pthread_t, div_t, with
 * printf declared by hand (no header at all). */
extern int printf(const char *, ...);

typedef struct { int fd; } FILE;
typedef double time_t;
typedef int pthread_t[2];
typedef struct div_t { int q, r; } div_t;

static div_t divide(int a, int b) { div_t d = {a / b, a % b}; return d; }

int main(void)
{
    FILE f = {2};
    time_t now = 1.5;
    pthread_t t = {7, 8};
    div_t d = divide(17, 5);
    printf("%d %.1f %d %d %d %d\n", f.fd, now, t[0], t[1], d.q, d.r);
    return 0;
}
