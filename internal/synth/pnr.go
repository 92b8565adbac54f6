package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/parmem/parmem/internal/cache"
	"github.com/parmem/parmem/internal/tools"
	"github.com/parmem/parmem/scripts"
)

// Timing is the result of place and route on the iCE40 HX8K
// (scripts/hx8k.pnr) of a design mapped by scripts/ice40.ys, every port
// bit but the clock in a flip-flop of its own (see hx8k.pnr).
type Timing struct {
	// Fits is whether the design, with its ports' flip-flops, fits the
	// part. When it does not, LUT4 against PartLCs says why (or LCs, when
	// the LUTs fit and the flip-flops and carries do not, or RAMs against
	// PartRAMs), and the timing is zero.
	Fits bool
	// LUT4 is ice40.ys's SB_LUT4 cells of the design alone; LCs the logic
	// cells (LUT4, carry and flip-flop each) it takes with its ports'
	// flip-flops, and PartLCs the part's.
	LUT4, LCs, PartLCs int
	// RAMs is its 4-kbit block RAMs (SB_RAM40_4K), PartRAMs the part's.
	RAMs, PartRAMs int
	// Fmax is the clock's, in MHz.
	Fmax float64
	// Delay is the critical path in ns, from a flip-flop's clock to the
	// next one's setup: Logic of it in cells (the clock-to-output and the
	// setup too), Routing in wires.
	Delay, Logic, Routing float64
	// From and To are the signals the path starts and ends at: a port bit
	// ("in addr[3]", "out row[1]": its flip-flop) or a register of the
	// design ("count[2]").
	From, To string
}

// PlaceRoute runs scripts/ice40.ys on the design, then nextpnr-ice40 with
// scripts/hx8k.pnr on its netlist, the ports in flip-flops. A design whose
// LUTs or RAMs (MapICE40's) are more than the part's is not placed; one
// that nextpnr-ice40 finds too large for the part is not either.
func PlaceRoute(top string, verilog []byte) (Timing, error) {
	return memo(scripts.ICE40+"\x00"+scripts.HX8K+"\x00"+portFlops, top, verilog,
		func() (Timing, error) { return placeRoute(top, verilog) }, cache.ToolVersion("nextpnr-ice40", "--version"))
}

// portFlops names the port flip-flops' form and what Timing reads, for
// the tool cache's key: another form is another measurement.
const portFlops = "port flip-flops: SB_DFF, inputs loaded from pnr_in, clock pnr_clk when the design has none; Timing: LCs and RAMs, Fmax, the critical path"

// hx8kLCs and hx8kRAMs are the HX8K's logic cells and block RAMs.
const hx8kLCs, hx8kRAMs = 7680, 32

func placeRoute(top string, verilog []byte) (Timing, error) {
	if _, err := exec.LookPath("nextpnr-ice40"); err != nil {
		return Timing{}, fmt.Errorf("nextpnr-ice40 is not installed; run `make deps`")
	}
	ice, err := MapICE40(top, verilog) // (from the tool cache, when the reports measured it)
	if err != nil {
		return Timing{}, err
	}
	t := Timing{LUT4: ice.LUT4, PartLCs: hx8kLCs, RAMs: ice.RAMBits / 4096, PartRAMs: hx8kRAMs}
	if t.LUT4 > t.PartLCs || t.RAMs > t.PartRAMs {
		return t, nil
	}
	_, data, err := runJSON(scripts.ICE40, top, verilog)
	if err != nil {
		return Timing{}, err
	}
	w, err := registerPorts(data, top)
	if err != nil {
		return Timing{}, fmt.Errorf("nextpnr-ice40 on %s: %v", top, err)
	}
	dir, err := os.MkdirTemp("", "parmem-pnr-")
	if err != nil {
		return Timing{}, err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "wrapped.json"), w.json, 0o644); err != nil {
		return Timing{}, err
	}
	args := append(pnrArgs(scripts.HX8K), "--json", "wrapped.json", "--top", top, "--report", "report.json", "-q", "-l", "pnr.log")
	slots.acquire(len(verilog))
	out, err := tools.Output(dir, "nextpnr-ice40", args...)
	slots.release()
	log, _ := os.ReadFile(filepath.Join(dir, "pnr.log"))
	if err != nil {
		use := utilisation(string(log))
		if lc, ram := use["ICESTORM_LC"], use["ICESTORM_RAM"]; lc[0] > lc[1] || ram[0] > ram[1] {
			t.LCs, t.RAMs = lc[0], ram[0]
			return t, nil
		}
		return Timing{}, fmt.Errorf("nextpnr-ice40 on %s: %v\n%s", top, err, out)
	}
	report, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		return Timing{}, err
	}
	if err := t.read(report, w); err != nil {
		return Timing{}, fmt.Errorf("nextpnr-ice40 on %s: %v", top, err)
	}
	return t, nil
}

