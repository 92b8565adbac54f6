package verify

import (
	"bufio"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/parmem/parmem/hdl"
)

// Stimulus produces the input vector of every cycle. A stimulus is
// deterministic: made again with the same seed it produces the same
// vectors, which is how a failing run is replayed with waveforms.
type Stimulus interface {
	// Fill writes the inputs of cycle (counted from 0 after the initial
	// reset) into v, which has Ports.InWords() words.
	Fill(cycle uint64, v Vector)
}

// Expecter is a Stimulus that also knows some outputs: Lockstep checks
// every simulator against them.
type Expecter interface {
	Stimulus
	// Expect returns the expected value of output port index i in cycle,
	// and whether it is known (false: don't care).
	Expect(cycle uint64, i int) ([]uint64, bool)
}

// Random is seeded random stimulus: every input gets random bits, often a
// boundary value (zero, all ones, one, the sign bit alone), and rst is
// asserted in about one cycle in ResetOneIn (never when ResetOneIn is 0).
type Random struct {
	Ports      Ports
	ResetOneIn int
	r          *rand.Rand
}

// NewRandom returns random stimulus for ports from seed.
func NewRandom(ports Ports, seed uint64) *Random {
	return &Random{Ports: ports, ResetOneIn: 64, r: rand.New(rand.NewPCG(seed, 0x57))}
}

// Fill implements Stimulus.
func (s *Random) Fill(cycle uint64, v Vector) {
	off := 0
	for i, p := range s.Ports.In {
		w := v[off : off+p.Words()]
		if isReset(i, p) {
			w[0] = 0
			if s.ResetOneIn > 0 && s.r.IntN(s.ResetOneIn) == 0 {
				w[0] = 1
			}
		} else {
			randomWords(s.r, p.Width, w)
		}
		off += p.Words()
	}
}

// randomWords fills w with a random value of width bits, biased towards
// the values where logic goes wrong: in one case of eight each zero, all
// ones, the sign bit alone, and a small number; otherwise uniform.
func randomWords(r *rand.Rand, width int, w []uint64) {
	x := r.Uint64()
	kind := x >> 61 // top three bits choose the case; the rest feed it
	for k := range w {
		w[k] = 0
	}
	switch kind {
	case 0: // zero
	case 1: // all ones
		for k := range w {
			w[k] = wordMask(width, k)
		}
	case 2: // the sign bit alone
		w[(width-1)/64] = 1 << uint((width-1)%64)
	case 3: // small
		w[0] = x & 3 & wordMask(width, 0)
	default:
		for k := range w {
			w[k] = r.Uint64() & wordMask(width, k)
		}
	}
}

// Inputs gives a Generator named access to one cycle's input vector.
type Inputs struct {
	ports Ports
	v     Vector
}

// Set sets input name to v (which must fit its width).
func (in *Inputs) Set(name string, v uint64) error {
	for i, p := range in.ports.In {
		if p.Name == name {
			if p.Width < 64 && v>>uint(p.Width) != 0 {
				return fmt.Errorf("input %s: %d does not fit %d bits", name, v, p.Width)
			}
			w := in.v.Field(in.ports.In, i)
			for k := range w {
				w[k] = 0
			}
			w[0] = v
			return nil
		}
	}
	return fmt.Errorf("no input %q (inputs: %s)", name, portNames(in.ports.In))
}

// Generator is constrained-random stimulus supplied by a unit: Gen sees
// the cycle's inputs already filled with Random values and sets those it
// constrains.
type Generator struct {
	random *Random
	gen    func(r *rand.Rand, cycle uint64, in *Inputs)
}

// NewGenerator returns a Generator for ports from seed; rst is left to
// gen (Random asserts it about once in 64 cycles).
func NewGenerator(ports Ports, seed uint64, gen func(r *rand.Rand, cycle uint64, in *Inputs)) *Generator {
	return &Generator{random: NewRandom(ports, seed), gen: gen}
}

// Fill implements Stimulus.
func (g *Generator) Fill(cycle uint64, v Vector) {
	g.random.Fill(cycle, v)
	g.gen(g.random.r, cycle, &Inputs{ports: g.random.Ports, v: v})
}

// Directed is a table of vectors: one row per cycle, a column per port
// named in the header. Columns left of "|" are inputs, right of it
// expected outputs. A value is a Verilog literal (8'hff), a decimal or 0x
// hexadecimal number, or "-" for don't care: an input don't-care gets a
// random value from the seed, an output don't-care is not checked.
// Inputs without a column are random too. Lines starting with # are
// comments.
//
//	rst a     b    | sum
//	1   -     -    | -
//	0   8'h01 8'h02 | 8'h03
type Directed struct {
	ports  Ports
	random *Random
	inCol  []int // input port index of each input column
	outCol []int // output port index of each output column
	rows   [][]cell
}

