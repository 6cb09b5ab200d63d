module github.com/gadgen/gadgen

go 1.26

require (
	github.com/dave/jennifer v1.7.1 // indirect
	golang.org/x/tools v0.52.0 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)
