package chart

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Grid is a heat map: a cell per row and column, shaded by how far its
// value is from Center (above it red, below blue, deeper farther) and
// printed in the cell, so that it reads without colour.
type Grid struct {
	Caption
	XLabel, YLabel string
	Rows, Cols     []string // Rows from the bottom up
	Values         [][]float64
	Text           [][]string // what each cell prints; nil: its value
	Center         float64    // the value drawn white: 1 for ours over the paper's
	// Span is the distance from Center drawn deepest; 0: the largest
	// distance of any cell.
	Span float64
	// Legend names the shading: "ours / paper".
	Legend string
	// Format prints a value in the legend; nil: %.4g.
	Format        func(v float64) string
	Width, Height vg.Length // 0: the defaults
}

func (g *Grid) check() error {
	if len(g.Rows) == 0 || len(g.Cols) == 0 || len(g.Values) != len(g.Rows) {
		return errors.New("chart: a grid needs rows, columns and a row of values per row")
	}
	any := false
	for i, r := range g.Values {
		if len(r) != len(g.Cols) || (g.Text != nil && len(g.Text[i]) != len(g.Cols)) {
			return fmt.Errorf("chart: grid row %q has %d values for %d columns", g.Rows[i], len(r), len(g.Cols))
		}
		any = any || finite(r)
	}
	if !any {
		return errors.New("chart: a grid without a value")
	}
	return nil
}

func (g *Grid) span() float64 {
	if g.Span > 0 {
		return g.Span
	}
	s := 0.0
	for _, r := range g.Values {
		for _, v := range r {
			if !math.IsNaN(v) {
				s = math.Max(s, math.Abs(v-g.Center))
			}
		}
	}
	if s == 0 {
		return 1
	}
	return s
}

// shade is v's colour: white at Center, toward red above and blue
// below, the deepest at Span.
func (g *Grid) shade(v float64) color.Color {
	if math.IsNaN(v) {
		return rgb(0xdd, 0xdd, 0xdd)
	}
	t := math.Min(math.Abs(v-g.Center)/g.span(), 1)
	to := [3]float64{0xb2, 0x18, 0x2b} // red
	if v < g.Center {
		to = [3]float64{0x21, 0x66, 0xac} // blue
	}
	mix := func(c float64) uint8 { return uint8(math.Round(255 + (c-255)*t*0.85)) }
	return rgb(mix(to[0]), mix(to[1]), mix(to[2]))
}

// SVG draws the grid.
func (g *Grid) SVG() ([]byte, error) {
	if err := g.check(); err != nil {
		return nil, err
	}
	p := newPlot(g.XLabel, g.YLabel)
	p.NominalX(g.Cols...)
	p.NominalY(g.Rows...)
	p.Add(gridPlotter{g})
	p.X.Min, p.X.Max = -0.5, float64(len(g.Cols))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(g.Rows))-0.5
	// The legend: the shading at its ends and at the center.
	s := g.span()
	format := g.Format
	if format == nil {
		format = func(v float64) string { return fmt.Sprintf("%.4g", v) }
	}
	for _, v := range []float64{g.Center + s, g.Center, g.Center - s} {
		p.Legend.Add(g.Legend+" "+format(v), boxThumb{color: g.shade(v), outline: draw.LineStyle{Color: black, Width: 0.5}})
	}
	w, h := g.Width, g.Height
	if w == 0 {
		w = DefaultWidth
	}
	if h == 0 {
		h = DefaultHeight
	}
	return render(p, w, h)
}

type gridPlotter struct{ g *Grid }

func (gp gridPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := textStyle(8)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	outline := draw.LineStyle{Color: rgb(0xff, 0xff, 0xff), Width: 1}
	for i, row := range gp.g.Values {
		for j, v := range row {
			r := vg.Rectangle{
				Min: vg.Point{X: trX(float64(j) - 0.5), Y: trY(float64(i) - 0.5)},
				Max: vg.Point{X: trX(float64(j) + 0.5), Y: trY(float64(i) + 0.5)},
			}
			box{color: gp.g.shade(v), outline: outline}.draw(&c, r)
			label := fmt.Sprintf("%.3g", v)
			if gp.g.Text != nil {
				label = gp.g.Text[i][j]
			}
			if math.IsNaN(v) && gp.g.Text == nil {
				label = ""
			}
			c.FillText(sty, vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}, label)
		}
	}
}
