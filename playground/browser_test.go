package playground_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/playground"
	"github.com/dpcheck/dpcheck/playground/internal/assets"
	"github.com/dpcheck/dpcheck/report"
)

// The playground driven in headless Chromium: the page is loaded from
// Handler, as dpcheck serve sends it, and used as a person would.

// browserPath finds Chromium: $DPCHECK_CHROMIUM, else chromium or
// google-chrome on the PATH.
func browserPath() string {
	if p := os.Getenv("DPCHECK_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser opens the playground in a new headless Chromium and returns the
// tab's context and the server's address. Every request the page makes is
// recorded in *requests.
func browser(t *testing.T, requests *[]string) (context.Context, string) {
	t.Helper()
	bin := browserPath()
	if bin == "" {
		t.Skip("no Chromium to drive: install Debian's chromium package (or set DPCHECK_CHROMIUM) to run the playground's browser tests")
	}
	srv := httptest.NewServer(playground.Handler())
	t.Cleanup(srv.Close)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin),
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profileDir(t)), chromedp.WindowSize(1400, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 10*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	var mu sync.Mutex
	chromedp.ListenTarget(ctx, func(ev any) {
		if ev, ok := ev.(*network.EventRequestWillBeSent); ok && requests != nil {
			mu.Lock()
			*requests = append(*requests, ev.Request.URL)
			mu.Unlock()
		}
	})
	if err := chromedp.Run(ctx, network.Enable()); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	return ctx, srv.URL
}

// profileDir is a directory for the browser's profile, removed after the
// test as far as it can be: Chromium's helpers may still write to it for
// a moment after the browser has gone.
func profileDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "dpcheck-chromium")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for i := 0; i < 20 && os.RemoveAll(dir) != nil; i++ {
			time.Sleep(50 * time.Millisecond)
		}
	})
	return dir
}

// result is what the page shows of a finished check.
type result struct {
	Status, Verdict, JSON, Text string
	Marks                       []struct{ Line, Column int }
	GutterErrors                []string
	Millis                      float64 // since the page started loading, when read
	Finished                    float64 // since the page started loading, when shown
	Chain, Profile              bool    // pictures drawn
}

// waitResult waits for the check under way to finish and reads it.
func waitResult(ctx context.Context) (result, error) {
	var r result
	err := chromedp.Run(ctx,
		chromedp.WaitVisible(`body[data-state="done"]`, chromedp.ByQuery),
		chromedp.Evaluate(`(() => {
			const r = window.dpcheckLast;
			return {
				Status: r.status, Verdict: document.getElementById('verdict').textContent,
				JSON: r.json || '', Text: document.getElementById('text').innerText,
				Marks: (r.marks || []).map(m => ({Line: m.line, Column: m.column})),
				GutterErrors: [...document.querySelectorAll('#gutter .err')].map(e => e.textContent),
				Millis: performance.now(), Finished: window.dpcheckFinishedAt,
				Chain: !!document.querySelector('#chain img'), Profile: !!document.querySelector('#profile img'),
			};
		})()`, &r))
	return r, err
}

// runFile puts an example's text in the editor (through the menu) and runs it.
func runExample(ctx context.Context, name string) (result, error) {
	err := chromedp.Run(ctx,
		chromedp.WaitEnabled("#run", chromedp.ByID),
		chromedp.SetValue("#examples", name, chromedp.ByID),
		chromedp.Evaluate(`document.getElementById('examples').dispatchEvent(new Event('change')); document.body.dataset.state = ''`, nil),
		chromedp.Click("#run", chromedp.ByID))
	if err != nil {
		return result{}, err
	}
	return waitResult(ctx)
}

// screenshot saves the page as name.png in $DPCHECK_SCREENSHOTS, when it
// is set: to look at what the test saw.
func screenshot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("DPCHECK_SCREENSHOTS")
	if dir == "" {
		return
	}
	var png []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// edit replaces the editor's text as typing would.
