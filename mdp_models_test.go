package dpcheck_test

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/property"
)

// diningTV is a second encoding of the dining cryptographers (N = 3),
// without a model: it enumerates the coins (heads[i] is coin i's
// probability of heads), computes the announcements (cryptographer i
// agrees when its coin equals its right neighbour's, inverted when it
// paid) and returns the largest total variation distance between two
// paying cryptographers' distributions of announcements — δ at ε = 0 once
// every coin is flipped and every announcement made.
func diningTV(heads [3]*big.Rat) *big.Rat {
	dist := func(pay int) map[[3]int]*big.Rat {
		d := map[[3]int]*big.Rat{}
		for mask := range 8 {
			p := big.NewRat(1, 1)
			var coin [3]int
			for i := range 3 {
				coin[i] = mask >> i & 1
				if coin[i] == 0 {
					p.Mul(p, heads[i])
				} else {
					p.Mul(p, new(big.Rat).Sub(big.NewRat(1, 1), heads[i]))
				}
			}
			var out [3]int
			for i := range 3 {
				agree := coin[i] == coin[(i+1)%3]
				if pay == i+1 {
					agree = !agree
				}
				if agree {
					out[i] = 1
				}
			}
			if d[out] == nil {
				d[out] = new(big.Rat)
			}
			d[out].Add(d[out], p)
		}
		return d
	}
	best := new(big.Rat)
	for a := 1; a <= 3; a++ {
		for b := 1; b <= 3; b++ {
			da, db := dist(a), dist(b)
			tv := new(big.Rat)
			for o, p := range da {
				q := db[o]
				if q == nil {
					q = new(big.Rat)
				}
				if d := new(big.Rat).Sub(p, q); d.Sign() > 0 {
					tv.Add(tv, d)
				}
			}
			if tv.Cmp(best) > 0 {
				best = tv
			}
		}
	}
	return best
}

// checkDining runs a .dp source whose first statement is check dp(eps =
// 0) on a dining cryptographers MDP and compares its verdict and the gap
// it found with diningTV.
func checkDining(t *testing.T, name, src string, heads [3]*big.Rat) {
	t.Helper()
	res, err := dpcheck.CheckSource(context.Background(), name, src)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := res.Statements[0].(*property.MDPCheckOutcome)
	if !ok || o.Result == nil {
		t.Fatalf("%s: the first statement's outcome is %#v", name, res.Statements[0])
	}
	want := diningTV(heads)
	got, isRat := o.Result.Delta.Rat()
	if !isRat || got.Cmp(want) != 0 {
		t.Errorf("%s: δ found at ε = 0 is %s, want %s (the coins enumerated)", name, o.Result.Delta, want.RatString())
	}
	if holds := want.Sign() == 0; (o.Value() == "holds") != holds {
		t.Errorf("%s: %s, but the enumerated distributions differ by %s", name, o.Value(), want.RatString())
	}
}

// TestDiningModels: models/dining_crypt.dp and its biased variant against
// the enumeration of their coins.
func TestDiningModels(t *testing.T) {
	half, three := big.NewRat(1, 2), big.NewRat(3, 4)
	for _, c := range []struct {
		file  string
		heads [3]*big.Rat
	}{
		{"models/dining_crypt.dp", [3]*big.Rat{half, half, half}},
		{"models/dining_crypt_biased.dp", [3]*big.Rat{three, three, half}},
	} {
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		checkDining(t, c.file, string(src), c.heads)
	}
}

// TestDiningCryptPRISM: PRISM's own dining_crypt3.nm (read in place from
// $DPCHECK_EXTERNAL_MODELS or ../shared/external_models, never copied),
// with the payers as neighbours and the announcements observed: (0, 0)-DP
// holds; with every coin biased to 3/4 (the file changed in memory) it is
// violated by the enumerated distance.
func TestDiningCryptPRISM(t *testing.T) {
	dir := os.Getenv("DPCHECK_EXTERNAL_MODELS")
	if dir == "" {
		dir = filepath.Join("..", "shared", "external_models")
	}
	path := filepath.Join(dir, "prism_dining_crypt", "dining_crypt3.nm")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("SKIP: the external models are not available (%v; set DPCHECK_EXTERNAL_MODELS)", err)
	}
	biased := strings.Replace(string(text), "0.5 : (coin1'=1) + 0.5 : (coin1'=2)", "0.75 : (coin1'=1) + 0.25 : (coin1'=2)", 1)
	if biased == string(text) {
		t.Fatal("the coin's command was not found in dining_crypt3.nm")
	}
	tmp := filepath.Join(t.TempDir(), "biased.nm")
	if err := os.WriteFile(tmp, []byte(biased), 0o644); err != nil {
		t.Fatal(err)
	}
	half, three := big.NewRat(1, 2), big.NewRat(3, 4)
	for _, c := range []struct {
		path  string
		heads [3]*big.Rat
	}{
		{path, [3]*big.Rat{half, half, half}},
		{tmp, [3]*big.Rat{three, three, three}}, // crypt2 and crypt3 are renamings of crypt1
	} {
		abs, err := filepath.Abs(c.path)
		if err != nil {
			t.Fatal(err)
		}
		src := "model prism(\"" + filepath.ToSlash(abs) + "\")\n" +
			"outputs var agree1, agree2, agree3\n" +
			"neighbours pay > 0 & pay' > 0 & pay != pay'\n" +
			"check dp(eps = 0)\n"
		checkDining(t, c.path, src, c.heads)
	}
}

// TestYN2PRISM: the dpCTL plug-in's yn2 MDP (read in place): P(F s=2) is
// 1/2 under every scheduler, P(F (s=2 | s=4)) ranges over [1/2, 3/4]
// (EXPECTED.md of that folder, computed by hand), and with one initial
// state D{3,0}[…] holds for want of a neighbour.
func TestYN2PRISM(t *testing.T) {
	dir := os.Getenv("DPCHECK_EXTERNAL_MODELS")
	if dir == "" {
		dir = filepath.Join("..", "shared", "external_models")
	}
	path, err := filepath.Abs(filepath.Join(dir, "dpctl_epmc", "yn2.prism"))
	if err == nil {
		_, err = os.Stat(path)
	}
	if err != nil {
		t.Skipf("SKIP: the external models are not available (%v; set DPCHECK_EXTERNAL_MODELS)", err)
	}
	src := "model prism(\"" + filepath.ToSlash(path) + "\")\n" +
		"query P=?[F s = 2] expect 1/2\n" +
		"query Pmin=?[F (s = 2 | s = 4)] expect 1/2\n" +
		"query Pmax=?[F (s = 2 | s = 4)] expect 3/4\n" +
		"check D{3, 0}[F (s = 2 | s = 4)]\n" +
		"check P>=1/2[F (s = 2 | s = 4)]\n" +
		"check P>=3/4[F (s = 2 | s = 4)] expect violated\n"
	// The model is named by its absolute path: below the root given.
	res, err := dpcheck.Config{Root: filepath.Dir(path)}.CheckSource(context.Background(), "yn2.dp", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Statements) != 6 {
		t.Fatalf("%d statements, want 6", len(res.Statements))
	}
	for _, o := range res.Statements {
		if h := o.Statement().Head(); !o.Pass() {
			t.Errorf("line %d: %s: got %s (error: %v)", h.Pos.Line, h.Text, o.Value(), o.Err())
		}
	}
}
