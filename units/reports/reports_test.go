package reports_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/units/reports"
	_ "github.com/parmem/parmem/units/sams"
	"github.com/stretchr/testify/require"
)

func TestFitRecoversExponents(t *testing.T) {
	var pts []reports.FitPoint
	for q := 2; q <= 5; q++ {
		for _, n := range []int{8, 16, 32} {
			pts = append(pts, reports.FitPoint{Q: q, Size: n, Gates: 3 * float64(int(1)<<uint(2*q)) * float64(n)})
		}
	}
	a, b := reports.Fit(pts)
	require.InDelta(t, 2.0, a, 1e-9)
	require.InDelta(t, 1.0, b, 1e-9)

	// One size: the q exponent alone.
	var oneSize []reports.FitPoint
	for q := 2; q <= 6; q++ {
		oneSize = append(oneSize, reports.FitPoint{Q: q, Size: 16, Gates: 5 * math.Pow(3, float64(q))})
	}
	a, b = reports.Fit(oneSize)
	require.InDelta(t, math.Log2(3), a, 1e-9)
	require.Zero(t, b)
}

// The gate flow runs on a unit configuration (the smallest of the sams
// report).
func TestGatesOfUnit(t *testing.T) {
	g, err := reports.Gates(units.Config{Unit: "sams-inbound", Values: units.Values{"q": 2, "n": 8, "w": 4}})
	require.NoError(t, err)
	require.Greater(t, g.Gates, 100)
	require.Greater(t, g.Depth, 5)
}

func TestMeasureAllKeepsOrderAndReportsErrors(t *testing.T) {
	var cs []units.Config
	for q := 1; q <= 9; q++ {
		cs = append(cs, units.Config{Unit: "u", Values: units.Values{"q": q}})
	}
	var progress bytes.Buffer
	got, err := reports.MeasureAll("test", cs, &progress, func(c units.Config) (int, error) { return 10 * c.Values["q"], nil })
	require.NoError(t, err)
	require.Equal(t, []int{10, 20, 30, 40, 50, 60, 70, 80, 90}, got)
	require.Contains(t, progress.String(), "test: 0/9 jobs\n")
	require.Contains(t, progress.String(), "test: 9/9 jobs", "the last line shows")

	_, err = reports.MeasureAll("test", cs, io.Discard, func(c units.Config) (int, error) {
		if c.Values["q"]%3 == 0 {
			return 0, fmt.Errorf("q=%d fails", c.Values["q"])
		}
		return 0, nil
	})
	require.EqualError(t, err, "q=3 fails", "the first failure in list order")
}

// A design with an 8-bit register, a memory of 16 words of 4 bits and
// adders of 4 and 8 bits: 8 + 64 state bits, the adders by width.
func TestStateBitsAndAdderList(t *testing.T) {
	m := hdl.NewModule("top")
	a, b := m.Input("a", 4), m.Input("b", 8)
	r := m.Reg("r", 8)
	r.Drive(r.Add(b))
	mem := m.Mem("mem", 4, 4)
	mem.Write(a, a, m.Input("we", 1))
	m.Output("x", 4).Drive(mem.Read(a).Add(a))
	m.Output("y", 4).Drive(a.Add(b.Slice(3, 0)))
	m.Output("q", 8).Drive(r)
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	require.Equal(t, 8+16*4, reports.StateBits(d))
	require.Equal(t, "2 x 4-bit, 1 x 8-bit", reports.AdderList(d.Adders()))
	require.Empty(t, reports.AdderList(nil))
}
