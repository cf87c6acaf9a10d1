package spec

import (
	"context"
	"fmt"
	"math/big"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/dpcheck/dpcheck/chain"
	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/mdp"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
	"github.com/dpcheck/dpcheck/syntax"
)

// PRISM's explicit model files, read exactly: model explicit("m.tra",
// "m.lab", "m.sta"); an MDP's .tra file (its first line "N C M") is read
// as explicit_mdp.go says. PRISM writes them with -exportmodel (-exporttrans,
// -exportlabels, -exportstates):
//
//	m.tra   "N M", then "i j p" (and an action) for each of the M transitions
//	m.lab   `0="init" 1="deadlock" 2="goal"`, then "i: 0 2" for each labelled state
//	m.sta   "(x,y)", then "i:(3,true)" for each state
//
// A probability is the exact rational its text denotes — a decimal (0.25,
// 1.0E-4) or a fraction (1/3) — and every state's transitions must sum to
// exactly 1: PRISM writes rounded doubles unless it exports with -exact,
// which writes rationals. The inputs are the states labelled "init" (state
// 0 without a labels file, as PRISM does); state i is named s<i>; a
// boolean value is the number 0 or 1. Every error is positioned in its
// file.

// explicitModel is a DTMC read from PRISM's explicit files; its chain is
// built when the .dp file is checked (it is the file's data).
type explicitModel struct {
	call, file string
	chain      *chain.Chain
	// mdp is set when the files are an MDP's (chain is then its frame).
	mdp  *mdp.MDP
	note string
}

// IsMDP reports whether the files are an MDP's.
func (m *explicitModel) IsMDP() bool { return m.mdp != nil }

// Info describes the model as a PRISM model, with PRISM's neighbour
// convention.
func (m *explicitModel) Info() property.ModelInfo {
	return property.ModelInfo{Kind: "prism", Name: m.file, Call: m.call, Neighbours: prism.Neighbours}
}

// Build returns the chain; every two inputs are neighbours.
func (m *explicitModel) Build(ctx context.Context, _ model.Limits) (*model.Mechanism, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &model.Mechanism{Chain: m.chain, MDP: m.mdp, AllPairs: true, Note: m.note}, nil
}

// explicitFiles checks explicit("m.tra", "m.lab", "m.sta"), reads the
// files through Options.ReadFile and builds the chain.
func (c *checker) explicitFiles(call *Expr) property.Model {
	usage := `explicit takes PRISM's explicit files, in quotes: explicit("m.tra", "m.lab"), and "m.sta" for the states' values`
	paths := map[string]*Expr{}
	good := len(call.Args) > 0
	if !good {
		c.errorf(call.Pos(), "%s", usage)
	}
	for _, a := range call.Args {
		if a.Op != EStr {
			c.errorf(a.Pos(), "%s", usage)
			good = false
			continue
		}
		ext := strings.ToLower(filepath.Ext(a.Text))
		switch {
		case ext != ".tra" && ext != ".lab" && ext != ".sta":
			c.errorf(a.Pos(), "%s is not one of PRISM's explicit files: give a .tra file, a .lab file and a .sta file", source.Quote(a.Text))
			good = false
		case paths[ext] != nil:
			c.errorf(a.Pos(), "two %s files: %s and %s", ext, source.Quote(paths[ext].Text), source.Quote(a.Text))
			good = false
		default:
			paths[ext] = a
		}
	}
	if good && paths[".tra"] == nil {
		c.errorf(call.Pos(), "explicit needs the .tra file of transitions: %s", usage)
		good = false
	}
	if !good {
		return nil
	}
	if c.readFile == nil {
		c.errorf(call.Pos(), "this load reads no other file: give spec.Options a ReadFile to read PRISM's explicit files")
		return nil
	}
	files := map[string]*source.File{}
	for _, ext := range []string{".tra", ".lab", ".sta"} {
		a := paths[ext]
		if a == nil {
			continue
		}
		full, src, ok := c.readNamed(a, "the PRISM explicit file")
		if !ok {
			return nil
		}
		files[ext] = source.NewFile(full, src)
	}
	r := &explicitReader{ctx: c.ctx, limits: c.limits, retain: c.retainIn}
	if isMDPHeader(files[".tra"]) {
		frame, m := r.readMDP(files[".tra"], files[".lab"], files[".sta"])
		c.errs = append(c.errs, r.errs...)
		if m == nil {
			return nil
		}
		nc, nt := m.NumChoices(), m.NumTransitions()
		note := fmt.Sprintf("an MDP: %s, %s, %s read from PRISM's explicit files, %s (the inputs)",
			plural(frame.NumStates(), "state"), plural(nc, "choice"), plural(nt, "transition"), plural(len(frame.Inputs()), "initial state"))
		return &explicitModel{call: exprText(call), file: files[".tra"].Name, chain: frame, mdp: m, note: note}
	}
	ch := r.read(files[".tra"], files[".lab"], files[".sta"])
	c.errs = append(c.errs, r.errs...)
	if ch == nil {
		return nil
	}
	note := fmt.Sprintf("%s with %s read from PRISM's explicit files, %s (the inputs)",
		plural(ch.NumStates(), "state"), plural(ch.NumTransitions(), "transition"), plural(len(ch.Inputs()), "initial state"))
	return &explicitModel{call: exprText(call), file: files[".tra"].Name, chain: ch, note: note}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return exact.Thousands(int64(n)) + " " + noun + "s"
}

