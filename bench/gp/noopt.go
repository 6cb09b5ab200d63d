package gp

// The derivatives of NLL without optimization (gadgen's opt=0), for the
// ablation table of bench/README.md: the same directives as on NLL, under
// names ending in O0.

//gad:jvp NLLJVPO0 github.com/gadgen/gadgen/bench/gp.NLL wrt=theta opt=0
//gad:grad NLLGradO0 github.com/gadgen/gadgen/bench/gp.NLL wrt=theta opt=0
