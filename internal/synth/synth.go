// Package synth runs the Yosys flows in scripts/ on emitted Verilog and
// reads back area and depth: iCE40 LUT4s, carries, RAM bits and LUT levels;
// technology-independent gates and the longest path in gates.
package synth

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/parmem/parmem/internal/cache"
	"github.com/parmem/parmem/internal/tools"
	"github.com/parmem/parmem/scripts"
)

// ICE40 is the result of the iCE40 flow.
type ICE40 struct {
	LUT4, Carry, RAMBits int
	Flops                int // SB_DFF* cells
	LUTLevels            int // SB_LUT4 cells on the longest combinational path
}

// Gates is the result of the gate flow.
type Gates struct {
	Gates int // combinational gates
	Depth int // gates on the longest combinational path
	Flops int // flip-flops (memories are mapped to them)
	// OutputDepth is the gates on the longest combinational path to each
	// output port (its deepest bit).
	OutputDepth map[string]int
}

// GE is the result of the gate-equivalent flow.
type GE struct {
	Area  float64 // the cells' area in NAND2 equivalents (Yosys's "Chip area")
	Cells int     // cells, flip-flops included
	Depth int     // combinational cells on the longest path
	Flops int
}

// Within one process a flow runs once on a given design: the reports
// measure some configurations more than once (elastic-cost's shared
// designs, a unit that two reports set beside the thesis), and a second
// Map of the same flow, top and Verilog returns the first one's result,
// waiting for it while it runs. And however many reports measure at once,
// at most runtime.NumCPU() Yosys processes run (each is single-threaded),
// the largest waiting design first, so that the longest runs (q = 6's
// memory logic) do not start last.
var (
	slots  = &slotQueue{free: runtime.NumCPU()}
	onceMu sync.Mutex
	once   = map[[sha256.Size]byte]*onceRun{}
)

// slotQueue hands out Yosys slots, to the largest waiting design first.
type slotQueue struct {
	mu      sync.Mutex
	free    int
	waiting []*slotWaiter
}

type slotWaiter struct {
	size  int
	ready chan struct{}
}

// acquire waits for a slot for a design of size bytes.
func (q *slotQueue) acquire(size int) {
	q.mu.Lock()
	if q.free > 0 && len(q.waiting) == 0 {
		q.free--
		q.mu.Unlock()
		return
	}
	w := &slotWaiter{size, make(chan struct{})}
	q.waiting = append(q.waiting, w)
	q.mu.Unlock()
	<-w.ready
}

// release hands the slot to the largest waiting design, or frees it.
func (q *slotQueue) release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.waiting) == 0 {
		q.free++
		return
	}
	i := 0
	for j, w := range q.waiting {
		if w.size > q.waiting[i].size {
			i = j
		}
	}
	w := q.waiting[i]
	q.waiting = append(q.waiting[:i], q.waiting[i+1:]...)
	close(w.ready)
}

// onceRun is one flow on one design: its result once done is closed.
type onceRun struct {
	done   chan struct{}
	result any
	err    error
}

// memo runs measure once per flow, top and Verilog in this process.
// versions are the tools the flow runs besides Yosys, by their version
// lines (cache.ToolVersion), for the tool cache's key.
func memo[T any](flow, top string, verilog []byte, measure func() (T, error), versions ...string) (T, error) {
	h := sha256.New()
	var zero T
	fmt.Fprintf(h, "%T\x00%s\x00%s\x00", zero, flow, top)
	h.Write(verilog)
	var key [sha256.Size]byte
	h.Sum(key[:0])
	onceMu.Lock()
	r, ok := once[key]
	if !ok {
		r = &onceRun{done: make(chan struct{})}
		once[key] = r
	}
	onceMu.Unlock()
	if ok {
		<-r.done
	} else {
		r.result, r.err = stored(flow, top, verilog, measure, versions)
		close(r.done)
	}
	if r.err != nil {
		return zero, r.err
	}
	return r.result.(T), nil
}

// diskCache is whether results are kept in the tool cache (package
// cache): a design-review run after a change synthesizes only the designs
// the change touched. This package's tests turn it off to run Yosys.
var diskCache = true

// stored returns measure's result from the tool cache, keyed by the result
// type, the flow, the cell library, the top, the Verilog, the Yosys
// version and the other tools' versions, and otherwise runs it and stores
// its result. Without a cache directory (no go.mod above the working
// directory and no $PARMEM_CACHE) it only runs it; an entry that does not
// decode is measured again.
func stored[T any](flow, top string, verilog []byte, measure func() (T, error), versions []string) (T, error) {
	if !diskCache {
		return measure()
	}
	if _, err := cache.Root(); err != nil {
		return measure()
	}
	var result T
	key := cache.Key(append([]string{fmt.Sprintf("%T", result), flow, scripts.GELib, top, string(verilog), cache.ToolVersion("yosys", "-V")}, versions...)...)
	for range 2 {
		dir, _, err := cache.Build("synth", key, func(dir string) error {
			r, err := measure()
			if err != nil {
				return err
			}
			data, err := json.Marshal(r)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "result.json"), data, 0o644)
		})
		if err != nil {
			return result, err
		}
		data, err := os.ReadFile(filepath.Join(dir, "result.json"))
		if err == nil && json.Unmarshal(data, &result) == nil {
			use(key, data)
			return result, nil
		}
		os.RemoveAll(dir) // damaged: measure again
		result = *new(T)
	}
	return result, fmt.Errorf("yosys on %s: the tool cache does not keep its result", top)
}

