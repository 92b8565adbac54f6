package units

import (
	"fmt"
	"testing"

	"github.com/parmem/parmem/hdl"
	"github.com/stretchr/testify/require"
)

// TestIntParam: the shorthand is a plain Int with a constant default and
// range.
func TestIntParam(t *testing.T) {
	p := IntParam("m", "entries", 64, 1, 128)
	require.Equal(t, Int, p.Kind)
	require.Equal(t, 64, p.Default(nil))
	lo, hi := p.Range(nil)
	require.Equal(t, []int{1, 128}, []int{lo, hi})
	require.NoError(t, Params{p}.check("test"))
}

// testBlock is a parameter struct with a parameter of every kind but
// Optional, declared as testUnit declares them by hand; Fixed is no
// parameter but the unit's own choice.
type testBlock struct {
	Q, N, Lanes int
	Flag        bool
	Ways        int
	Policy      uint8
	Fixed       bool
}

func (b *testBlock) params(d *Decl) {
	b.Fixed = true
	d.Int(&b.Q, "q", "q", 3, 1, 6)
	d.Int(&b.N, "n", "n", 16, b.Q+2, 20)
	d.Int(&b.Lanes, "lanes", "lanes", 1<<uint(b.Q), 1, 2<<uint(b.Q))
	d.Bool(&b.Flag, "flag", "flag")
	d.Pow2(&b.Ways, "ways", "ways", 4, 1, 64)
	d.Choice(&b.Policy, "policy", "policy", []string{"frfcfs", "mshr-m", "mshr-s", "mshr-sa"}, 1)
}

// The parameters a typed declaration derives are the hand-written ones:
// names, docs, kinds and choices, and defaults, ranges and dependencies
// at the values before them, dependent ones too.
func TestParamsOfDerivesTheDeclaredParams(t *testing.T) {
	typed := ParamsOf((*testBlock).params)
	hand := testUnit().Params[:6]
	require.NoError(t, typed.check("test"))
	require.Len(t, typed, len(hand))
	for i, h := range hand {
		p := typed[i]
		require.Equal(t, [3]string{h.Name, h.Doc, h.Kind.String()}, [3]string{p.Name, p.Doc, p.Kind.String()})
		require.Equal(t, h.Choices, p.Choices)
		require.Equal(t, h.Range == nil, p.Range == nil, h.Name)
		require.Equal(t, hand.DependsOn(h.Name), typed.DependsOn(h.Name), h.Name)
		for _, v := range []Values{nil, {"q": 1}, {"q": 6}, {"q": 2, "n": 9, "lanes": 3}} {
			require.Equal(t, h.defaultValue(v), p.defaultValue(v), "%s at %v", h.Name, v)
			require.Equal(t, h.RangeText(v), p.RangeText(v), "%s at %v", h.Name, v)
		}
	}
	for _, given := range []Values{{}, {"q": 5, "flag": 1}, {"q": 1, "n": 2}, {"lanes": 17}, {"ways": 3}, {"policy": 4}} {
		want, wantErr := hand.Resolve("unit test-unit", given)
		got, err := typed.Resolve("unit test-unit", given)
		require.Equal(t, want, got)
		require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(err))
	}
}

// Fill sets each declared field to its value, and the fields the
// declaration sets itself; a unit from NewUnit builds the filled struct.
func TestFillSetsTheDeclaredFields(t *testing.T) {
	v, err := ParamsOf((*testBlock).params).Resolve("test", Values{"q": 5, "flag": 1, "policy": 3})
	require.NoError(t, err)
	want := testBlock{Q: 5, N: 16, Lanes: 32, Flag: true, Ways: 4, Policy: 3, Fixed: true}
	require.Equal(t, want, Fill(v, (*testBlock).params))
	v["other"] = 1
	require.Equal(t, want, Fill(v, (*testBlock).params), "names beyond the declared ones are not looked at")
	delete(v, "ways")
	require.PanicsWithValue(t, "units: Fill: no value for -ways (values map[flag:1 lanes:32 n:16 other:1 policy:3 q:5])",
		func() { Fill(v, (*testBlock).params) }, "a missing value is never a silent 0")

	var built testBlock
	u := NewUnit("test-typed", "a typed unit", (*testBlock).params, func(b testBlock, name string) *hdl.Module {
		built = b
		return hdl.NewModule(name)
	})
	v, err = u.Resolve(Values{"q": 2})
	require.NoError(t, err)
	m, err := u.Build(v, "top")
	require.NoError(t, err)
	require.Equal(t, "top", m.Name())
	require.Equal(t, testBlock{Q: 2, N: 16, Lanes: 4, Ways: 4, Policy: 1, Fixed: true}, built)
}

// A declaration that binds no field, a field of the wrong kind, one
// field twice, or declares different parameters at different values
// panics when its parameters are derived (at registration).
func TestBadTypedDeclarationsPanic(t *testing.T) {
	type block struct {
		X, Y int
		B    bool
		S    string
	}
	for want, declare := range map[string]func(*block, *Decl){
		"units: parameter -x: the field is int, not a pointer to a field":     func(b *block, d *Decl) { d.Int(b.X, "x", "x", 1, 0, 2) },
		"units: parameter -x: the int parameter does not fill a bool field":   func(b *block, d *Decl) { d.Int(&b.B, "x", "x", 1, 0, 2) },
		"units: parameter -x: the int parameter does not fill a string field": func(b *block, d *Decl) { d.Int(&b.S, "x", "x", 1, 0, 2) },
		"units: parameters -x and -y fill one field":                          func(b *block, d *Decl) { d.Int(&b.X, "x", "x", 1, 0, 2); d.Int(&b.X, "y", "y", 1, 0, 2) },
		"units: parameter -x: the parameters declared depend on the values": func(b *block, d *Decl) {
			d.Int(&b.Y, "y", "y", 1, 0, 2)
			if b.Y == 0 {
				d.Int(&b.X, "x", "x", 1, 0, 2)
			}
		},
	} {
		require.PanicsWithValue(t, want, func() { ParamsOf(declare).Defaults() }, want)
	}
}
