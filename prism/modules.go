package prism

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/dpcheck/dpcheck/exact"
	"github.com/dpcheck/dpcheck/expr"
	"github.com/dpcheck/dpcheck/statespace"
)

// The model: its type, constants, variables (globals first, then each
// module's, in order, as PRISM orders them), commands, labels and initial
// states.

// module is a module as translated: a renamed copy has its base's
// declarations and commands and a scope that renames them.
type module struct {
	decl *Module // as written
	base *Module // the module whose text it has (decl itself unless renamed)
	sc   *scope
}

// pendingVar is a declared variable whose range and initial value are
// evaluated once every constant is known.
type pendingVar struct {
	v   *Var
	sc  *scope
	idx int
}

// model translates the model file into t.space and returns the model,
// whose errors (if any) are in t.errs.
func (t *translator) model() *Model {
	mf := t.mf
	f := &mf.File
	call := t.opt.Call
	if call == "" {
		call = fmt.Sprintf("prism(%q)", mf.Name)
	}
	// A model without a type is an MDP, as PRISM reads it.
	at := mf.TypeOff
	if mf.Type == TypeNone {
		at = 0
		if len(mf.Modules) > 0 {
			at = mf.Modules[0].Start
		}
	}
	t.space = &statespace.Model{Name: call, Semantics: statespace.PRISM, MDP: mf.Type != DTMC, Pos: f.Position(at)}
	t.declareNames(f, mf.Consts, mf.Formulas, mf.Labels)
	if t.pf != nil {
		t.declareNames(&t.pf.File, t.pf.Consts, t.pf.Formulas, t.pf.Labels)
	}
	mods := t.modulesOf()
	var pending []pendingVar
	for _, g := range mf.Globals {
		if p, ok := t.declareVar(&scope{f: f}, g, g.Name.Off, g.Name.Name, -1); ok {
			pending = append(pending, p)
		}
	}
	for mi, m := range mods {
		t.space.Modules = append(t.space.Modules, m.decl.Name.Name)
		for _, v := range m.base.Vars {
			name, off := v.Name.Name, v.Name.Off
			if r, ok := m.sc.rename[name]; ok {
				name, off = r, renameTarget(m.decl, v.Name.Name)
			}
			if p, ok := t.declareVar(m.sc, v, off, name, mi); ok {
				pending = append(pending, p)
			}
		}
	}
	if len(t.space.Vars) == 0 && len(mods) > 0 {
		t.errorf(f, mods[0].decl.Start, "the model has no variable: declare at least one (PRISM requires it)")
	}
	// Every constant, so that errors in unused ones are reported too.
	for _, c := range mf.Consts {
		if ci := t.consts[c.Name.Name]; ci != nil && ci.decl == c {
			t.constant(ci)
		}
	}
	if t.pf != nil {
		for _, c := range t.pf.Consts {
			// An undefined constant of the properties file needs a value
			// only where a property uses it, as in PRISM.
			if _, given := t.opt.Consts[c.Name.Name]; c.Value == nil && !given {
				continue
			}
			if ci := t.consts[c.Name.Name]; ci != nil && ci.decl == c {
				t.constant(ci)
			}
		}
	}
	for _, p := range pending {
		t.varRange(p)
	}
	for mi, m := range mods {
		for _, c := range m.base.Commands {
			if cmd, ok := t.command(m, mi, c); ok {
				t.space.Commands = append(t.space.Commands, cmd)
			}
		}
	}
	t.rewardDefs()
	for _, l := range mf.Labels {
		t.addLabel(l.Name.Name)
	}
	if in := mf.Init; in != nil {
		if v, ok := t.condition(&scope{f: f}, in.Cond, "the condition of init … endinit"); ok {
			t.space.Init, t.space.InitPos = v.n, f.Position(in.Start)
		}
	}
	return &Model{Space: t.space, File: mf.Name, call: call, foreign: t.foreign, foreignWrites: t.foreignWrites, untyped: mf.Type == TypeNone}
}

