package rsdmm

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// randomProgram is rounds of p requests over words addresses: some
// threads ask nothing, some rounds nobody asks, some addresses repeat.
func randomProgram(r *rand.Rand, rounds, p, words int) [][]int {
	prog := make([][]int, rounds)
	for t := range prog {
		prog[t] = make([]int, p)
		quiet := r.IntN(8) == 0
		hot := r.IntN(words)
		for i := range prog[t] {
			switch x := r.IntN(10); {
			case quiet || x == 0:
				prog[t][i] = None
			case x == 1:
				prog[t][i] = hot
			default:
				prog[t][i] = r.IntN(words)
			}
		}
	}
	return prog
}

func replay(prog [][]int) func(int, []int) {
	return func(t int, addrs []int) { copy(addrs, prog[t]) }
}

// TestRunTimesLemma1: on random programs for every machine, the total
// congestion is the sum of the spec's Congestion over the (super) warps,
// the cycle model with a barrier per round takes exactly Lemma 1's
// C + (l-1)T, and without barriers it takes no more, and no less than the
// pipeline's C + l - 1 or any one (super) warp's own chain of rounds.
func TestRunTimesLemma1(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := range 300 {
		m := Machine{LW: 1 + r.IntN(4)}
		s := 1 + r.IntN(4)
		sw := s * m.W()
		p := sw * (1 + r.IntN(5))
		l := 1 + r.IntN(20)
		words := m.W() * (1 + r.IntN(64))
		prog := randomProgram(r, 1+r.IntN(30), p, words)
		shift := ShiftKind(r.IntN(3))
		md := NewModel(m, l, p, s, shift, words, uint64(trial))
		name := fmt.Sprintf("trial %d: w=%d s=%d p=%d l=%d shift=%s", trial, m.W(), s, p, l, shift)
		got := md.Run(len(prog), replay(prog))

		c, most, rounds, batches := 0, 0, 0, 0
		chains := make([]int, p/sw) // each (super) warp's sum of c + l - 1
		for _, round := range prog {
			ct := 0
			for i := range p / sw {
				var batch []int
				for _, a := range round[i*sw : (i+1)*sw] {
					if a != None {
						batch = append(batch, a)
					}
				}
				ci := Congestion(batch, md.BankOf)
				if ci > 0 {
					batches++
					chains[i] += ci + l - 1
				}
				ct += ci
				most = max(most, ci)
			}
			if ct > 0 {
				rounds++
			}
			c += ct
		}
		require.Equal(t, c, got.Congestion, name)
		require.Equal(t, most, got.Most, name)
		require.Equal(t, rounds, got.Rounds, name)
		require.Equal(t, batches, got.Batches, name)
		require.Equal(t, c+(l-1)*rounds, got.Lemma1, name)
		require.Equal(t, got.Lemma1, got.Barrier, name)
		require.LessOrEqual(t, got.Free, got.Lemma1, name)
		if c > 0 {
			require.GreaterOrEqual(t, got.Free, c+l-1, name)
		}
		require.GreaterOrEqual(t, got.Free, slices.Max(chains), name)
	}
}

// TestRunRoundRobin: k warps of congestion 1 (row-major on the DMM) for T
// rounds. With a barrier every round takes k + l - 1. Without, warp i's
// request of round t may enter l time units after its previous one, so a
// turn of the k warps takes max(k, l) time units and the last request
// enters at (T-1)max(k, l) + k and completes l - 1 later; at k >= l the
// pipeline never idles and the time is C + l - 1.
func TestRunRoundRobin(t *testing.T) {
	m := Machine{LW: 2}
	for _, k := range []int{1, 2, 3, 7, 8, 9, 16} {
		for _, l := range []int{1, 2, 8, 9} {
			for _, rounds := range []int{1, 2, 5} {
				p := k * m.W()
				got := NewModel(m, l, p, 1, NoShift, rounds*p, 0).Run(rounds, Stream(RowMajor(1<<20), p))
				name := fmt.Sprintf("k=%d l=%d T=%d", k, l, rounds)
				require.Equal(t, k*rounds, got.Congestion, name)
				require.Equal(t, rounds*(k+l-1), got.Barrier, name)
				require.Equal(t, (rounds-1)*max(k, l)+k+l-1, got.Free, name)
			}
		}
	}
}

