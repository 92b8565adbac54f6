package sim_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/sim"
	"github.com/stretchr/testify/require"
)

// TestShiftCountsBelowTheWidthTestNothing: compiled Go ANDs a shift's
// count with the word's width less one where the count's value is
// narrower (then Go emits the shift alone, without the compare and
// conditional clear a count of the width or more needs), and leaves a
// count that may reach the width as it is: 64-bit words for 5- and 6-bit
// counts, 32-bit left shifts (compiled Go's uint32 path) for 5-bit ones
// only. A 1-bit index of two choices is a multiplexer, not a table.
// verify's TestCompiledShiftCounts and TestCompiledSelects check values.
func TestShiftCountsBelowTheWidthTestNothing(t *testing.T) {
	m := hdl.NewModule("shifts")
	x20, x32 := m.Input("x20", 20), m.Input("x32", 32)
	for _, cw := range []int{5, 6, 7} {
		c := m.Input(fmt.Sprintf("c%d", cw), cw)
		m.Output(fmt.Sprintf("shl20_%d", cw), 20).Drive(x20.ShlBy(c))
		m.Output(fmt.Sprintf("shr20_%d", cw), 20).Drive(x20.ShrBy(c))
		m.Output(fmt.Sprintf("shl32_%d", cw), 32).Drive(x32.ShlBy(c))
	}
	m.Output("pick", 20).Drive(hdl.Select(m.Input("i", 1), x20, x20.Not()))
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	src, slot, err := sim.New(d).GoSourceSlots("main")
	require.NoError(t, err)
	text := string(src)
	count := func(c string) string { return fmt.Sprintf(`st\[%d\]`, slot(c)) }
	for _, tc := range []struct {
		pattern string
		want    int
	}{
		{`<< \(` + count("c5") + ` & 63\)`, 1}, {`>> \(` + count("c5") + ` & 63\)`, 1}, {`<< \(` + count("c5") + ` & 31\)`, 1},
		{`<< \(` + count("c6") + ` & 63\)`, 1}, {`>> \(` + count("c6") + ` & 63\)`, 1}, {`<< ` + count("c6") + `\)`, 1},
		{`<< ` + count("c7") + `\)`, 2}, {`(?m)>> ` + count("c7") + `$`, 1},
		{`\]uint64\{`, 0},
	} {
		require.Len(t, regexp.MustCompile(tc.pattern).FindAllString(text, -1), tc.want, tc.pattern)
	}
}

// TestOneBitChoicesNeedNoMask: a one-hot multiplexer of one-bit choices
// ANDs each choice with its select bit as it is, where wider choices take
// the bit negated into a mask of all ones (verify's
// TestCompiledOneHotSelects checks values).
func TestOneBitChoicesNeedNoMask(t *testing.T) {
	m := hdl.NewModule("onehot_bits")
	x, sel, cond := m.Input("x", 8), m.Input("sel", 4), m.Input("cond", 4)
	var bits, bytes []*hdl.Signal
	for i := range 4 {
		bits = append(bits, x.Bit(i))
		bytes = append(bytes, x.Xor(m.ConstU(8, uint64(i+1))))
	}
	var conds []*hdl.Signal
	for i := range 4 {
		conds = append(conds, cond.Bit(i).And(x.Bit(4+i)))
	}
	m.Output("word_bit", 1).Drive(hdl.OneHotSelect(sel, bits...))
	m.Output("bus_bit", 1).Drive(hdl.OneHotSelect(hdl.Concat(conds[3], conds[2], conds[1], conds[0]), bits...))
	m.Output("word_byte", 8).Drive(hdl.OneHotSelect(sel, bytes...))
	d, err := hdl.Elaborate(m)
	require.NoError(t, err)
	src, slot, err := sim.New(d).GoSourceSlots("main")
	require.NoError(t, err)
	line := func(port string) string {
		return regexp.MustCompile(fmt.Sprintf(`(?m)^\tst\[%d\] = .*$`, slot(port))).FindString(string(src))
	}
	for _, port := range []string{"word_bit", "bus_bit"} {
		require.NotEmpty(t, line(port), port)
		require.NotContains(t, line(port), "&-", port)
		require.Equal(t, 3, strings.Count(line(port), " | "), port)
	}
	require.Equal(t, 4, strings.Count(line("word_byte"), "&-("), "word_byte")
}
