// Command gen writes tensorops' tanh_amd64.s (run by go generate in
// tensorops) from package tanhasm's description of the kernels.
package main

import (
	"log"
	"os"

	"github.com/gadgen/gadgen/tensorops/internal/tanhasm"
)

func main() {
	if err := os.WriteFile("tanh_amd64.s", []byte(tanhasm.Source()), 0o644); err != nil {
		log.Fatal(err)
	}
}