// TestRunFigures4And6: Figure 4's three warps take (2+3+2) + l - 1 = 13
// time units on the DMM (l = 7), and Figure 6's super warp of them 6 +
// l - 1 = 12 on the SDMM; one round, so the cycle model agrees either way.
func TestRunFigures4And6(t *testing.T) {
	m := Machine{LW: 2}
	fill := func(_ int, addrs []int) { copy(addrs, slices.Concat(Figure4...)) }
	for _, c := range []struct{ s, want int }{{1, 13}, {3, 12}} {
		got := NewModel(m, 7, 12, c.s, NoShift, 24, 0).Run(1, fill)
		require.Equal(t, Time{Rounds: 1, Batches: 3 / c.s, Congestion: c.want - 6, Most: map[int]int{1: 3, 3: 6}[c.s], Lemma1: c.want, Barrier: c.want, Free: c.want}, got)
	}
}

// TestBankOf: without a shift the bank is addr mod w; the table shifts
// every address of a row by one r_j, the rows' r_j spread over all w
// banks; the hash is Machine.Shift with H3 over HashKeys.
func TestBankOf(t *testing.T) {
	m := Machine{LW: 3}
	const rows = 512
	none := NewModel(m, 1, 8, 1, NoShift, rows*8, 5)
	table := NewModel(m, 1, 8, 1, TableShift, rows*8, 5)
	hash := NewModel(m, 1, 8, 1, HashShift, rows*8, 5)
	keys := HashKeys(3, 9, 5)
	offsets := map[int]int{}
	for j := range rows {
		r0 := (table.BankOf(j*8) + 8) % 8
		offsets[r0]++
		for k := range 8 {
			a := j*8 + k
			require.Equal(t, k, none.BankOf(a))
			require.Equal(t, (k+r0)%8, table.BankOf(a), "row %d", j)
			require.Equal(t, (k+H3(keys, j))%8, hash.BankOf(a))
		}
	}
	require.Len(t, offsets, 8)
	for _, n := range offsets {
		require.InDelta(t, rows/8, n, 25)
	}
}

// TestTransposes: both transposes' programs copy a[x][y] to b[y][x], every
// element once (III).
func TestTransposes(t *testing.T) {
	for _, sqrtN := range []int{4, 8, 16} {
		n, p := sqrtN*sqrtN, 8
		for _, alg := range []struct {
			name        string
			read, write Access
		}{{"naive", RowMajor(sqrtN), ColumnMajor(sqrtN)}, {"diagonal", DiagonalRead(sqrtN), Diagonal(sqrtN)}} {
			fill := Transpose(alg.read, alg.write, n, p)
			reads, writes := make([]int, p), make([]int, p)
			seen := map[int]bool{}
			for round := 0; round < 2*n/p; round += 2 {
				fill(round, reads)
				fill(round+1, writes)
				for i := range p {
					x, y := reads[i]/sqrtN, reads[i]%sqrtN
					require.Equal(t, n+y*sqrtN+x, writes[i], "%s sqrt(n)=%d", alg.name, sqrtN)
					require.False(t, seen[reads[i]])
					seen[reads[i]] = true
				}
			}
			require.Len(t, seen, n)
		}
	}
}

// TestRunAllocations: Run's allocations do not grow with the rounds.
func TestRunAllocations(t *testing.T) {
	md := NewModel(Machine{LW: 4}, 8, 128, 2, TableShift, 1<<12, 1)
	fill := Stream(ColumnMajor(64), 128)
	short := testing.AllocsPerRun(5, func() { md.Run(4, fill) })
	long := testing.AllocsPerRun(5, func() { md.Run(400, fill) })
	require.Equal(t, short, long)
}