// retainIn is retain for a number of another file: it counts against the
// same bits limit, and an error is positioned in that file.
func (c *checker) retainIn(f *source.File, off int, x *big.Rat) *source.Error {
	if !c.countBits(x) {
		return nil
	}
	return &source.Error{Pos: f.Position(off), Limit: string(model.LimitBits), Msg: c.bitsMessage()}
}

// explicitReader reads PRISM's explicit files into a chain.
type explicitReader struct {
	ctx    context.Context
	limits model.Limits
	// retain counts a probability against the bits limit; it returns the
	// error when the limit is exceeded (once).
	retain func(f *source.File, off int, x *big.Rat) *source.Error
	errs   source.ErrorList
	// stop is set when reading cannot go on (a limit, the context).
	stop bool
	// size is what the files read so far would take in memory.
	size explicitSize
}

func (r *explicitReader) errorf(f *source.File, off int, format string, args ...any) {
	r.errs = append(r.errs, &source.Error{Pos: f.Position(off), Msg: fmt.Sprintf(format, args...)})
}

// line is a line of an explicit file: its text (without the line end) and
// where it starts.
type line struct {
	text string
	off  int
}

// lines calls fn with every line of src, in order, until fn returns false.
func lines(src string, fn func(l line) bool) {
	for off := 0; off < len(src); {
		end := strings.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		if !fn(line{strings.TrimSuffix(src[off:off+end], "\r"), off}) {
			return
		}
		off += end + 1
	}
}

// fields splits a line at blanks, returning each field's text and offset.
func (l line) fields(out []line) []line {
	out = out[:0]
	for i := 0; i < len(l.text); {
		for i < len(l.text) && (l.text[i] == ' ' || l.text[i] == '\t') {
			i++
		}
		j := i
		for j < len(l.text) && l.text[j] != ' ' && l.text[j] != '\t' {
			j++
		}
		if j > i {
			out = append(out, line{l.text[i:j], l.off + i})
		}
		i = j
	}
	return out
}

// index reads a non-negative integer below n (a state or label number).
func index(text string, n int) (int, bool) {
	if text == "" || len(text) > 10 || !syntax.IsDigits(text) {
		return 0, false
	}
	x, err := strconv.Atoi(text)
	return x, err == nil && x < n
}

// transition is a line of a .tra file: i → j with probability probs[p].
type transition struct {
	from, to, p, off int32
}

// explicitProb is a distinct probability text of a .tra file, and its
// value or the reason it has none.
type explicitProb struct {
	val *big.Rat
	err string
}

