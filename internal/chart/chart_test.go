package chart

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/table"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg"
)

func rect(x0, y0, x1, y1 vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1, Y: y1}}
}

// wellFormed fails unless svg is one XML document rooted at <svg>, and
// returns its text elements' contents.
func wellFormed(t *testing.T, svg []byte) []string {
	t.Helper()
	require.True(t, strings.HasPrefix(string(svg), "<svg"), "inline SVG: no XML prologue")
	d := xml.NewDecoder(strings.NewReader(string(svg)))
	var texts []string
	inText := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return texts
		}
		require.NoError(t, err)
		switch e := tok.(type) {
		case xml.StartElement:
			inText = e.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(e))
			}
		case xml.EndElement:
			inText = false
		}
	}
}

func TestNumber(t *testing.T) {
	for cell, want := range map[string]float64{
		"42": 42, "+14.1%": 14.1, "-0.77%": -0.77, "1.31X": 1.31, "0.96x": 0.96, "2^10": 1024,
		"4 (2x2)": 4, "3.043 / 3.042": 3.043, "~78": 78, "9, 8": 9, ".5": 0.5,
	} {
		require.InDelta(t, want, Number(cell), 1e-9, cell)
	}
	for _, cell := range []string{"", "-", "mean", "<0.01x", "opposite sign"} {
		require.True(t, math.IsNaN(Number(cell)), cell)
	}
}

func TestLaws(t *testing.T) {
	e, ok := Exponent("LUT4 ~ w^0.59 (least squares on log2 values)", "w")
	require.True(t, ok)
	require.Equal(t, 0.59, e)
	e, ok = Exponent("ATU gates ~ 2.29^q x (n-q)^1.13 (least squares)", "(n-q)")
	require.True(t, ok)
	require.Equal(t, 1.13, e)
	b, ok := Base("ATU gates ~ 2.29^q x (n-q)^1.13", "q")
	require.True(t, ok)
	require.Equal(t, 2.29, b)
	_, ok = Exponent("LUT4 ~ depth^-0.00", "w")
	require.False(t, ok, "no law over w")
	e, _ = Exponent("LUT4 ~ depth^-0.02", "depth")
	require.Equal(t, -0.02, e)

	// The scale of a power law through exact points is its constant.
	xs, ys := []float64{8, 16, 32}, []float64{3 * 8 * 8, 3 * 16 * 16, 3 * 32 * 32}
	require.InDelta(t, 3, Fit{Law: Power(2)}.Scale(xs, ys), 1e-9)
	c := FitCurve(Fit{Name: "x^2", Law: Power(2)}, Curve{Name: "ours", X: xs, Y: ys})
	require.Equal(t, "fit: x^2", c.Name)
	require.True(t, c.Fit)
	require.Equal(t, "ours", c.Of)
	require.InDelta(t, 8, c.X[0], 1e-9)
	require.InDelta(t, 32, c.X[len(c.X)-1], 1e-9)
	require.InDelta(t, 3*32*32, c.Y[len(c.Y)-1], 1e-6)
}

// sample is a long table as the reports print one.
func sample() []*table.Table {
	t := &table.Table{Title: "Fig. 9.9: speedups, ours", Header: []string{"kernel", "setup", "speedup", "vs base", "cycles", "vs base"},
		Notes: []string{"gates ~ N^1.5 (least squares)"}}
	t.Add("a", "RR", "+1.0%", "1", "100", "-3%")
	t.Add("a", "aware", "+5.0%", "2", "90", "-10%")
	t.Add("b", "RR", "+2.0%", "3", "80", "-1%")
	t.Add("b", "aware", "", "4", "70", "")
	claims := &table.Table{Title: "Claims", Header: []string{"result", "paper, as printed", "ours"}}
	claims.Add("speedup (Fig. 9.9), mean", "+3.2%", "+2.3%")
	return []*table.Table{claims, t}
}

func TestReader(t *testing.T) {
	r := Read(sample())
	tab := r.Table("Fig. 9.9")
	require.Equal(t, []string{"a", "a", "b", "b"}, r.Strings(tab, "kernel"))
	sp := r.Numbers(tab, "speedup")
	require.Equal(t, []float64{1, 5, 2}, sp[:3])
	require.True(t, math.IsNaN(sp[3]), "an empty cell is NaN")
	require.Equal(t, []float64{-3, -10, -1}, r.NumbersAfter(tab, "cycles", "vs base")[:3], "the second column of a name")
	paper, ours := r.Claim(r.Table("Claims"), "(Fig. 9.9)", "mean")
	require.NoError(t, r.Err())
	require.Equal(t, 3.2, paper)
	require.Equal(t, 2.3, ours)

	cats, names, vals := Pivot(tab, 0, 1, 2, nil)
	require.Equal(t, []string{"a", "b"}, cats)
	require.Equal(t, []string{"RR", "aware"}, names)
	require.Equal(t, []float64{1, 2}, vals[0])
	require.Equal(t, 5.0, vals[1][0])
	require.True(t, math.IsNaN(vals[1][1]))

	// The first miss is kept, and every read after it is empty.
	r = Read(sample())
	require.Nil(t, r.Numbers(r.Table("Fig. 9.9"), "no such column"))
	require.ErrorContains(t, r.Err(), `no column "no such column"`)
	require.Nil(t, r.Table("Claims"))
	require.ErrorContains(t, r.Err(), "no such column")
	r = Read(sample())
	r.Table("Table 0")
	require.ErrorContains(t, r.Err(), `no table titled "Table 0"`)
}

