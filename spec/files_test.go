package spec_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/spec"
)

// TestNamedFilesConfined: the files a model names are read from below the
// directory of the .dp file, or below Options.Root; every refusal is at
// the path, names the directory, and has Limit "root" when another root
// would allow it.
func TestNamedFilesConfined(t *testing.T) {
	top := t.TempDir()
	t.Chdir(top)
	const tra = "2 2\n0 1 1\n1 1 1\n"
	const lab = "0=\"init\"\n0: 0\n1: 0\n"
	for name, text := range map[string]string{
		"models/m.tra": tra, "models/m.lab": lab, "models/sub/s.tra": tra,
		"data/d.tra": tra, "data/d.lab": lab, "outside/secret.lab": "0=\"init\"\n0: 0\n",
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"models/in.lab": "m.lab", "models/out.lab": "../outside/secret.lab", "models/env.lab": "/proc/self/environ",
		"models/outdir": filepath.Join(top, "outside"), "models/zero.lab": "/dev/zero",
	} {
		if err := os.Symlink(target, name); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo("models/pipe.tra", 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(path string) (string, error) { return dpcheck.ReadSource(path, 0) }
	model := func(args string) string { return "model explicit(" + args + ")\ncheck dp(eps = 1)\n" }
	for _, tc := range []struct {
		name, root, src string
		want            []string
	}{
		{name: "inside", src: model(`"m.tra", "m.lab"`)},
		{name: "below", src: model(`"sub/s.tra", "sub/../m.lab"`)},
		{name: "symbolic link inside", src: model(`"m.tra", "in.lab"`)},
		{name: "absolute", src: model(`"/etc/passwd.tra"`),
			want: []string{`models/a.dp:1:16: "/etc/passwd.tra" is outside the directory of models/a.dp: a model may only read files below it [root]`}},
		{name: "dot dot", src: model(`"../data/d.tra"`),
			want: []string{`models/a.dp:1:16: "../data/d.tra" is outside the directory of models/a.dp: a model may only read files below it [root]`}},
		{name: "dot dot through a directory", src: model(`"m.tra", "sub/../../outside/secret.lab"`),
			want: []string{`models/a.dp:1:25: "sub/../../outside/secret.lab" is outside the directory of models/a.dp: a model may only read files below it [root]`}},
		{name: "symbolic link to a file outside", src: model(`"m.tra", "out.lab"`),
			want: []string{`models/a.dp:1:25: "out.lab" leads through a symbolic link outside the directory of models/a.dp: a model may only read files below it [root]`}},
		{name: "symbolic link to a directory outside", src: model(`"m.tra", "outdir/secret.lab"`),
			want: []string{`models/a.dp:1:25: "outdir/secret.lab" leads through a symbolic link outside the directory of models/a.dp: a model may only read files below it [root]`}},
		{name: "environment", src: model(`"m.tra", "env.lab"`),
			want: []string{`models/a.dp:1:25: "env.lab" leads through a symbolic link outside the directory of models/a.dp: a model may only read files below it [root]`}},
		{name: "device", root: "/", src: model(`"m.tra", "zero.lab"`),
			want: []string{`models/a.dp:1:25: "zero.lab" is a device, pipe or socket: the PRISM explicit file must be a regular file []`}},
		{name: "pipe", src: model(`"pipe.tra"`),
			want: []string{`models/a.dp:1:16: "pipe.tra" is a device, pipe or socket: the PRISM explicit file must be a regular file []`}},
		{name: "directory", src: model(`"sub.tra"`),
			want: []string{`models/a.dp:1:16: cannot read the PRISM explicit file "sub.tra": no such file []`}},
		{name: "directory named .tra", src: "model prism(\"sub\")\ncheck dp(eps = 1)\n",
			want: []string{`models/a.dp:1:13: "sub" is a directory: the PRISM model must be a regular file []`}},
		{name: "PRISM model outside", src: "model prism(\"/etc/passwd\")\ncheck dp(eps = 1)\n",
			want: []string{`models/a.dp:1:13: "/etc/passwd" is outside the directory of models/a.dp: a model may only read files below it [root]`}},
		{name: "equivalent to a model outside", src: model(`"m.tra", "m.lab"`) + "check equivalent(model, prism(\"../x.prism\"))\n",
			want: []string{`models/a.dp:3:31: "../x.prism" is outside the directory of models/a.dp: a model may only read files below it [root]`}},
		{name: "root above", root: ".", src: model(`"../data/d.tra", "../data/d.lab"`)},
		{name: "root above, still outside", root: ".", src: model(`"m.tra", "env.lab"`),
			want: []string{`models/a.dp:1:25: "env.lab" leads through a symbolic link outside the working directory: a model may only read files below it [root]`}},
		{name: "another root", root: "data", src: model(`"../data/d.tra", "../data/d.lab"`)},
		{name: "outside another root", root: "data", src: model(`"m.tra"`),
			want: []string{`models/a.dp:1:16: "m.tra" is outside the root directory data: a model may only read files below it [root]`}},
		{name: "missing file outside through a link", src: model(`"m.tra", "outdir/missing.lab"`),
			want: []string{`models/a.dp:1:25: "outdir/missing.lab" leads through a symbolic link outside the directory of models/a.dp: a model may only read files below it [root]`}},
		{name: "missing file inside", src: model(`"m.tra", "missing.lab"`),
			want: []string{`models/a.dp:1:25: cannot read the PRISM explicit file "missing.lab": no such file []`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := spec.Options{ReadFile: read, Root: tc.root}.Load(context.Background(), "models/a.dp", tc.src)
			got := errorLines(err)
			if len(tc.want) == 0 && err != nil && strings.Contains(err.Error(), "compares neighbouring inputs") {
				got = nil // loaded: one input
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExplicitHeaders: a first line that cannot be right says what is
// wrong with it, before any limit.
func TestExplicitHeaders(t *testing.T) {
	const call = "model explicit(\"m.tra\")\ncheck dp(eps = 1)\n"
	for _, tc := range []struct {
		tra    string
		limits model.Limits
		want   string
	}{
		{"3 10\n", model.Limits{}, "m.tra:1:3: 3 states can have at most 9 transitions (one from each state to each): the first line says 10 []"},
		{"3 999999999\n", model.Limits{MaxTransitions: 5}, "m.tra:1:3: 3 states can have at most 9 transitions (one from each state to each): the first line says 999,999,999 []"},
		{"3 -2\n", model.Limits{}, "m.tra:1:3: the number of transitions is negative (-2) []"},
		{"-3 2\n", model.Limits{}, "m.tra:1:1: the number of states is negative (-3) []"},
		{"3000000000 2\n", model.Limits{}, "m.tra:1:1: the number of states, 3000000000, is more than PRISM's explicit files can number (2,147,483,647) []"},
		{"1" + strings.Repeat("0", 100) + " 2\n", model.Limits{}, "m.tra:1:1: the number of states, 10000000000000000000… (101 digits), is more than PRISM's explicit files can number (2,147,483,647) []"},
		{"3 two\n", model.Limits{}, `m.tra:1:3: "two" is not a number of transitions []`},
		{"3 2 1 0\n", model.Limits{}, "m.tra:1:1: the first line of a .tra file gives the number of states and of transitions: N M (found 4 fields) []"},
		{"0 0\n", model.Limits{}, "m.tra:1:1: the model has no states []"},
		{"3 2 1\n", model.Limits{}, "m.tra:1:5: 2 choices need at least 2 transitions (one each): the first line says 1 []"},
		{"3 2 7\n", model.Limits{}, "m.tra:1:5: 2 choices can have at most 6 transitions (one from each choice to each of the 3 states): the first line says 7 []"},
		{"3 x -1\n", model.Limits{}, `m.tra:1:3: "x" is not a number of choices []`},
		{"9999990 0\n", model.Limits{MaxMemory: 1 << 30}, "m.tra:1:1: reading this model would take about 2.4 GiB of memory (9,999,990 states, 0 transitions); the limit is 1 GiB [memory]"},
		{"9999990 0\n", model.Limits{MaxStates: 1000}, "m.tra:1:1: the model has 9,999,990 states; the limit is 1,000 states [states]"},
		{"5000000 5000000 5000000\n", model.Limits{MaxMemory: 1 << 30}, "m.tra:1:1: reading this model would take about 1.2 GiB of memory (5,000,000 states, 3 transitions, 3 choices); the limit is 1 GiB [memory]"},
		{"2 3\n0 1 1\n1 1 1\n", model.Limits{}, "m.tra:1:1: the first line says the file has 3 transitions; it has 2 []"},
	} {
		_, err := withFiles(map[string]string{"m.tra": tc.tra}, tc.limits).Load(context.Background(), "m.dp", call)
		got := errorLines(err)
		if len(got) == 0 || got[0] != tc.want {
			t.Errorf("%.30q: %q, want %q", tc.tra, got, tc.want)
		}
	}
}

// TestExplicitPairsMemory: every two initial states are neighbours; so
// many that their pairs are over the memory limit load, and the pairs are
// refused only when something compares them (Prepared.Pairs).
func TestExplicitPairsMemory(t *testing.T) {
	const n = 20000
	var lab strings.Builder
	lab.WriteString("0=\"init\"\n")
	for i := range n {
		lab.WriteString(itoa(i) + ": 0\n")
	}
	files := map[string]string{"m.tra": itoa(n) + " 0\n", "m.lab": lab.String()}
	l := model.Limits{MaxMemory: 1 << 30}
	prog, err := withFiles(files, l).Load(context.Background(), "m.dp", "model explicit(\"m.tra\", \"m.lab\")\ncheck dp(eps = 1)\n")
	if err != nil {
		t.Fatal(err)
	}
	p, err := property.Prepare(context.Background(), prog, l)
	if err != nil {
		t.Fatal(err)
	}
	if !p.AllPairs || p.NumPairs() != n*(n-1)/2 {
		t.Errorf("AllPairs %v, %d pairs", p.AllPairs, p.NumPairs())
	}
	_, err = p.Pairs()
	if want := "relating every two of the 20000 inputs (199,990,000 neighbouring pairs) would need about 3 GiB of memory; the limit is 1 GiB"; err == nil || err.Error() != want {
		t.Errorf("Pairs: %v, want %s", err, want)
	}
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(i)) }

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// TestExplicitExcerpts: an error quotes at most a short excerpt of what a
// file holds, escaped: never a whole line, never a control character.
func TestExplicitExcerpts(t *testing.T) {
	long := strings.Repeat("A", 1<<20)
	esc := "\x1b[2J\x1b]8;;http://x\x07\u202e"
	const call = "model explicit(\"m.tra\", \"m.lab\", \"m.sta\")\ncheck dp(eps = 1)\n"
	const tra = "2 2\n0 1 1\n1 1 1\n"
	for _, tc := range []struct {
		name          string
		tra, lab, sta string
		want          string
	}{
		{"long state in .tra", "2 2\n" + long + " 1 1\n1 1 1\n", "", "", `m.tra:2:1: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"… (1,048,576 bytes) is not a state: the states are 0 to 1 []`},
		{"escape as probability", "2 2\n0 1 " + esc + "\n1 1 1\n", "", "", `m.tra:2:5: "\x1b[2J\x1b]8;;http://x\a\u202e" is not a probability: write a decimal (0.25, 1.0E-4) or a fraction (1/4) []`},
		{"long number", "2 2\n0 1 0." + strings.Repeat("1", 2000) + "\n1 1 1\n", "", "", "m.tra:2:5: number literal has 2002 characters; the limit is 1000 []"},
		{"long exponent", "2 2\n0 1 1e" + strings.Repeat("9", 60) + "\n1 1 1\n", "", "", "m.tra:2:5: the exponent of 1e999999999999999999… (62 digits) is outside ±1000 []"},
		{"long label line", tra, "0=\"init\"\n" + long + "\n", "", "m.lab:2:1: a line of a .lab file is STATE: LABEL LABEL … []"},
		{"long state in .lab", tra, "0=\"init\"\n" + strings.Repeat("7", 1<<20) + ": 0\n", "", `m.lab:2:1: "7777777777777777777777777777777777777777"… (1,048,576 bytes) is not a state: the states are 0 to 1 []`},
		{"workflow command in .lab", tra, "0=\"init\"\n::error file=x::" + esc + "\n", "", "m.lab:2:1: a line of a .lab file is STATE: LABEL LABEL … []"},
		{"escape as label", tra, "0=\"init\"\n0: " + esc + "\n", "", `m.lab:2:4: "\x1b[2J\x1b]8;;http://x\a\u202e" is not a label of the first line []`},
		{"label name not an identifier", tra, "0=\"init\" 1=\"" + esc + "\"\n0: 0\n", "", `m.lab:1:10: "1=\"\x1b[2J\x1b]8;;http://x\a\u202e\"" is not a label: the first line of a .lab file lists them as 0="init" 1="deadlock" …, each name an identifier []`},
		{"escape as variable", tra, "", "(x," + esc + ")\n", `m.sta:1:1: "\x1b[2J\x1b]8;;http://x\a\u202e" is not a variable name []`},
		{"long line of values", tra, "", "(x)\n0:(" + long + ")\n", `m.sta:2:1: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"… (1,048,576 bytes) is not a value: write an integer, true or false []`},
		{"escape as value", tra, "", "(x)\n0:(" + esc + ")\n1:(1)\n", `m.sta:2:1: "\x1b[2J\x1b]8;;http://x\a\u202e" is not a value: write an integer, true or false []`},
		{"long state in .sta", tra, "", "(x)\n" + strings.Repeat("9", 1<<20) + ":(1)\n", `m.sta:2:1: "9999999999999999999999999999999999999999"… (1,048,576 bytes) is not a state: the states are 0 to 1 []`},
		{"MDP action", "2 1 1\n0 0 1 1 " + esc + "\n", "", "", `m.tra:2:9: "\x1b[2J\x1b]8;;http://x\a\u202e" is not an action: PRISM's actions are identifiers []`},
		{"MDP choice", "2 1 1\n0 " + long + " 1 1\n", "", "", `m.tra:2:3: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"… (1,048,576 bytes) is not a choice: a state's choices are numbered 0, 1, … []`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"m.tra": tc.tra, "m.lab": "0=\"init\"\n0: 0\n", "m.sta": "(x)\n0:(0)\n1:(1)\n"}
			if tc.lab != "" {
				files["m.lab"] = tc.lab
			}
			if tc.sta != "" {
				files["m.sta"] = tc.sta
			}
			_, err := withFiles(files, model.Limits{}).Load(context.Background(), "m.dp", call)
			got := errorLines(err)
			if !slices.Contains(got, tc.want) {
				t.Errorf("got %.400q\nwant %q", got, tc.want)
			}
			for _, l := range got {
				if len(l) > 400 || strings.ContainsAny(l, "\x1b\x07\u202e") {
					t.Errorf("a message quotes too much or raw control characters: %.500q", l)
				}
			}
		})
	}
}

// TestExplicitLabelsOnce: a label given to a state twice, on one line or
// on several, is kept once; the labels of a state come out sorted.
func TestExplicitLabelsOnce(t *testing.T) {
	files := map[string]string{
		"m.tra": "3 3\n0 1 1\n1 2 1\n2 2 1\n",
		"m.lab": "0=\"init\" 1=\"a\" 2=\"b\"\n1: 2 1 2 1\n0: 0 0\n1: 1\n2: 1\n0: 0\n",
	}
	p, err := withFiles(files, model.Limits{}).Load(context.Background(), "m.dp", "model explicit(\"m.tra\", \"m.lab\")\nquery P=?[F \"b\"]\n")
	if err != nil {
		t.Fatal(err)
	}
	mech, err := p.Model.Build(context.Background(), model.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for s := range mech.Chain.NumStates() {
		got = append(got, strings.Join(mech.Chain.Labels(s), " "))
	}
	if diff := cmp.Diff([]string{"init", "a b", "a"}, got); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{0}, mech.Chain.Inputs()); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
}
