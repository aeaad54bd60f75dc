/* reference.c: the double-precision product both SGEMMs are checked against */
#include "reference.h"

#include <stdio.h>
#include <stdlib.h>

double *reference_product(const float *x, const float *y)
{
  double *z = malloc(sizeof(double) * N * N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < N; k++)
        s += (double)x[i * N + k] * y[k * N + j];
      z[i * N + j] = s;
    }
  return z;
}

int count_wrong(const float *c, const double *want, const char *label)
{
  int wrong = 0;
  for (int i = 0; i < N * N; i++)
    if (!(c[i] - want[i] <= 1e-3 && want[i] - c[i] <= 1e-3) && wrong++ < 3)
      fprintf(stderr, "%s: C[%d] = %g, want %g\n", label, i, c[i], want[i]);
  return wrong;
}
