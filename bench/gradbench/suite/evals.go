package suite

import "fmt"

// Evals lists GradBench's evals in the order of GradBench's evals
// directory listing that the suite runs them in.
var Evals = []*Eval{
	&helloEval, &llsqEval, &lseEval, &odeEval, &detEval, &kmeansEval,
	&gmmEval, &lstmEval, &baEval, &htEval, &particleEval, &saddleEval,
}

// Lookup returns the eval named name.
func Lookup(name string) (*Eval, error) {
	for _, e := range Evals {
		if e.Name == name {
			return e, nil
		}
	}
	return nil, fmt.Errorf("suite: no eval %q", name)
}
