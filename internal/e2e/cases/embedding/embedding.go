// Package embedding is an end-to-end case of an embedding model: the
// rows of a table picked by integer ids (tensorops.Embedding), averaged
// per sample, then a dense layer. Its gradient with respect to the table
// is a scatter-add (repeated ids accumulate, rows no id picks stay zero);
// embedding_test.go checks it, the JVP and Taylor mode against central
// differences in float64 and float32.
package embedding

//go:generate gadgen

import "github.com/gadgen/gadgen/tensorops"

// Bag is an embedding-bag model: a table of d-dimensional rows, and a
// dense layer from d to c outputs.
type Bag struct {
	Table *tensorops.Tensor // [rows, d]
	W, B  *tensorops.Tensor // [d, c], [c]
}

// Outputs are the dense layer's outputs [n, c] on n samples of equally
// many ids each (ids holds them sample after sample): the mean of the
// samples' rows of the table, times W, plus B.
func (b *Bag) Outputs(ids []int, n int) *tensorops.Tensor {
	h := tensorops.Reshape(tensorops.Embedding(b.Table, ids), n, len(ids)/n, b.Table.Dim(1))
	return tensorops.Add(tensorops.MatMul(tensorops.Mean(h, 1), b.W), b.B)
}

// Loss is the softmax cross-entropy of the outputs with one-hot labels y
// [n, c] (the ids are not differentiated).
//
//gad:grad wrt=b
//gad:jvp wrt=b
func Loss(b *Bag, ids []int, n int, y *tensorops.Tensor) float64 {
	return tensorops.SoftmaxCrossEntropy(b.Outputs(ids, n), y)
}

// Regress is the squared error of the outputs, through Softplus, against
// targets y [n, c].
//
//gad:grad wrt=b
//gad:taylor order=2 wrt=b
func Regress(b *Bag, ids []int, n int, y *tensorops.Tensor) float64 {
	return tensorops.SumAll(tensorops.Square(tensorops.Sub(tensorops.Softplus(b.Outputs(ids, n)), y)))
}
