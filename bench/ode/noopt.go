package ode

// The derivatives of Final without optimization (gadgen's opt=0), for the
// ablation table of bench/README.md: the same directives as on Final, under
// names ending in O0.

//gad:jvp FinalJVPO0 github.com/gadgen/gadgen/bench/ode.Final wrt=x opt=0
//gad:grad FinalGradO0 github.com/gadgen/gadgen/bench/ode.Final wrt=x opt=0
