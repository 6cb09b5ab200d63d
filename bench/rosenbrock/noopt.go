package rosenbrock

// The derivatives of Rosenbrock without optimization (gadgen's opt=0), for the
// ablation table of bench/README.md: the same directives as on Rosenbrock, under
// names ending in O0.

//gad:jvp RosenbrockJVPO0 github.com/gadgen/gadgen/bench/rosenbrock.Rosenbrock opt=0
//gad:grad RosenbrockGradO0 github.com/gadgen/gadgen/bench/rosenbrock.Rosenbrock opt=0