// read reads the files (lab and sta may be nil) and builds the chain, or
// returns nil with the errors in r.errs.
func (r *explicitReader) read(tra, lab, sta *source.File) *chain.Chain {
	r.size = newSize(false, lab, sta)
	n, trans := r.transitions(tra)
	if r.stop || n == 0 {
		return nil
	}
	return r.build(tra, lab, sta, n, len(trans.list), func(b *chain.Builder) {
		tos := make([]int, len(trans.list))
		ps := make([]*big.Rat, len(trans.list))
		for k, t := range trans.list {
			tos[k], ps[k] = int(t.to), trans.probs[t.p].val
		}
		for lo := 0; lo < len(trans.list); {
			hi := lo + 1
			for hi < len(trans.list) && trans.list[hi].from == trans.list[lo].from {
				hi++
			}
			b.AddRow(int(trans.list[lo].from), tos[lo:hi], ps[lo:hi])
			lo = hi
		}
	})
}

// build reads the .lab and .sta files (either may be nil) of a model with
// n states and the transitions a .tra file holds, and builds its chain —
// the model's states, named s0, s1, …, with their valuations and labels,
// and the rows adds (a DTMC's) — or returns nil with the errors in r.errs.
func (r *explicitReader) build(tra, lab, sta *source.File, n, transitions int, rows func(b *chain.Builder)) *chain.Chain {
	labels, inputs := r.labels(lab, n)
	vals := r.states(sta, n)
	if len(r.errs) > 0 || r.stop {
		return nil
	}
	r.size.transitions = transitions
	if r.overMemory(tra, lab, len(inputs)) {
		return nil
	}
	b := chain.NewBuilder()
	b.Grow(n)
	for s := range n {
		var val chain.Valuation
		if vals != nil {
			val = vals[s]
		}
		var ls []string
		if labels != nil {
			ls = labels[s]
		}
		b.AddStateOwned("s"+strconv.Itoa(s), val, ls)
	}
	if rows != nil {
		rows(b)
	}
	for _, s := range inputs {
		b.MarkInput(s)
	}
	ch, err := b.Build()
	if err != nil { // the files were checked: it does not happen
		r.errorf(tra, 0, "%v", err)
		return nil
	}
	return ch
}

// traData is what a .tra file gives: its transitions, sorted by source
// and target, and their distinct probabilities.
type traData struct {
	list  []transition
	probs []explicitProb
}

// transitions reads a .tra file: it returns the number of states and the
// transitions, checked (0 states after an error in the first line).
func (r *explicitReader) transitions(f *source.File) (int, traData) {
	var d traData
	var n int
	seenProb := map[string]int32{}
	fits, ok := r.traLines(f, func(l line, fs []line) (m int, ok bool) {
		if len(fs) != 2 {
			r.errorf(f, l.off, "the first line of a .tra file gives the number of states and of transitions: N M (found %s)", plural(len(fs), "field"))
			return 0, false
		}
		if n, m, ok = r.header(f, fs[0], fs[1]); ok {
			d.list = make([]transition, 0, min(m, len(f.Text)/6)) // a line is at least "0 0 1\n"
		}
		return m, ok
	}, func(l line, fs []line, keep bool) bool {
		if len(fs) < 3 || len(fs) > 4 {
			r.errorf(f, l.off, "a transition is SOURCE TARGET PROBABILITY (and an action): found %d fields", len(fs))
			return true
		}
		from, ok := r.state(f, fs[0], n)
		to, ok2 := r.state(f, fs[1], n)
		p, okp := r.traProb(f, fs[2], &d.probs, seenProb, false)
		if !okp {
			return !r.stop
		}
		if ok && ok2 && keep {
			d.list = append(d.list, transition{int32(from), int32(to), p, int32(l.off)})
		}
		return true
	})
	if !ok {
		return 0, d
	}
	if fits { // otherwise rows would be cut
		r.rows(f, &d)
	}
	return n, d
}