// fillRE reads the fill colours of an SVG.
var fillRE = regexp.MustCompile(`fill:(#[0-9a-fA-F]{6})`)

func TestBars(t *testing.T) {
	nan := math.NaN()
	b := &Bars{
		Caption: Caption{Title: "t", Source: "Fig. 9.9"}, XLabel: "kernel", YLabel: "speedup (%)",
		Categories: []string{"a", "b", "mean"},
		Series: []Series{
			{Name: "RR", Values: []float64{1, 2, nan}},
			{Name: "aware", Values: []float64{5, -1, 3}},
			{Name: "thesis", Values: []float64{nan, nan, 4}, Paper: true},
		},
		Refs: []Ref{{Name: "thesis RR mean", Value: 3.2, Paper: true}},
	}
	svg, err := b.SVG()
	require.NoError(t, err)
	texts := wellFormed(t, svg)
	for _, want := range []string{"kernel", "speedup (%)", "a", "b", "mean", "RR", "aware", "thesis (paper)", "thesis RR mean (paper)"} {
		require.Contains(t, texts, want)
	}
	require.Equal(t, "t", b.Heading().Title)
	require.Equal(t, "Fig. 9.9", b.Heading().Source)

	// Black and white: the ours series differ in hatching, the paper's
	// is white and cross-hatched.
	boxes := b.boxes()
	require.NotEqual(t, boxes[0].hatch, boxes[1].hatch)
	require.Equal(t, diamond, boxes[2].hatch)
	require.NotEmpty(t, diamond.lines(rect(0, 0, 20, 20)))
	require.Equal(t, paperFill.color, boxes[2].color)
	require.Contains(t, fillRE.FindAllString(string(svg), -1), "fill:#0072B2", "a colour too, on screen")

	// Stacks: two series of one stack share a bar; names share a fill.
	s := &Bars{Categories: []string{"k"}, StackLabels: true, Series: []Series{
		{Name: "x", Stack: "base", Values: []float64{1}}, {Name: "y", Stack: "base", Values: []float64{2}},
		{Name: "x", Stack: "new", Values: []float64{0.5}}, {Name: "y", Stack: "new", Values: []float64{1}},
	}}
	require.Len(t, s.stacks(), 2)
	require.Equal(t, s.boxes()[0], s.boxes()[2])
	svg, err = s.SVG()
	require.NoError(t, err)
	texts = wellFormed(t, svg)
	require.Contains(t, texts, "base", "the stacks are labelled")
	require.Equal(t, 1, strings.Count(strings.Join(texts, "\n"), "\nx\n"), "one legend entry per name")

	// A log axis leaves out what it cannot draw.
	l := &Bars{Categories: []string{"q=2", "q=3"}, LogY: true, Series: []Series{{Name: "g", Values: []float64{5000, 0}}}}
	svg, err = l.SVG()
	require.NoError(t, err)
	wellFormed(t, svg)

	// Bad charts are errors, not pictures.
	_, err = (&Bars{Categories: []string{"a"}, Series: []Series{{Name: "x", Values: []float64{1, 2}}}}).SVG()
	require.ErrorContains(t, err, "2 values for 1 categories")
	_, err = (&Bars{Categories: []string{"a"}, Series: []Series{{Name: "x", Values: []float64{nan}}}}).SVG()
	require.ErrorContains(t, err, "without a value")
	_, err = (&Bars{}).SVG()
	require.Error(t, err)
}

func TestLines(t *testing.T) {
	ours := Curve{Name: "sort", X: []float64{8, 16, 32, 64}, Y: []float64{3549, 11668, 36276, math.NaN()}}
	l := &Lines{
		Caption: Caption{Title: "RPU"}, XLabel: "requests N", YLabel: "gates (count)", LogX: true, LogY: true,
		Curves: []Curve{ours, {Name: "thesis", X: []float64{8}, Y: []float64{3000}, Paper: true},
			FitCurve(Fit{Name: "N^1.64", Law: Power(1.64)}, ours), {Fit: true, X: []float64{8, 16}, Y: []float64{1, 2}}},
	}
	svg, err := l.SVG()
	require.NoError(t, err)
	texts := wellFormed(t, svg)
	for _, want := range []string{"requests N", "gates (count)", "sort", "thesis (paper)", "fit: N^1.64", "8", "16", "32"} {
		require.Contains(t, texts, want)
	}
	require.NotContains(t, texts, "64", "the NaN point is left out, and so is its tick")

	_, err = (&Lines{Curves: []Curve{{Name: "x", X: []float64{1}, Y: nil}}}).SVG()
	require.ErrorContains(t, err, "1 X and 0 Y")
	_, err = (&Lines{LogY: true, Curves: []Curve{{Name: "x", X: []float64{1}, Y: []float64{0}}}}).SVG()
	require.ErrorContains(t, err, "without a point")
}

