package spec

import (
	"context"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
)

// TestMaxNodes: the expressions a file keeps are counted against the
// limit; an explicit chain's literals and the repeats of a probability
// written before count none (its first expression does).
func TestMaxNodes(t *testing.T) {
	load := func(src string, max int) error {
		ld := &loading{ctx: context.Background(), limits: model.Limits{}.WithDefaults(), maxNodes: max}
		_, err := parse("t.dp", src, false, ld)
		return err
	}
	// (1 - a)/(1 + a)*a^2: a product of a parenthesised sum, a
	// parenthesised sum and a power: 12 nodes.
	const expr = "(1 - a)/(1 + a)*a^2"
	var b strings.Builder
	b.WriteString("const a = 1/2\nchain {\n  state s\n  state t\n")
	for range 50 {
		b.WriteString("  s -> t : " + expr + ", s : 1/2, t : 0.25\n")
	}
	b.WriteString("}\n")
	src := b.String()
	if err := load(src, 15); err != nil { // 3 for the constant, 12 for the first expression
		t.Errorf("50 rows of one expression and literals, at most 15 nodes: %v", err)
	}
	err := load(src, 14)
	list, ok := err.(source.ErrorList)
	if !ok || len(list) != 1 || list[0].Pos.Line != 5 ||
		list[0].Msg != "the expressions of this file have more than 14 operators and operands; the limit is 14 (an explicit chain's numbers and fractions count none)" {
		t.Errorf("at most 14 nodes: %v, want the limit at the first expression (line 5)", err)
	}
}
