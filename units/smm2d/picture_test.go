package smm2d

import (
	"errors"
	"strings"
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

func drawWith(t *testing.T, texts map[string]string, format string) (string, error) {
	t.Helper()
	p := layoutView
	given, err := p.Params.Parse(p.Owner(), texts)
	require.NoError(t, err)
	v, err := p.Params.Resolve(p.Owner(), given)
	require.NoError(t, err)
	b, err := p.Draw(v, format)
	return string(b), err
}

// The four rows of thesis Figure 3.6 (N = 16, 2^p = 2, 2^q = 4, vs = hs =
// 1), as printed in the thesis; p = 1, so both forms of m_v draw them.
func TestLayoutDrawsFigure36(t *testing.T) {
	row0 := "0,0 0,1 0,2 0,3 1,1 1,0 1,3 1,2 1,0 1,1 1,2 1,3 0,1 0,0 0,3 0,2"
	row1 := "1,0 1,1 1,2 1,3 0,1 0,0 0,3 0,2 0,0 0,1 0,2 0,3 1,1 1,0 1,3 1,2"
	for _, post := range []string{"false", "true"} {
		out, err := drawWith(t, map[string]string{"p": "1", "q": "2", "mb": "3", "nb": "4", "vs": "1", "hs": "1", "post": post}, "text")
		require.NoError(t, err)
		lines := strings.Split(out, "\n")
		require.Contains(t, lines[0], "p=1 q=2 (2x4 banks), M=8 N=16, vs=1 hs=1")
		for i, want := range []string{row0, row1, row1, row0} {
			require.Equal(t, "   "+string(rune('0'+i))+" | "+want, lines[2+i], "row %d, post %s", i, post)
		}
	}
}

func TestLayoutFormsDifferForP2(t *testing.T) {
	flags := map[string]string{"p": "2", "q": "2", "mb": "4", "nb": "5", "vs": "1", "hs": "0"}
	pre, err := drawWith(t, flags, "text")
	require.NoError(t, err)
	flags["post"] = "true"
	post, err := drawWith(t, flags, "text")
	require.NoError(t, err)
	require.NotEqual(t, pre[strings.Index(pre, "\n"):], post[strings.Index(post, "\n"):], "the grids differ")
}

func TestLayoutMarksAccesses(t *testing.T) {
	out, err := drawWith(t, map[string]string{"mb": "4", "nb": "5", "pattern": "2", "bi": "1", "bj": "3", "vstride": "2", "hstride": "6"}, "text")
	require.NoError(t, err)
	for k := range 8 {
		require.Contains(t, out, "*"+string(rune('0'+k)), "lane %d is marked", k)
	}
	require.Contains(t, out, "conflict-free, routable (Theorem 7's grouping); supported by appendix B; the memory serves it in 1 cycle(s)")

	out, err = drawWith(t, map[string]string{"mb": "3", "nb": "4", "pattern": "0", "hstride": "4"}, "text")
	require.NoError(t, err)
	require.Contains(t, out, "conflicting (two lanes share a bank), not routable in one pass; not supported: HS = 4 is not an odd multiple of 2^hs = 2")

	out, err = drawWith(t, map[string]string{"mb": "3", "nb": "4", "pattern": "4", "bj": "2"}, "text")
	require.NoError(t, err)
	require.Contains(t, out, "not supported: bj = 2 is not a multiple of 8", "a misaligned continuous row")
	require.Contains(t, out, "conflicting")

	out, err = drawWith(t, map[string]string{"mb": "3", "nb": "4", "pattern": "0", "hstride": "4", "hs": "2"}, "text")
	require.NoError(t, err)
	require.Contains(t, out, "*0+4", "with hs = 2 > nb-p-q, 4*HS = N: the strided row repeats elements (point 3)")
}

func TestLayoutSVGAndInputErrors(t *testing.T) {
	out, err := drawWith(t, map[string]string{"pattern": "5"}, "svg")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(out, "<svg "))
	require.Contains(t, out, "2DSMM layout, p=1 q=2")
	require.Contains(t, out, "continuous block from (0,0)")

	_, err = drawWith(t, map[string]string{"bi": "3"}, "text")
	var in *units.InputError
	require.True(t, errors.As(err, &in), "got %v", err)
	require.Contains(t, err.Error(), "-pattern")
}
