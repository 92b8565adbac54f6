# parmem: make test is what CI runs (.ci/run).
GO ?= go

.PHONY: all deps test bench lint fmt fuzz

all: test

deps:
	./scripts/deps.sh

# Everything a change must pass: formatting, vet, lint of generated Verilog,
# and every test (co-simulation and lint tests need the tools from deps).
test: deps lint
	$(GO) test -count=1 ./...

lint:
	@fmt_out="$$(gofmt -l .)"; if [ -n "$$fmt_out" ]; then echo "gofmt needed:"; echo "$$fmt_out"; exit 1; fi
	$(GO) vet ./...

bench: deps
	$(GO) test -run '^$$' -bench . -benchtime 2s ./hdl/...

# Explore construction sequences beyond the committed corpus.
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzConstruct -fuzztime 2m -fuzzminimizetime 5s ./hdl

fmt:
	gofmt -w .
