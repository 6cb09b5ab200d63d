// Package ht is GradBench's hand tracking eval (evals/ht, from Microsoft's
// ADBench): the distances between observed points and a skinned hand
// model posed by 26 parameters θ (global rotation and translation, then
// the fingers' angles), and their Jacobian. In the "complicated" variant
// each point corresponds to a point of a triangle of the mesh, given by
// barycentric coordinates us that are parameters too; in the "simple" one
// (no us), to a vertex.
//
// The functions are plain Go; gadgen generates the derivative (ht_grad.go)
// in vector forward mode: ObjectiveTaylor (//gad:taylor order=1 lanes=14)
// carries 14 directions per call, and Jacobian takes its 26 or 28 columns
// from two calls.
package ht

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

import "math"

// mat3 and mat4 are 3×3 and 4×4 matrices, row by row.
type (
	mat3 [3][3]float64
	mat4 [4][4]float64
)

// A Model is a hand: a skeleton of bones and a mesh whose vertices follow
// the bones.
type Model struct {
	// Parents[b] is the parent of bone b, or −1; a parent comes before its
	// children.
	Parents []int
	// BaseRelatives[b] is bone b's rest transform relative to its parent,
	// InverseBaseAbsolutes[b] the inverse of its absolute rest transform.
	BaseRelatives, InverseBaseAbsolutes []mat4
	// BasePositions holds the vertices at rest, in homogeneous
	// coordinates (x, y, z, 1).
	BasePositions [][4]float64
	// Weights[v][b] is the weight of bone b in vertex v.
	Weights [][]float64
	// Triangles holds the mesh's triangles, three vertices each.
	Triangles [][3]int
	// IsMirrored mirrors the hand in x.
	IsMirrored bool
}

// Data is what the hand is fitted to: Points[i] corresponds to the
// triangle (complicated) or vertex (simple) Correspondences[i].
type Data struct {
	Model           Model
	Correspondences []int
	Points          [][3]float64
}

// Objective stores in res the differences between the observed points and
// the hand posed by theta, 3 per point: with us (2 per point), the point
// us[2i]·a + us[2i+1]·b + (1 − us[2i] − us[2i+1])·c of the corresponding
// triangle abc; without (len(us) == 0), the corresponding vertex.
//
//gad:taylor order=1 lanes=14 wrt=theta,us,res
func Objective(theta, us []float64, d *Data, res []float64) {
	pose := poseParams(theta, len(d.Model.Parents))
	pos := skinnedPositions(&d.Model, pose)
	for i, c := range d.Correspondences {
		if len(us) == 0 {
			for j := range 3 {
				res[3*i+j] = d.Points[i][j] - pos[c][j]
			}
			continue
		}
		t := d.Model.Triangles[c]
		u, v := us[2*i], us[2*i+1]
		for j := range 3 {
			p := u*pos[t[0]][j] + v*pos[t[1]][j] + (1-u-v)*pos[t[2]][j]
			res[3*i+j] = d.Points[i][j] - p
		}
	}
}

// poseParams lays θ out as ADBench's pose parameters, three per column:
// the global rotation, the global scale (1), the global translation, then
// one column of angles per bone (x and z for a finger's base, x for its
// other joints, none for the others).
func poseParams(theta []float64, nBones int) [][3]float64 {
	pose := make([][3]float64, nBones+3)
	pose[0] = [3]float64{theta[0], theta[1], theta[2]}
	pose[1] = [3]float64{1, 1, 1}
	pose[2] = [3]float64{theta[3], theta[4], theta[5]}
	k, col := 6, 5
	for range 5 { // fingers
		for joint := range 3 {
			pose[col][0] = theta[k]
			k++
			if joint == 0 {
				pose[col][1] = theta[k]
				k++
			}
			col++
		}
		col++
	}
	return pose
}