// addLabel adds a user label to the state space (once) and returns its
// index, or -1 when its condition has errors.
func (t *translator) addLabel(name string) int {
	l := t.labels[name]
	if l == nil {
		return -1
	}
	if l.idx != -1 {
		return l.idx
	}
	l.idx = -2 // being added: a failed label is not tried again
	v, ok := t.condition(&scope{f: l.f}, l.decl.Value, "the condition of label \""+name+"\"")
	if !ok {
		return -1
	}
	t.space.Labels = append(t.space.Labels, statespace.Label{Name: name, Cond: v.n, Pos: l.f.Position(l.decl.Start)})
	l.idx = len(t.space.Labels) - 1
	return l.idx
}

// renameTarget is the offset of the new name of from in a renamed module.
func renameTarget(m *Module, from string) int {
	for _, r := range m.Renames {
		if r.From.Name == from {
			return r.To.Off
		}
	}
	return m.Name.Off
}

// modulesOf resolves the modules: a renamed copy gets its base's text
// and the substitution of its renaming, checked as PRISM checks it.
func (t *translator) modulesOf() []module {
	f := &t.mf.File
	byName := map[string]*Module{}
	for _, m := range t.mf.Modules {
		if !m.Renamed() {
			if _, dup := byName[m.Name.Name]; !dup {
				byName[m.Name.Name] = m
			}
		}
	}
	var out []module
	for _, m := range t.mf.Modules {
		name := m.Name.Name
		if prev, dup := t.modules[name]; dup {
			t.errorf(f, m.Name.Off, "module %s is already declared at line %d", name, f.Line(out[prev].decl.Start))
			continue
		}
		if !m.Renamed() {
			t.modules[name] = len(out)
			out = append(out, module{decl: m, base: m, sc: &scope{f: f}})
			continue
		}
		base := byName[m.Base.Name]
		if base == nil {
			isCopy := false
			for _, o := range t.mf.Modules {
				isCopy = isCopy || o.Renamed() && o.Name.Name == m.Base.Name
			}
			if isCopy {
				t.errorf(f, m.Base.Off, "%s is itself a renamed copy: copy the module it copies instead", m.Base.Name)
			} else {
				t.errorf(f, m.Base.Off, "no module %s to copy", m.Base.Name)
			}
			continue
		}
		ren := map[string]string{}
		good := true
		for _, r := range m.Renames {
			switch {
			case ren[r.From.Name] != "":
				t.errorf(f, r.From.Off, "%s is renamed twice in module %s", r.From.Name, name)
				good = false
			case t.formulas[r.From.Name] != nil:
				t.errorf(f, r.From.Off, "formula %s cannot be renamed: formulas are expanded before modules are renamed (as in PRISM)", r.From.Name)
				good = false
			default:
				ren[r.From.Name] = r.To.Name
			}
		}
		for _, v := range base.Vars {
			if _, ok := ren[v.Name.Name]; !ok {
				t.errorf(f, m.Name.Off, "module %s copies %s but does not rename its variable %s: every local variable needs a new name (%s=…)", name, base.Name.Name, v.Name.Name, v.Name.Name)
				good = false
			}
		}
		if !good {
			continue
		}
		t.modules[name] = len(out)
		out = append(out, module{decl: m, base: base, sc: &scope{f: f, rename: ren, where: fmt.Sprintf(" (in module %s, a copy of %s)", name, base.Name.Name)}})
	}
	if len(t.mf.Modules) == 0 {
		t.errorf(f, 0, "the model has no module: a model needs at least one module … endmodule")
	}
	return out
}

