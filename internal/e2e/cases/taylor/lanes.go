package taylor

// Jets along several directions per call (lanes=L): each lane must equal
// the jet along its direction alone (lanes_test.go), through loops,
// branches, calls and writes through pointers.
//
//gad:taylor loopsChebyshev2 github.com/gadgen/gadgen/internal/e2e/cases/loops.Chebyshev order=4 lanes=2
//gad:taylor controlPolar2 github.com/gadgen/gadgen/internal/e2e/cases/control.Polar order=3 lanes=2
//gad:taylor callsPathLength3 github.com/gadgen/gadgen/internal/e2e/cases/calls.PathLength order=3 seed=line lanes=3
//gad:taylor memoryStep2 github.com/gadgen/gadgen/internal/e2e/cases/memory.Step order=3 lanes=2
