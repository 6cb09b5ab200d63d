package ode

import "math/rand/v2"

// HandGrad returns Final(x, steps) and adds its gradient with respect to x
// to dx (reverse-mode convention: the adjoint accumulates). It is the
// hand-written adjoint of the RK4 integration, step by step and stage by
// stage like Final: a forward sweep keeps the state at the start of every
// step (steps·n values), and a reverse sweep recomputes each step's stages
// from it and runs their adjoints, one pass over the vector per stage.
// HandGrad panics if len(dx) != len(x).
func HandGrad(x, dx []float64, steps int) float64 {
	n := len(x)
	if len(dx) != n {
		panic("ode: length mismatch")
	}
	if n == 0 {
		return 0
	}
	const tf = 2.0
	h := tf / float64(steps)

	// Forward sweep: ys[st*n:(st+1)*n] is y at the start of step st.
	ys := make([]float64, (steps+1)*n)
	k1 := make([]float64, n)
	k2 := make([]float64, n)
	k3 := make([]float64, n)
	k4 := make([]float64, n)
	u2 := make([]float64, n)
	u3 := make([]float64, n)
	u4 := make([]float64, n)
	for st := range steps {
		y, next := ys[st*n:(st+1)*n], ys[(st+1)*n:(st+2)*n]
		stages(k1, k2, k3, u2, u3, u4, x, y, h)
		rhs(k4, x, u4)
		for i := range next {
			next[i] = y[i] + h/6*(k1[i]+2*k2[i]+2*k3[i]+k4[i])
		}
	}
	f := ys[steps*n+n-1]

	// Reverse sweep. yb is the adjoint of y at the end of the step, ybp at
	// its start; kb is the adjoint of the current stage's k.
	yb := make([]float64, n)
	ybp := make([]float64, n)
	kb := make([]float64, n)
	yb[n-1] = 1
	for st := steps - 1; st >= 0; st-- {
		y := ys[st*n : (st+1)*n]
		stages(k1, k2, k3, u2, u3, u4, x, y, h)
		copy(ybp, yb)
		// y' = y + h/6·(k1 + 2k2 + 2k3 + k4): k̄4 = h/6·ȳ'.
		for i := range kb {
			kb[i] = h / 6 * yb[i]
		}
		// k4 = f(u4), u4 = y + h·k3:      k̄3 = h/3·ȳ' + h·ū4.
		stageAdjoint(kb, ybp, dx, x, u4, yb, h/3, h)
		// k3 = f(u3), u3 = y + h/2·k2:    k̄2 = h/3·ȳ' + h/2·ū3.
		stageAdjoint(kb, ybp, dx, x, u3, yb, h/3, h/2)
		// k2 = f(u2), u2 = y + h/2·k1:    k̄1 = h/6·ȳ' + h/2·ū2.
		stageAdjoint(kb, ybp, dx, x, u2, yb, h/6, h/2)
		// k1 = f(y).
		stageAdjoint(kb, ybp, dx, x, y, yb, 0, 0)
		yb, ybp = ybp, yb
	}
	return f
}

// stages computes the first three RK4 stages at y and the inputs u2, u3, u4
// of the stages after them.
func stages(k1, k2, k3, u2, u3, u4, x, y []float64, h float64) {
	rhs(k1, x, y)
	for i := range u2 {
		u2[i] = y[i] + h/2*k1[i]
	}
	rhs(k2, x, u2)
	for i := range u3 {
		u3[i] = y[i] + h/2*k2[i]
	}
	rhs(k3, x, u3)
	for i := range u4 {
		u4[i] = y[i] + h*k3[i]
	}
}

// stageAdjoint runs the adjoint of one stage k = rhs(x, u), where
// u = y + c·k_prev is the stage's input, given k̄ in kb: it adds x̄ to xb and
// ū to ybp (u's adjoint flows to y), and overwrites kb with the previous
// stage's k̄ = a·ȳ' + c·ū. The adjoint of rhs is
//
//	z₀ = x₀:          x̄₀ += z̄₀
//	zᵢ = xᵢ·uᵢ₋₁:     x̄ᵢ += z̄ᵢ·uᵢ₋₁;  ūᵢ₋₁ = z̄ᵢ·xᵢ
//
// and ū_{n−1} = 0. kb[i−1] is overwritten only after kb[i−1] was read.
func stageAdjoint(kb, ybp, xb, x, u, yb []float64, a, c float64) {
	n := len(kb)
	xb[0] += kb[0]
	for i := 1; i < n; i++ {
		ub := kb[i] * x[i]
		xb[i] += kb[i] * u[i-1]
		ybp[i-1] += ub
		kb[i-1] = a*yb[i-1] + c*ub
	}
	kb[n-1] = a * yb[n-1]
}

// Point returns a reproducible point of length n with entries uniform in
// [0, 1).
func Point(n int, seed uint64) []float64 {
	rnd := rand.New(rand.NewPCG(seed, 3))
	x := make([]float64, n)
	for i := range x {
		x[i] = rnd.Float64()
	}
	return x
}
