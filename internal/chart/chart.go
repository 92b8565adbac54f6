// Package chart draws the design-review reports' figures as SVG (with
// gonum.org/v1/plot): bars of ours beside a paper's values, curves with a
// fitted growth law, heat maps of ours over the paper's, and pictures a
// unit draws itself. A chart holds numbers read from a report's own
// tables (Find, Column, Number), never a measurement of its own.
//
// Every chart reads in black and white: each bar series has a hatching
// or a grey of its own beside its colour, each curve a marker shape, and
// a paper's series is hollow and named "(paper)" in the legend.
package chart

import (
	"bytes"
	"image/color"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart is one figure: a title and a note for its caption, the title of
// the table it draws (a page puts the figure after that table), and the
// drawing.
type Chart interface {
	Heading() Caption
	SVG() ([]byte, error)
}

// Caption is what a page prints with a chart.
type Caption struct {
	Title string
	Note  string // under the title: what is drawn and how to read it
	// Source is the title of the report's table the chart reads (the
	// last one, when it reads several); empty for a picture.
	Source string
}

// Heading returns c itself: a chart kind embeds its Caption.
func (c Caption) Heading() Caption { return c }

// Sizes of every chart, in points.
const (
	DefaultWidth  = 7 * vg.Inch
	DefaultHeight = 3.4 * vg.Inch
	TallHeight    = 3.9 * vg.Inch // for a chart of many bars or curves
	labelSize     = 10
	tickSize      = 9
	legendSize    = 9
)

// PaperSuffix marks a paper's series in a legend.
const PaperSuffix = " (paper)"

// The fills of bar series in order: colours of distinct lightness
// (Okabe and Ito's palette, safe for colour-blind readers), each with a
// hatching of its own, so that a grey print tells them apart too.
var fills = []struct {
	color color.Color
	hatch hatch
}{
	{rgb(0x00, 0x72, 0xB2), noHatch},
	{rgb(0xE6, 0x9F, 0x00), forward},
	{rgb(0x00, 0x9E, 0x73), backward},
	{rgb(0xF0, 0xE4, 0x42), horizontal},
	{rgb(0xCC, 0x79, 0xA7), cross},
	{rgb(0x56, 0xB4, 0xE9), vertical},
	{rgb(0xD5, 0x5E, 0x00), dots},
}

// paperFill is a paper's bars: white, cross-hatched in black, outlined
// thickly.
var paperFill = struct {
	color color.Color
	hatch hatch
}{color.White, diamond}

// The marker shapes of curves in order: filled for ours; a paper's are
// hollow rings (paperGlyph).
var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}}

var paperGlyph = draw.RingGlyph{}

func rgb(r, g, b uint8) color.Color { return color.RGBA{R: r, G: g, B: b, A: 0xff} }

// lineColors are the colours of curves in order: the palette's darker
// ones, which a thin line on white shows.
var lineColors = []color.Color{rgb(0x00, 0x72, 0xB2), rgb(0xE6, 0x9F, 0x00), rgb(0x00, 0x9E, 0x73), rgb(0xD5, 0x5E, 0x00),
	rgb(0xCC, 0x79, 0xA7), rgb(0x56, 0xB4, 0xE9), rgb(0x33, 0x33, 0x33)}

// seriesColor is the i-th curve's colour.
func seriesColor(i int) color.Color { return lineColors[i%len(lineColors)] }

// curveDashes is the i-th curve's line: solid for the first round of
// colours and markers (they repeat together), then dashed, so that no
// two curves of a chart look alike.
func curveDashes(i int) []vg.Length {
	return [][]vg.Length{nil, {5, 2}, {1.5, 1.5}, {6, 2, 1.5, 2}}[i/len(lineColors)%4]
}

var (
	black = color.Black
	grey  = rgb(0x80, 0x80, 0x80)
)

// sans is the charts' typeface (plot's default is a serif).
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

func textStyle(size vg.Length) text.Style {
	return text.Style{Color: black, Font: font.From(sans, size), Handler: plot.DefaultTextHandler}
}

// newPlot is a plot with the axes' labels and the package's sizes.
func newPlot(xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, labelSize)
		a.Tick.Label.Font = font.From(sans, tickSize)
		a.Tick.Length = 4
		a.Tick.Marker = niceTicks{}
	}
	p.Legend.TextStyle = textStyle(legendSize)
	p.Legend.Left = true
	p.Legend.Top = true
	p.Legend.Padding = 3
	p.Legend.ThumbnailWidth = 18
	return p
}

// legendGap is the space between the plot and its legend on the right.
const legendGap = 6

