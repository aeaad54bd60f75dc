/* reference.h: plain C shared by both programs (and included by matrix.pah) */
#ifndef REFERENCE_H
#define REFERENCE_H

#define N 256

#ifdef __cplusplus /* gpu_sgemm.pa becomes CUDA C++ */
extern "C" {
#endif

/* x * y in double precision, N x N, row-major; malloc'd */
double *reference_product(const float *x, const float *y);
/* The number of entries of c (row-major) further than 1e-3 from want. */
int count_wrong(const float *c, const double *want, const char *label);

#ifdef __cplusplus
}
#endif

#endif
