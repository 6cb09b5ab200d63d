package lstm

// The derivatives of Loss without optimization (gadgen's opt=0), for the
// ablation table of bench/README.md: the same directives as on Loss, under
// names ending in O0.

//gad:jvp LossJVPO0 github.com/gadgen/gadgen/bench/lstm.Loss wrt=main,extra opt=0
//gad:grad LossGradO0 github.com/gadgen/gadgen/bench/lstm.Loss wrt=main,extra opt=0
