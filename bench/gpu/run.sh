#!/usr/bin/env bash
# bench/gpu/run.sh: the GPU checks and measurements of the CUDA backend, for
# one short session on a machine with an NVIDIA GPU and its driver (cuBLAS
# optional). It writes into OUTDIR (default bench/gpu/results):
#
#   env.txt          the machine: date, commit, nvidia-smi, Go, the device
#   device-tests.txt go test -v of package gpu's device tests: the conformance
#                    suite on GPU 0 (GEMM through cuBLAS, then the tiled
#                    kernel), cuBLAS against the tiled kernel and the CPU
#   gemm.txt         BenchmarkGEMM: GFLOP/s of raw cuBLAS, of tensorops'
#                    MatMul through cuBLAS and through the tiled kernel,
#                    n = 256 … 4096, float64 and float32
#   gemm.md          the same as a table
#   mlp.md           suite S5's training step on the GPU vs the CPU
#   summary.md       gemm.md and mlp.md, and the device tests' verdict
#
# Usage:
#   bench/gpu/run.sh build          # here (any machine with Go): build the
#                                   # binaries into bench/gpu/bin (no cgo)
#   bench/gpu/run.sh [OUTDIR]       # on the GPU machine: with bench/gpu/bin
#                                   # present it needs no Go toolchain and no
#                                   # network; without it, it uses go test/run
#
# Each step has a time limit (the whole run takes a few minutes on an H100);
# a failing step is recorded and the next one still runs; the exit status is
# that of the device tests.
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=bench/gpu/bin

if [ "${1:-}" = build ]; then
	set -e
	mkdir -p "$bin"
	CGO_ENABLED=0 go test -c -o "$bin/gpu.test" ./gpu
	CGO_ENABLED=0 go build -o "$bin/gpubench" ./bench/gpu/cmd/gpubench
	ls -l "$bin"
	exit 0
fi

out=${1:-bench/gpu/results}
mkdir -p "$out"
if [ -x "$bin/gpu.test" ] && [ -x "$bin/gpubench" ]; then
	gputest() { (cd gpu && timeout "$1" "../$bin/gpu.test" "${@:2}"); }
	gpubench() { timeout 300 "$bin/gpubench" "$@"; }
	how="prebuilt $bin"
else
	gputest() {
		local t=$1 args=()
		shift
		for a in "$@"; do args+=("${a/#-test./-}"); done
		timeout "$t" go test ./gpu "${args[@]}"
	}
	gpubench() { timeout 300 go run ./bench/gpu/cmd/gpubench "$@"; }
	how="go test / go run"
fi

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (modified)')"
	echo "run with: $how"
	echo "go: $(go version 2>/dev/null || echo none)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') ($(nproc) CPUs)"
	echo "nvidia-smi:"
	if command -v nvidia-smi >/dev/null; then
		nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
	else
		echo "  (no nvidia-smi)"
	fi
	echo "libcublas: $(ldconfig -p 2>/dev/null | grep -o 'libcublas\.so\.[0-9]*' | sort -u | tr '\n' ' ')"
} >"$out/env.txt"
cat "$out/env.txt"

echo "== device tests"
gputest 300 -test.count=1 -test.v -test.run 'Available|Device|CublasLibrary' >"$out/device-tests.txt" 2>&1
tests=$?
grep -E '^(--- |ok|FAIL|PASS)|Available:|device 0:|GEMM:|cublasCreate' "$out/device-tests.txt" | grep -v -- '--- SKIP.*not a product' | head -n 40

echo "== BenchmarkGEMM"
gputest 420 -test.run '^$' -test.bench '^BenchmarkGEMM$' -test.benchtime 1s >"$out/gemm.txt" 2>&1 || echo "BenchmarkGEMM failed: see $out/gemm.txt"
# The table: one row per dtype and n, GFLOP/s and the fraction of raw cuBLAS.
awk '
	/^BenchmarkGEMM\// {
		split($1, p, "/"); dt = p[2]; n = substr(p[3], 3); impl = p[4]; sub(/-[0-9]+$/, "", impl)
		g = ""; x = ""
		for (i = 2; i <= NF; i++) { if ($(i+1) == "GFLOP/s") g = $i; if ($(i+1) == "x_raw") x = $i }
		key = dt " " n
		if (!(key in seen)) { seen[key] = 1; order[++k] = key }
		gf[key, impl] = g; xr[key, impl] = x
	}
	/no cuBLAS|cuBLAS:|device 0:/ { sub(/^[ \t]+/, ""); sub(/^[a-z_]+\.go:[0-9]+: /, ""); notes = notes "- " $0 "\n" }
	END {
		print "| dtype | n | raw cuBLAS GFLOP/s | MatMul via cuBLAS GFLOP/s (× raw) | tiled kernel GFLOP/s (× raw) |"
		print "|---|--:|--:|--:|--:|"
		for (i = 1; i <= k; i++) {
			split(order[i], q, " "); key = order[i]
			c = gf[key, "cublas"] == "" ? "—" : gf[key, "cublas"] " (" xr[key, "cublas"] ")"
			t = gf[key, "tiled"] == "" ? "—" : gf[key, "tiled"] (xr[key, "tiled"] == "" ? "" : " (" xr[key, "tiled"] ")")
			printf "| %s | %s | %s | %s | %s |\n", q[1], q[2], gf[key, "raw"] == "" ? "—" : gf[key, "raw"], c, t
		}
		printf "\n%s", notes
	}' "$out/gemm.txt" >"$out/gemm.md"
cat "$out/gemm.md"

echo "== S5 training step, GPU vs CPU"
gpubench -out "$out/mlp.md" || echo "gpubench failed"
cat "$out/mlp.md" 2>/dev/null

{
	echo "# GPU run $(head -n 1 "$out/env.txt" | cut -d' ' -f2-)"
	echo
	echo '```'
	cat "$out/env.txt"
	echo '```'
	echo
	echo "## Device tests: $([ "$tests" = 0 ] && echo PASS || echo "FAIL (exit $tests)")"
	echo
	echo '```'
	grep -E '^(--- (PASS|FAIL)|ok|FAIL)' "$out/device-tests.txt" | grep -v '^    ' | head -n 30
	echo '```'
	echo
	echo "## GEMM (targets: MatMul via cuBLAS ≥ 0.9 × raw cuBLAS; tiled ≥ 0.5 × raw cuBLAS)"
	echo
	cat "$out/gemm.md"
	echo
	echo "## S5 training step"
	echo
	cat "$out/mlp.md" 2>/dev/null || echo "(gpubench failed)"
} >"$out/summary.md"
echo "== written: $out/summary.md ($(ls "$out" | tr '\n' ' '))"
exit "$tests"