func edit(text string) chromedp.Action {
	js, _ := json.Marshal(text)
	return chromedp.Evaluate(fmt.Sprintf(`(() => { const s = document.getElementById('source'); s.value = %s; s.dispatchEvent(new Event('input')); document.body.dataset.state = ''; })()`, js), nil)
}

func TestBrowserPlayground(t *testing.T) {
	var requests []string
	ctx, url := browser(t, &requests)

	// Open the page and run the example it opens with, at once: the time
	// to the first verdict.
	if err := chromedp.Run(ctx, chromedp.Navigate(url), chromedp.WaitEnabled("#run", chromedp.ByID), chromedp.Click("#run", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	r, err := waitResult(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != "PASS" || !strings.Contains(r.Text, "PASS  line 6  check dp(eps = ln(2), delta = 0)") {
		t.Fatalf("models/geometric.dp: verdict %q, report:\n%s", r.Verdict, r.Text)
	}
	if !r.Profile {
		t.Errorf("no profile drawn")
	}
	if err := chromedp.Run(ctx, chromedp.WaitReady("#chain img", chromedp.ByQuery)); err != nil {
		t.Errorf("the chain is not drawn: %v", err)
	}
	screenshot(t, ctx, "pass")
	for _, tab := range []string{"chain", "profile", "report"} {
		if err := chromedp.Run(ctx, chromedp.Click(`#tabs button[data-tab="`+tab+`"]`, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		screenshot(t, ctx, "pass-"+tab)
	}
	var ready float64
	if err := chromedp.Run(ctx, chromedp.Evaluate(`window.dpcheckReadyAt`, &ready)); err != nil {
		t.Fatal(err)
	}
	t.Logf("ready %.0f ms, first verdict on models/geometric.dp %.0f ms after the page started loading (its profile included)", ready, r.Finished)

	// An error, marked at its line.
	var src string
	if err := chromedp.Run(ctx, chromedp.Value("#source", &src, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(src, "\n")
	lines[6] = strings.Replace(lines[6], "check dp", "chek dp", 1) // line 7
	bad := strings.Join(lines, "\n")
	if err := chromedp.Run(ctx, edit(bad), chromedp.Click("#run", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	r, err = waitResult(ctx)
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "invalid")
	if r.Verdict != "INVALID" || len(r.Marks) == 0 || r.Marks[0].Line != 7 || len(r.GutterErrors) == 0 || r.GutterErrors[0] != "7" {
		t.Fatalf("an error on line 7: verdict %q, marks %+v, gutter %q\n%s", r.Verdict, r.Marks, r.GutterErrors, r.Text)
	}

	// After characters outside ASCII, the word at the error's column is
	// underlined.
	wide := "model truncated_geometric(alpha = 1/2, n = 2) /* ε 😀 ε */ check bogus(eps = 1)\n"
	var underlined string
	if err := chromedp.Run(ctx, edit(wide), chromedp.Click("#run", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if r, err = waitResult(ctx); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(ctx, chromedp.Text("#highlight .errat", &underlined, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if len(r.Marks) == 0 || underlined != "bogus" {
		t.Errorf("an error after ε and 😀: marks %+v, underlined %q, want \"bogus\"\n%s", r.Marks, underlined, r.Text)
	}
	if err := chromedp.Run(ctx, edit(bad)); err != nil {
		t.Fatal(err)
	}

	// Share the edited file and open the link: the same text comes back.
	var link string
	if err := chromedp.Run(ctx, chromedp.Click("#share", chromedp.ByID),
		chromedp.WaitVisible("#sharebox", chromedp.ByID), chromedp.Value("#sharelink", &link, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(link, url+"/#") || strings.Contains(link, "chek") {
		t.Fatalf("share link %q: want the file deflated in the fragment", link)
	}
	var back, name string
	if err := chromedp.Run(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(link), chromedp.WaitEnabled("#run", chromedp.ByID),
		chromedp.Value("#source", &back, chromedp.ByID), chromedp.Text("#filename", &name, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if back != bad || name != "models/geometric.dp" {
		t.Fatalf("the shared link gave back %q (%d bytes), want the %d bytes shared as models/geometric.dp", name, len(back), len(bad))
	}

	// A chain of thousands of states in a line: its components are found
	// without recursion, which the browser's fixed stack would not hold.
	line := "module walk\n  input x : [0..6000];\n  [] x < 6000 -> (x' = x + 1);\nendmodule\nneighbours |x - x'| <= 1\ncheck P>=1[F x = 6000]\n"
	if err := chromedp.Run(ctx, edit(line), chromedp.Click("#run", chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if r, err = waitResult(ctx); err != nil || r.Verdict != "PASS" {
		t.Fatalf("a line of 6001 states: verdict %q, %v\n%s", r.Verdict, err, r.Text)
	}

	// A damaged link says so, and shows an example instead.
	var notice string
	if err := chromedp.Run(ctx, chromedp.Navigate(url+"/#name=a.dp&src=!!!"), chromedp.WaitEnabled("#run", chromedp.ByID),
		chromedp.Text("#notice", &notice, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(notice, "The shared link could not be opened: it is not in the form a link has") {
		t.Errorf("a damaged link: notice %q", notice)
	}

	// A long check, stopped: the page says so at once and checks again after.
	long := "model truncated_geometric(alpha = 1/2, n = 1500)\ncheck dp(eps = ln(2))\n"
	if err := chromedp.Run(ctx, edit(long), chromedp.Click("#run", chromedp.ByID),
		chromedp.WaitVisible(`body[data-state="running"]`, chromedp.ByQuery),
		// Under way: counting the pairs it has checked.
		chromedp.Poll(`/checking… .* \d+\/\d+/.test(document.getElementById('status').textContent)`, nil, chromedp.WithPollingTimeout(time.Minute))); err != nil {
		t.Fatal(err)
	}
	var stopAt float64
	if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => { const t = performance.now(); document.getElementById('stop').click(); return t; })()`, &stopAt)); err != nil {
		t.Fatal(err)
	}
	r, err = waitResult(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The check stopped itself, through the flag Stop sets in shared
	// memory, and reported (the worker was not ended).
	if r.Verdict != "STOPPED" || !strings.Contains(r.Text, "stopped: interrupted") {
		t.Fatalf("after Stop: verdict %q\n%s", r.Verdict, r.Text)
	}
	t.Logf("stopped %.0f ms after Stop was pressed", r.Finished-stopAt)
	if r, err = runExample(ctx, "models/geometric.dp"); err != nil || r.Verdict != "PASS" {
		t.Fatalf("after a stop, models/geometric.dp: %q %v", r.Verdict, err)
	}

	// Nothing was asked of any other machine.
	for _, u := range requests {
		if !strings.HasPrefix(u, url+"/") && !strings.HasPrefix(u, "blob:") && !strings.HasPrefix(u, "data:") && u != "about:blank" {
			t.Errorf("the page requested %s", u)
		}
	}
}

// Every example gives in the page the JSON report the command line gives.
func TestBrowserExamplesMatchCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("every example in a browser takes a minute or two")
	}
	ctx, url := browser(t, nil)
	var doc assets.ExamplesDoc
	b, err := playground.ReadFile("examples.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	t.Chdir("..") // the module's root, where models/ is: names as on the command line
	for _, name := range doc.Examples {
		want := cliJSON(t, name)
		r, err := runExample(ctx, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.JSON != want {
			t.Errorf("%s: the page's JSON report differs from the command line's:\npage: %s\ncli:  %s", name, r.JSON, want)
		}
	}
	t.Logf("%d examples checked in the page, each as on the command line", len(doc.Examples))
}

// cliJSON is the JSON report of dpcheck FILE run from the module's root.
func cliJSON(t *testing.T, name string) string {
	e := report.Entry{File: name}
	e.Source, e.Result, e.Err = dpcheck.Config{}.CheckInput(context.Background(), dpcheck.Input{File: name}, nil)
	var b bytes.Buffer
	if err := report.Write(&b, "json", []report.Entry{e}, dpcheck.Version); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