// skinnedPositions returns the vertices of the model posed by pose: each
// vertex is the weighted sum of its rest position moved by each bone's
// transform, then mirrored if the model is, rotated and translated.
func skinnedPositions(m *Model, pose [][3]float64) [][3]float64 {
	nb := len(m.Parents)
	absolutes := make([]mat4, nb)
	transforms := make([]mat4, nb)
	for b := range nb {
		var tr mat4
		r := eulerToRotation(pose[b+3])
		for i := range 3 {
			tr[i] = [4]float64{r[i][0], r[i][1], r[i][2], 0}
		}
		tr[3][3] = 1
		rel := mul4(&m.BaseRelatives[b], &tr)
		if p := m.Parents[b]; p == -1 {
			absolutes[b] = rel
		} else {
			absolutes[b] = mul4(&absolutes[p], &rel)
		}
		transforms[b] = mul4(&absolutes[b], &m.InverseBaseAbsolutes[b])
	}
	pos := make([][3]float64, len(m.BasePositions))
	for b := range transforms {
		t := &transforms[b]
		for v, x := range m.BasePositions {
			w := m.Weights[v][b]
			for i := range 3 {
				pos[v][i] += (t[i][0]*x[0] + t[i][1]*x[1] + t[i][2]*x[2] + t[i][3]*x[3]) * w
			}
		}
	}
	if m.IsMirrored {
		for v := range pos {
			pos[v][0] = -pos[v][0]
		}
	}
	r := angleAxisToRotation(pose[0])
	for i := range 3 {
		for j := range 3 {
			r[i][j] *= pose[1][j]
		}
	}
	for v, p := range pos {
		for i := range 3 {
			pos[v][i] = r[i][0]*p[0] + r[i][1]*p[1] + r[i][2]*p[2] + pose[2][i]
		}
	}
	return pos
}

// mul4 returns a·b.
func mul4(a, b *mat4) mat4 {
	var c mat4
	for i := range 4 {
		for k := range 4 {
			s := a[i][0] * b[0][k]
			for j := 1; j < 4; j++ {
				s += a[i][j] * b[j][k]
			}
			c[i][k] = s
		}
	}
	return c
}

// mul3 returns a·b.
func mul3(a, b mat3) mat3 {
	var c mat3
	for i := range 3 {
		for k := range 3 {
			c[i][k] = a[i][0]*b[0][k] + a[i][1]*b[1][k] + a[i][2]*b[2][k]
		}
	}
	return c
}

// eulerToRotation returns the rotation Rz·Ry·Rx by the angles xzy =
// (x, z, y) about the axes.
func eulerToRotation(xzy [3]float64) mat3 {
	sx, cx := math.Sincos(xzy[0])
	sy, cy := math.Sincos(xzy[2])
	sz, cz := math.Sincos(xzy[1])
	rx := mat3{{1, 0, 0}, {0, cx, -sx}, {0, sx, cx}}
	ry := mat3{{cy, 0, sy}, {0, 1, 0}, {-sy, 0, cy}}
	rz := mat3{{cz, -sz, 0}, {sz, cz, 0}, {0, 0, 1}}
	return mul3(mul3(rz, ry), rx)
}

// angleAxisToRotation returns the rotation by the angle |a| about the
// axis a, or the identity when |a| < 1e-4.
func angleAxisToRotation(a [3]float64) mat3 {
	norm := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2])
	if norm < 0.0001 {
		return mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	}
	x, y, z := a[0]/norm, a[1]/norm, a[2]/norm
	s, c := math.Sin(norm), math.Cos(norm)
	return mat3{
		{x*x + (1-x*x)*c, x*y*(1-c) - z*s, x*z*(1-c) + y*s},
		{x*y*(1-c) + z*s, y*y + (1-y*y)*c, y*z*(1-c) - x*s},
		{x*z*(1-c) - y*s, z*y*(1-c) + x*s, z*z + (1-z*z)*c},
	}
}
