// Package ba is GradBench's bundle adjustment eval (evals/ba, from
// Microsoft's ADBench): the reprojection errors of points observed by
// cameras, the weights' regularization errors, and their Jacobian, a
// sparse matrix whose nonzeros come in one 2×15 block per observation
// (the camera's 11 parameters, the point's 3 coordinates, the weight)
// and one entry per weight.
//
// The functions are plain Go; gadgen generates the derivatives (ba_grad.go):
// each block's two rows by reverse mode (ReprojErrorVJP, one sweep per row:
// two sweeps against fifteen directions in forward mode), the weights'
// entries by WeightErrorGrad.
package ba

//go:generate go run github.com/gadgen/gadgen/cmd/gadgen

import "math"

// The layout of a camera's 11 parameters: rotation (angle-axis), center,
// focal length, principal point, radial distortion.
const (
	nCamParams = 11
	rotIdx     = 0
	centerIdx  = 3
	focalIdx   = 6
	x0Idx      = 7
	radIdx     = 9
)

// rodriguesRotatePoint returns pt rotated by the angle-axis vector rot
// (Rodrigues' formula; to first order, pt + rot × pt, at rot = 0).
func rodriguesRotatePoint(rot []float64, pt [3]float64) [3]float64 {
	sqtheta := rot[0]*rot[0] + rot[1]*rot[1] + rot[2]*rot[2]
	if sqtheta != 0 {
		theta := math.Sqrt(sqtheta)
		c, s := math.Cos(theta), math.Sin(theta)
		w := [3]float64{rot[0] / theta, rot[1] / theta, rot[2] / theta}
		wxp := cross(w, pt)
		tmp := (w[0]*pt[0] + w[1]*pt[1] + w[2]*pt[2]) * (1 - c)
		var out [3]float64
		for i := range out {
			out[i] = pt[i]*c + wxp[i]*s + w[i]*tmp
		}
		return out
	}
	rxp := cross([3]float64{rot[0], rot[1], rot[2]}, pt)
	return [3]float64{pt[0] + rxp[0], pt[1] + rxp[1], pt[2] + rxp[2]}
}

// cross returns a × b.
func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// project returns the image of point x in camera cam: x moved to the
// camera's frame, divided by its depth, radially distorted, scaled by the
// focal length and shifted by the principal point.
func project(cam, x []float64) (u, v float64) {
	xo := [3]float64{x[0] - cam[centerIdx], x[1] - cam[centerIdx+1], x[2] - cam[centerIdx+2]}
	xc := rodriguesRotatePoint(cam[rotIdx:rotIdx+3], xo)
	u, v = xc[0]/xc[2], xc[1]/xc[2]
	rsq := u*u + v*v
	l := 1 + cam[radIdx]*rsq + cam[radIdx+1]*rsq*rsq
	u, v = u*l, v*l
	return u*cam[focalIdx] + cam[x0Idx], v*cam[focalIdx] + cam[x0Idx+1]
}

// ReprojError returns the reprojection error of the observation of point
// x by camera cam at feature feat, weighted by w.
//
//gad:vjp wrt=cam,x,w
func ReprojError(cam, x []float64, w float64, feat []float64) (ex, ey float64) {
	u, v := project(cam, x)
	return w * (u - feat[0]), w * (v - feat[1])
}

// WeightError returns the regularization error of weight w, 1 − w².
//
//gad:grad
func WeightError(w float64) float64 {
	return 1 - w*w
}