// pnrArgs are a flow's arguments: its lines' fields, without comments.
func pnrArgs(flow string) []string {
	var args []string
	for _, line := range strings.Split(flow, "\n") {
		line, _, _ = strings.Cut(line, "#")
		args = append(args, strings.Fields(line)...)
	}
	return args
}

var useLine = regexp.MustCompile(`(?m)^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%`)

// utilisation reads the "Device utilisation" of nextpnr's log: each
// resource's cells used and the part's.
func utilisation(log string) map[string][2]int {
	use := map[string][2]int{}
	for _, m := range useLine.FindAllStringSubmatch(log, -1) {
		used, _ := strconv.Atoi(m[2])
		avail, _ := strconv.Atoi(m[3])
		use[m[1]] = [2]int{used, avail}
	}
	return use
}

// pnrReport is what Timing reads of nextpnr's --report JSON.
type pnrReport struct {
	Utilization map[string]struct {
		Used int `json:"used"`
	} `json:"utilization"`
	Fmax map[string]struct {
		Achieved float64 `json:"achieved"`
	} `json:"fmax"`
	CriticalPaths []struct {
		From string `json:"from"` // a clock edge, "posedge clk", or "<async>"
		To   string `json:"to"`
		Path []struct {
			Type  string  `json:"type"` // clk-to-q, routing, logic, setup, source
			Delay float64 `json:"delay"`
			To    struct {
				Cell string `json:"cell"`
			} `json:"to"`
		} `json:"path"`
	} `json:"critical_paths"`
}

// read fills in t from nextpnr's report of the wrapped design w: the
// clock's Fmax and the longest of its critical paths between flip-flops
// (the one from the pnr_in pin to the input flip-flops is not the
// design's).
func (t *Timing) read(report []byte, w *wrapped) error {
	var r pnrReport
	if err := json.Unmarshal(report, &r); err != nil {
		return fmt.Errorf("its report: %v", err)
	}
	t.Fits = true
	t.LCs, t.RAMs = r.Utilization["ICESTORM_LC"].Used, r.Utilization["ICESTORM_RAM"].Used
	for _, f := range r.Fmax {
		if t.Fmax == 0 || f.Achieved < t.Fmax {
			t.Fmax = f.Achieved
		}
	}
	found := false
	for _, p := range r.CriticalPaths {
		if p.From == "<async>" || p.To == "<async>" || len(p.Path) == 0 {
			continue
		}
		var logic, routing float64
		for _, s := range p.Path {
			if s.Type == "routing" {
				routing += s.Delay
			} else {
				logic += s.Delay
			}
		}
		if found && logic+routing <= t.Delay {
			continue
		}
		found = true
		t.Delay, t.Logic, t.Routing = logic+routing, logic, routing
		// (a path's first step, the clock to the flip-flop's output, ends
		// at the flip-flop's cell; its last, the setup, at the next one's)
		t.From, t.To = w.signal(p.Path[0].To.Cell), w.signal(p.Path[len(p.Path)-1].To.Cell)
	}
	if !found {
		return fmt.Errorf("its report has no path between flip-flops")
	}
	return nil
}

// wrapped is a netlist with its ports in flip-flops (registerPorts): its
// JSON, and what names a packed logic cell's flip-flop.
type wrapped struct {
	json []byte
	// ff is the flip-flop a cell name stands for: itself, or for a LUT,
	// the flip-flop its output alone feeds (nextpnr packs the two into
	// one logic cell named after the LUT).
	ff map[string]string
	// name is a flip-flop's signal: its port bit or its output's net.
	name map[string]string
}