// traLines reads the lines of a .tra file: the fields of the first to
// head, which checks them and returns the number of transitions they
// declare (false: reading stops); then the fields of each line that is not
// blank to row, which returns false to stop, keep false for the lines past
// the number declared (they are read for their errors). It reports a
// file empty, or with more or fewer transitions than declared; ok is
// false when the file is empty or reading stopped, and fits false when
// the file has more transitions than declared.
func (r *explicitReader) traLines(f *source.File, head func(l line, fs []line) (int, bool), row func(l line, fs []line, keep bool) bool) (fits, ok bool) {
	header := true
	var fs []line
	var m, count int
	lines(f.Text, func(l line) bool {
		fs = l.fields(fs)
		if header {
			header = false
			if m, ok = head(l, fs); !ok {
				r.stop = true
			}
			return ok
		}
		if count%1024 == 0 && r.ctx.Err() != nil {
			r.stop = true
			return false
		}
		if len(fs) == 0 {
			return true // PRISM skips blank lines
		}
		if count++; count == m+1 { // the rest is read for its errors, not kept
			r.errorf(f, l.off, "the first line says the file has %s transitions; this is one more", exact.Thousands(int64(m)))
		}
		return row(l, fs, count <= m)
	})
	switch {
	case header:
		r.errorf(f, 0, "the .tra file is empty: its first line gives the number of states and of transitions")
		return false, false
	case r.stop:
		return false, false
	case count < m:
		r.errorf(f, 0, "the first line says the file has %s transitions; it has %s", exact.Thousands(int64(m)), exact.Thousands(int64(count)))
	}
	return count <= m, true
}

// state reads a state's number, fd, of a .tra file with n states, and
// reports it when it is not one.
func (r *explicitReader) state(f *source.File, fd line, n int) (int, bool) {
	s, ok := index(fd.text, n)
	if !ok {
		r.errNotState(f, fd.off, fd.text, n)
	}
	return s, ok
}

// traProb reads the probability of a transition, fd, into probs (seen
// indexes them by text): it reports it and returns false when it is not a
// number in [0, 1] (in (0, 1] when nonzero), and sets r.stop as well when
// keeping it would pass the limits.
func (r *explicitReader) traProb(f *source.File, fd line, probs *[]explicitProb, seen map[string]int32, nonzero bool) (int32, bool) {
	p := internProb(probs, seen, fd.text)
	pr := (*probs)[p]
	switch {
	case pr.err != "":
		r.errorf(f, fd.off, "%s", pr.err)
		return 0, false
	case nonzero && pr.val.Sign() == 0:
		r.errorf(f, fd.off, "a transition has probability 0: leave it out")
		return 0, false
	case pr.val.Num().Cmp(pr.val.Denom()) > 0:
		r.errorf(f, fd.off, "probability %s is greater than 1", pr.val.RatString())
		return 0, false
	}
	if e := r.retain(f, fd.off, pr.val); e != nil {
		r.errs = append(r.errs, e)
		r.stop = true
		return 0, false
	}
	return p, true
}

// header checks the counts of a DTMC's .tra file, "N M": numbers, M
// possible for N states, both within the limits, and the memory the
// model would take; it reports what is wrong and returns false.
func (r *explicitReader) header(f *source.File, fn, fm line) (n, m int, ok bool) {
	n, okN := r.count(f, fn, "states")
	m, okM := r.count(f, fm, "transitions")
	switch {
	case !okN || !okM:
		return 0, 0, false
	case n == 0:
		r.errorf(f, fn.off, "the model has no states")
		return 0, 0, false
	case int64(m) > int64(n)*int64(n):
		r.errorf(f, fm.off, "%s can have at most %s transitions (one from each state to each): the first line says %s",
			plural(n, "state"), exact.Thousands(int64(n)*int64(n)), exact.Thousands(int64(m)))
		return 0, 0, false
	}
	return n, m, r.withinLimits(f, fn.off, n, m, min(m, len(f.Text)/6), 0)
}

// count reads a count of the first line of a .tra file (of what:
// "states", "choices", "transitions"): a number from 0 to 2³¹ − 1.
func (r *explicitReader) count(f *source.File, fd line, what string) (int, bool) {
	t := fd.text
	switch {
	case len(t) > 1 && t[0] == '-' && syntax.IsDigits(t[1:]):
		r.errorf(f, fd.off, "the number of %s is negative (%s)", what, excerpt(t))
	case !syntax.IsDigits(t):
		r.errorf(f, fd.off, "%s is not a number of %s", source.Quote(t), what)
	default:
		if x, ok := index(t, 1<<31-1); ok {
			return x, true
		}
		r.errorf(f, fd.off, "the number of %s, %s, is more than PRISM's explicit files can number (2,147,483,647)", what, excerpt(t))
	}
	return 0, false
}

// excerpt is a number of a file for a message: as written, or its first
// digits and how many there are.
func excerpt(t string) string {
	if len(t) <= source.MaxExcerpt {
		return t
	}
	return fmt.Sprintf("%s… (%s digits)", t[:20], exact.Thousands(int64(len(t))))
}

