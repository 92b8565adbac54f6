package lib

import (
	"fmt"

	"github.com/parmem/parmem/hdl"
)

// Decoder is a runtime index decoded once into one select line per value,
// for the many multiplexers that read it: each Pick merges the values that
// choose the same signal into one select (an OR of decoded lines, built
// once per set of values and shared by every later Pick). The smm2d AGU
// decodes its pattern code so (thesis Fig. 3.11: every lane's offset
// multiplexer on the same decoded pattern).
type Decoder struct {
	is  []*hdl.Signal // is[v] is 1 when the index is v
	any map[string]*hdl.Signal
}

// NewDecoder decodes idx into its 2^width values.
func NewDecoder(idx *hdl.Signal) *Decoder {
	n := 1 << uint(idx.Width())
	d := &Decoder{any: map[string]*hdl.Signal{}}
	for v := range n {
		d.is = append(d.is, idx.EqConst(uint64(v)))
	}
	return d
}

// Values is how many values the index takes: 2^width.
func (d *Decoder) Values() int { return len(d.is) }

// Is is the select line of value v.
func (d *Decoder) Is(v int) *hdl.Signal { return d.is[v] }

// Any is 1 when the index is one of vs (a non-empty set), built once per
// set.
func (d *Decoder) Any(vs []int) *hdl.Signal {
	if len(vs) == 1 {
		return d.is[vs[0]]
	}
	key := fmt.Sprint(vs)
	if s := d.any[key]; s != nil {
		return s
	}
	lines := make([]*hdl.Signal, len(vs))
	for i, v := range vs {
		lines[i] = d.is[v]
	}
	s := Bus(lines).RedOr()
	d.any[key] = s
	return s
}

// Pick is a multiplexer on the index: choice(v) for value v, all of one
// width; a nil choice is 0 (then zero, a constant of that width, is
// required when every choice is nil). Values that choose the same signal
// share one select line.
func (d *Decoder) Pick(zero *hdl.Signal, choice func(v int) *hdl.Signal) *hdl.Signal {
	var signals []*hdl.Signal
	groups := map[*hdl.Signal][]int{}
	for v := range d.is {
		c := choice(v)
		if c == nil {
			continue
		}
		if groups[c] == nil {
			signals = append(signals, c)
		}
		groups[c] = append(groups[c], v)
	}
	switch {
	case len(signals) == 0:
		return zero
	case len(signals) == 1 && len(groups[signals[0]]) == len(d.is):
		return signals[0]
	}
	sels := make([]*hdl.Signal, len(signals))
	for i, c := range signals {
		sels[i] = d.Any(groups[c])
	}
	return hdl.OneHotSelect(Bus(sels), signals...)
}
