package gmm

// The derivatives of LogPosterior without optimization (gadgen's opt=0), for the
// ablation table of bench/README.md: the same directives as on LogPosterior, under
// names ending in O0.

//gad:jvp LogPosteriorJVPO0 github.com/gadgen/gadgen/bench/gmm.LogPosterior wrt=alpha,mu,q,l opt=0
//gad:grad LogPosteriorGradO0 github.com/gadgen/gadgen/bench/gmm.LogPosterior wrt=alpha,mu,q,l opt=0