// render draws p with its legend to the right of it, outside the data,
// and returns the SVG without its XML prologue (ready to inline in a
// page).
func render(p *plot.Plot, w, h vg.Length) ([]byte, error) {
	c := vgsvg.New(w, h)
	dc := draw.New(c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	// The plot would draw its legend over the data: a copy is drawn
	// beside it instead.
	legend := p.Legend
	p.Legend = plot.NewLegend()
	lw := legendWidth(&legend)
	if lw > 0 {
		lw += legendGap
	}
	p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
	if lw > 0 {
		legend.Draw(draw.Crop(dc, w-lw+legendGap, 0, 0, -4))
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return inline(buf.Bytes()), nil
}

// legendWidth is the width the legend's entries take, 0 without any.
func legendWidth(l *plot.Legend) vg.Length {
	r := l.Rectangle(draw.Canvas{})
	return r.Max.X - r.Min.X
}

var prologue = regexp.MustCompile(`^(?s)<\?xml[^>]*>\s*(<!--.*?-->\s*)?`)

// inline strips the XML prologue and comment vgsvg writes before <svg.
func inline(svg []byte) []byte { return prologue.ReplaceAll(svg, nil) }

// Fit is a growth law fitted to points: y = c law(x), c by least squares
// on the logarithms (the reports fit their laws so).
type Fit struct {
	Name string // "fit: LUT4 ~ w^0.59"
	Law  func(x float64) float64
}

// Scale returns the c of y = c law(x) that fits the points best on the
// logarithms; points that are not positive are left out. It is NaN
// without a point.
func (f Fit) Scale(xs, ys []float64) float64 {
	sum, n := 0.0, 0
	for i := range xs {
		l := f.Law(xs[i])
		if ys[i] > 0 && l > 0 && !math.IsNaN(ys[i]) {
			sum += math.Log(ys[i]) - math.Log(l)
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return math.Exp(sum / float64(n))
}

// Power is the law x^e.
func Power(e float64) func(float64) float64 { return func(x float64) float64 { return math.Pow(x, e) } }

// Exponent reads the exponent of the first law over variable in text, as
// the reports print laws ("LUT4 ~ w^0.59": Exponent(text, "w") is 0.59;
// "(n-q)^1.13"); ok is false without one.
func Exponent(text, variable string) (e float64, ok bool) {
	return lawNumber(`(?:^|[^A-Za-z0-9_])`+regexp.QuoteMeta(variable)+`\^(-?[0-9]+(?:\.[0-9]+)?)`, text)
}

// Base reads the base of the first exponential law over variable in
// text ("~ 3.67^q": Base(text, "q") is 3.67).
func Base(text, variable string) (b float64, ok bool) {
	return lawNumber(`([0-9]+(?:\.[0-9]+)?)\^`+regexp.QuoteMeta(variable)+`\b`, text)
}

func lawNumber(pattern, text string) (float64, bool) {
	m := regexp.MustCompile(pattern).FindStringSubmatch(text)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	return v, err == nil
}

// finite reports whether some value is a number.
func finite(vs []float64) bool {
	return slices.ContainsFunc(vs, func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) })
}

// legendName is a series' name in the legend: a paper's is marked.
func legendName(name string, paper bool) string {
	if paper && !strings.HasSuffix(name, PaperSuffix) {
		return name + PaperSuffix
	}
	return name
}

// niceTicks labels a linear axis at every step of 1, 2, 2.5 or 5 times a
// power of ten, five to eight of them, without trailing zeros
// (plot.DefaultTicks labels only some of its ticks).
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if !(span > 0) || math.IsInf(span, 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	mag := math.Pow(10, math.Floor(math.Log10(span/6)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		step = m * mag
		if span/step <= 8 {
			break
		}
	}
	unit := math.Pow(10, math.Max(0, 2-math.Floor(math.Log10(step)))) // rounds off float noise
	var ts []plot.Tick
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+step*1e-9; k++ {
		v := math.Round(k*step*unit) / unit
		if v == 0 {
			v = 0 // not -0
		}
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	return ts
}

// logTicks labels a log axis at every power of ten, and at 2 and 5 times
// it when the axis spans fewer than three decades (else one label or two
// would be all); unlabelled ticks mark the other multiples. Labels are
// plain numbers shortened with k and M (plot.LogTicks writes 1e+06).
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) || math.IsInf(hi, 0) {
		return plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	}
	few := math.Log10(hi/lo) < 3
	var ts []plot.Tick
	for d := math.Floor(math.Log10(lo)); d <= math.Ceil(math.Log10(hi)); d++ {
		for m := 1.0; m <= 9; m++ {
			v := m * math.Pow(10, d)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || few && (m == 2 || m == 5) {
				t.Label = shortNumber(v)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// shortNumber writes v with k (thousands) or M (millions): 200k, 1M.
func shortNumber(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 4, 64) + "M"
	case v >= 1e4:
		return strconv.FormatFloat(v/1e3, 'g', 4, 64) + "k"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}
