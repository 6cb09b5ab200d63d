// Command peers checks and times the registered contenders on the MLP
// benchmark and prints Markdown tables: the agreement with the plain-Go
// reference, then the times.
//
//	go run ./cmd/peers [-dtype float64|float32|both] [-sample 200ms] [-count 5] [-only gomlx,spago] [-small] [-python /usr/bin/python3]
//
// It runs on one thread: GOMAXPROCS is set to 1 before anything else.
// PyTorch's contender runs in a Python worker (-python, which must import
// torch and functorch); where it cannot, the contender is left out with the
// reason under the timing table.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/gadgen/gadgen/bench/peers"
	_ "github.com/gadgen/gadgen/bench/peers/all"
	"github.com/gadgen/gadgen/bench/peers/torch"
)

func main() {
	runtime.GOMAXPROCS(1)
	dtype := flag.String("dtype", "both", "float64, float32 or both")
	sample := flag.Duration("sample", 200*time.Millisecond, "shortest time of one sample")
	count := flag.Int("count", 5, "samples per measurement, taken in rounds over all contenders (the minimum is reported)")
	only := flag.String("only", "", "comma-separated contender keys (default: all): "+keys())
	small := flag.Bool("small", false, "use the small size of the tests ("+peers.Small.String()+")")
	seed := flag.Uint64("seed", 1, "seed of the weights and the data")
	quiet := flag.Bool("q", false, "no progress lines on standard error")
	flag.StringVar(&torch.Python, "python", torch.Python, "Python interpreter with torch and functorch, for the pytorch contender")
	flag.Parse()

	dtypes, err := peers.ParseDTypes(*dtype)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	o := peers.Options{
		Sizes: peers.Full, Seed: *seed, DTypes: dtypes,
		Sample: *sample, Count: *count,
	}
	if *small {
		o.Sizes = peers.Small
	}
	if *only != "" {
		o.Keys = strings.Split(*only, ",")
		for _, k := range o.Keys {
			if !strings.Contains(","+keys()+",", ","+k+",") {
				fmt.Fprintf(os.Stderr, "unknown contender %q (have %s)\n", k, keys())
				os.Exit(2)
			}
		}
	}
	if !*quiet {
		o.Log = os.Stderr
	}

	results := peers.Run(o)
	fmt.Printf("MLP %s, mean softmax cross-entropy; %s, %s/%s, %d CPUs, GOMAXPROCS %d; "+
		"minimum of %d samples of at least %v\n\n",
		o.Sizes, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(),
		runtime.GOMAXPROCS(0), o.Count, o.Sample)
	for _, r := range results {
		if r.Key == "pytorch" && r.Err == nil {
			if rt, err := torch.RoundTrip(); err == nil {
				fmt.Printf("PyTorch runs in a Python worker that times its own calls; a round trip to it takes %.0f µs (median), outside those times. "+
					"Its CPU time ÷ wall time over its timed runs is at most %.2f (one thread).\n\n", rt.Seconds()*1e6, torch.CPUPerWall())
			}
			break
		}
	}
	peers.AgreementTable(os.Stdout, results)
	fmt.Println()
	peers.TimingTable(os.Stdout, results)
	for _, r := range results {
		if r.Err != nil && !strings.Contains(r.Err.Error(), peers.ErrUnsupported.Error()) {
			os.Exit(1)
		}
	}
}

func keys() string {
	var ks []string
	for _, e := range peers.Entries() {
		ks = append(ks, e.Key)
	}
	return strings.Join(ks, ",")
}
