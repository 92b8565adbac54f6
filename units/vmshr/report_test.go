package vmshr

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The granularity report's worked example: 32 B with Table 6.2's minimum
// (line 11), the text's 16 B with a minimum of 16 B or less, 8 here (line 13).
func TestGranularityReport(t *testing.T) {
	ts := granularityReport()
	ex := ts[0]
	require.Len(t, ex.Rows, 2)
	assert.Equal(t, []string{"32", "256", "16", "line 11: min_gran", "32", "32", "0", ""}, ex.Rows[0])
	assert.Equal(t, []string{"8", "256", "16", "line 13: blockDim.x x e", "16", "32", "0", "16"}, ex.Rows[1])
	sweep := ts[1]
	require.Len(t, sweep.Rows, len(blockDims))
	for _, r := range sweep.Rows {
		switch r[0] {
		case "12":
			assert.Equal(t, []string{"12", "48", "line 13: blockDim.x x e", "48", "32", "0"}, r)
		case "512":
			assert.Equal(t, []string{"512", "2048", "line 9: max_gran", "256", "256", "3"}, r)
		}
	}
	// Table 6.4's layout: five rows, a column per kernel; stream's two
	// loads are 256 B, gather's one is 32 B and an analysis fail.
	tab := ts[2]
	require.Len(t, tab.Rows, 5)
	col := func(name string) int {
		for i, h := range tab.Header {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return 0
	}
	assert.Equal(t, "2", tab.Rows[3][col("stream")])
	assert.Equal(t, "1", tab.Rows[0][col("gather")])
	assert.Equal(t, "1", tab.Rows[4][col("gather")])
	for _, tb := range ts {
		var out bytes.Buffer
		require.NoError(t, tb.Write(&out, "markdown"))
	}
}

// The vmshr report's findings table names the paper's figures and says
// which hold.
func TestPaperTable(t *testing.T) {
	e := evaluation(t)
	tab := paperTable(e[2], e[1])
	var out bytes.Buffer
	require.NoError(t, tab.Write(&out, "text"))
	text := out.String()
	t.Log("\n" + text)
	for _, want := range []string{"1.42X", "+12.3%", "+35.1%", "+77.2%", "slower", "unchanged"} {
		assert.Contains(t, text, want)
	}
	for _, r := range tab.Rows {
		assert.Equal(t, "yes", r[4], "%s does not hold", r[0])
	}
	k := kernelTable(e[2], 2)
	require.Len(t, k.Rows, len(Kernels())+1)
	assert.Equal(t, "mean", k.Rows[len(k.Rows)-1][0])
	assert.True(t, strings.HasPrefix(k.Rows[len(k.Rows)-1][6], "+"), "a mean speedup above 1")
}
