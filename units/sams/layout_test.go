package sams

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/parmem/parmem/units"
	"github.com/stretchr/testify/require"
)

func drawLayoutFlags(t *testing.T, texts map[string]string, format string) (string, error) {
	t.Helper()
	p := layoutPicture
	given, err := p.Params.Parse(p.Owner(), texts)
	require.NoError(t, err)
	v, err := p.Params.Resolve(p.Owner(), given)
	if err != nil {
		return "", err
	}
	b, err := p.Draw(v, format)
	return string(b), err
}

// The layout picture straight from its registration (gen's tests run it
// through the command line).
func TestLayoutPictureMarksSubAccesses(t *testing.T) {
	out, err := drawLayoutFlags(t, map[string]string{"q": "2", "family": "2", "base": "1", "stride": "3", "mode": "3"}, "text")
	require.NoError(t, err)
	require.Contains(t, out, "SAMS layout, q=2 (4 banks), n=5, family 2\n")
	require.Contains(t, out, "10*2", "address 10 conflicts with 1 in bank 1 and waits for the second")

	out, err = drawLayoutFlags(t, map[string]string{"q": "3", "matched": "true", "base": "0", "stride": "2", "mode": "3"}, "text")
	require.NoError(t, err)
	require.Contains(t, out, "Matched SAMS (family 3)")
	require.Contains(t, out, "conflict-free, one access", "Corollary 1: stride 2 in the Matched layout")

	out, err = drawLayoutFlags(t, map[string]string{"nas": "true"}, "svg")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(out, "<svg "))
	require.Contains(t, out, "NaS")

	// The access's line is wider than the four banks: the picture widens
	// to it (0.6 em a monospace character at 12 px).
	out, err = drawLayoutFlags(t, map[string]string{"q": "2", "family": "2", "base": "1", "stride": "3", "mode": "3"}, "svg")
	require.NoError(t, err)
	line := regexp.MustCompile(`<text x="10" y="\d+">(access mode[^<]*)</text>`).FindStringSubmatch(out)
	require.NotNil(t, line)
	width, err := strconv.Atoi(regexp.MustCompile(`<svg [^>]*width="(\d+)"`).FindStringSubmatch(out)[1])
	require.NoError(t, err)
	require.GreaterOrEqual(t, float64(width), 10+0.6*12*float64(len(html.UnescapeString(line[1]))))
}

func TestLayoutPictureBadInput(t *testing.T) {
	for texts, want := range map[*map[string]string]string{
		{"nas": "true", "matched": "true"}: "-family, -nas and -matched each choose the layout; give one",
		{"family": "1", "matched": "true"}: "-family, -nas and -matched each choose the layout; give one",
		{"stride": "3"}:                    "-base and -stride mark an access only with -mode (0..3)",
		{"q": "2", "n": "11"}:              "-n=11 is out of range for the sams layout: valid 4..10 (with -q 2)",
		{"q": "2", "base": "32"}:           "-base=32 is out of range for the sams layout: valid 0..31 (with -n 5)",
	} {
		_, err := drawLayoutFlags(t, *texts, "text")
		require.EqualError(t, err, want)
		var ie *units.InputError
		require.ErrorAs(t, err, &ie)
	}
}
