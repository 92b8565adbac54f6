package sim

import (
	"bufio"
	"fmt"
	"io"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/kernel"
)

// VCD waveforms from the Go simulator. Scopes follow the instance hierarchy
// and variables carry the same names as in the emitted Verilog (ports and
// user-named signals; generated '_' names are left out, as Verilator's
// --trace leaves them out), so a Go waveform and an RTL waveform of the same
// design can be opened side by side.
//
// Time: clock cycle c spans [10c, 10c+10). Values before the edge are
// dumped at 10c with clk 0, values after the edge at 10c+5 with clk 1.

type vcdVar struct {
	id    string
	slot  int32
	words int32
	width int
	last  []uint64
}

type vcdTrace struct {
	w       *bufio.Writer
	vars    []vcdVar
	clk     string // id of the clock, "" for designs without state
	clkLast uint64
	time    uint64
	started bool
	err     error
}

// vcdID encodes n in the printable characters '!'..'~'.
func vcdID(n int) string {
	var b []byte
	for {
		b = append(b, byte('!'+n%94))
		n /= 94
		if n == 0 {
			return string(b)
		}
		n--
	}
}

// TraceVCD starts writing a VCD waveform of the design to w: the header and
// the current values now, then the values around every following Step. Call
// FlushTrace when done.
func (s *Sim) TraceVCD(w io.Writer) error {
	t := &vcdTrace{w: bufio.NewWriter(w)}
	fmt.Fprintf(t.w, "$version parmem hdl $end\n$timescale 1ns $end\n")
	ids := 0
	newID := func() string { ids++; return vcdID(ids - 1) }
	var rstID string
	if s.nl.Seq {
		t.clk, rstID = newID(), newID()
	}
	var walk func(sc int)
	walk = func(sc int) {
		scope := &s.nl.Scopes[sc]
		fmt.Fprintf(t.w, "$scope module %s $end\n", scope.Name)
		if scope.Seq {
			fmt.Fprintf(t.w, "$var wire 1 %s %s $end\n$var wire 1 %s %s $end\n", t.clk, hdl.ClockName, rstID, hdl.ResetName)
		}
		for _, sv := range scope.Vars {
			n := &s.nl.Nodes[sv.Node]
			v := vcdVar{id: newID(), slot: s.slot[sv.Node], words: int32(kernel.NWords(n.Width)), width: n.Width}
			v.last = make([]uint64, v.words)
			t.vars = append(t.vars, v)
			kind := "wire"
			if n.Op.IsStorage() {
				kind = "reg"
			}
			rng := ""
			if n.Width > 1 {
				rng = fmt.Sprintf(" [%d:0]", n.Width-1)
			}
			fmt.Fprintf(t.w, "$var %s %d %s %s%s $end\n", kind, n.Width, v.id, sv.Name, rng)
		}
		for _, c := range scope.Children {
			walk(c)
		}
		fmt.Fprintf(t.w, "$upscope $end\n")
	}
	walk(0)
	fmt.Fprintf(t.w, "$enddefinitions $end\n")
	if rstID != "" {
		t.vars = append(t.vars, vcdVar{id: rstID, slot: s.rst, words: 1, width: 1, last: make([]uint64, 1)})
	}
	s.trace = t
	s.settle()
	t.sample(s, 10*s.cycle, 0)
	return t.w.Flush()
}

// FlushTrace writes out buffered waveform data and stops tracing. It
// returns the first write error met while tracing.
func (s *Sim) FlushTrace() error {
	t := s.trace
	if t == nil {
		return nil
	}
	s.trace = nil
	if err := t.w.Flush(); t.err == nil {
		t.err = err
	}
	return t.err
}

// sample writes the variables that changed since the last sample (all of
// them the first time) at the given time.
func (t *vcdTrace) sample(s *Sim, time uint64, clk uint64) {
	if t.err != nil {
		return
	}
	stamped := false
	stamp := func() {
		if !stamped {
			stamped = true
			if !t.started || time != t.time {
				fmt.Fprintf(t.w, "#%d\n", time)
			}
			if !t.started {
				fmt.Fprintf(t.w, "$dumpvars\n")
			}
		}
	}
	if t.clk != "" && (!t.started || clk != t.clkLast) {
		stamp()
		fmt.Fprintf(t.w, "%d%s\n", clk, t.clk)
		t.clkLast = clk
	}
	st := s.kn.St
	for i := range t.vars {
		v := &t.vars[i]
		cur := st[v.slot : v.slot+v.words]
		if t.started && kernel.WCmp(cur, v.last) == 0 {
			continue
		}
		stamp()
		copy(v.last, cur)
		if v.width == 1 {
			fmt.Fprintf(t.w, "%d%s\n", cur[0], v.id)
		} else {
			fmt.Fprintf(t.w, "b%s %s\n", binaryDigits(cur, v.width), v.id)
		}
	}
	if !t.started {
		stamp()
		fmt.Fprintf(t.w, "$end\n")
	}
	t.started = true
	t.time = time
	_, t.err = t.w.Write(nil)
}

// binaryDigits formats a w-bit value in binary without leading zeros.
func binaryDigits(v []uint64, w int) string {
	top := w - 1
	for top > 0 && kernel.BitOf(v, top) == 0 {
		top--
	}
	b := make([]byte, top+1)
	for i := top; i >= 0; i-- {
		b[top-i] = byte('0' + kernel.BitOf(v, i))
	}
	return string(b)
}
