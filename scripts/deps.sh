#!/bin/sh
# Installs the tools parmem's tests drive: Icarus Verilog, Verilator,
# Yosys and nextpnr-ice40 (place and route for the reports' delays in ns,
# with its iCE40 chip databases), from Debian's packages, only when one of
# them is missing. scripts/deps.sh chromium installs Debian's chromium
# instead (make review's browser), only when it is missing.
set -eu
SUDO=""
if [ "$(id -u)" != 0 ]; then
	SUDO="sudo"
fi
if [ "${1:-}" = chromium ]; then
	if command -v chromium >/dev/null 2>&1; then
		exit 0
	fi
	echo "deps: installing chromium"
	$SUDO apt-get update
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium
	exit 0
fi
missing=""
command -v iverilog >/dev/null 2>&1 || missing="$missing iverilog"
command -v vvp >/dev/null 2>&1 || missing="$missing iverilog"
command -v verilator >/dev/null 2>&1 || missing="$missing verilator"
command -v yosys >/dev/null 2>&1 || missing="$missing yosys"
command -v nextpnr-ice40 >/dev/null 2>&1 || missing="$missing nextpnr-ice40"
if [ -z "$missing" ]; then
	exit 0
fi
echo "deps: installing iverilog verilator yosys nextpnr-ice40 (missing:$missing)"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y iverilog verilator yosys nextpnr-ice40