// declareVar declares a variable (its range and initial value are read
// later, by varRange). mi is its module, -1 for a global.
func (t *translator) declareVar(sc *scope, v *Var, off int, name string, mi int) (pendingVar, bool) {
	if t.taken(sc.f, Ident{Off: off, Name: name}) {
		t.refused[name] = true
		return pendingVar{}, false
	}
	if i, dup := t.vars[name]; dup {
		t.errorf(sc.f, off, "variable %s is already declared at %s%s", name, shortPos(sc.f, t.space.Vars[i].Pos), sc.where)
		return pendingVar{}, false
	}
	t.vars[name] = len(t.space.Vars)
	if mi < 0 {
		t.global[name] = true
	}
	t.space.Vars = append(t.space.Vars, statespace.Var{Name: name, Pos: sc.f.Position(off), Bool: v.Bool, Hi: 1, Module: mi})
	return pendingVar{v: v, sc: sc, idx: len(t.space.Vars) - 1}, true
}

// varRange reads a variable's range and initial value.
func (t *translator) varRange(p pendingVar) {
	sv := &t.space.Vars[p.idx]
	v := p.v
	if !v.Bool {
		lo, ok1 := t.intConst(p.sc, v.Low, "the low bound of "+sv.Name, -MaxVarBound, MaxVarBound)
		hi, ok2 := t.intConst(p.sc, v.High, "the high bound of "+sv.Name, -MaxVarBound, MaxVarBound)
		if ok1 && ok2 {
			sv.Lo, sv.Hi = lo, hi
		} else {
			sv.Lo, sv.Hi = 0, 0
		}
	}
	if v.Init == nil {
		return
	}
	if t.mf.Init != nil {
		t.errAt(p.sc, v.Init, "the initial value of %s: a model with init … endinit gives its variables no initial values (PRISM refuses both)", sv.Name)
		return
	}
	sc := *p.sc
	sc.konst, sc.what = true, "the initial value of "+sv.Name
	x, ok := t.expr(&sc, v.Init)
	switch {
	case !ok:
	case v.Bool && x.t != tyBool:
		t.errAt(p.sc, v.Init, "%s is a bool variable: its initial value must be true or false, found %s", sv.Name, x.describe())
	case !v.Bool && x.t != tyInt:
		t.errAt(p.sc, v.Init, "%s is an int variable: its initial value must be an int, found %s", sv.Name, x.describe())
	default:
		sv.Init = x.n
	}
}

// command translates a command of module mi.
func (t *translator) command(m module, mi int, c *Command) (statespace.Command, bool) {
	sc := m.sc
	f := sc.f
	cmd := statespace.Command{Module: mi, Pos: f.Position(c.Start), Text: clipText(f.Source(c.Span))}
	if len(cmd.Text) > 80 {
		cmd.Text = string([]rune(cmd.Text)[:80]) + "…"
	}
	ok := true
	if c.Action != nil {
		cmd.Action = c.Action.Name
		if r, renamed := sc.rename[cmd.Action]; renamed {
			cmd.Action = r
		}
	}
	g, good := t.condition(sc, c.Guard, "a guard")
	ok = ok && good
	cmd.Guard = g.n
	for _, u := range c.Updates {
		su := statespace.Update{Pos: f.Position(u.Start)}
		if u.Prob != nil {
			p, good := t.number(sc, u.Prob, "the probability of an update")
			ok = ok && good
			if good && p.konst && (p.num.Sign() < 0 || p.num.Cmp(big.NewRat(1, 1)) > 0) {
				t.errAt(sc, u.Prob, "the probability %s is outside [0, 1]", exact.Short(p.num))
				ok = false
			}
			su.Prob = p.n
		}
		seen := map[string]bool{}
		for _, a := range u.Assigns {
			sa, good := t.assign(m, mi, c, a, seen)
			ok = ok && good
			su.Assigns = append(su.Assigns, sa)
		}
		cmd.Updates = append(cmd.Updates, su)
	}
	return cmd, ok
}