// run executes a flow on verilog (top module top) in a scratch directory
// and returns the stat text and the netlist.
func run(flow, top string, verilog []byte) (string, *netlist, error) {
	stat, data, err := runJSON(flow, top, verilog)
	if err != nil {
		return "", nil, err
	}
	nl, err := readNetlist(data, top)
	return stat, nl, err
}

// runJSON executes a flow on verilog (top module top) in a scratch
// directory and returns the stat text and the netlist's JSON.
func runJSON(flow, top string, verilog []byte) (string, []byte, error) {
	if _, err := exec.LookPath("yosys"); err != nil {
		return "", nil, fmt.Errorf("yosys is not installed; run `make deps`")
	}
	dir, err := os.MkdirTemp("", "parmem-synth-")
	if err != nil {
		return "", nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "design.v"), verilog, 0o644); err != nil {
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "flow.ys"), []byte(flow), 0o644); err != nil {
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "ge.lib"), []byte(scripts.GELib), 0o644); err != nil {
		return "", nil, err // the library ge.ys maps to
	}
	slots.acquire(len(verilog))
	out, err := tools.Output(dir, "yosys", "-q", "-p", "read_verilog design.v; hierarchy -top "+top+"; script flow.ys")
	slots.release()
	if err != nil {
		return "", nil, fmt.Errorf("yosys on %s: %v\n%s", top, err, out)
	}
	stat, err := os.ReadFile(filepath.Join(dir, "stat.txt"))
	if err != nil {
		return "", nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, "netlist.json"))
	return string(stat), data, err
}

var cellCount = regexp.MustCompile(`(?m)^\s+(\S+)\s+(\d+)$`)

// cells reads "TYPE COUNT" lines of a stat report.
func cells(stat string) map[string]int {
	counts := map[string]int{}
	for _, m := range cellCount.FindAllStringSubmatch(stat, -1) {
		n, _ := strconv.Atoi(m[2])
		counts[m[1]] += n
	}
	return counts
}

// MapICE40 runs scripts/ice40.ys.
func MapICE40(top string, verilog []byte) (ICE40, error) {
	return memo(scripts.ICE40, top, verilog, func() (ICE40, error) { return mapICE40(top, verilog) })
}

func mapICE40(top string, verilog []byte) (ICE40, error) {
	stat, nl, err := run(scripts.ICE40, top, verilog)
	if err != nil {
		return ICE40{}, err
	}
	c := cells(stat)
	r := ICE40{LUT4: c["SB_LUT4"], Carry: c["SB_CARRY"]}
	for t, n := range c {
		if strings.HasPrefix(t, "SB_RAM40_4K") {
			r.RAMBits += 4096 * n
		}
		if strings.HasPrefix(t, "SB_DFF") {
			r.Flops += n
		}
	}
	r.LUTLevels, _ = nl.depth(func(t string) int {
		if t == "SB_LUT4" {
			return 1
		}
		return 0 // carries are the fast dedicated chain; flip-flops cut paths
	})
	return r, nil
}

// MapGates runs scripts/gates.ys.
func MapGates(top string, verilog []byte) (Gates, error) {
	return mapGates(scripts.Gates, top, verilog)
}

// MapGatesFast runs scripts/gates_fast.ys: the same gates, ABC's fast
// script.
func MapGatesFast(top string, verilog []byte) (Gates, error) {
	return mapGates(scripts.GatesFast, top, verilog)
}

// MapGatesNoABC runs scripts/gates_noabc.ys: Yosys's own gates without
// ABC's optimization, for designs too large for ABC.
func MapGatesNoABC(top string, verilog []byte) (Gates, error) {
	return mapGates(scripts.GatesNoABC, top, verilog)
}

// MapGE runs scripts/ge.ys: the design mapped to scripts/ge.lib, its
// area in gate equivalents.
func MapGE(top string, verilog []byte) (GE, error) {
	return memo(scripts.GE, top, verilog, func() (GE, error) { return mapGE(top, verilog) })
}

func mapGE(top string, verilog []byte) (GE, error) {
	stat, nl, err := run(scripts.GE, top, verilog)
	if err != nil {
		return GE{}, err
	}
	m := chipArea.FindStringSubmatch(stat)
	if m == nil {
		return GE{}, fmt.Errorf("yosys on %s: no chip area in the stat report", top)
	}
	g := GE{}
	g.Area, _ = strconv.ParseFloat(m[1], 64)
	for _, c := range nl.cells {
		g.Cells++
		if c.typ == "DFF" {
			g.Flops++
		}
	}
	g.Depth, _ = nl.depth(func(t string) int {
		if t == "DFF" {
			return 0
		}
		return 1
	})
	return g, nil
}

var chipArea = regexp.MustCompile(`Chip area for module '[^']*': ([0-9.]+)`)