// signal names the flip-flop of a cell of nextpnr's report, a logic cell
// named after the LUT or flip-flop it holds ("x_LC", "x_DFFLC"): its port
// bit or register; a cell that holds none (a RAM) by its name.
func (w *wrapped) signal(cell string) string {
	for _, suffix := range []string{"_DFFLC", "_LC"} {
		if base, ok := strings.CutSuffix(cell, suffix); ok {
			if ff, ok := w.ff[base]; ok {
				return w.name[ff]
			}
		}
	}
	if n, ok := w.name[cell]; ok {
		return n
	}
	return cell
}

// Yosys JSON's top module, as much of it as registerPorts reads and
// nextpnr needs: its ports, cells and net names; parameters and attributes
// pass through as they are.
type (
	yosysModule struct {
		Attributes json.RawMessage      `json:"attributes"`
		Ports      map[string]yosysPort `json:"ports"`
		Cells      map[string]yosysCell `json:"cells"`
		Netnames   map[string]yosysNet  `json:"netnames"`
	}
	yosysPort struct {
		Direction string `json:"direction"`
		Bits      []any  `json:"bits"` // net numbers (json.Number) or "0", "1", "x"
	}
	yosysCell struct {
		HideName       int                        `json:"hide_name"`
		Type           string                     `json:"type"`
		Parameters     map[string]json.RawMessage `json:"parameters"`
		Attributes     map[string]json.RawMessage `json:"attributes"`
		PortDirections map[string]string          `json:"port_directions"`
		Connections    map[string][]any           `json:"connections"`
	}
	yosysNet struct {
		HideName   int                        `json:"hide_name"`
		Bits       []any                      `json:"bits"`
		Attributes map[string]json.RawMessage `json:"attributes"`
	}
)

// clockPins are the clock inputs of the iCE40 cells ice40.ys maps to.
var clockPins = []string{"C", "RCLK", "WCLK", "CLK"}

