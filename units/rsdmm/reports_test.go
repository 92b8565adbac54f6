package rsdmm

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCongestionReport: the report has Table II's two blocks and the
// formula's, ten rows of s each, paper beside ours in every cell, the
// claims of Table II and section VI, and progress over the 200 cells.
func TestCongestionReport(t *testing.T) {
	var progress bytes.Buffer
	ts, err := congestionReport(1000, &progress)
	require.NoError(t, err)
	require.Len(t, ts, 4)
	for _, tb := range ts[:3] {
		require.Len(t, tb.Rows, 10, tb.Title)
		for _, r := range tb.Rows {
			require.Len(t, r, len(tb.Header), tb.Title)
		}
	}
	require.Equal(t, "w=16 paper", ts[0].Header[1])
	require.Equal(t, "3.038", ts[0].Rows[0][1])
	require.Contains(t, ts[0].Rows[0][2], " / ")
	require.Equal(t, "2.667", ts[2].Rows[0][1])
	require.Len(t, ts[3].Rows, 2*5+4, "a claim per column of Table II's two blocks, the formula's block and VI's three")
	require.Equal(t, "Nakano Table II", ts[3].Rows[0][0])
	require.Equal(t, "verdict", ts[3].Header[5])
	require.Contains(t, progress.String(), "rsdmm-congestion: 200/200 jobs, ")
}