func mapGates(flow, top string, verilog []byte) (Gates, error) {
	g, err := memo(flow, top, verilog, func() (Gates, error) { return gatesOf(flow, top, verilog) })
	g.OutputDepth = maps.Clone(g.OutputDepth) // the caller's own
	return g, err
}

func gatesOf(flow, top string, verilog []byte) (Gates, error) {
	_, nl, err := run(flow, top, verilog)
	if err != nil {
		return Gates{}, err
	}
	weight := func(t string) int {
		if isGate(t) {
			return 1
		}
		return 0
	}
	most, arrive := nl.depth(weight)
	g := Gates{Depth: most, OutputDepth: map[string]int{}}
	for port, bits := range nl.outputs {
		for _, b := range bits {
			g.OutputDepth[port] = max(g.OutputDepth[port], arrive(b))
		}
	}
	for _, c := range nl.cells {
		g.Gates += weight(c.typ)
		if isFlop(c.typ) {
			g.Flops++
		}
	}
	return g, nil
}

// isGate reports whether a cell type is one of the gate flow's
// combinational gates.
func isGate(t string) bool {
	switch t {
	case "$_AND_", "$_NAND_", "$_OR_", "$_NOR_", "$_XOR_", "$_XNOR_", "$_ANDNOT_", "$_ORNOT_", "$_MUX_", "$_NOT_":
		return true
	}
	return false
}

// netlist is the flattened top module of a Yosys JSON netlist.
type netlist struct {
	cells   []cell
	outputs map[string][]int // the top's output ports' net bits
}

type cell struct {
	typ     string
	inputs  []int // net bits
	outputs []int
}

func readNetlist(data []byte, top string) (*netlist, error) {
	var doc struct {
		Modules map[string]struct {
			Ports map[string]struct {
				Direction string            `json:"direction"`
				Bits      []json.RawMessage `json:"bits"`
			} `json:"ports"`
			Cells map[string]struct {
				Type           string                       `json:"type"`
				PortDirections map[string]string            `json:"port_directions"`
				Connections    map[string][]json.RawMessage `json:"connections"`
			} `json:"cells"`
		} `json:"modules"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	mod, ok := doc.Modules[top]
	if !ok {
		return nil, fmt.Errorf("netlist has no module %s", top)
	}
	nl := &netlist{outputs: map[string][]int{}}
	for name, p := range mod.Ports {
		if p.Direction != "output" {
			continue
		}
		for _, raw := range p.Bits {
			var bit int
			if json.Unmarshal(raw, &bit) == nil {
				nl.outputs[name] = append(nl.outputs[name], bit)
			}
		}
	}
	for _, c := range mod.Cells {
		x := cell{typ: c.Type}
		for port, conns := range c.Connections {
			for _, raw := range conns {
				var bit int
				if json.Unmarshal(raw, &bit) != nil {
					continue // a constant "0"/"1"/"x"
				}
				if c.PortDirections[port] == "output" {
					x.outputs = append(x.outputs, bit)
				} else {
					x.inputs = append(x.inputs, bit)
				}
			}
		}
		nl.cells = append(nl.cells, x)
	}
	return nl, nil
}

// depth is the largest total weight along a path of cells, where cells of
// weight 0 pass arrival times through and flip-flops (cells with a clock)
// start new paths. Cell weights come from weight; flip-flop outputs and
// inputs arrive at 0. arrive gives a net bit's arrival: its driving
// cell's, 0 for an input or a flip-flop's output.
func (nl *netlist) depth(weight func(string) int) (most int, arrive func(bit int) int) {
	driver := map[int]int{} // net bit -> driving cell
	for i, c := range nl.cells {
		for _, b := range c.outputs {
			driver[b] = i
		}
	}
	memo := make([]int, len(nl.cells))
	state := make([]uint8, len(nl.cells)) // 0 new, 1 visiting, 2 done
	var cellArrive func(i int) int
	cellArrive = func(i int) int {
		switch state[i] {
		case 2:
			return memo[i]
		case 1:
			return 0 // a loop through a flip-flop seen from the other side
		}
		state[i] = 1
		at := 0
		if !isFlop(nl.cells[i].typ) {
			for _, b := range nl.cells[i].inputs {
				if d, ok := driver[b]; ok && !isFlop(nl.cells[d].typ) {
					at = max(at, cellArrive(d))
				}
			}
		}
		memo[i] = at + weight(nl.cells[i].typ)
		if isFlop(nl.cells[i].typ) {
			memo[i] = 0
		}
		state[i] = 2
		return memo[i]
	}
	for i := range nl.cells {
		most = max(most, cellArrive(i))
	}
	return most, func(bit int) int {
		if d, ok := driver[bit]; ok {
			return cellArrive(d)
		}
		return 0
	}
}

// isFlop reports whether a cell type holds state.
func isFlop(t string) bool {
	return strings.Contains(t, "DFF") || strings.HasPrefix(t, "SB_DFF") || strings.HasPrefix(t, "$_SDFF") ||
		strings.HasPrefix(t, "$_DFF") || strings.HasPrefix(t, "SB_RAM")
}