type cell struct {
	words []uint64 // nil: don't care
}

// ParseDirected reads a table for ports.
func ParseDirected(ports Ports, table string, seed uint64) (*Directed, error) {
	d := &Directed{ports: ports, random: NewRandom(ports, seed)}
	d.random.ResetOneIn = 0
	sc := bufio.NewScanner(strings.NewReader(table))
	header := true
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		left, right, _ := strings.Cut(text, "|")
		if header {
			if err := d.parseHeader(strings.Fields(left), strings.Fields(right)); err != nil {
				return nil, fmt.Errorf("directed vectors, line %d: %v", line, err)
			}
			header = false
			continue
		}
		row, err := d.parseRow(strings.Fields(left), strings.Fields(right))
		if err != nil {
			return nil, fmt.Errorf("directed vectors, line %d: %v", line, err)
		}
		d.rows = append(d.rows, row)
	}
	if header {
		return nil, fmt.Errorf("directed vectors: no header line naming the ports")
	}
	return d, nil
}

func (d *Directed) parseHeader(ins, outs []string) error {
	find := func(ports []Port, name string) int {
		for i, p := range ports {
			if p.Name == name {
				return i
			}
		}
		return -1
	}
	for _, n := range ins {
		i := find(d.ports.In, n)
		if i < 0 {
			return fmt.Errorf("%q is not an input (inputs: %s)", n, portNames(d.ports.In))
		}
		d.inCol = append(d.inCol, i)
	}
	for _, n := range outs {
		i := find(d.ports.Out, n)
		if i < 0 {
			return fmt.Errorf("%q is not an output (outputs: %s)", n, portNames(d.ports.Out))
		}
		d.outCol = append(d.outCol, i)
	}
	return nil
}

func (d *Directed) parseRow(ins, outs []string) ([]cell, error) {
	if len(ins) != len(d.inCol) || len(outs) != len(d.outCol) {
		return nil, fmt.Errorf("%d input and %d output values, the header has %d and %d", len(ins), len(outs), len(d.inCol), len(d.outCol))
	}
	var row []cell
	for k, text := range append(ins, outs...) {
		p := d.ports.In[d.inCol[min(k, len(d.inCol)-1)]]
		if k >= len(ins) {
			p = d.ports.Out[d.outCol[k-len(ins)]]
		}
		c, err := parseCell(text, p)
		if err != nil {
			return nil, err
		}
		row = append(row, c)
	}
	return row, nil
}

func parseCell(text string, p Port) (cell, error) {
	if text == "-" {
		return cell{}, nil
	}
	var b hdl.Bits
	var err error
	switch {
	case strings.Contains(text, "'"):
		b, err = hdl.Parse(text)
		if err == nil && b.Width() != p.Width {
			err = fmt.Errorf("%s is %d bits, port %s is %d", text, b.Width(), p.Name, p.Width)
		}
	default:
		x, ok := new(big.Int).SetString(text, 0)
		if !ok {
			return cell{}, fmt.Errorf("%q for %s is not a number, a Verilog literal or -", text, p.Name)
		}
		b, err = hdl.FromBig(p.Width, x)
	}
	if err != nil {
		return cell{}, fmt.Errorf("port %s: %v", p.Name, err)
	}
	return cell{words: b.Words()}, nil
}

// Len returns the number of rows (cycles).
func (d *Directed) Len() uint64 { return uint64(len(d.rows)) }

// Fill implements Stimulus.
func (d *Directed) Fill(cycle uint64, v Vector) {
	d.random.Fill(cycle, v)
	if cycle >= d.Len() {
		return
	}
	for k, i := range d.inCol {
		if c := d.rows[cycle][k]; c.words != nil {
			copy(v.Field(d.ports.In, i), c.words)
		}
	}
}

// Expect implements Expecter.
func (d *Directed) Expect(cycle uint64, i int) ([]uint64, bool) {
	if cycle >= d.Len() {
		return nil, false
	}
	for k, o := range d.outCol {
		if o == i {
			c := d.rows[cycle][len(d.inCol)+k]
			return c.words, c.words != nil
		}
	}
	return nil, false
}

// ParseSeed reads a seed given as decimal or 0x hexadecimal.
func ParseSeed(s string) (uint64, error) { return strconv.ParseUint(s, 0, 64) }

// Recorded replays input vectors recorded elsewhere (a reactive test
// driving the Go simulator, say); cycles past the end get zero inputs.
type Recorded struct{ vecs []Vector }

// NewRecorded returns a stimulus that replays vecs.
func NewRecorded(vecs []Vector) *Recorded { return &Recorded{vecs: vecs} }

// Fill implements Stimulus.
func (r *Recorded) Fill(cycle uint64, v Vector) {
	if cycle < uint64(len(r.vecs)) {
		copy(v, r.vecs[cycle])
		return
	}
	for k := range v {
		v[k] = 0
	}
}