// withinLimits checks the size a .tra file's first line declares — n
// states, m transitions — against the states and transitions limits, and
// the memory the files would take to read against the memory limit, with
// the transitions and choices the file can hold, held and choices (a file
// that says it has more is wrong, and is told so once it is read). It
// reports the first limit exceeded, and stops.
func (r *explicitReader) withinLimits(f *source.File, off, n, m, held, choices int) bool {
	switch {
	case n > r.limits.MaxStates:
		r.limitf(f, off, model.LimitStates, "the model has %s states; the limit is %s states", exact.Thousands(int64(n)), exact.Thousands(int64(r.limits.MaxStates)))
		return false
	case int64(m)+int64(n) > int64(r.limits.MaxTransitions): // absorbing states get a self-loop
		r.limitf(f, off, model.LimitTransitions, "the model would have about %s transitions; the limit is %s transitions", exact.Thousands(int64(m)+int64(n)), exact.Thousands(int64(r.limits.MaxTransitions)))
		return false
	}
	r.size.states, r.size.transitions, r.size.choices = n, held, choices
	return !r.overMemory(f, nil, 0)
}

// rows sorts the transitions by source and target (PRISM writes them so),
// reports repeated ones, and checks that every state's sum to exactly 1.
func (r *explicitReader) rows(f *source.File, d *traData) {
	less := func(a, b transition) int {
		if a.from != b.from {
			return int(a.from - b.from)
		}
		if a.to != b.to {
			return int(a.to - b.to)
		}
		return int(a.off - b.off)
	}
	if !slices.IsSortedFunc(d.list, less) {
		slices.SortFunc(d.list, less)
	}
	var acc chain.Accumulator
	one := big.NewRat(1, 1)
	for lo := 0; lo < len(d.list); {
		hi := lo + 1
		for hi < len(d.list) && d.list[hi].from == d.list[lo].from {
			hi++
		}
		acc.Reset()
		dup := false
		for k := lo; k < hi; k++ {
			t := d.list[k]
			if k > lo && t.to == d.list[k-1].to {
				r.errorf(f, int(t.off), "the transition from %d to %d is listed twice (also at line %d)", t.from, t.to, f.Position(int(d.list[k-1].off)).Line)
				dup = true
			}
			acc.Add(d.probs[t.p].val)
		}
		if cmp := acc.Cmp(one); cmp != 0 && !dup {
			sum := acc.Rat(nil)
			diff := new(big.Rat).Sub(one, sum)
			what := diff.RatString() + " is missing"
			if cmp > 0 {
				what = diff.Neg(diff).RatString() + " too much"
			}
			first := slices.MinFunc(d.list[lo:hi], func(a, b transition) int { return int(a.off - b.off) })
			r.errorf(f, int(first.off), "the probabilities of state %d sum to %s, not 1 (%s; PRISM writes rounded decimals unless it exports with -exact)", first.from, sum.RatString(), what)
		}
		lo = hi
	}
}

// errNotState reports a field that is not one of the n states.
func (r *explicitReader) errNotState(f *source.File, off int, text string, n int) {
	r.errorf(f, off, "%s is not a state: the states are 0 to %d", source.Quote(text), n-1)
}

// internProb returns the index in probs of the probability written text,
// reading a text only the first time it is seen.
func internProb(probs *[]explicitProb, seen map[string]int32, text string) int32 {
	p, ok := seen[text]
	if !ok {
		p = int32(len(*probs))
		*probs = append(*probs, probability(text))
		seen[text] = p
	}
	return p
}

