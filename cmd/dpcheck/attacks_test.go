package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dpcheck/dpcheck/model"
)

// An attack is a hostile input run as a CI job runs dpcheck on a pull
// request: the dpcheck command itself (this test binary acting as it, see
// TestMain), in a fresh directory, on files an attacker wrote. Unlike the
// older table of TestHostileInputs (run in-process), every attack is its own
// process, so that its exit status is the real one (a Go fatal error would
// exit 2 there) and its peak memory and time can be measured.
type attack struct {
	name string
	// files are written into the attack's directory, which is the working
	// directory of the run: path → contents. A content "symlink:TARGET"
	// makes a symbolic link to TARGET instead, "dir:" a directory and
	// "fifo:" a named pipe.
	files map[string]string
	// args are dpcheck's arguments; "$DIR" in one stands for the attack's
	// directory, "$OUT" for a directory outside it (for what the attack
	// must not be able to read or write).
	args  []string
	stdin string
	// env are NAME=VALUE settings added to the run's environment ("$DIR"
	// expanded); stdout, when set, is a file (such as /dev/full) the
	// run's standard output is written to instead of being captured; read
	// are files of the attack's directory shown after the output (as
	// "-- NAME --" and their contents), for what a run wrote.
	env    []string
	stdout string
	read   []string
	// exit is the expected exit status.
	exit int
	// want are texts the output (standard output and error) must contain;
	// forbid, texts it must not (a leaked secret, a raw control
	// character, a line starting with "::" that the attacker wrote).
	want, forbid []string
}

// secret is in the environment of every attack run and in a file outside
// the attack's directory ($OUT/secret.txt): no output may ever show it.
const secret = "s3cr3t-CI-token-4f9a"

// attacks gathers the attack tables of the files attacks_*_test.go; each
// adds its own slice in an init function.
var attacks []attack

var attackDoc = flag.String("attacks-doc", "", "run the attacks at dpcheck's default limits and write the Markdown table of exit status, peak memory and time to this file")

// testMaxMemory is the memory limit the attacks run with under go test
// (unless an attack sets --max-memory itself): lower than the default, so
// that the attacks that fill memory reach the limit quickly. -attacks-doc
// runs them at the defaults.
const testMaxMemory = "1GiB"

// TestMain lets the test binary act as the dpcheck command: with
// DPCHECK_TEST_MAIN=1 in its environment it runs main, so that the attacks
// run the real command, exit status and signals included.
//
// With DPCHECK_TEST_CRASH set as well, the worker process (see
// supervise.go) fails as dpcheck must never fail, to test that the
// supervisor reports it: "stack" overflows the stack, "panic" panics in a
// goroutine, "kill" kills itself with SIGKILL.
func TestMain(m *testing.M) {
	if os.Getenv("DPCHECK_TEST_MAIN") == "1" {
		if os.Getenv(workerEnv) == "1" {
			crash(os.Getenv("DPCHECK_TEST_CRASH"))
		}
		main()
		return
	}
	os.Exit(m.Run())
}

