// Package e2e holds gadgen's end-to-end tests, which run the whole pipeline
// through driver.Main:
//
//   - cases/...: real packages annotated with //gad: directives, one per
//     topic of the forward-mode coverage list, whose generated files are
//     committed; each has a cases_test.go that checks every generated JVP
//     against central finite differences (package internal/fdcheck).
//   - golden_test.go: the committed generated files of cases/... and of
//     examples/... are up to date (gadgen -check), and generation is
//     idempotent; go test -run TestGenerated -update refreshes them.
//   - diag_test.go: every diagnostic of testdata/diag/... is reported at its
//     line, and nothing is written.
package e2e