func TestGrid(t *testing.T) {
	g := &Grid{
		Caption: Caption{Title: "Table II"}, XLabel: "banks w", YLabel: "s", Rows: []string{"1", "2"}, Cols: []string{"w=16", "w=32"},
		Values: [][]float64{{1.001, 0.998}, {1, math.NaN()}}, Text: [][]string{{"+0.1%", "-0.2%"}, {"+0.0%", "n/a"}},
		Center: 1, Legend: "ours / paper",
	}
	svg, err := g.SVG()
	require.NoError(t, err)
	texts := wellFormed(t, svg)
	for _, want := range []string{"banks w", "w=16", "w=32", "+0.1%", "-0.2%", "n/a", "ours / paper 1"} {
		require.Contains(t, texts, want)
	}
	require.Equal(t, g.shade(1), rgb(0xff, 0xff, 0xff), "the center is white")
	require.NotEqual(t, g.shade(1.002), g.shade(0.998), "above and below differ")
	_, err = (&Grid{Rows: []string{"1"}, Cols: []string{"a"}, Values: [][]float64{{1, 2}}}).SVG()
	require.Error(t, err)
}

func TestPicture(t *testing.T) {
	p := &Picture{Caption: Caption{Title: "layout"}, Draw: func() ([]byte, error) {
		return []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="452" height="208"><text x="1" y="2">bank 0</text></svg>`), nil
	}}
	svg, err := p.SVG()
	require.NoError(t, err)
	require.Contains(t, string(svg), `<svg viewBox="0 0 452 208" xmlns=`, "a viewBox to scale it by")
	require.Equal(t, []string{"bank 0"}, wellFormed(t, svg))
	_, err = (&Picture{Draw: func() ([]byte, error) { return []byte("bank 0"), nil }}).SVG()
	require.Error(t, err)
}

func TestNiceTicks(t *testing.T) {
	labels := func(lo, hi float64) []string {
		var ls []string
		for _, tk := range (niceTicks{}).Ticks(lo, hi) {
			ls = append(ls, tk.Label)
		}
		return ls
	}
	require.Equal(t, []string{"-20", "0", "20", "40", "60"}, labels(-25, 70))
	require.Equal(t, []string{"0", "0.2", "0.4", "0.6", "0.8", "1", "1.2"}, labels(0, 1.3))
	require.Equal(t, []string{"0", "20", "40", "60", "80", "100"}, labels(0, 104))
}

func TestLogTicks(t *testing.T) {
	labels := func(lo, hi float64) []string {
		var ls []string
		for _, tk := range (logTicks{}).Ticks(lo, hi) {
			if tk.Label != "" {
				ls = append(ls, tk.Label)
			}
		}
		return ls
	}
	require.Equal(t, []string{"20k", "50k", "100k", "200k", "500k"}, labels(15000, 600000), "few decades: 2 and 5 too")
	require.Equal(t, []string{"100", "1000", "10k", "100k", "1M", "10M"}, labels(70, 2e7), "many: the powers of ten alone")
	require.Len(t, (logTicks{}).Ticks(15000, 600000), 14, "a tick at every multiple in [15k, 600k]: 20k-90k, 100k-600k")
}

func TestCategoriesWithoutValues(t *testing.T) {
	nan := math.NaN()
	b := &Bars{Categories: []string{"stream", "divergent", "mean"}, Series: []Series{
		{Name: "base", Values: []float64{100, 100, nan}}, {Name: "adaptive", Values: []float64{100, 55, nan}},
	}}
	svg, err := b.SVG()
	require.NoError(t, err)
	texts := wellFormed(t, svg)
	require.Contains(t, texts, "divergent")
	require.NotContains(t, texts, "mean", "a category no series has a value at is left out")
	require.Len(t, b.Categories, 3, "the chart itself is unchanged")
}

func TestFillOrder(t *testing.T) {
	all := &Bars{Categories: []string{"bfs"}, Series: []Series{
		{Name: "FR-FCFS", Values: []float64{1}}, {Name: "MSHR-M", Values: []float64{2}}}}
	some := &Bars{Categories: []string{"bfs"}, FillOrder: []string{"FR-FCFS", "MSHR-M"}, Series: []Series{
		{Name: "MSHR-M", Values: []float64{2}}}}
	require.Equal(t, all.boxes()[1], some.boxes()[0], "MSHR-M's fill whether FR-FCFS is drawn or not")
	require.NotEqual(t, all.boxes()[0], some.boxes()[0])
}

func TestCurvesLookApart(t *testing.T) {
	type look struct {
		color  string
		glyph  string
		dashes string
	}
	seen := map[look]int{}
	for k := range 2*len(lineColors) + 3 {
		l := look{fmt.Sprint(seriesColor(k)), fmt.Sprintf("%T", glyphs[k%len(glyphs)]), fmt.Sprint(curveDashes(k))}
		prev, dup := seen[l]
		require.False(t, dup, "curves %d and %d look alike", prev, k)
		seen[l] = k
	}
}