// crash fails the process as kind says (see TestMain); "" does nothing.
func crash(kind string) {
	switch kind {
	case "stack":
		var deep func(int) int
		deep = func(n int) int { return deep(n+1) + 1 }
		deep(0)
	case "panic":
		go panic("a bug in a goroutine")
		select {}
	case "kill":
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
}

// attackRun is what one attack did.
type attackRun struct {
	exit    int
	out     string // standard output then standard error, the directories replaced by $DIR and $OUT
	peakRSS int64  // bytes
	wall    time.Duration
}

// runAttack runs a as its own process, in a fresh directory.
func runAttack(t *testing.T, a attack, defaults bool) attackRun {
	t.Helper()
	root := t.TempDir()
	dir, out := filepath.Join(root, "case"), filepath.Join(root, "outside")
	for _, d := range []string{dir, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(out, "secret.txt"), []byte(secret+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	expand := func(s string) string {
		return strings.NewReplacer("$DIR", dir, "$OUT", out).Replace(s)
	}
	names := make([]string, 0, len(a.files))
	for name := range a.files {
		names = append(names, name)
	}
	slices.Sort(names) // directories before what they hold
	for _, name := range names {
		content := a.files[name]
		p := filepath.Join(dir, expand(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch {
		case strings.HasPrefix(content, "symlink:"):
			err = os.Symlink(expand(strings.TrimPrefix(content, "symlink:")), p)
		case content == "dir:":
			err = os.MkdirAll(p, 0o755)
		case content == "fifo:":
			err = syscall.Mkfifo(p, 0o644)
		default:
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var args []string
	if !defaults && !slices.ContainsFunc(a.args, func(s string) bool { return strings.HasPrefix(s, "--max-memory") }) && !slices.Contains(a.args, "fmt") {
		args = append(args, "--max-memory", testMaxMemory)
	}
	for _, s := range a.args {
		args = append(args, expand(s))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a hang is a failure, not a stuck CI job
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DPCHECK_TEST_MAIN=1", "CI_SECRET_TOKEN="+secret)
	for _, e := range a.env {
		cmd.Env = append(cmd.Env, expand(e))
	}
	cmd.Stdin = strings.NewReader(a.stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if a.stdout != "" {
		f, err := os.OpenFile(expand(a.stdout), os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdout = f
	}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s: %v", a.name, err)
		}
		code = ee.ExitCode()
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss << 10 // KiB on Linux
	}
	for _, name := range a.read {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			data = []byte(err.Error())
		}
		fmt.Fprintf(&stderr, "-- %s --\n%s", name, data)
	}
	text := strings.NewReplacer(dir, "$DIR", out, "$OUT").Replace(stdout.String() + stderr.String())
	text = junitTimes.ReplaceAllString(text, `time="T"`) // measured: not golden
	text = heldMemory.ReplaceAllString(text, "held M of memory")
	return attackRun{exit: code, out: text, peakRSS: rss, wall: wall}
}

// heldMemory is what the memory watch saw when it stopped a check: measured,
// not golden.
var heldMemory = regexp.MustCompile(`held [0-9.]+ [KMGT]?i?B of memory`)

// TestAttacks runs every attack as a process and checks its exit status and
// what it says; the first lines of each are the golden table
// testdata/golden/attacks.txt. With -attacks-doc FILE it runs them at the
// default limits instead and writes the table of exit status, peak memory
// and time that docs/robustness.md shows.
func TestAttacks(t *testing.T) {
	if testing.Short() {
		t.Skip("the attacks run dpcheck as a process each")
	}
	var table, doc strings.Builder
	doc.WriteString(attackDocHeader)
	for _, a := range attacks {
		r := runAttack(t, a, *attackDoc != "")
		fmt.Fprintf(&table, "## %s\nexit %d\n%s\n", a.name, r.exit, summary(r.out, ""))
		fmt.Fprintf(&doc, "| %s | %d | %s | %.2f s | %s |\n", mdCell(a.name), r.exit, mib(r.peakRSS), r.wall.Seconds(), mdCell(firstWords(r.out)))
		if r.exit != a.exit {
			t.Errorf("%s: exit %d, want %d; output:\n%s", a.name, r.exit, a.exit, r.out)
		}
		if limit := attackMemoryLimit(t, a, *attackDoc != ""); r.peakRSS > limit+memorySlack {
			t.Errorf("%s: peak memory %s, over the limit of %s by more than %s", a.name, mib(r.peakRSS), mib(limit), mib(memorySlack))
		}
		for _, w := range a.want {
			// At the default limits (the doc) a message names other limits.
			if *attackDoc == "" && !strings.Contains(r.out, w) {
				t.Errorf("%s: the output does not say %q:\n%s", a.name, w, r.out)
			}
		}
		for _, f := range append([]string{secret, "goroutine ", "fatal error:"}, a.forbid...) {
			if strings.Contains(r.out, f) {
				t.Errorf("%s: the output has %q:\n%s", a.name, f, r.out)
			}
		}
		for _, l := range strings.Split(r.out, "\n") {
			if strings.HasPrefix(l, "::") && !strings.HasPrefix(l, "::error file=") && !strings.HasPrefix(l, "::warning file=") && !strings.HasPrefix(l, "::notice") {
				t.Errorf("%s: a workflow command dpcheck did not write: %q", a.name, l)
			}
		}
	}
	if *attackDoc != "" {
		if err := os.WriteFile(*attackDoc, []byte(doc.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	path := filepath.Join("testdata", "golden", "attacks.txt")
	if *update {
		if err := os.WriteFile(path, []byte(table.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./cmd/dpcheck -run TestAttacks -update creates it)", err)
	}
	if got := table.String(); got != string(want) {
		t.Errorf("the attack table differs from %s (-update rewrites it); got:\n%s", path, got)
	}
}

// memorySlack is how much more than the memory limit a run may hold at
// its peak: the program and runtime, and what is allocated between two
// reads of the memory watch.
const memorySlack = 384 << 20

// attackMemoryLimit is the memory limit a runs with: its own --max-memory,
// else the test's or (for the docs' table) the default.
func attackMemoryLimit(t *testing.T, a attack, defaults bool) int64 {
	t.Helper()
	v := testMaxMemory
	if defaults {
		v = fmt.Sprint(model.Limits{}.WithDefaults().MaxMemory)
	}
	for i, s := range a.args {
		if s == "--max-memory" && i+1 < len(a.args) {
			v = a.args[i+1]
		} else if x, ok := strings.CutPrefix(s, "--max-memory="); ok {
			v = x
		}
	}
	n, err := parseBytes(v)
	if err != nil {
		return 1 << 62 // a case about a malformed flag
	}
	return n
}

// attackDocHeader opens docs/attacks.md.
const attackDocHeader = `# The attack table

Every hostile input of dpcheck's tests, run as a CI job runs dpcheck on a pull request: the
dpcheck command itself, in a fresh directory of files an attacker wrote, at the default limits
(4 GiB of memory), with a secret in its environment and one in a file outside the directory
(neither may appear in any output). Each row is the exit status, the peak resident memory of the
process (its child that checks included), the wall time on a 2-core machine, and what dpcheck
says first. ` + "`TestAttacks`" + ` checks every exit status and message (at a memory limit of
1 GiB, so that each memory limit speaks sooner), and here that the exit status is the same and
the peak memory stays within the limit plus 384 MiB; this page is written by

` + "```sh\ngo test ./cmd/dpcheck -run TestAttacks -attacks-doc ../../docs/attacks.md\n```" + `

| attack | exit | peak memory | time | what dpcheck says first |
|---|---|---|---|---|
`

// firstWords is the first line of an attack's output that says something
// (not the file's name alone, nor its count of errors), cut to 120
// characters.
func firstWords(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || i == 0 && !strings.Contains(l, " ") && len(lines) > 1 {
			continue
		}
		if strings.HasPrefix(l, "model ") || strings.HasPrefix(l, "size ") || strings.HasPrefix(l, "pairs ") || errorCount.MatchString(l) {
			continue
		}
		if r := []rune(l); len(r) > 120 {
			l = string(r[:120]) + "…"
		}
		return l
	}
	return ""
}

// errorCount is the line that opens a file's errors: "m.dp: 2 errors".
var errorCount = regexp.MustCompile(`^\S+: [0-9]+ errors?$`)

// mdCell makes s one cell of a Markdown table: code, with its pipes and
// backquotes escaped.
func mdCell(s string) string {
	s = strings.NewReplacer("|", "\\|", "`", "'").Replace(s)
	if s == "" {
		return ""
	}
	return "`" + s + "`"
}

// mib writes a byte count in MiB for the table.
func mib(n int64) string { return fmt.Sprintf("%d MiB", (n+1<<19)>>20) }
