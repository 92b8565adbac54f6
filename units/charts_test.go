package units

import (
	"testing"

	"github.com/parmem/parmem/internal/chart"
	"github.com/parmem/parmem/internal/table"
	"github.com/stretchr/testify/require"
)

// AttachCharts appends to the named report; a name that is not there is
// a programming error.
func TestAttachCharts(t *testing.T) {
	rs := []*Report{{Name: "a"}, {Name: "b"}}
	c := func([]*table.Table) (chart.Chart, error) { return nil, nil }
	AttachCharts(rs, "b", c, c)
	AttachCharts(rs, "b", c)
	require.Empty(t, rs[0].Charts)
	require.Len(t, rs[1].Charts, 3)
	require.PanicsWithValue(t, `units: AttachCharts: no report "c"`, func() { AttachCharts(rs, "c", c) })
}

// PictureChart draws the picture at the values given, the others at
// their defaults, as SVG; bad values are the picture's error.
func TestPictureChart(t *testing.T) {
	var got Values
	p := &Picture{Kind: "drawing", Unit: "u", Formats: []string{"text", "svg"},
		Params: Params{{Name: "q", Doc: "q", Default: Const(2), Range: Fixed(1, 4)}, {Name: "n", Doc: "n", Default: Const(5), Range: Fixed(1, 9)}},
		Draw: func(v Values, format string) ([]byte, error) {
			got = v
			require.Equal(t, "svg", format)
			return []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="20"></svg>`), nil
		}}
	c, err := PictureChart(p, Values{"q": 3}, "title", "note")(nil)
	require.NoError(t, err)
	require.Equal(t, chart.Caption{Title: "title", Note: "note"}, c.Heading())
	svg, err := c.SVG()
	require.NoError(t, err)
	require.Equal(t, Values{"q": 3, "n": 5}, got)
	require.Contains(t, string(svg), `viewBox="0 0 10 20"`)
	c, _ = PictureChart(p, Values{"q": 7}, "title", "")(nil)
	_, err = c.SVG()
	require.ErrorContains(t, err, "-q=7 is out of range")
}
