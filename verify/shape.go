package verify

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/parmem/parmem/sim"
	"github.com/parmem/parmem/units"
)

// shapeBlock is the cycles of one shaped phase (units.Phase): time for a
// request a cycle to fill, or a pop a cycle to drain, the deepest queue
// of the families' lockstep configurations (dram's 128 write slots)
// with cycles to spare.
const shapeBlock = 256

// shapeResetOneIn is how many block starts in one the pack is reset at:
// most phases then start where the block before left the configuration
// (a drain after a fill drains from full), some from empty. Within a
// block the reset stays 0, so a phase runs its whole block.
const shapeResetOneIn = 4

// shaped is the in-simulator stimulus (LFSR) with the units' shapes laid
// over it: at every block start each shaped
// configuration draws its phase (random, fill or drain, alike), and the
// shape sets the inputs its phase constrains. The phases and the shapes'
// draws come from a generator of their own, so every input no shape sets
// is the in-simulator stimulus's, cycle for cycle.
type shaped struct {
	lfsr    *LFSR
	r       *rand.Rand
	configs []shapedConfig
	phases  []units.Phase
	reset   bool // the ports' first input is the reset
	err     error
}

// shapedConfig is one shaped configuration of the pack: its resolved
// values, its unit's shape and its inputs, by their names in the unit.
type shapedConfig struct {
	name   string
	values units.Values
	shape  units.Shape
	inputs map[string]inputField
}

// inputField is an input's place in the input vector.
type inputField struct{ off, width int }

// shapedStimulus returns a maker of the shaped stimulus of a pack of
// configs (instances c<k>, ports c<k>_<port>, as Pack makes them) whose
// ports are ports, and a check of the stimuli it made, which reports the
// first input a shape set wrongly. It returns nil makers when no
// configuration's unit has a shape.
func shapedStimulus(ports Ports, configs []units.Config, shapes map[string]units.Shape) (func(seed uint64) Stimulus, func() error, error) {
	offs := map[string]inputField{}
	off := 0
	for _, p := range ports.In {
		offs[p.Name] = inputField{off, p.Width}
		off += p.Words()
	}
	var cs []shapedConfig
	for k, c := range configs {
		shape := shapes[c.Unit]
		if shape == nil {
			continue
		}
		_, v, err := c.Resolve()
		if err != nil {
			return nil, nil, err
		}
		prefix := fmt.Sprintf("c%d_", k)
		sc := shapedConfig{name: c.String(), values: v, shape: shape, inputs: map[string]inputField{}}
		for name, f := range offs {
			if len(name) > len(prefix) && name[:len(prefix)] == prefix {
				sc.inputs[name[len(prefix):]] = f
			}
		}
		cs = append(cs, sc)
	}
	if len(cs) == 0 {
		return nil, nil, nil
	}
	var made []*shaped
	mk := func(seed uint64) Stimulus {
		s := &shaped{lfsr: NewLFSR(ports, seed), r: rand.New(rand.NewPCG(seed, 0x5a)), configs: cs,
			phases: make([]units.Phase, len(cs)), reset: len(ports.In) > 0 && isReset(0, ports.In[0])}
		made = append(made, s)
		return s
	}
	check := func() error {
		for _, s := range made {
			if s.err != nil {
				return s.err
			}
		}
		return nil
	}
	return mk, check, nil
}

// Fill implements Stimulus; cycles must be asked for in order.
func (s *shaped) Fill(cycle uint64, v Vector) {
	s.lfsr.Fill(cycle, v)
	step := int(cycle % shapeBlock)
	if step == 0 {
		for i := range s.phases {
			s.phases[i] = units.Phase(s.r.IntN(3))
		}
	}
	if s.reset {
		v[0] = 0
		if step == 0 && s.r.IntN(shapeResetOneIn) == 0 {
			v[0] = 1
		}
	}
	for i, c := range s.configs {
		if s.phases[i] == units.PhaseRandom {
			continue
		}
		c.shape(c.values, s.phases[i], step, s.r, func(input string, x uint64) {
			f, ok := c.inputs[input]
			switch {
			case !ok:
				s.fail(fmt.Errorf("shape of %s: no input %q", c.name, input))
			case f.width < 64 && x>>uint(f.width) != 0:
				s.fail(fmt.Errorf("shape of %s: %d does not fit input %s's %d bits", c.name, x, input, f.width))
			default:
				w := v[f.off : f.off+(f.width+63)/64]
				clear(w)
				w[0] = x
			}
		})
	}
}

func (s *shaped) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// Gaps are the cover points of the pack that its stimulus never reached
// and Yosys did not prove unreachable.
func (r CoverageRecord) Gaps() []CoverPoint {
	var gaps []CoverPoint
	for _, p := range r.Points {
		if p.Hits == 0 && p.Verdict != CoverUnreachable {
			gaps = append(gaps, p)
		}
	}
	return gaps
}

// addCovers adds the hits of more, a run's cover points of the same
// design as covers (in the Netlist's order, as every run lists them), to
// those of covers.
func addCovers(covers, more []sim.Cover) []sim.Cover {
	out := slices.Clone(covers)
	for i := range out {
		out[i].Hits += more[i].Hits
	}
	return out
}
