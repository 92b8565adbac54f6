package smm2d

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// The memory without its banks (Memory.NoBanks, what the area reports
// synthesize), its bank ports served by a model of a synchronous SRAM,
// answers cycle for cycle as the memory with its banks: random
// configurations and requests on both, every output of the memory
// compared each cycle.
func TestNoBanksMatchesTheBanks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, g := range []Geometry{{1, 2, 3, 4}, {2, 2, 4, 4}} {
		p := Memory{Geometry: g, W: 8}
		banked := simOf(t, p.Build("dut"))
		p.NoBanks = true
		m, ports := p.WithPorts("dut")
		bare := simOf(t, m)
		top := banked.Design().Top()
		rows := 1 << uint(g.RW())
		srams := make([][]uint64, g.Lanes()) // per bank: its words
		reads := make([]uint64, g.Lanes())   // per bank: the word it read at the last edge
		for b := range srams {
			srams[b] = make([]uint64, rows)
		}
		writes, answers := 0, 0
		for cycle := range 3000 {
			for _, in := range top.Inputs() {
				v := r.Uint64() & mask(in.Width())
				switch in.Name() {
				case ports.Cfg.Valid.Name():
					v &= uint64(r.IntN(8) / 7) // a configuration now and then
				case ports.Req.Valid.Name(), ports.Req.Payload.Write.Name():
					v = uint64(r.IntN(2))
				}
				set(t, banked, in.Name(), v)
				set(t, bare, in.Name(), v)
			}
			for b, v := range reads {
				setPort(t, bare, ports.Banks[b].Rdata, v)
			}
			banked.Eval()
			bare.Eval()
			for _, out := range top.Outputs() {
				require.Equal(t, get(t, banked, out.Name()), get(t, bare, out.Name()), "%+v cycle %d: %s", g, cycle, out.Name())
			}
			if getPort(t, bare, ports.Resp.Valid) == 1 && getPort(t, bare, ports.Resp.Rdata[0]) != 0 {
				answers++
			}
			for b, sram := range srams { // the edge: read the old word, then write
				bank := ports.Banks[b]
				row := getPort(t, bare, bank.Row)
				reads[b] = sram[row]
				if getPort(t, bare, bank.We) == 1 {
					sram[row] = getPort(t, bare, bank.Wdata)
					writes++
				}
			}
			banked.Step()
			bare.Step()
		}
		require.Greater(t, writes, 1000, "%+v: the banks were written", g)
		require.Greater(t, answers, 100, "%+v: reads answered with written data", g)
	}
}
