#include <cblas.h>

float dot(const float *x, const float *y, int n);

float dot(const float *x, const float *y, int n)
{
  return cblas_sdot(n, x, 1, y, 1);
}
