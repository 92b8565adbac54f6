package verify

import (
	"fmt"
	"io"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/parmem/parmem/hdl"
)

// SpeedRow is one simulator's run of the LFSR benchmark.
type SpeedRow struct {
	Sim      string
	Cycles   uint64
	Nanos    uint64
	Checksum uint64
}

// CyclesPerSecond is the row's simulation speed.
func (r SpeedRow) CyclesPerSecond() float64 {
	return float64(r.Cycles) / (float64(r.Nanos) / 1e9)
}

// GoBench runs the hdl interpreter's benchmark: one reset cycle, then
// cycles of the in-simulator stimulus; it returns the checksum of every
// output word and the nanoseconds the cycles took.
func GoBench(d *hdl.Design, cycles, seed uint64) (checksum, nanos uint64, err error) {
	g, err := NewGoSim(d)
	if err != nil {
		return 0, 0, err
	}
	if err := Reset(g); err != nil {
		return 0, 0, err
	}
	s := lfsrSeed(seed)
	chk := uint64(lfsrChecksumInit)
	start := time.Now()
	for range cycles {
		lfsrFill(&s, g.ports, g.vec)
		chk = g.cycle(g.vec, chk)
	}
	return chk, uint64(time.Since(start).Nanoseconds()), nil
}

// MeasureSpeed runs the LFSR benchmark of d on every simulator: the Go
// interpreter, compiled Go (when the design allows), and Verilator for
// fast cycles, and all of them plus Icarus for slow cycles (Icarus is far
// slower). Checksums must agree among runs of the same length; the rows
// report the fast runs and Icarus's slow one.
func MeasureSpeed(d *hdl.Design, fast, slow, seed uint64, vopt VerilatorOptions) ([]SpeedRow, error) {
	type benchSim struct {
		name string
		run  func(cycles uint64) (checksum, nanos uint64, err error)
	}
	sims := []benchSim{{"go", func(n uint64) (uint64, uint64, error) { return GoBench(d, n, seed) }}}
	if gc, err := NewGoCompiled(d); err == nil { // designs with wide values have no compiled form
		defer gc.Close()
		sims = append(sims, benchSim{"go-compiled", func(n uint64) (uint64, uint64, error) { return gc.Bench(n, seed) }})
	}
	v, err := NewVerilator(d, vopt)
	if err != nil {
		return nil, err
	}
	defer v.Close()
	sims = append(sims, benchSim{"verilator", func(n uint64) (uint64, uint64, error) { return v.Bench(n, seed) }})

	slowSum, icarusNanos, err := IcarusBench(d, slow, seed)
	if err != nil {
		return nil, err
	}
	var rows []SpeedRow
	for _, s := range sims {
		chk, _, err := s.run(slow)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", s.name, err)
		}
		if chk != slowSum {
			return nil, fmt.Errorf("checksums differ after %d cycles: icarus %#x, %s %#x", slow, slowSum, s.name, chk)
		}
		chk, ns, err := s.run(fast)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", s.name, err)
		}
		if len(rows) > 0 && chk != rows[0].Checksum {
			return nil, fmt.Errorf("checksums differ after %d cycles: go %#x, %s %#x", fast, rows[0].Checksum, s.name, chk)
		}
		rows = append(rows, SpeedRow{Sim: s.name, Cycles: fast, Nanos: ns, Checksum: chk})
	}
	return append(rows, SpeedRow{Sim: "icarus", Cycles: slow, Nanos: icarusNanos, Checksum: slowSum}), nil
}

// WriteSpeedTable prints rows with each simulator's speed relative to
// Verilator and to Icarus.
func WriteSpeedTable(w io.Writer, title string, rows []SpeedRow) {
	var ver, ic float64
	for _, r := range rows {
		switch r.Sim {
		case "verilator":
			ver = r.CyclesPerSecond()
		case "icarus":
			ic = r.CyclesPerSecond()
		}
	}
	fmt.Fprintf(w, "%s\n", title)
	t := tablewriter.NewWriter(w)
	t.Header([]string{"simulator", "cycles", "seconds", "cycles/s", "x verilator", "x icarus", "checksum"})
	for _, r := range rows {
		cps := r.CyclesPerSecond()
		t.Append([]string{r.Sim, fmt.Sprint(r.Cycles), fmt.Sprintf("%.3f", float64(r.Nanos)/1e9), fmt.Sprintf("%.0f", cps),
			fmt.Sprintf("%.2f", cps/ver), fmt.Sprintf("%.1f", cps/ic), fmt.Sprintf("%016x", r.Checksum)})
	}
	t.Render()
}