// registerPorts puts every bit of the top module's ports in a flip-flop
// (SB_DFF) of its own, but the clock's: the inputs' flip-flops all load
// from a new input pnr_in (so no path runs from one to another: a shift
// chain's would be as long as a one-LUT unit's), the outputs' flip-flops
// hang off the output bits, and the ports become wires. The flip-flops run
// on the design's clock (the input its flip-flops and RAMs are clocked
// by), or on a new input pnr_clk when it has none.
func registerPorts(data []byte, top string) (*wrapped, error) {
	var doc struct {
		Creator json.RawMessage            `json:"creator"`
		Modules map[string]json.RawMessage `json:"modules"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	raw, ok := doc.Modules[top]
	if !ok {
		return nil, fmt.Errorf("netlist has no module %s", top)
	}
	var m yosysModule
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	w := &wrapped{ff: map[string]string{}, name: map[string]string{}}
	next := maxBit(&m) + 1
	newBit := func() any { next++; return json.Number(strconv.Itoa(next - 1)) }
	isClock := map[string]bool{}
	for _, c := range m.Cells {
		for _, pin := range clockPins {
			for _, b := range c.Connections[pin] {
				isClock[fmt.Sprint(b)] = true
			}
		}
	}
	var clk any
	for _, name := range slices.Sorted(maps.Keys(m.Ports)) {
		p := m.Ports[name]
		if p.Direction == "input" && len(p.Bits) == 1 && isClock[fmt.Sprint(p.Bits[0])] {
			clk = p.Bits[0]
		}
	}
	ports := m.Ports
	m.Ports = map[string]yosysPort{}
	if clk == nil {
		clk = newBit()
		m.Ports["pnr_clk"] = yosysPort{"input", []any{clk}}
		m.Netnames["pnr_clk"] = yosysNet{Bits: []any{clk}, Attributes: map[string]json.RawMessage{}}
	}
	in := newBit()
	m.Ports["pnr_in"] = yosysPort{"input", []any{in}}
	m.Netnames["pnr_in"] = yosysNet{Bits: []any{in}, Attributes: map[string]json.RawMessage{}}
	flop := func(cell, signal string, d, q any) {
		m.Cells[cell] = yosysCell{
			Type:           "SB_DFF",
			Parameters:     map[string]json.RawMessage{},
			Attributes:     map[string]json.RawMessage{},
			PortDirections: map[string]string{"C": "input", "D": "input", "Q": "output"},
			Connections:    map[string][]any{"C": {clk}, "D": {d}, "Q": {q}},
		}
		w.ff[cell], w.name[cell] = cell, signal
	}
	for _, name := range slices.Sorted(maps.Keys(ports)) {
		p := ports[name]
		for i, b := range p.Bits {
			bit := name
			if len(p.Bits) > 1 {
				bit = fmt.Sprintf("%s[%d]", name, i)
			}
			_, isNet := b.(json.Number)
			switch {
			case p.Direction == "input" && b == clk:
				m.Ports[name] = p
			case p.Direction == "input" && isNet:
				flop("pnr_in$"+bit, "in "+bit, in, b)
			case p.Direction == "output" && isNet:
				q := newBit()
				flop("pnr_out$"+bit, "out "+bit, b, q)
				m.Netnames["pnr_out$"+bit] = yosysNet{Bits: []any{q}, Attributes: map[string]json.RawMessage{}}
			}
		}
	}
	w.nameDesignFlops(&m)
	mod, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	doc.Modules = map[string]json.RawMessage{top: mod}
	w.json, err = json.Marshal(doc)
	return w, err
}

// nameDesignFlops fills in w's names of the design's own flip-flops (by
// their output's public net) and of the LUTs packed with a flip-flop.
func (w *wrapped) nameDesignFlops(m *yosysModule) {
	netName := map[string]string{} // bit -> its public name
	for _, name := range slices.Sorted(maps.Keys(m.Netnames)) {
		n := m.Netnames[name]
		if n.HideName != 0 {
			continue
		}
		for i, b := range n.Bits {
			s := name
			if len(n.Bits) > 1 {
				s = fmt.Sprintf("%s[%d]", name, i)
			}
			if old, ok := netName[fmt.Sprint(b)]; !ok || betterName(s, old) {
				netName[fmt.Sprint(b)] = s
			}
		}
	}
	sinks := map[string]int{}    // bit -> input pins it drives
	lutOf := map[string]string{} // bit -> the LUT that drives it
	for name, c := range m.Cells {
		for pin, bits := range c.Connections {
			if c.PortDirections[pin] == "input" {
				for _, b := range bits {
					sinks[fmt.Sprint(b)]++
				}
			}
		}
		if c.Type == "SB_LUT4" {
			lutOf[fmt.Sprint(c.Connections["O"][0])] = name
		}
	}
	for name, c := range m.Cells {
		if !strings.HasPrefix(c.Type, "SB_DFF") {
			continue
		}
		if _, ours := w.name[name]; !ours {
			w.ff[name] = name
			w.name[name] = netName[fmt.Sprint(c.Connections["Q"][0])]
		}
		if d := fmt.Sprint(c.Connections["D"][0]); sinks[d] == 1 && lutOf[d] != "" {
			w.ff[lutOf[d]] = name
		}
	}
}

// betterName prefers a name Yosys did not make up ('_' or '$' first), then
// the shorter.
func betterName(a, b string) bool {
	made := func(s string) bool { return strings.HasPrefix(s, "_") || strings.HasPrefix(s, "$") }
	if made(a) != made(b) {
		return !made(a)
	}
	return len(a) < len(b)
}

// maxBit is the largest net number in m.
func maxBit(m *yosysModule) int {
	most := 1 // 0 and 1 are the constants' in Yosys's numbering
	see := func(bits []any) {
		for _, b := range bits {
			if n, ok := b.(json.Number); ok {
				if v, err := n.Int64(); err == nil {
					most = max(most, int(v))
				}
			}
		}
	}
	for _, p := range m.Ports {
		see(p.Bits)
	}
	for _, n := range m.Netnames {
		see(n.Bits)
	}
	for _, c := range m.Cells {
		for _, bits := range c.Connections {
			see(bits)
		}
	}
	return most
}
