#!/bin/sh
# Runs gadgen's GradBench tool, which speaks GradBench's protocol on stdin
# and stdout and takes no arguments.
#
# With GADGEN_SRC naming a checkout of gadgen (github.com/gadgen/gadgen),
# the tool is built from that checkout first (into GADGEN_SRC's
# bench/gradbench/results, once per change of its sources); otherwise the
# installed binary is run (`go install
# github.com/gadgen/gadgen/bench/gradbench@VERSION`, as the Dockerfile
# does), found as $GOBIN/gradbench, $(go env GOPATH)/bin/gradbench or on
# PATH. The tool runs on one thread unless GOMAXPROCS is set.
set -eu

if [ -n "${GADGEN_SRC:-}" ]; then
    bin="$GADGEN_SRC/bench/gradbench/results/gradbench-gadgen"
    (cd "$GADGEN_SRC" && go build -o "$bin" ./bench/gradbench) >&2
    exec "$bin"
fi

for bin in "${GOBIN:-}/gradbench" "$(go env GOPATH 2>/dev/null)/bin/gradbench"; do
    if [ -x "$bin" ]; then
        exec "$bin"
    fi
done
exec gradbench
