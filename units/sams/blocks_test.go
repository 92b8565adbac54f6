package sams

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// The hardware blocks, run on the Go simulator, against spec.go.

func simOf(t *testing.T, m *hdl.Module) *sim.Sim {
	t.Helper()
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	return sim.New(d)
}

// set drives the input port of the simulated module.
func set(t *testing.T, s *sim.Sim, port *hdl.Signal, v uint64) {
	t.Helper()
	require.NoError(t, s.SetU(port.Name(), v))
}

// get reads the port of the simulated module.
func get(t *testing.T, s *sim.Sim, port *hdl.Signal) uint64 {
	t.Helper()
	v, err := s.GetU(port.Name())
	require.NoError(t, err)
	return v
}

// checkATU compares every lane for the given addresses under every family
// the input can carry, and NaS.
func checkATU(t *testing.T, p ATU, addrs func(r *rand.Rand) []uint64) {
	m, ports := p.WithPorts("atu")
	s := simOf(t, m)
	r := rand.New(rand.NewPCG(uint64(p.Q), uint64(p.N)))
	fw := FamilyWidth(p.N, p.Q)
	for fam := range 1<<uint(fw) + 1 {
		nas := fam == 1<<uint(fw)
		l := Layout{Q: p.Q, N: p.N, Family: fam, NaS: nas}
		if nas {
			set(t, s, ports.Family, uint64(r.IntN(1<<uint(fw))))
			set(t, s, ports.NaS, 1)
		} else {
			set(t, s, ports.Family, uint64(fam))
			set(t, s, ports.NaS, 0)
		}
		for range 20 {
			as := addrs(r)
			for i, a := range as {
				set(t, s, ports.Addr[i], a)
			}
			for i, a := range as {
				want := l.Place(a)
				out := ports.Lanes[i]
				got := Slot{get(t, s, out.Bank), get(t, s, out.Row), get(t, s, out.Offset)}
				require.Equalf(t, want, got, "q=%d n=%d family %d nas %v address %d", p.Q, p.N, fam, nas, a)
			}
		}
	}
}

func TestATUMatchesSpec(t *testing.T) {
	for _, p := range []ATU{{2, 4, 4}, {2, 8, 4}, {3, 8, 8}, {3, 16, 8}, {3, 23, 1}, {4, 12, 16}, {5, 23, 32}, {3, 64, 8}, {6, 20, 4}} {
		t.Run(fmt.Sprintf("q%d_n%d_l%d", p.Q, p.N, p.Lanes), func(t *testing.T) {
			checkATU(t, p, func(r *rand.Rand) []uint64 {
				as := make([]uint64, p.Lanes)
				for i := range as {
					as[i] = r.Uint64() & mask(p.N)
				}
				return as
			})
		})
	}
}

// Every address of a small space, a lane at a time.
func TestATUExhaustive(t *testing.T) {
	p := ATU{Q: 2, N: 7, Lanes: 4}
	next := uint64(0)
	checkATU(t, p, func(*rand.Rand) []uint64 {
		as := make([]uint64, 4)
		for i := range as {
			as[i] = next & mask(p.N)
			next++
		}
		return as
	})
}

