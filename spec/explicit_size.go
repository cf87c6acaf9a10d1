package spec

import (
	"strings"

	"github.com/dpcheck/dpcheck/model"
	"github.com/dpcheck/dpcheck/source"
)

// What reading PRISM's explicit files allocates, in bytes: the total a
// load and build allocates (runtime.MemStats.TotalAlloc, which bounds what
// it holds at any time), measured over models of 200 000 to a million
// states and rounded up (TestExplicitSizeEstimate keeps the estimate
// above what a load allocates, within 3 times it). A .tra file's first line gives the states, and
// the states of a DTMC without a line of their own are absorbing: a
// 10-byte file can ask for ten million states. So the memory the files
// would take is estimated from the first line and compared with
// Limits.MaxMemory before anything is allocated for them, and again, with
// the labels and values, before the model is built.
const (
	// What any load takes besides (maps, the builder's workers, …).
	explicitBaseBytes = 1 << 20
	// A state (226 measured): its name "s<i>", its entry in the index,
	// its row and, when it has no transition, its self-loop.
	explicitStateBytes = 256
	// A state's slots for the labels of a .lab file and the values of a
	// .sta file (with one label: 106 measured; with two values: 151).
	explicitLabStateBytes = 88
	explicitStaStateBytes = 96
	// A transition of a DTMC (30 measured): its record while read, its
	// target and probability in the row.
	explicitTransBytes = 48
	// A transition and a choice of an MDP (158 and about 540 measured):
	// records, the choices' slices and names, the MDP's checks.
	explicitMDPTransBytes  = 160
	explicitMDPChoiceBytes = 640
	// A label of a state (8 while read, 16 kept), a value of a state.
	explicitLabelBytes = 24
	explicitValueBytes = 32
)

// explicitSize is what the files read so far would take.
type explicitSize struct {
	perState, perTrans           int64 // a state, with the files given; a transition
	states, transitions, choices int
	labels, values               int // a state's labels of the .lab, values of the .sta
}

// newSize starts the estimate of what a DTMC's or an MDP's files take,
// with the .lab and .sta files given.
func newSize(mdp bool, lab, sta *source.File) explicitSize {
	s := explicitSize{perState: explicitStateBytes, perTrans: explicitTransBytes}
	if mdp {
		s.perTrans = explicitMDPTransBytes
	}
	if lab != nil {
		s.perState += explicitLabStateBytes
	}
	if sta != nil {
		s.perState += explicitStaStateBytes
	}
	return s
}

// bytes estimates the memory the model takes.
func (s explicitSize) bytes() float64 {
	return explicitBaseBytes + float64(s.states)*float64(s.perState) + float64(s.transitions)*float64(s.perTrans) +
		float64(s.choices)*explicitMDPChoiceBytes + float64(s.labels)*explicitLabelBytes +
		float64(s.values)*explicitValueBytes
}

// overMemory reports, and stops, when the model the files give would take
// more memory than the limit. The error is on the first line of the .tra
// file. Its neighbouring pairs (every two initial states) are not counted:
// they are made, within the limit, only when a statement compares pairs
// (property.Prepared.Pairs).
func (r *explicitReader) overMemory(tra, lab *source.File, inputs int) bool {
	need := r.size.bytes()
	if need <= float64(r.limits.MaxMemory) {
		return false
	}
	parts := []string{plural(r.size.states, "state"), plural(r.size.transitions, "transition")}
	if r.size.choices > 0 {
		parts = append(parts, plural(r.size.choices, "choice"))
	}
	r.limitf(tra, 0, model.LimitMemory, "reading this model would take about %s of memory (%s); the limit is %s",
		model.Bytes(int64(min(need, 1<<62))), strings.Join(parts, ", "), model.Bytes(r.limits.MaxMemory))
	return true
}
