package logsumexp

// The derivatives of LogSumExp without optimization (gadgen's opt=0), for the
// ablation table of bench/README.md: the same directives as on LogSumExp, under
// names ending in O0.

//gad:jvp LogSumExpJVPO0 github.com/gadgen/gadgen/bench/logsumexp.LogSumExp opt=0
//gad:grad LogSumExpGradO0 github.com/gadgen/gadgen/bench/logsumexp.LogSumExp opt=0
