package smm2d

import (
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// The blocks against the spec on the Go simulator: random inputs, every
// output compared with spec.go.

func simOf(t *testing.T, m *hdl.Module) *sim.Sim {
	t.Helper()
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	s := sim.New(d)
	s.Reset()
	return s
}

func set(t *testing.T, s *sim.Sim, name string, v uint64) { require.NoError(t, s.SetU(name, v)) }

func get(t *testing.T, s *sim.Sim, name string) uint64 {
	v, err := s.GetU(name)
	require.NoError(t, err)
	return v
}

// setPort and getPort drive and read a port of the simulated top module
// by its signal in the block's port record.
func setPort(t *testing.T, s *sim.Sim, port *hdl.Signal, v uint64) { set(t, s, port.Name(), v) }

func getPort(t *testing.T, s *sim.Sim, port *hdl.Signal) uint64 { return get(t, s, port.Name()) }

var blockGeometries = []Geometry{{1, 2, 10, 8}, {1, 2, 3, 4}, {2, 2, 10, 10}, {1, 3, 10, 10}, {2, 3, 6, 7}, {3, 3, 8, 9}, {2, 4, 32, 32}}

func TestATUMatchesSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, g := range blockGeometries {
		for _, post := range []bool{false, true} {
			m, ports := ATU{g, post}.WithPorts("atu")
			s := simOf(t, m)
			for range 300 {
				sc := Scheme{g, r.IntN(1 << uint(g.VW())), r.IntN(1 << uint(g.HW())), post}
				setPort(t, s, ports.VS, uint64(sc.VS))
				setPort(t, s, ports.HS, uint64(sc.HS))
				is, js := make([]uint64, g.Lanes()), make([]uint64, g.Lanes())
				for k, addr := range ports.Addr {
					is[k], js[k] = r.Uint64()&mask(g.MB), r.Uint64()&mask(g.NB)
					setPort(t, s, addr.I, is[k])
					setPort(t, s, addr.J, js[k])
				}
				s.Eval()
				for k, place := range ports.Place {
					require.Equal(t, sc.Mv(is[k], js[k]), getPort(t, s, place.MV), "%+v mv (%d,%d)", sc, is[k], js[k])
					require.Equal(t, sc.Mh(js[k]), getPort(t, s, place.MH), "%+v mh", sc)
					require.Equal(t, g.Row(is[k], js[k]), getPort(t, s, place.Row), "%+v row", sc)
				}
			}
		}
	}
}

func TestAGUMatchesSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, g := range blockGeometries {
		m, ports := AGU{g}.WithPorts("agu")
		s := simOf(t, m)
		for range 500 {
			a := Access{Pattern(r.IntN(8)), r.Uint64() & mask(g.MB), r.Uint64() & mask(g.NB), r.Uint64() & mask(g.MB), r.Uint64() & mask(g.NB)}
			setPort(t, s, ports.Pattern, uint64(a.Pattern))
			setPort(t, s, ports.BaseI, a.BI)
			setPort(t, s, ports.BaseJ, a.BJ)
			setPort(t, s, ports.VStride, a.VStride)
			setPort(t, s, ports.HStride, a.HStride)
			s.Eval()
			is, js := g.Addresses(a)
			for k, addr := range ports.Addr {
				require.Equal(t, is[k], getPort(t, s, addr.I), "%+v %+v lane %d", g, a, k)
				require.Equal(t, js[k], getPort(t, s, addr.J), "%+v %+v lane %d", g, a, k)
			}
		}
	}
}

// routableIndices draws the module indices of a supported access (so the
// grouping holds), or with probability 1/2 random ones.
func routableIndices(r *rand.Rand, g Geometry) (mv, mh []uint64, crow bool) {
	if r.IntN(2) == 0 {
		for range g.Lanes() {
			mv, mh = append(mv, r.Uint64()&mask(g.P)), append(mh, r.Uint64()&mask(g.Q))
		}
		return mv, mh, r.IntN(2) == 0
	}
	sc := Scheme{g, r.IntN(g.MB - g.P + 1), r.IntN(g.NB - g.P - g.Q + 1), r.IntN(2) == 0}
	for {
		a := Access{Patterns[r.IntN(len(Patterns))], r.Uint64() & mask(g.MB), r.Uint64() & mask(g.NB),
			(r.Uint64() | 1) << uint(sc.VS) & mask(g.MB), (r.Uint64() | 1) << uint(sc.HS) & mask(g.NB)}
		if a.Pattern == ContinuousRow {
			a.BJ &^= mask(g.Q + min(g.P, sc.HS))
		}
		if a.Pattern == ContinuousBlock {
			a.BI &^= mask(min(g.P, sc.VS))
			a.BJ &^= mask(min(g.Q, sc.HS))
		}
		if ok, _ := sc.Supported(a); ok {
			mv, mh, _ = sc.Place(g.Addresses(a))
			return mv, mh, a.Pattern.Crow()
		}
	}
}

func TestRouteMatchesSpec(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, g := range blockGeometries[:6] {
		for _, out := range []bool{false, true} {
			m, ports := Route{g, 16, out}.WithPorts("route")
			s := simOf(t, m)
			routable := 0
			for range 400 {
				mv, mh, crow := routableIndices(r, g)
				setPort(t, s, ports.Crow, b2u(crow))
				d := make([]uint64, g.Lanes())
				for k, lane := range ports.Lanes {
					d[k] = r.Uint64() & 0xffff
					setPort(t, s, lane.MV, mv[k])
					setPort(t, s, lane.MH, mh[k])
					setPort(t, s, ports.D[k], d[k])
				}
				s.Eval()
				ok := g.Routable(mv, mh, crow)
				require.Equal(t, b2u(ok), getPort(t, s, ports.OK), "%+v mv %v mh %v crow %v", g, mv, mh, crow)
				if !ok {
					continue
				}
				routable++
				for k := range d {
					bank := int(mv[k]<<uint(g.Q) | mh[k])
					if out {
						require.Equal(t, d[bank], getPort(t, s, ports.Q[k]), "lane %d reads bank %d", k, bank)
					} else {
						require.Equal(t, d[k], getPort(t, s, ports.Q[bank]), "bank %d gets lane %d", bank, k)
					}
				}
			}
			require.Greater(t, routable, 150)
		}
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
