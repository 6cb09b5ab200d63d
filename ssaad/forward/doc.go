// Package forward implements gadgen's forward mode (//gad:jvp): it turns a
// primal function into one that also propagates tangents, computing a
// Jacobian-vector product in the same sweep as the function.
//
// # Generated signature
//
// For func F(p1 T1, …, pn Tn) (r1 R1, …), FJVP takes each parameter
// followed, when it is varied, by its tangent dp of the same type, and
// returns the primal results followed by one tangent per result whose type
// holds floats. Slices, arrays, pointers and structs carry tangents as
// shadows of the same shape: the tangent of x[i] is dx[i], and values the
// function writes through a pointer or into a slice have their tangents
// written (overwritten) into the corresponding shadow. A method of the
// package being generated stays a method; otherwise the receiver is the
// first parameter, as in the method expression T.Func.
//
// # Transformation
//
// The CFG is kept as it is: every block of the primal becomes a block of the
// derivative, and each varied value (see ssaad.Varied) is followed in its
// block by the value that computes its tangent (the classic "tangent
// linear" code of Griewank & Walther, Evaluating Derivatives, ch. 3). φ-nodes
// get tangent φ-nodes; loads and stores through varied memory get loads and
// stores through the shadow; calls of package math use the rules of package
// templates; calls of other functions with varied arguments call their
// derivatives, which the driver generates (ssaad.Env).
//
// Tangents of values that are not varied are zero and never materialized:
// the transformer folds them while building each tangent expression
// (d(x*c) = dx*c), so the output needs no later clean-up of +0 and *1.
//
// The transformer is Taylor mode's (package ssaad/taylor, Tangent) with
// one coefficient per value, named as a tangent: forward mode is Taylor
// mode of order 1, and the two share every rule and every helper. This
// package is the mode the driver registers.
package forward