// probability reads a probability of a .tra file: a decimal literal, or
// a fraction of two.
func probability(text string) explicitProb {
	bad := explicitProb{err: fmt.Sprintf("%s is not a probability: write a decimal (0.25, 1.0E-4) or a fraction (1/4)", source.Quote(text))}
	num, den, frac := strings.Cut(text, "/")
	if num == "" || syntax.NumberEnd(num, 0) != len(num) || frac && (den == "" || syntax.NumberEnd(den, 0) != len(den)) {
		return bad
	}
	if !syntax.IsDigit(num[0]) && num[0] != '.' || frac && !syntax.IsDigit(den[0]) && den[0] != '.' {
		return bad
	}
	x, err := parseNumber(num)
	if err != nil {
		return explicitProb{err: numberError(err, num)}
	}
	if !frac {
		return explicitProb{val: x}
	}
	y, err := parseNumber(den)
	if err != nil {
		return explicitProb{err: numberError(err, den)}
	}
	if y.Sign() == 0 {
		return explicitProb{err: "division by zero"}
	}
	z := new(big.Rat).Quo(x, y)
	if bits := exact.Bits(z); bits > MaxPowerBits {
		return explicitProb{err: fmt.Sprintf("this number would have %s bits; the limit is %s", exact.Thousands(int64(bits)), exact.Thousands(MaxPowerBits))}
	}
	return explicitProb{val: z}
}

// numberError is parseNumber's error about the number text of an explicit
// file, with the text (up to 1000 digits) cut to an excerpt.
func numberError(err error, text string) string {
	return strings.ReplaceAll(err.Error(), text, excerpt(text))
}

// limitf reports that the files exceed a resource limit, and stops.
func (r *explicitReader) limitf(f *source.File, off int, limit model.LimitKind, format string, args ...any) {
	r.errorf(f, off, format, args...)
	r.errs[len(r.errs)-1].Limit = string(limit)
	r.stop = true
}

// labels reads a .lab file: each state's labels, and the initial states
// (state 0 without a file, as PRISM does). A label given twice to a state
// is kept once, as PRISM sets its bit again.
func (r *explicitReader) labels(f *source.File, n int) ([][]string, []int) {
	if f == nil {
		return nil, []int{0}
	}
	var names []string // by index; "" where none is declared
	init := -1
	// entries are the (state, label) pairs read, state<<32 | label;
	// onLine[k] is the last line that gave label k, so that a line
	// repeating a label adds it once.
	var entries []uint64
	var onLine []int32
	header := true
	var fs []line
	count := 0
	lines(f.Text, func(l line) bool {
		if header {
			header = false
			decls := l.fields(fs)
			for _, fd := range decls {
				k, name, ok := labelDecl(fd.text)
				if !ok {
					r.errorf(f, fd.off, "%s is not a label: the first line of a .lab file lists them as 0=\"init\" 1=\"deadlock\" …, each name an identifier", source.Quote(fd.text))
					continue
				}
				if k >= len(decls) {
					r.errorf(f, fd.off, "label %d: the labels are numbered from 0, one for each on this line (0 to %d)", k, len(decls)-1)
					continue
				}
				for len(names) <= k {
					names = append(names, "")
				}
				if names[k] != "" {
					r.errorf(f, fd.off, "label %d is declared twice", k)
					continue
				}
				names[k] = name
				if name == "init" {
					init = k
				}
			}
			if init < 0 {
				r.errorf(f, l.off, "the labels file has no \"init\" label: PRISM marks the initial states with it")
			}
			onLine = make([]int32, len(names))
			return true
		}
		if count++; count%1024 == 0 && r.ctx.Err() != nil {
			r.stop = true
			return false
		}
		head, rest, ok := strings.Cut(l.text, ":")
		if strings.TrimSpace(l.text) == "" {
			return true
		}
		s, sok := index(strings.TrimSpace(head), n)
		switch {
		case !ok || !syntax.IsDigits(strings.TrimSpace(head)):
			r.errorf(f, l.off, "a line of a .lab file is STATE: LABEL LABEL …")
			return true
		case !sok:
			r.errNotState(f, l.off, strings.TrimSpace(head), n)
			return true
		}
		for _, fd := range (line{rest, l.off + len(head) + 1}).fields(fs) {
			k, ok := index(fd.text, len(names))
			if !ok || names[k] == "" {
				r.errorf(f, fd.off, "%s is not a label of the first line", source.Quote(fd.text))
				continue
			}
			if onLine[k] != int32(count) {
				onLine[k] = int32(count)
				entries = append(entries, uint64(s)<<32|uint64(k))
			}
		}
		return true
	})
	slices.Sort(entries)
	entries = slices.Compact(entries)
	r.size.labels = len(entries)
	labels := make([][]string, n)
	all := make([]string, len(entries)) // every state's labels, cut from one array
	var inputs []int
	for lo := 0; lo < len(entries); {
		s, hi := int(entries[lo]>>32), lo
		for ; hi < len(entries) && int(entries[hi]>>32) == s; hi++ {
			k := int(uint32(entries[hi]))
			all[hi] = names[k]
			if k == init {
				inputs = append(inputs, s)
			}
		}
		labels[s] = all[lo:hi:hi]
		lo = hi
	}
	if header {
		r.errorf(f, 0, "the labels file is empty: its first line lists the labels, 0=\"init\" …")
	} else if init >= 0 && len(inputs) == 0 && !r.stop {
		r.errorf(f, 0, "no state is labelled \"init\": the model has no initial state")
	}
	return labels, inputs
}

