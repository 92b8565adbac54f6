# parmem: make test is what CI runs (.ci/run).
GO ?= go

.PHONY: all deps test bench lint fmt fuzz soak soak-merge long rtl tables review prove

all: test

deps:
	./scripts/deps.sh

# Everything a change must pass: formatting, vet, lint of generated Verilog,
# and every test (co-simulation and lint tests need the tools from deps),
# then the lockstep pipeline's shutdown and its reuse of batch buffers
# under the race detector, and the compiled streams' vector package at both
# lane widths (build tag vec32), portable and as AVX-512 builds it. The packages that
# take longest (verify, the families' lockstep packs, gen) are listed
# first, so that go test starts them first and none runs alone at the end.
# Last, the cover points per unit that the lockstep packs' stimulus
# reached, from the record each pack's last run left in the tool cache.
test: deps lint
	$(GO) test -count=1 -timeout 30m ./verify ./check/... ./gen ./...
	$(GO) test -race -count=1 -run 'TestMismatchStopsAStreamingPipelineCleanly|TestFastModeFindsTheCycleAcrossBatches' ./verify
	$(GO) test -count=1 -tags vec32 ./sim/vec
	GOEXPERIMENT=simd $(GO) test -count=1 ./sim/vec
	GOEXPERIMENT=simd $(GO) test -count=1 -tags vec32 ./sim/vec
	$(GO) run ./gen -report coverage

lint:
	@fmt_out="$$(gofmt -l .)"; if [ -n "$$fmt_out" ]; then echo "gofmt needed:"; echo "$$fmt_out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags vec32 ./sim/vec

# Simulator speed: the interpreter's (package sim) ns per node, then every simulator's
# cycles/s with equal checksums on the random designs and on each family's
# largest designs (units.Family.Speed), and lockstep throughput. Built with
# GOEXPERIMENT=simd, so that the multi-stream simulator runs its AVX-512
# kernels where the CPU has them; the multi-stream checksum test checks
# that build first. The families' packages run one at a time (-p 1): two
# at once slowed each other's simulators by up to a third.
bench: deps
	GOEXPERIMENT=simd $(GO) test -count=1 -run 'Streams' ./verify
	GOEXPERIMENT=simd $(GO) test -run '^$$' -bench . -benchtime 2s ./sim ./internal/kernel
	GOEXPERIMENT=simd $(GO) test -run '^$$' -bench . -benchtime 1x -timeout 60m ./verify
	GOEXPERIMENT=simd $(GO) test -p 1 -run '^$$' -bench Speed -benchtime 1x -timeout 60m ./check/...

# The random-netlist fuzz at length: 100,000 designs from a fresh seed,
# progress on stderr. On N machines (a Slurm array, a Kubernetes indexed
# Job, a CI matrix) give each the same SEED and its SHARD=i/N, i from 0:
# netlist k is checked by shard k mod N, and a shard whose netlists all
# pass writes them to soak_<i>of<N>.json here; make soak-merge SEED=...
# with the files gathered here (or FILES="a.json b.json ...") then checks
# they hold every netlist of the run once (a missing, repeated or foreign
# shard fails). The test runs in verify/: the paths it gets are absolute.
SEED ?= $(shell date +%s)
SHARD ?= 0/1
FILES ?= $(wildcard soak_*of*.json)
SOAK = $(GO) test ./verify -run 'TestRandomNetlists$$' -v -verify.netlists=100000 -verify.seed=$(SEED)
comma := ,
space := $(subst ,, )
soak: deps
	$(SOAK) -timeout 0 -verify.shard=$(SHARD) -verify.shardfile=$(CURDIR)/soak_$(subst /,of,$(SHARD)).json

soak-merge:
	$(SOAK) -count=1 -verify.merge=$(subst $(space),$(comma),$(abspath $(FILES)))

# The families' long lockstep configurations (units.Lockstep.Long): designs
# whose Verilator and Icarus builds take minutes, with every regular one;
# every pack on the compiled multi-stream simulator (a Go build each); 300
# random designs on it, where make test checks 100; and 1,200 on compiled
# Go, where make test checks 60.
long: deps
	$(GO) test -count=1 -timeout 90m -run 'InLockstep$$|NetlistsOnCompiledStreams$$|CompiledRandomNetlists$$' -v ./check/... ./verify -verify.long

# The reviewed RTL: regenerate after changing a unit (a test fails while rtl/ is stale).
rtl:
	$(GO) run ./gen -canonical rtl
	$(GO) test -count=1 ./gen -run TestDesignPortLists -update

# Design-review tables (minutes of Yosys and nextpnr-ice40): area, latency
# and delay in ns after place and route beside the thesis.
# rtl/synth-results.json holds the Yosys and place-and-route results
# REPORT.md was made from, by the hash of design, flow and tool versions: a
# run synthesizes (and places and routes) only what changed, or everything
# under another Yosys or nextpnr-ice40 (README: measuring afresh).
# The same run writes rtl/REPORT.html: the tables with the reports' charts,
# one self-contained page to open in a browser.
tables: deps
	$(GO) run ./gen -report all -format markdown,html -results rtl/synth-results.json -o rtl/REPORT.md,rtl/REPORT.html

# The review page looked at in a real browser: headless Chromium renders
# the page of every report's charts (drawn from rtl/REPORT.md's tables) to
# a PNG, which must have every chart and not be blank. make test skips that
# test where chromium is missing; here it installs chromium (scripts/deps.sh
# chromium) and a missing browser fails. The screenshot stays in
# /tmp/parmem-review.png, the page in /tmp/parmem-review.html.
review:
	./scripts/deps.sh chromium
	$(GO) test -count=1 -run 'TestReviewPageInChromium' -v ./gen -review -review.png=/tmp/parmem-review.png -review.html=/tmp/parmem-review.html

# Yosys SAT proofs on the emitted netlists: every unit's properties
# (hdl's Assert, Assume, Cover) at its smallest lockstep or proof configuration,
# then each family's proofs at every configuration it lists (make test
# proves the small ones), among them SAMS's
# Theorem 1, Theorem 2 and Corollary 1 for q = 2, 3 and n = 12, 16 (make
# test proves q = 2, n = 12); 2DSMM's injectivity and Theorems 1-6 at
# p = 1, q = 2, mb = nb = 6 in both forms of m_v (make test proves
# pre-add); each with a counterexample for an unsupported stride.
prove: deps
	$(GO) run ./gen -unit all -prove
	$(GO) test ./check/lib ./check/sams ./check/smm2d ./check/elastic ./check/vmshr ./check/dram ./check/rsdmm -run Prove -v -count=1 -timeout 60m -prove.all

# Explore construction sequences beyond the committed corpus.
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzConstruct -fuzztime 2m -fuzzminimizetime 5s ./hdl

fmt:
	gofmt -w .
