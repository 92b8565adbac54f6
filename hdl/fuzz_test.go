package hdl_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
)

// FuzzConstruct turns arbitrary bytes into a sequence of construction
// calls, right and wrong: bad widths and names, nil and foreign operands,
// width mismatches, missing and double drivers, loops, memories and
// instances. Whatever the sequence, the library must not panic: Elaborate
// either reports problems that all carry a source position, or returns a
// design that simulates, traces and emits the same Verilog twice.
//
// `go test` runs the committed corpus in testdata/fuzz/FuzzConstruct;
// `make fuzz` explores further.
func FuzzConstruct(f *testing.F) {
	f.Add([]byte{0, 8, 0, 8, 3, 0, 1, 10, 0})
	f.Add([]byte("a design that is made of bytes of text"))
	f.Fuzz(func(t *testing.T, program []byte) {
		b := &builder{in: program}
		top := b.build()
		d, err := hdl.Elaborate(top)
		if err != nil {
			for _, e := range hdl.Errors(err) {
				he, ok := e.(*hdl.Error)
				if !ok || !he.Pos.IsValid() {
					t.Fatalf("problem without a source position: %v", e)
				}
			}
			return
		}
		s := sim.New(d)
		if err := s.TraceVCD(io.Discard); err != nil {
			t.Fatal(err)
		}
		s.Reset()
		for cycle := range 4 {
			for i, in := range top.Inputs() {
				r, err := s.Input(in.Name())
				if err != nil {
					t.Fatal(err)
				}
				s.Put(r, uint64(b.next())*uint64(cycle+i+1)*0x9e3779b97f4a7c15)
			}
			s.Step()
		}
		if err := s.FlushTrace(); err != nil {
			t.Fatal(err)
		}
		if v := d.Verilog(); !bytes.Equal(v, d.Verilog()) || !bytes.Contains(v, []byte("endmodule")) {
			t.Fatal("Verilog emission is not deterministic or is empty")
		}
	})
}

// builder interprets fuzz bytes as construction calls.
type builder struct {
	in      []byte
	pos     int
	m       *hdl.Module
	foreign *hdl.Signal
	pool    []*hdl.Signal
	pending []*hdl.Signal // wires and registers still to drive
	leaf    *hdl.Module
	names   int
}

func (b *builder) next() byte {
	if b.pos >= len(b.in) {
		return 0
	}
	b.pos++
	return b.in[b.pos-1]
}

func (b *builder) done() bool { return b.pos >= len(b.in) }

// width is mostly 1..130, sometimes out of range.
func (b *builder) width() int {
	switch x := b.next(); {
	case x == 255:
		return 0
	case x == 254:
		return -7
	case x == 253:
		return hdl.MaxWidth + 1
	default:
		return 1 + int(x)%130
	}
}

// name is mostly fresh, sometimes illegal, reserved or a duplicate.
func (b *builder) name() string {
	bad := []string{"", "module", "9lives", "_gen", "clk", "rst", "dup", "dup", "a b"}
	if x := b.next(); x >= 240 {
		return bad[int(x-240)%len(bad)]
	}
	b.names++
	return fmt.Sprintf("s%d", b.names)
}

// pick returns a signal of the pool, or nil, or one of another module.
func (b *builder) pick() *hdl.Signal {
	x := b.next()
	switch {
	case x == 255:
		return nil
	case x == 254:
		return b.foreign
	case len(b.pool) == 0:
		return b.m.ConstU(8, uint64(x))
	}
	return b.pool[int(x)%len(b.pool)]
}

// fit usually resizes s to width w, so that many programs elaborate.
func (b *builder) fit(s *hdl.Signal, w int) *hdl.Signal {
	if s == nil || w < 1 || w > hdl.MaxWidth || b.next()%8 == 0 {
		return s
	}
	switch {
	case s.Width() < w:
		return s.Zext(w)
	case s.Width() > w:
		return s.Trunc(w)
	}
	return s
}

func (b *builder) add(s *hdl.Signal) {
	if s != nil {
		b.pool = append(b.pool, s)
	}
}

func (b *builder) build() *hdl.Module {
	other := hdl.NewModule("other")
	b.foreign = other.Input("x", 8)

	b.leaf = hdl.NewModule("leaf")
	la, lb := b.leaf.Input("a", 8), b.leaf.Input("b", 3)
	b.leaf.Output("y", 8).Drive(la.ShlBy(lb))
	b.leaf.Output("z", 1).Drive(la.RedXor())

	b.m = hdl.NewModule("fuzz")
	b.add(b.m.Input("in0", 8))
	for steps := 0; !b.done() && steps < 300; steps++ {
		b.step()
	}
	for _, s := range b.pending {
		s.Drive(b.fit(b.pick(), s.Width()))
	}
	if len(b.pool) > 0 {
		last := b.pool[len(b.pool)-1]
		b.m.Output("out", last.Width()).Drive(last)
	}
	return b.m
}

