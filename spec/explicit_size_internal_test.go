package spec

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
)

// TestExplicitSizeEstimate: what loading and building PRISM's explicit
// files allocates in all (runtime.MemStats.TotalAlloc, a bound on what
// they hold at any time) is at most the estimate the reader compares with
// Limits.MaxMemory, and not far below it: DTMCs with absorbing states, rows
// of transitions, labels and values, and MDPs.
func TestExplicitSizeEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("loads models of 100 000 states")
	}
	for _, tc := range []struct {
		name                 string
		n, per, choicesPerSt int // states, transitions per choice, choices per state (0: a DTMC)
		lab, sta             bool
		inits                int
	}{
		{name: "absorbing states", n: 100_000},
		{name: "labels", n: 100_000, lab: true, inits: 1},
		{name: "values", n: 100_000, sta: true},
		{name: "rows of 2", n: 50_000, per: 2},
		{name: "rows of 10, labels and values", n: 20_000, per: 10, lab: true, sta: true, inits: 2},
		{name: "initial states", n: 2_000, per: 1, lab: true, inits: 2_000},
		{name: "MDP, one choice", n: 50_000, per: 2, choicesPerSt: 1},
		{name: "MDP, two choices", n: 25_000, per: 2, choicesPerSt: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, call, size := explicitModelFiles(tc.n, tc.per, tc.choicesPerSt, tc.lab, tc.sta, tc.inits)
			read := func(path string) (string, error) { return files[path], nil }
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			p, err := Options{ReadFile: read, Limits: model.Limits{MaxBits: 1 << 40}}.Load(context.Background(), "m.dp", call)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Model.Build(context.Background(), model.Limits{}); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			used, est := float64(after.TotalAlloc-before.TotalAlloc), size.bytes()
			t.Logf("allocated %.0f bytes, estimated %.0f (%.2f)", used, est, est/used)
			if used > est || est > 3*used {
				t.Errorf("allocated %.0f bytes, estimated %.0f: the estimate must bound it, within 3 times", used, est)
			}
		})
	}
}

// explicitModelFiles writes the explicit files of a model of n states:
// a DTMC whose states i < n-1 go to i+1, …, i+per (mod n) uniformly, or an
// MDP whose states have choicesPerSt choices of per transitions each;
// labels "init" (the first inits states) and "deadlock" (every state),
// two values per state. It returns the files, the model statement and the
// size the reader should estimate.
func explicitModelFiles(n, per, choicesPerSt int, lab, sta bool, inits int) (map[string]string, string, explicitSize) {
	var tra, lb, st strings.Builder
	m := 0
	if choicesPerSt == 0 {
		if per > 0 {
			m = n * per
		}
		fmt.Fprintf(&tra, "%d %d\n", n, m)
		for i := 0; i < n && per > 0; i++ {
			for k := range per {
				fmt.Fprintf(&tra, "%d %d 1/%d\n", i, (i+1+k)%n, per)
			}
		}
	} else {
		m = n * choicesPerSt * per
		fmt.Fprintf(&tra, "%d %d %d\n", n, n*choicesPerSt, m)
		for i := range n {
			for c := range choicesPerSt {
				for k := range per {
					fmt.Fprintf(&tra, "%d %d %d 1/%d a%d\n", i, c, (i+1+c*per+k)%n, per, c)
				}
			}
		}
	}
	files := map[string]string{"m.tra": tra.String()}
	call := `model explicit("m.tra"`
	labels, values := 0, 0
	if lab {
		lb.WriteString("0=\"init\" 1=\"deadlock\"\n")
		for i := range n {
			if i < inits {
				fmt.Fprintf(&lb, "%d: 0 1\n", i)
				labels++
			} else {
				fmt.Fprintf(&lb, "%d: 1\n", i)
			}
			labels++
		}
		files["m.lab"] = lb.String()
		call += `, "m.lab"`
	}
	if sta {
		st.WriteString("(x,y)\n")
		for i := range n {
			fmt.Fprintf(&st, "%d:(%d,%d)\n", i, i, i%7)
		}
		values = 2 * n
		files["m.sta"] = st.String()
		call += `, "m.sta"`
	}
	fileIf := func(given bool) *source.File {
		if given {
			return source.NewFile("", "")
		}
		return nil
	}
	size := newSize(choicesPerSt > 0, fileIf(lab), fileIf(sta))
	size.states, size.transitions, size.choices = n, m, n*choicesPerSt
	size.labels, size.values = labels, values
	return files, call + ")\nquery P=?[F \"init\"]\n", size
}