// labelDecl reads K="NAME", NAME an identifier (as PRISM's labels are).
func labelDecl(text string) (int, string, bool) {
	k, name, ok := strings.Cut(text, "=")
	if !ok || len(name) < 2 || name[0] != '"' || name[len(name)-1] != '"' {
		return 0, "", false
	}
	i, ok := index(k, 1<<31-1)
	name = name[1 : len(name)-1]
	return i, name, ok && isName(name)
}

// states reads a .sta file: each state's valuation (nil without a file).
func (r *explicitReader) states(f *source.File, n int) []chain.Valuation {
	if f == nil {
		return nil
	}
	var vars []string
	vals := make([]chain.Valuation, n)
	at := make([]int32, n) // the line where each state is given, 0 if not
	header := true
	count, given := 0, 0
	lines(f.Text, func(l line) bool {
		if header {
			header = false
			t := strings.TrimSpace(l.text)
			if len(t) < 2 || t[0] != '(' || t[len(t)-1] != ')' {
				r.errorf(f, l.off, "the first line of a .sta file names the variables: (x,y,…)")
				return false
			}
			for _, v := range strings.Split(t[1:len(t)-1], ",") {
				if v == "" || !isName(v) {
					r.errorf(f, l.off, "%s is not a variable name", source.Quote(v))
					vars = nil
					return false
				}
				vars = append(vars, v)
			}
			return true
		}
		if count++; count%1024 == 0 && r.ctx.Err() != nil {
			r.stop = true
			return false
		}
		t := strings.TrimSpace(l.text)
		if t == "" {
			return true
		}
		head, rest, ok := strings.Cut(t, ":")
		s, sok := index(head, n)
		switch {
		case !ok || !syntax.IsDigits(head) || len(rest) < 2 || rest[0] != '(' || rest[len(rest)-1] != ')':
			r.errorf(f, l.off, "a line of a .sta file is STATE:(VALUE,…)")
			return true
		case !sok:
			r.errNotState(f, l.off, head, n)
			return true
		}
		if at[s] > 0 {
			r.errorf(f, l.off, "state %d is given twice (also at line %d)", s, at[s])
			return true
		}
		at[s] = int32(f.Position(l.off).Line)
		given++
		values := strings.Split(rest[1:len(rest)-1], ",")
		if len(values) != len(vars) {
			r.errorf(f, l.off, "state %d has %d values for %d variables", s, len(values), len(vars))
			return true
		}
		r.size.values += len(vars)
		val := make(chain.Valuation, len(vars))
		for i, v := range values {
			x, err := strconv.ParseInt(v, 10, 64)
			switch {
			case v == "true":
				x = 1
			case v == "false":
				x = 0
			case err != nil:
				r.errorf(f, l.off, "%s is not a value: write an integer, true or false", source.Quote(v))
				return true
			}
			val[i] = chain.Var{Name: vars[i], Value: x}
		}
		vals[s] = val
		return true
	})
	if !header && vars != nil && given < n && !r.stop {
		missing := slices.Index(at, 0)
		r.errorf(f, 0, "the file gives the values of %d of the %d states (not of state %d)", given, n, missing)
	}
	return vals
}

// isName reports whether s is an identifier.
func isName(s string) bool {
	for i := 0; i < len(s); i++ {
		if !syntax.IsLetter(s[i]) && (i == 0 || !syntax.IsDigit(s[i])) {
			return false
		}
	}
	return s != ""
}
