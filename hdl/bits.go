package hdl

import (
	"fmt"
	"github.com/parmem/parmem/internal/kernel"
	"math/big"
	"strings"
	"unsafe"
)

// MaxWidth is the widest signal or value hdl accepts.
const MaxWidth = 1 << 16

// Bits is an immutable bit vector of a fixed width from 1 to MaxWidth.
// Values of at most 64 bits live in one word and their operations do not
// allocate; wider values hold their words in a slice. The zero Bits is
// invalid (width 0); make values with U, Zero, Parse or FromBig.
type Bits struct {
	width int
	lo    uint64   // the value when width <= 64
	words []uint64 // all words, little endian, when width > 64
}

func checkWidth(w int) error {
	if w < 1 || w > MaxWidth {
		return fmt.Errorf("width %d is out of range 1..%d", w, MaxWidth)
	}
	return nil
}

// U returns v as a width-bit value. v must fit in width bits.
func U(width int, v uint64) (Bits, error) {
	if err := checkWidth(width); err != nil {
		return Bits{}, err
	}
	if width < 64 && v>>uint(width) != 0 {
		return Bits{}, fmt.Errorf("value %d does not fit in %d bits (max %d)", v, width, maxOf(width))
	}
	b := Zero(width)
	b.setWord0(v)
	return b, nil
}

// MustU is U for constants known to be valid; it panics on a bad argument.
func MustU(width int, v uint64) Bits {
	b, err := U(width, v)
	if err != nil {
		panic(err)
	}
	return b
}

func maxOf(width int) uint64 { return kernel.MaskOf(width) }

// Zero returns the width-bit zero. An invalid width yields the invalid Bits.
func Zero(width int) Bits {
	if checkWidth(width) != nil {
		return Bits{}
	}
	b := Bits{width: width}
	if width > 64 {
		b.words = make([]uint64, kernel.NWords(width))
	}
	return b
}

func (b *Bits) setWord0(v uint64) {
	if b.width > 64 {
		b.words[0] = v
	} else {
		b.lo = v
	}
}

// FromWords returns the width-bit value held in little-endian words
// (NWords = ceil(width/64) of them, bits above width zero).
func FromWords(width int, words []uint64) (Bits, error) {
	if err := checkWidth(width); err != nil {
		return Bits{}, err
	}
	if len(words) != kernel.NWords(width) || words[len(words)-1]&^kernel.TopMask(width) != 0 {
		return Bits{}, fmt.Errorf("%d words do not hold a clean %d-bit value", len(words), width)
	}
	return fromWords(width, words), nil
}

// Words returns the value as little-endian 64-bit words (a copy).
func (b Bits) Words() []uint64 { return append([]uint64(nil), b.view()...) }

// fromWords copies a clean w-bit word vector into a new Bits.
func fromWords(w int, v []uint64) Bits {
	b := Zero(w)
	if w > 64 {
		copy(b.words, v)
	} else {
		b.lo = v[0]
	}
	return b
}

// Width returns the number of bits; 0 for the invalid zero Bits.
func (b Bits) Width() int { return b.width }

// IsValid reports whether b was made by a constructor.
func (b Bits) IsValid() bool { return b.width > 0 }

// Uint64 returns the low 64 bits.
func (b Bits) Uint64() uint64 {
	if b.width > 64 {
		return b.words[0]
	}
	return b.lo
}

// FitsUint64 reports whether the value is below 2^64.
func (b Bits) FitsUint64() bool { return b.width <= 64 || kernel.WIsZero(b.words[1:]) }

// view returns the value's words without copying (do not modify).
func (b *Bits) view() []uint64 {
	if b.width > 64 {
		return b.words
	}
	return unsafe.Slice(&b.lo, 1)
}

// Bit returns bit i (0 is the least significant) or 0 when i is out of range.
func (b Bits) Bit(i int) uint64 {
	if i < 0 || i >= b.width {
		return 0
	}
	return kernel.BitOf(b.view(), i)
}

