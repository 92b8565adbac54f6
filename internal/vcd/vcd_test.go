package vcd

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const sample = `$date today $end
$timescale 1ns $end
$scope module top $end
$var wire 1 ! clk $end
$var wire 4 " q [3:0] $end
$scope module u $end
$var wire 4 " d [3:0] $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
$dumpvars
0!
bx "
$end
#5
1!
b101 "
#10
0!
`

func TestParseReadsScopesAndChanges(t *testing.T) {
	f, err := Parse(strings.NewReader(sample))
	require.NoError(t, err)
	require.Equal(t, []string{"top.clk", "top.q", "top.u.d"}, f.Paths())
	q := f.Vars["top.q"]
	require.Equal(t, 4, q.Width)
	require.Equal(t, "xxxx", q.At(0), "x extends with itself")
	require.Equal(t, "0101", q.At(7), "values zero-extend to the width")
	require.Equal(t, "0101", f.Vars["top.u.d"].At(100), "aliases share changes")
	require.Equal(t, "0", f.Vars["top.clk"].At(12))
}

func TestParseRejectsMalformedFiles(t *testing.T) {
	for name, text := range map[string]string{
		"undeclared id":   "$var wire 1 ! a $end $enddefinitions $end #0 1?",
		"value too wide":  "$var wire 2 ! a $end $enddefinitions $end #0 b111 !",
		"time goes back":  "$var wire 1 ! a $end $enddefinitions $end #5 1! #3 0!",
		"no definitions":  "$var wire 1 ! a $end",
		"bad width":       "$var wire x ! a $end $enddefinitions $end",
		"stray upscope":   "$upscope $end $enddefinitions $end",
		"not a value":     "$var wire 1 ! a $end $enddefinitions $end #0 q!",
		"unterminated":    "$comment never ends",
		"binary no ident": "$var wire 2 ! a $end $enddefinitions $end #0 b10",
	} {
		_, err := Parse(strings.NewReader(text))
		require.Errorf(t, err, "%s: %q", name, text)
	}
}
