package ba

// blockCols is the number of nonzeros in a row of the reprojection
// errors' Jacobian: the camera's parameters, the point's coordinates and
// the weight.
const blockCols = nCamParams + 3 + 1

// A SparseMat is a sparse matrix in compressed sparse row form, as
// GradBench's reference builds the Jacobian: the nonzeros of row r are
// Cols[Rows[r]:Rows[r+1]] and Vals[Rows[r]:Rows[r+1]].
type SparseMat struct {
	Rows []int
	Cols []int
	Vals []float64
}

// camera, point and feature return the data of observation i.
func (p *Problem) camera(i int) []float64 {
	c := p.Obs[2*i]
	return p.Cams[nCamParams*c : nCamParams*(c+1)]
}

func (p *Problem) point(i int) []float64 {
	k := p.Obs[2*i+1]
	return p.X[3*k : 3*k+3]
}

func (p *Problem) feature(i int) []float64 { return p.Feats[2*i : 2*i+2] }

// Objective stores in reproj the 2 reprojection errors of each
// observation and in werr the error of each weight. It panics if reproj
// does not hold 2·P numbers or werr P.
func (p *Problem) Objective(reproj, werr []float64) {
	if len(reproj) != 2*p.P || len(werr) != p.P {
		panic("ba: Objective: wrong output lengths")
	}
	for i := range p.P {
		reproj[2*i], reproj[2*i+1] = ReprojError(p.camera(i), p.point(i), p.W[i], p.feature(i))
	}
	for i, w := range p.W {
		werr[i] = WeightError(w)
	}
}

// Jacobian stores in j the Jacobian of the reprojection errors (2·P rows,
// then the P weight errors) with respect to the cameras' parameters, the
// points' coordinates and the weights (11·N + 3·M + P columns), reusing
// j's memory. Each observation's 2×15 block is the gradient of each of its
// two errors, by ReprojErrorVJP.
func (p *Problem) Jacobian(j *SparseMat) {
	nnz := 2*blockCols*p.P + p.P
	j.Rows = append(j.Rows[:0], 0)
	j.Cols, j.Vals = j.Cols[:0], j.Vals[:0]
	j.Rows, j.Cols, j.Vals = grow(j.Rows, 3*p.P), grow(j.Cols, nnz), grow(j.Vals, nnz)
	pointCol, weightCol := nCamParams*p.N, nCamParams*p.N+3*p.M
	var g [blockCols]float64
	for i := range p.P {
		cam, x, feat := p.camera(i), p.point(i), p.feature(i)
		c, k := p.Obs[2*i], p.Obs[2*i+1]
		for r := range 2 {
			g = [blockCols]float64{}
			seed := [2]float64{}
			seed[r] = 1
			_, _, g[blockCols-1] = ReprojErrorVJP(cam, g[:nCamParams], x, g[nCamParams:nCamParams+3], p.W[i], feat, seed[0], seed[1])
			j.Rows = append(j.Rows, j.Rows[len(j.Rows)-1]+blockCols)
			for q := range nCamParams {
				j.Cols = append(j.Cols, nCamParams*c+q)
			}
			j.Cols = append(j.Cols, pointCol+3*k, pointCol+3*k+1, pointCol+3*k+2, weightCol+i)
			j.Vals = append(j.Vals, g[:]...)
		}
	}
	for i, w := range p.W {
		_, d := WeightErrorGrad(w)
		j.Rows = append(j.Rows, j.Rows[len(j.Rows)-1]+1)
		j.Cols = append(j.Cols, weightCol+i)
		j.Vals = append(j.Vals, d)
	}
}

// grow returns s with room for n more elements.
func grow[T any](s []T, n int) []T {
	if cap(s)-len(s) < n {
		s = append(make([]T, 0, len(s)+n), s...)
	}
	return s
}