// assign translates (x'=e): x must be the module's own variable, or a
// global written by an unsynchronised command (PRISM's rule), once per
// update, and e of x's type.
func (t *translator) assign(m module, mi int, c *Command, a *Assign, seen map[string]bool) (statespace.Assign, bool) {
	sc := m.sc
	f := sc.f
	name := a.Var.Name
	if r, ok := sc.rename[name]; ok {
		name = r
	}
	idx, declared := t.vars[name]
	switch {
	case !declared && t.refused[name]:
		return statespace.Assign{}, false // its declaration is refused, and says why
	case !declared:
		t.errorf(f, a.Var.Off, "unknown variable %s%s%s", name, t.suggest(name), sc.where)
		return statespace.Assign{}, false
	case seen[name]:
		t.errorf(f, a.Var.Off, "%s is assigned twice in this update%s", name, sc.where)
		return statespace.Assign{}, false
	}
	seen[name] = true
	v := t.space.Vars[idx]
	switch {
	case v.Module >= 0 && v.Module != mi && c.Action != nil:
		t.errorf(f, a.Var.Off, "module %s cannot write %s, a variable of module %s, in the synchronised command [%s]: a command writes its own module's variables (PRISM's rule)%s", m.decl.Name.Name, name, t.space.Modules[v.Module], c.Action.Name, sc.where)
		return statespace.Assign{}, false
	case v.Module >= 0 && v.Module != mi:
		// PRISM refuses this; the dpCTL plug-in's examples do it (its
		// above-threshold model halts both modules from one), and an
		// unsynchronised command's update is unambiguous: it is allowed,
		// and the report says so.
		if t.foreign == "" {
			t.foreign = fmt.Sprintf("module %s writes %s, a variable of module %s (line %d)", m.decl.Name.Name, name, t.space.Modules[v.Module], f.Line(a.Var.Off))
		}
		t.foreignWrites++
	case v.Module < 0 && c.Action != nil:
		t.errorf(f, a.Var.Off, "the synchronised command [%s] cannot write the global variable %s: in PRISM only unlabelled commands ([]) may%s", c.Action.Name, name, sc.where)
		return statespace.Assign{}, false
	}
	sa := statespace.Assign{Var: idx, Pos: f.Position(a.Start)}
	x, ok := t.expr(sc, a.Value)
	switch {
	case !ok:
		return sa, false
	case v.Bool && x.t != tyBool:
		t.errAt(sc, a.Value, "%s is a bool variable: its new value must be a boolean, found %s", name, x.describe())
		return sa, false
	case !v.Bool && x.t == tyBool:
		t.errAt(sc, a.Value, "%s is an int variable: its new value must be an int, found %s", name, x.describe())
		return sa, false
	case !v.Bool && x.t == tyDouble:
		t.errAt(sc, a.Value, "%s is an int variable, and its new value is a double (PRISM refuses it; / divides exactly): round it with floor(…), ceil(…) or round(…)", name)
		return sa, false
	}
	sa.Value = x.n
	return sa, true
}

// atomLabel returns the name of the hidden label of a condition a
// property tests (one per distinct source text; the name is the text,
// clipped, made distinct from every other name), adding it to the state
// space. The text of a span is read once (a named property referred to
// many times tests the same spans again).
func (t *translator) atomLabel(f *File, span Span, cond *expr.Expr) string {
	if name, ok := t.atomSpans[spanKey{f, span}]; ok {
		return name
	}
	key := strings.Join(strings.Fields(f.Source(span)), " ")
	name, ok := t.atoms[key]
	if !ok {
		name = clipText(key)
		for t.labels[name] != nil || hasVar(t.vars, name) || t.isAtomName(name) {
			name += "'"
		}
		t.atoms[key] = name
		t.atomNames[name] = true
		t.space.Labels = append(t.space.Labels, statespace.Label{Name: name, Cond: cond, Pos: cond.Pos})
	}
	t.atomSpans[spanKey{f, span}] = name
	return name
}

func (t *translator) isAtomName(name string) bool {
	return t.atomNames[name] || name == "init" || name == "deadlock" || strings.TrimSpace(name) == ""
}
