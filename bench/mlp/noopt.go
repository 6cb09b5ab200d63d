package mlp

// The derivatives of Net.Loss and LossFlat without optimization (gadgen's
// opt=0), for the ablation table of bench/README.md: the same directives
// as on them, under names ending in O0.

//gad:grad LossGradO0 github.com/gadgen/gadgen/bench/mlp.Net.Loss wrt=n opt=0
//gad:jvp LossJVPO0 github.com/gadgen/gadgen/bench/mlp.Net.Loss wrt=n opt=0
//gad:jvp LossFlatJVPO0 github.com/gadgen/gadgen/bench/mlp.LossFlat wrt=w1,b1,w2,b2 opt=0
//gad:grad LossFlatGradO0 github.com/gadgen/gadgen/bench/mlp.LossFlat wrt=w1,b1,w2,b2 opt=0