// Equal reports whether a and b have the same width and value.
func (b Bits) Equal(o Bits) bool {
	if b.width != o.width {
		return false
	}
	return kernel.WCmp(b.view(), o.view()) == 0
}

// Big returns the value as a non-negative big.Int.
func (b Bits) Big() *big.Int {
	v := b.view()
	ws := make([]big.Word, 0, len(v)*2)
	for _, x := range v {
		if bigWordBits == 64 {
			ws = append(ws, big.Word(x))
		} else {
			ws = append(ws, big.Word(uint32(x)), big.Word(x>>32))
		}
	}
	return new(big.Int).SetBits(ws)
}

const bigWordBits = 32 << (^big.Word(0) >> 63)

// FromBig returns x as a width-bit value; x must be in 0..2^width-1.
func FromBig(width int, x *big.Int) (Bits, error) {
	if err := checkWidth(width); err != nil {
		return Bits{}, err
	}
	if x == nil || x.Sign() < 0 || x.BitLen() > width {
		return Bits{}, fmt.Errorf("value %v does not fit in %d unsigned bits", x, width)
	}
	b := Zero(width)
	d := b.view()
	for i, w := range x.Bits() {
		if bigWordBits == 64 {
			d[i] |= uint64(w)
		} else {
			d[i/2] |= uint64(w) << (32 * uint(i%2))
		}
	}
	return b, nil
}

// String formats b as a sized Verilog literal: 1'b0 or 1'b1 for one bit,
// otherwise hexadecimal with every digit written, such as 8'h0f.
func (b Bits) String() string {
	if b.width == 0 {
		return "<invalid Bits>"
	}
	if b.width == 1 {
		return fmt.Sprintf("1'b%d", b.lo)
	}
	v := b.view()
	digits := (b.width + 3) / 4
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d'h", b.width)
	for i := digits - 1; i >= 0; i-- {
		nib := kernel.Word(v, i/16) >> (4 * uint(i%16)) & 15
		sb.WriteByte("0123456789abcdef"[nib])
	}
	return sb.String()
}

// Parse reads a sized Verilog literal: <width>'<base><digits> with base b, o,
// d or h (either case) and optional underscores between digits, such as
// 8'hff, 4'b1010 or 1000'd12345. The value must fit in the width.
func Parse(s string) (Bits, error) {
	q := strings.IndexByte(s, '\'')
	if q <= 0 || q+2 > len(s) {
		return Bits{}, fmt.Errorf("literal %q: want <width>'<base><digits>, such as 8'hff", s)
	}
	var width int
	if _, err := fmt.Sscanf(s[:q], "%d", &width); err != nil || fmt.Sprint(width) != s[:q] {
		return Bits{}, fmt.Errorf("literal %q: width %q is not a decimal number", s, s[:q])
	}
	if err := checkWidth(width); err != nil {
		return Bits{}, fmt.Errorf("literal %q: %v", s, err)
	}
	base := 0
	switch s[q+1] {
	case 'b', 'B':
		base = 2
	case 'o', 'O':
		base = 8
	case 'd', 'D':
		base = 10
	case 'h', 'H':
		base = 16
	default:
		return Bits{}, fmt.Errorf("literal %q: base %q is not one of b, o, d, h", s, s[q+1])
	}
	digits := s[q+2:]
	if digits == "" || digits[0] == '_' || strings.HasSuffix(digits, "_") {
		return Bits{}, fmt.Errorf("literal %q: digits missing or start/end with '_'", s)
	}
	x, ok := new(big.Int).SetString(strings.ReplaceAll(digits, "_", ""), base)
	if !ok || x.Sign() < 0 {
		return Bits{}, fmt.Errorf("literal %q: %q is not a base-%d number (x and z are not supported)", s, digits, base)
	}
	b, err := FromBig(width, x)
	if err != nil {
		return Bits{}, fmt.Errorf("literal %q: value needs %d bits, more than the width %d", s, x.BitLen(), width)
	}
	return b, nil
}

// MustParse is Parse for literals known to be valid; it panics on a bad one.
func MustParse(s string) Bits {
	b, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return b
}