func TestAGUMatchesSpec(t *testing.T) {
	for _, p := range []AGU{{2, 8}, {3, 16}, {4, 16}, {5, 23}, {3, 64}} {
		t.Run(fmt.Sprintf("q%d_n%d", p.Q, p.N), func(t *testing.T) {
			m, ports := p.WithPorts("agu")
			s := simOf(t, m)
			r := rand.New(rand.NewPCG(uint64(p.Q), 9))
			for range 400 {
				base, stride, mode := r.Uint64()&mask(p.N), r.Uint64()&mask(p.N), uint64(r.IntN(4))
				if r.IntN(4) == 0 {
					stride = uint64(1) << uint(r.IntN(p.N)) // every family
				}
				if r.IntN(20) == 0 {
					stride = 0
				}
				set(t, s, ports.Base, base)
				set(t, s, ports.Stride, stride)
				set(t, s, ports.Mode, mode)
				step := uint64(1)
				if mode == 3 {
					step = stride
				}
				for i, a := range Addresses(base, step, p.Q, p.N) {
					require.Equalf(t, a, get(t, s, ports.Addr[i]), "lane %d mode %d", i, mode)
				}
				wantFam := uint64(0)
				if mode >= 2 {
					wantFam = uint64(Fam(stride, p.N, p.Q))
				}
				require.Equal(t, wantFam, get(t, s, ports.Family), "family of stride %#x mode %d", stride, mode)
				require.Equal(t, b2u(mode == 0), get(t, s, ports.NaS))
				require.Equal(t, b2u(mode == 1), get(t, s, ports.Wide))
			}
		})
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// The shuffles put each linear element of a wide line where the layout
// keeps it: lin_k is the slot of address base+k, and the pre-write shuffle
// inverts the post-read one.
func TestShufflesMatchSpec(t *testing.T) {
	for _, c := range []struct{ q, n int }{{2, 8}, {3, 16}, {3, 12}} {
		q, n, w := c.q, c.n, 16
		prsMod, prsPorts := Shuffle{q, n, w, false}.WithPorts("prs")
		pwsMod, pwsPorts := Shuffle{q, n, w, true}.WithPorts("pws")
		prs, pws := simOf(t, prsMod), simOf(t, pwsMod)
		r := rand.New(rand.NewPCG(uint64(q), uint64(n)))
		elems := 2 << uint(q)
		for fam := range n - q + 2 {
			nas := fam == n-q+1
			l := Layout{Q: q, N: n, Family: fam, NaS: nas}
			for range 10 {
				row := r.Uint64() & mask(n-q-1)
				line := make([]uint64, elems)
				for _, c := range []struct {
					s     *sim.Sim
					ports ShufflePorts
				}{{prs, prsPorts}, {pws, pwsPorts}} {
					set(t, c.s, c.ports.Family, uint64(fam)&mask(FamilyWidth(n, q)))
					set(t, c.s, c.ports.NaS, b2u(nas))
					set(t, c.s, c.ports.Row, row)
				}
				for j := range line {
					line[j] = r.Uint64() & mask(w)
					set(t, prs, prsPorts.In[j], line[j])
				}
				base := get(t, prs, prsPorts.Base)
				require.Equal(t, base, get(t, pws, pwsPorts.Base))
				for k := range elems {
					a := (base + uint64(k)) & mask(n)
					s := l.Place(a)
					require.Equalf(t, row, s.Row, "address %d of the line is in row %d", a, row)
					lin := get(t, prs, prsPorts.Out[k])
					require.Equal(t, line[2*s.Module+s.Offset], lin, prsPorts.Out[k].Name())
					set(t, pws, pwsPorts.In[k], lin)
				}
				for j := range line {
					require.Equal(t, line[j], get(t, pws, pwsPorts.Out[j]), "pws(prs(line)) = line")
				}
			}
		}
	}
}

// The crossbars against a direct model: OutSwitch lane i reads slot
// 2*bank+offset; InSwitch gives each bank the row of its enabled lanes and
// each slot the data of the highest writing lane that reaches it.
func TestSwitchesMatchModel(t *testing.T) {
	q, n, w := 3, 12, 8
	lanes, slots := 1<<uint(q), 2<<uint(q)
	inMod, ip := InSwitch{q, n, w}.WithPorts("in")
	outMod, op := OutSwitch{q, w}.WithPorts("out")
	in, out := simOf(t, inMod), simOf(t, outMod)
	r := rand.New(rand.NewPCG(7, 8))
	for range 300 {
		rowOf := make([]uint64, lanes) // per bank, the row every lane to it uses
		for b := range rowOf {
			rowOf[b] = r.Uint64() & mask(n-q-1)
		}
		wantWe := make([]bool, slots)
		wantData := make([]uint64, slots)
		for i := range lanes {
			bank, offset := uint64(r.IntN(lanes)), uint64(r.IntN(2))
			en, we := r.IntN(4) != 0, r.IntN(2) == 0
			data := r.Uint64() & mask(w)
			lane := ip.Lanes[i]
			set(t, in, lane.En, b2u(en))
			set(t, in, lane.We, b2u(en && we))
			set(t, in, lane.Bank, bank)
			set(t, in, lane.Row, rowOf[bank])
			set(t, in, lane.Offset, offset)
			set(t, in, lane.Wdata, data)
			set(t, out, op.Lanes[i].Bank, bank)
			set(t, out, op.Lanes[i].Offset, offset)
			if en && we {
				wantWe[2*bank+offset], wantData[2*bank+offset] = true, data // higher lanes overwrite
			}
		}
		slotData := make([]uint64, slots)
		for j := range slots {
			slotData[j] = r.Uint64() & mask(w)
			set(t, out, op.SlotRdata[j], slotData[j])
			require.Equal(t, b2u(wantWe[j]), get(t, in, ip.Slots[j].We), ip.Slots[j].We.Name())
			if wantWe[j] {
				require.Equal(t, wantData[j], get(t, in, ip.Slots[j].Wdata), ip.Slots[j].Wdata.Name())
			}
		}
		for i := range lanes {
			bank := get(t, out, op.Lanes[i].Bank)
			offset := get(t, out, op.Lanes[i].Offset)
			require.Equal(t, slotData[2*bank+offset], get(t, out, op.Rdata[i]))
			if get(t, in, ip.Lanes[i].En) == 1 {
				require.Equal(t, rowOf[bank], get(t, in, ip.BankRow[bank]))
			}
		}
	}
}

// Few address bits leave the family input narrower than q: families it
// cannot carry must not break the build (q=5, n=8: FW=2).
func TestATUNarrowFamilyInput(t *testing.T) {
	checkATU(t, ATU{Q: 5, N: 8, Lanes: 4}, func(r *rand.Rand) []uint64 {
		return []uint64{r.Uint64() & 255, r.Uint64() & 255, r.Uint64() & 255, r.Uint64() & 255}
	})
}
