package main

// This file defines main, which only hands the command line to package
// driver.

import (
	"os"

	"github.com/gadgen/gadgen/driver"
)

func main() {
	os.Exit(driver.Main(os.Args[1:], os.Stdout, os.Stderr))
}
