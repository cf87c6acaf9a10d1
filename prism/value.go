package prism

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/poly"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/syntax"
)

// Limits on the numbers a PRISM file may ask dpcheck to compute exactly,
// and of the parser (package syntax's, which says why).
const (
	// MaxLiteralLength bounds the characters of a number literal.
	MaxLiteralLength = 1000
	// MaxDecimalExponent bounds |e| in a literal like 1e-3.
	MaxDecimalExponent = 1000
	// MaxValueBits bounds the bits of every number a constant expression
	// computes (pow(10, k), products of large constants, …).
	MaxValueBits = 1 << 20
	// MaxSteps bounds the steps of time bounds (F<=k, U<=k) and of X X … X.
	MaxSteps = 100000
	// MaxVarBound bounds the absolute value of the ends of a variable's range.
	MaxVarBound = 1 << 62
	// MaxNesting bounds how deeply expressions nest: parentheses, prefix
	// operators (-, !, X, F, G), the branches of ? :, each further link of
	// a chain of =>, <=>, = or <, calls, filters and the brackets of P and
	// D each add a level.
	MaxNesting = syntax.MaxNesting
	// MaxNodes bounds the operators and operands of the expressions a file
	// holds, and its declarations, commands, updates and properties, each
	// one: 70 to 200 bytes each as parsed and declared (2^23 is a 16 MB
	// line of x+x+…, about 0.6 GB).
	MaxNodes = syntax.MaxNodes
	// MaxFileSize bounds the source the parser accepts.
	MaxFileSize = syntax.MaxFileSize
)

// Value is a value given to an undefined constant from outside the files
// ("const int k;" on the command line, or in a .dp file's prism(…) call):
// an exact number, or a truth value.
type Value struct {
	// Num is the number; nil for a truth value.
	Num *big.Rat
	// Bool is the truth value when Num is nil.
	Bool bool
	// Pos is where the value is written, for errors about it; the zero
	// Position when it is not written in a file.
	Pos source.Position
	// Text is the value as written, for messages ("" when it is not
	// known: String writes the value exactly).
	Text string
}

// String writes the value as written, else exactly: "5", "1/3", "true".
func (v Value) String() string {
	if v.Text != "" {
		return v.Text
	}
	if v.Num == nil {
		return strconv.FormatBool(v.Bool)
	}
	return v.Num.RatString()
}

// ParseValue reads the value of a constant exactly: an integer (5, -2), a
// decimal (0.25, .2, 1e-3), a fraction (1/3), true or false. No value is
// ever read as a float.
func ParseValue(s string) (Value, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "true", "false":
		return Value{Bool: s == "true", Text: s}, nil
	case "":
		return Value{}, fmt.Errorf("the value is empty")
	}
	if strings.Contains(s, ":") || strings.Contains(s, "..") {
		return Value{}, fmt.Errorf("%s is a range of values, where one value is needed", s)
	}
	num, den, frac := strings.Cut(s, "/")
	x, err := parseNumber(strings.TrimPrefix(num, "-"))
	if err != nil {
		return Value{}, fmt.Errorf("%s is not a number (write an integer, a decimal such as 0.25, a fraction such as 1/3, true or false)", s)
	}
	if strings.HasPrefix(num, "-") {
		x.Neg(x)
	}
	if frac {
		d, err := parseNumber(den)
		if err != nil {
			return Value{}, fmt.Errorf("%s is not a number (write an integer, a decimal such as 0.25, a fraction such as 1/3, true or false)", s)
		}
		if d.Sign() == 0 {
			return Value{}, fmt.Errorf("%s divides by zero", s)
		}
		x.Quo(x, d)
	}
	return Value{Num: x, Text: s}, nil
}

