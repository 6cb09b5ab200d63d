// Package all imports every contender, so that they register themselves
// with package peers. A new contender's package is added here.
package all

import (
	_ "github.com/gadgen/gadgen/bench/peers/gadgen"
	_ "github.com/gadgen/gadgen/bench/peers/gomlx"
	_ "github.com/gadgen/gadgen/bench/peers/gorgonia"
	_ "github.com/gadgen/gadgen/bench/peers/spago"
	_ "github.com/gadgen/gadgen/bench/peers/torch"
)
