// Package cblasdirect calls OpenBLAS's cblas_dgemm and cblas_sgemm through
// cgo, for the benchmark that compares tensorops' purego binding with a
// direct call (BenchmarkGemmDirectCgo, build tag gadgen_openblas). Without
// that tag and cgo the package is empty, so normal builds need no C
// library.
package cblasdirect
