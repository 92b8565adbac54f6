package rsdmm

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCongestionReport: the report has Table II's two blocks and the
// formula's, ten rows of s each, paper beside ours in every cell, and
// progress over the 200 cells.
func TestCongestionReport(t *testing.T) {
	var progress bytes.Buffer
	ts, err := congestionReport(1000, &progress)
	require.NoError(t, err)
	require.Len(t, ts, 3)
	for _, tb := range ts {
		require.Len(t, tb.Rows, 10, tb.Title)
		for _, r := range tb.Rows {
			require.Len(t, r, len(tb.Header), tb.Title)
		}
	}
	require.Equal(t, "3.038", ts[0].Rows[0][1])
	require.Contains(t, ts[0].Rows[0][2], " / ")
	require.Equal(t, "2.667", ts[2].Rows[0][1])
	require.Contains(t, progress.String(), "rsdmm-congestion: 200/200 jobs, ")
}