// ParseConsts reads definitions of constants as PRISM's -const option
// takes them: each argument is NAME=VALUE or a comma-separated list of
// them (N=5,M=3). A name defined twice, a missing "=" or a value
// ParseValue cannot read is an error.
func ParseConsts(defs ...string) (map[string]Value, error) {
	out := map[string]Value{}
	err := eachDef(defs, "such as N=5 or p=1/3", func(name, val string) error {
		v, err := ParseValue(val)
		out[name] = v
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachDef calls def for each NAME=VALUE of defs (each a comma-separated
// list), in order; a malformed item, a name given twice or an error of def
// (prefixed by the name) is the error.
func eachDef(defs []string, such string, def func(name, val string) error) error {
	seen := map[string]bool{}
	for _, d := range defs {
		for _, item := range strings.Split(d, ",") {
			name, val, ok := strings.Cut(item, "=")
			name = strings.TrimSpace(name)
			if !ok || !syntax.IsIdent(name) {
				return fmt.Errorf("%q is not a definition NAME=VALUE (%s)", item, such)
			}
			if seen[name] {
				return fmt.Errorf("%s is given twice", name)
			}
			seen[name] = true
			if err := def(name, val); err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
		}
	}
	return nil
}

// parseNumber reads a literal exactly: 0.75 is 3/4, .2 is 1/5, 1e-3 is
// 1/1000. It refuses literals over MaxLiteralLength characters and decimal
// exponents beyond ±MaxDecimalExponent.
func parseNumber(text string) (*big.Rat, error) {
	return syntax.ParseNumber(text, MaxLiteralLength, MaxDecimalExponent)
}

// sized reports whether x is within MaxValueBits.
func sized(x *big.Rat) bool { return exact.Bits(x) <= MaxValueBits }

// MaxSweep bounds the runs of a sweep: the combinations of the values its
// ranges take.
const MaxSweep = 1000

// Assignment is one combination of a sweep: a value for every constant
// given, and its text ("K=3, N=2": the ranged ones) for reports.
type Assignment struct {
	Consts map[string]Value
	Text   string
	// Ranged are the names given a range, in order.
	Ranged []string
}

// Project returns a restricted to the constants names keeps, its Text
// naming the ranged ones kept.
func (a Assignment) Project(keep func(name string) bool) Assignment {
	out := Assignment{Consts: map[string]Value{}}
	for k, v := range a.Consts {
		if keep(k) {
			out.Consts[k] = v
		}
	}
	var parts []string
	for _, k := range a.Ranged {
		if keep(k) {
			out.Ranged = append(out.Ranged, k)
			parts = append(parts, k+"="+a.Consts[k].String())
		}
	}
	out.Text = strings.Join(parts, ", ")
	return out
}

// ParseSweep reads definitions as ParseConsts does, where a value may also
// be a range: lo..hi (integers, step 1) or PRISM's lo:hi and lo:step:hi
// (numbers; step 1 by default). It returns one Assignment per combination
// of the ranges' values, the first range varying slowest; without a range,
// one Assignment with Text "". More than MaxSweep combinations, an empty
// range or a step that is not positive is an error.
func ParseSweep(defs ...string) ([]Assignment, error) {
	type def struct {
		name   string
		values []Value
		ranged bool
	}
	var ds []def
	err := eachDef(defs, "such as N=5, p=1/3 or a range N=1..8", func(name, val string) error {
		vs, ranged, err := parseRange(strings.TrimSpace(val))
		ds = append(ds, def{name, vs, ranged})
		return err
	})
	if err != nil {
		return nil, err
	}
	runs := 1
	for _, d := range ds {
		if runs *= len(d.values); runs > MaxSweep { // each range has at most MaxSweep values
			return nil, fmt.Errorf("the ranges make more than %d runs (the limit of a sweep)", MaxSweep)
		}
	}
	out := []Assignment{{Consts: map[string]Value{}}}
	for _, d := range ds {
		var next []Assignment
		for _, a := range out {
			for _, v := range d.values {
				c := maps.Clone(a.Consts)
				c[d.name] = v
				text, ranged := a.Text, a.Ranged
				if d.ranged {
					if text != "" {
						text += ", "
					}
					text += d.name + "=" + v.String()
					ranged = append(slices.Clip(ranged), d.name)
				}
				next = append(next, Assignment{Consts: c, Text: text, Ranged: ranged})
			}
		}
		out = next
	}
	return out, nil
}

// parseRange reads a value or a range of values.
func parseRange(s string) (vs []Value, ranged bool, err error) {
	var parts []string
	switch {
	case strings.Contains(s, ".."):
		lo, hi, _ := strings.Cut(s, "..")
		if strings.Contains(hi, "..") || strings.Contains(s, ":") {
			return nil, false, fmt.Errorf("%s is not a range (write lo..hi, lo:hi or lo:step:hi)", s)
		}
		parts = []string{lo, "1", hi}
	case strings.Contains(s, ":"):
		parts = strings.Split(s, ":")
		switch len(parts) {
		case 2:
			parts = []string{parts[0], "1", parts[1]}
		case 3:
		default:
			return nil, false, fmt.Errorf("%s is not a range (write lo:hi or lo:step:hi)", s)
		}
	default:
		v, err := ParseValue(s)
		return []Value{v}, false, err
	}
	var xs [3]*big.Rat
	for i, p := range parts {
		v, err := ParseValue(p)
		if err != nil {
			return nil, false, err
		}
		if v.Num == nil {
			return nil, false, fmt.Errorf("%s: a range is of numbers", s)
		}
		xs[i] = v.Num
	}
	lo, step, hi := xs[0], xs[1], xs[2]
	if strings.Contains(s, "..") && (!lo.IsInt() || !hi.IsInt()) {
		return nil, false, fmt.Errorf("%s: the ends of lo..hi are integers (write lo:step:hi for other numbers)", s)
	}
	if step.Sign() <= 0 {
		return nil, false, fmt.Errorf("%s: the step must be positive", s)
	}
	if lo.Cmp(hi) > 0 {
		return nil, false, fmt.Errorf("%s is empty: its start is above its end", s)
	}
	for x := new(big.Rat).Set(lo); x.Cmp(hi) <= 0; x = new(big.Rat).Add(x, step) {
		if len(vs) >= MaxSweep {
			return nil, false, fmt.Errorf("%s has more than %d values (the limit of a sweep)", s, MaxSweep)
		}
		vs = append(vs, Value{Num: x, Text: x.RatString()})
	}
	return vs, true, nil
}

// ParseParam reads a parameter as PRISM's -param option takes it,
// NAME=LO:HI, the closed interval [LO, HI]; or NAME=(LO,HI) with each end
// open, "(" or ")", or closed, "[" or "]", as a .dp file's param statement
// writes its interval. The ends are exact numbers (0.1 is 1/10, 1/3),
// LO < HI.
func ParseParam(def string) (*Param, error) {
	name, spec, ok := strings.Cut(def, "=")
	name, spec = strings.TrimSpace(name), strings.TrimSpace(spec)
	if !ok || !syntax.IsIdent(name) {
		return nil, fmt.Errorf("%q is not a parameter NAME=LO:HI or NAME=(LO,HI) (such as p=0:1 or p=(0,1))", def)
	}
	var in poly.Interval
	lo, hi, ok := strings.Cut(spec, ":")
	if n := len(spec); n >= 2 && strings.ContainsRune("([", rune(spec[0])) && strings.ContainsRune(")]", rune(spec[n-1])) {
		in.LoOpen, in.HiOpen = spec[0] == '(', spec[n-1] == ')'
		if lo, hi, ok = strings.Cut(spec[1:n-1], ","); !ok {
			lo, hi, ok = strings.Cut(spec[1:n-1], ":")
		}
	}
	if !ok {
		return nil, fmt.Errorf("%s: %q is not an interval LO:HI or (LO,HI)", name, spec)
	}
	var err error
	if in.Lo, err = signedNumber(lo); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if in.Hi, err = signedNumber(hi); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if in.Lo.Cmp(in.Hi) >= 0 {
		return nil, fmt.Errorf("%s: the interval %s is empty or a point: its low end must be below its high end", name, in)
	}
	return &Param{Name: name, Interval: in}, nil
}

// signedNumber reads a literal with an optional sign, exactly.
func signedNumber(text string) (*big.Rat, error) {
	text = strings.TrimSpace(text)
	neg := strings.HasPrefix(text, "-")
	x, err := parseNumber(strings.TrimSpace(strings.TrimPrefix(text, "-")))
	if err != nil || !neg {
		return x, err
	}
	return x.Neg(x), nil
}
