package picture

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
)

// A chain too large to draw (more than MaxDOTStates states or
// MaxDOTTransitions transitions) is drawn as a summary: the
// counterexample pair as boxes on the left, the worst event E* as one
// output on the right, with the probability each input of the pair gives
// it and the rest, and everything else collapsed into nodes that say how
// many states and transitions they stand for: the other inputs, the
// interior states, the other outputs. Grey dotted lines say which of them
// lead to which.

// Summarized reports whether DOT draws c as a summary.
func Summarized(c *chain.Chain) bool {
	return c.NumStates() > MaxDOTStates || c.NumTransitions() > MaxDOTTransitions
}

// summaryDOT returns the summary picture of c.
func summaryDOT(c *chain.Chain, h Highlight) []byte {
	n := c.NumStates()
	event := map[int]bool{}
	for _, s := range h.Event {
		event[s] = true
	}
	pair := map[int]bool{}
	for _, s := range []int{h.From, h.To} {
		if s >= 0 && s < n {
			pair[s] = true
		}
	}
	// The groups: 'p' a state of the pair, 'i' another input, 'm' an
	// interior state, 'e' a state of the event, 'o' another output.
	group := make([]byte, n)
	var count [256]int
	var outTransitions [256]int
	for s := 0; s < n; s++ {
		switch {
		case pair[s]:
			group[s] = 'p'
		case c.IsInput(s):
			group[s] = 'i'
		case c.IsAbsorbing(s) && event[s]:
			group[s] = 'e'
		case c.IsAbsorbing(s):
			group[s] = 'o'
		default:
			group[s] = 'm'
		}
		count[group[s]]++
	}
	// Which groups lead to which (self-loops of outputs left out).
	leads := map[[2]int]bool{}
	for s := 0; s < n; s++ {
		to, _ := c.Row(s)
		for _, t := range to {
			if t == s && c.IsAbsorbing(s) {
				continue
			}
			outTransitions[group[s]]++
			from := int(group[s])
			if group[s] == 'p' {
				from = -1 - s
			}
			leads[[2]int{from, int(group[t])}] = true
		}
	}
	hasEvent := len(h.EventNames) > 0 || count['e'] > 0

	var b strings.Builder
	b.WriteString("digraph dpcheck {\n")
	b.WriteString("  rankdir=LR;\n  ranksep=1.4;\n  nodesep=0.35;\n  fontname=Helvetica;\n  labelloc=t;\n")
	title := []string{}
	if h.Title != "" {
		title = append(title, h.Title)
	}
	title = append(title, fmt.Sprintf("a summary: the chain has %s and %s", thousands(n, "state"), thousands(c.NumTransitions(), "transition")),
		fmt.Sprintf("(a picture shows at most %d states and %d transitions)", MaxDOTStates, MaxDOTTransitions), " ")
	fmt.Fprintf(&b, "  label=%s;\n", dotLabel(title...))
	b.WriteString("  node [fontname=Helvetica, fontsize=11];\n  edge [fontname=Helvetica, fontsize=10, arrowsize=0.7];\n")

	// The left column: the pair, then the other inputs.
	var left []string
	for _, s := range []int{h.From, h.To} {
		if !pair[s] {
			continue
		}
		id := fmt.Sprintf("pair%d", len(left))
		left = append(left, id)
		fmt.Fprintf(&b, "  %s [shape=plain, label=<%s>];\n", id, stateTable(c, s, "lightblue", "red", 3))
	}
	if count['i'] > 0 {
		what := "inputs"
		if len(left) > 0 {
			what = "other inputs"
		}
		label := []string{fmt.Sprintf("%s %s", thousands(count['i'], ""), what)}
		label = append(label, someNames(c, group, 'i', 3)...)
		b.WriteString("  inputs [shape=box, style=\"filled\", fillcolor=lightblue, color=grey50, label=" + dotLabel(label...) + "];\n")
		left = append(left, "inputs")
	}
	// The middle: the interior states.
	if count['m'] > 0 {
		fmt.Fprintf(&b, "  interior [shape=box, style=\"rounded,dashed\", color=grey40, label=%s];\n",
			dotLabel(fmt.Sprintf("%s", thousands(count['m'], "interior state")), fmt.Sprintf("%s from them", thousands(outTransitions['m'], "transition"))))
	}
	// The right column: the event, then the other outputs.
	var right []string
	if hasEvent {
		label := []string{"worst event E*"}
		if len(h.EventNames) > 0 {
			label = append(label, eventLines(h.EventNames, 6, 44)...)
		}
		if count['e'] > 0 {
			label = append(label, fmt.Sprintf("(%s)", thousands(count['e'], "final state")))
		}
		b.WriteString("  event [shape=box, peripheries=2, style=\"rounded,filled\", fillcolor=salmon, label=" + dotLabel(label...) + "];\n")
		right = append(right, "event")
	}
	if count['o'] > 0 {
		what := "final states"
		if hasEvent {
			what = "other final states"
		}
		label := []string{fmt.Sprintf("%s %s", thousands(count['o'], ""), what)}
		label = append(label, someNames(c, group, 'o', 3)...)
		b.WriteString("  outputs [shape=box, peripheries=2, style=\"rounded,filled\", fillcolor=lightyellow, label=" + dotLabel(label...) + "];\n")
		right = append(right, "outputs")
	}
	column := func(name, rank string, ids []string) {
		if len(ids) == 0 {
			return
		}
		fmt.Fprintf(&b, "  subgraph %s {\n    rank=%s;\n    %s;\n", name, rank, strings.Join(ids, "; "))
		for i := 1; i < len(ids); i++ {
			fmt.Fprintf(&b, "    %s -> %s [style=invis];\n", ids[i-1], ids[i])
		}
		b.WriteString("  }\n")
	}
	column("left", "source", left)
	column("right", "sink", right)

	node := map[byte]string{'i': "inputs", 'm': "interior", 'e': "event", 'o': "outputs"}
	structural := func(from string, fromKey int) {
		for _, g := range []byte{'m', 'e', 'o'} {
			if node[g] == from {
				continue // within a group
			}
			if leads[[2]int{fromKey, int(g)}] && node[g] != "" && (g != 'e' || count['e'] > 0) {
				fmt.Fprintf(&b, "  %s -> %s [style=dotted, color=grey50];\n", from, node[g])
			}
		}
	}
	// The pair's probabilities of E* and of the rest, exact.
	for k, s := range []int{h.From, h.To} {
		if !pair[s] {
			continue
		}
		id := fmt.Sprintf("pair%d", k)
		if h.From < 0 || !pair[h.From] {
			id = "pair0"
		}
		pr := []string{h.PrFrom, h.PrTo}[k]
		if hasEvent && pr != "" {
			color := []string{"red", "blue"}[k]
			fmt.Fprintf(&b, "  %s -> event [color=%s, penwidth=2, fontcolor=%s, label=%s];\n", id, color, color,
				dotLabel("Pr[E* | "+shown(c.Name(s))+"] "+equals(probText(pr))))
			if rest, ok := complement(pr); ok && count['o'] > 0 {
				fmt.Fprintf(&b, "  %s -> outputs [color=%s, style=dashed, fontcolor=%s, label=%s];\n", id, color, color, dotLabel("the rest: "+probText(rest)))
			}
			if leads[[2]int{-1 - s, 'm'}] {
				fmt.Fprintf(&b, "  %s -> interior [style=dotted, color=grey50];\n", id)
			}
			continue
		}
		structural(id, -1-s)
	}
	if count['i'] > 0 {
		structural("inputs", 'i')
	}
	if count['m'] > 0 {
		structural("interior", 'm')
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// stateTable is the HTML-like label of a state of the pair: its name,
// valuation and labels.
func stateTable(c *chain.Chain, s int, fill, color string, border int) string {
	lines := []string{htmlText(c.Name(s))}
	if v := c.Valuation(s); len(v) > 0 {
		lines = append(lines, htmlText(v.String()))
	}
	if ls := c.Labels(s); len(ls) > 0 {
		shownLabels := make([]string, len(ls))
		for i, l := range ls {
			shownLabels[i] = shown(l)
		}
		lines = append(lines, htmlText("["+strings.Join(shownLabels, ", ")+"]"))
	}
	return fmt.Sprintf(`<TABLE BORDER="%d" COLOR="%s" CELLBORDER="0" CELLPADDING="4"><TR><TD BGCOLOR="%s">%s</TD></TR></TABLE>`,
		border, color, fill, strings.Join(lines, "<BR/>"))
}

// someNames returns up to k names of the states of a group, and "…" when
// there are more.
func someNames(c *chain.Chain, group []byte, g byte, k int) []string {
	var names []string
	for s, x := range group {
		if x != g {
			continue
		}
		if len(names) == k {
			return append(names, "…")
		}
		names = append(names, shown(c.Name(s)))
	}
	return names
}

// eventLines writes an event's outputs, at most k of them, in lines of
// about width characters: "{t0, t1," / "t2, …} (12 outputs)".
func eventLines(names []string, k, width int) []string {
	var items []string
	for i, n := range names {
		if i == k && len(names) > k+1 {
			items = append(items, "…")
			break
		}
		items = append(items, shown(n))
	}
	var lines []string
	line := "{"
	for i, it := range items {
		sep := ", "
		if i == len(items)-1 {
			sep = "}"
		}
		if len([]rune(line)) > 1 && len([]rune(line+it)) > width {
			lines = append(lines, strings.TrimRight(line, " "))
			line = ""
		}
		line += it + sep
	}
	if len(items) < len(names) {
		line += " (" + thousands(len(names), "output") + ")"
	}
	return append(lines, line)
}

// probText writes an exact probability for a picture: "1/3 ≈ 0.333333",
// or its decimal alone when the fraction is long ("≈ 0.105998"; the
// reports print it exactly).
func probText(p string) string {
	x, ok := new(big.Rat).SetString(p)
	if !ok {
		return p
	}
	d := exact.TextDecimal().Rat(x)
	switch {
	case d == p:
		return p
	case len(p) > 15:
		return "≈ " + d
	}
	return p + " ≈ " + d
}

// equals is "= x", or "≈ x" for an x that is a decimal.
func equals(x string) string {
	if strings.HasPrefix(x, "≈") {
		return x
	}
	return "= " + x
}

// complement returns 1 − p for an exact probability p written as a
// rational.
func complement(p string) (string, bool) {
	x, ok := new(big.Rat).SetString(p)
	if !ok {
		return "", false
	}
	return new(big.Rat).Sub(big.NewRat(1, 1), x).RatString(), true
}

// thousands writes n with thin groups of three digits and a noun, plural
// when n is not 1 ("12 345 states"); an empty noun writes the number
// alone.
func thousands(n int, noun string) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteRune(' ')
		}
		b.WriteRune(r)
	}
	if noun == "" {
		return b.String()
	}
	if n != 1 {
		noun += "s"
	}
	return b.String() + " " + noun
}
