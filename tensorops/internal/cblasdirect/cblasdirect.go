//go:build cgo && gadgen_openblas

package cblasdirect

/*
#cgo LDFLAGS: -l:libopenblas.so.0
void cblas_dgemm(int order, int ta, int tb, int m, int n, int k, double alpha,
	const double *a, int lda, const double *b, int ldb, double beta, double *c, int ldc);
void cblas_sgemm(int order, int ta, int tb, int m, int n, int k, float alpha,
	const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc);
void openblas_set_num_threads(int);
*/
import "C"

const (
	rowMajor = 101
	noTrans  = 111
)

// Dgemm sets c = a·b for row-major contiguous a [m, k], b [k, n], c [m, n].
func Dgemm(m, n, k int, a, b, c []float64) {
	C.cblas_dgemm(rowMajor, noTrans, noTrans, C.int(m), C.int(n), C.int(k), 1,
		(*C.double)(&a[0]), C.int(k), (*C.double)(&b[0]), C.int(n), 0, (*C.double)(&c[0]), C.int(n))
}

// Sgemm is Dgemm for float32.
func Sgemm(m, n, k int, a, b, c []float32) {
	C.cblas_sgemm(rowMajor, noTrans, noTrans, C.int(m), C.int(n), C.int(k), 1,
		(*C.float)(&a[0]), C.int(k), (*C.float)(&b[0]), C.int(n), 0, (*C.float)(&c[0]), C.int(n))
}

// SetThreads calls openblas_set_num_threads.
func SetThreads(n int) { C.openblas_set_num_threads(C.int(n)) }