func (b *builder) step() {
	m := b.m
	switch b.next() % 12 {
	case 0:
		b.add(m.Input(b.name(), b.width()))
	case 1:
		b.add(m.ConstU(b.width(), uint64(b.next())))
	case 2:
		b.add(b.unary(b.pick()))
	case 3:
		x := b.pick()
		b.add(b.binary(x, b.fit(b.pick(), x.Width())))
	case 4:
		b.add(b.nary())
	case 5:
		w := m.Wire(b.name(), b.width())
		b.pending = append(b.pending, w)
		b.add(w)
	case 6:
		r := m.Reg(b.name(), b.width())
		if b.next()%2 == 0 {
			r.Enable(b.fit(b.pick(), 1))
		}
		b.pending = append(b.pending, r)
		b.add(r)
	case 7:
		b.memory()
	case 8:
		b.instance()
	case 9:
		if s := b.pick(); s != nil {
			b.add(s.Named(b.name()))
		}
	case 10:
		if s := b.pick(); s != nil {
			m.Output(b.name(), s.Width()).Drive(s)
		}
	case 11:
		if len(b.pending) > 0 {
			s := b.pending[int(b.next())%len(b.pending)]
			s.Drive(b.fit(b.pick(), s.Width())) // may be a second driver
		}
	}
}

func (b *builder) unary(a *hdl.Signal) *hdl.Signal {
	n := int(b.next()) - 8 // sometimes negative
	w := a.Width()
	switch b.next() % 13 {
	case 0:
		return a.Not()
	case 1:
		return a.RedAnd()
	case 2:
		return a.RedOr()
	case 3:
		return a.RedXor()
	case 4:
		return a.Zext(w + n)
	case 5:
		return a.Sext(w + n)
	case 6:
		return a.Trunc(w - n)
	case 7:
		return a.Repl(n)
	case 8:
		return a.Slice(n+2, n)
	case 9:
		return a.Bit(n)
	case 10:
		return a.Shl(n)
	case 11:
		return a.Shr(n)
	default:
		return a.Sra(n)
	}
}

func (b *builder) binary(x, y *hdl.Signal) *hdl.Signal {
	switch b.next() % 20 {
	case 0:
		return x.And(y)
	case 1:
		return x.Or(y)
	case 2:
		return x.Xor(y)
	case 3:
		return x.Add(y)
	case 4:
		return x.Sub(y)
	case 5:
		return x.Mul(y)
	case 6:
		return x.MulConst(uint64(b.next()))
	case 7:
		return x.Eq(y)
	case 8:
		return x.Lt(y)
	case 9:
		return x.GeS(y)
	case 10:
		return x.ShlBy(y)
	case 11:
		return x.ShrBy(y)
	case 12:
		return x.SraBy(y)
	case 13:
		s, c := x.AddCarry(y)
		b.add(c)
		return s
	case 14:
		d, c := x.SubBorrow(y)
		b.add(c)
		return d
	case 15:
		return x.LeS(y)
	case 16:
		return x.Ne(y)
	case 17:
		return x.Gt(y)
	case 18:
		return x.EqConst(uint64(b.next()))
	default:
		return x.LtS(y)
	}
}

func (b *builder) nary() *hdl.Signal {
	sel := b.pick()
	var choices []*hdl.Signal
	first := b.pick()
	for i := range int(b.next() % 5) {
		c := b.pick()
		if i == 0 {
			c = first
		}
		choices = append(choices, b.fit(c, first.Width()))
	}
	switch b.next() % 4 {
	case 0:
		return hdl.Mux(b.fit(sel, 1), b.fit(first, first.Width()), b.fit(b.pick(), first.Width()))
	case 1:
		return hdl.Select(b.fit(sel, 3), choices...)
	case 2:
		return hdl.OneHotSelect(b.fit(sel, len(choices)), choices...)
	default:
		return hdl.Concat(append(choices, sel)...)
	}
}

func (b *builder) memory() {
	abits := 1 + int(b.next())%6
	if b.next() == 255 {
		abits = 40
	}
	w := b.width()
	mem := b.m.Mem(b.name(), abits, w)
	for range int(b.next() % 3) {
		mem.Write(b.fit(b.pick(), abits), b.fit(b.pick(), w), b.fit(b.pick(), 1))
	}
	for range int(b.next() % 3) {
		if b.next()%2 == 0 {
			b.add(mem.Read(b.fit(b.pick(), abits)))
		} else {
			b.add(mem.ReadSync(b.fit(b.pick(), abits), b.fit(b.pick(), 1)))
		}
	}
}

func (b *builder) instance() {
	u := b.m.Instance(b.name(), b.leaf)
	ports := []struct {
		name  string
		width int
	}{{"a", 8}, {"b", 3}, {"c", 1}}
	for _, p := range ports {
		// a and b are sometimes left unconnected; c, which leaf lacks, is
		// sometimes connected
		if connect := b.next()%16 != 0; connect == (p.name != "c") {
			u.Connect(p.name, b.fit(b.pick(), p.width))
		}
	}
	b.add(u.Out("y"))
	if b.next()%2 == 0 {
		b.add(u.Out("z"))
	}
	if b.next()%8 == 0 {
		b.add(u.Out("nope"))
	}
}
