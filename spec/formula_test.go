package spec_test

import (
	"context"
	"testing"

	"github.com/dpcheck/dpcheck"
	"github.com/dpcheck/dpcheck/property"
)

// TestFormulaParsing: how formulas group, shown by the normalised form the
// checker prints (and memoises on).
func TestFormulaParsing(t *testing.T) {
	const head = surveyChain + "neighbours pos ~ neg\n"
	for _, tc := range []struct {
		src, kind, want string
	}{
		{"check D{ln(3),0}[X out_Y] & D{ln(3),0}[X out_N]", "check formula", "D{ln(3),0}[X out_Y] & D{ln(3),0}[X out_N]"},
		{"check D{ln(3),0}[X (out_Y & D{ln(3),0}[X out_Y])]", "check formula", "D{ln(3),0}[X (out_Y & D{ln(3),0}[X out_Y])]"},
		// Prefix operators bind tighter than &, | and U.
		{"check P>=1/2[X out_Y & X X out_N]", "check formula", "P>=1/2[X out_Y & X X out_N]"},
		{"check P>=1/2[X (out_Y & X out_N)]", "check formula", "P>=1/2[X (out_Y & X out_N)]"},
		{"check P>=1/2[X^3 out_Y]", "check formula", "P>=1/2[X^3 out_Y]"},
		{"check P<1[!X out_Y]", "check formula", "P<1[!X out_Y]"},
		{"check P>0[out_Y U<=3 out_N | F<=5 out_N]", "check formula", "P>0[(out_Y U<=3 out_N) | F<=5 out_N]"},
		{"check P>0[G<=2 !out_N]", "check formula", "P>0[G<=2 !out_N]"},
		{"check P>0[F x >= 1 & !in_pos]", "check formula", "P>0[F x >= 1 & !in_pos]"},
		{"check P>0[F (x >= 1 & !in_pos)]", "check formula", "P>0[F (x >= 1 & !in_pos)]"},
		{"check x = 1 | in_neg", "check formula", "x = 1 | in_neg"},
		{"query P=?[F<=2 out_Y]", "query P", "F<=2 out_Y"},
		{"query D{?, 1/10}[X out_Y]", "query D eps", "X out_Y"},
		{"query D{ln(2), ?}[X out_Y]", "query D delta", "X out_Y"},
	} {
		p, err := dpcheck.Config{}.Load(context.Background(), "t.dp", head+tc.src+"\n")
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		st := p.Program.Statements[0]
		if st.Kind() != tc.kind {
			t.Errorf("%s: kind %s, want %s", tc.src, st.Kind(), tc.kind)
		}
		var f interface{ String() string }
		switch s := st.(type) {
		case *property.FormulaCheck:
			f = s.Resolved()
		case *property.ProbQuery:
			f = s.Resolved()
		case *property.DEpsQuery:
			f = s.Resolved()
		case *property.DDeltaQuery:
			f = s.Resolved()
		}
		if got := f.String(); got != tc.want {
			t.Errorf("%s: formula %q, want %q", tc.src, got, tc.want)
		}
	}
}
