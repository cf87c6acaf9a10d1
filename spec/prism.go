package spec

import (
	"fmt"

	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
)

// modelCall checks the call of a model: prism(…), explicit(…) or a
// builder's. It returns nil after reporting an error.
func (c *checker) modelCall(call *Expr) property.Model {
	switch call.Text {
	case "prism":
		return c.prismModel(call)
	case "explicit":
		return c.explicitFiles(call)
	}
	if b := c.builderCall(call); b != nil {
		return b
	}
	return nil
}

// prismModel checks "model prism("FILE", NAME = VALUE, …)": a PRISM model
// file (a path relative to the .dp file, below Options.Root), read through
// Options.ReadFile and translated with the values of its undefined constants. Its errors are
// positioned in the model file.
func (c *checker) prismModel(call *Expr) property.Model {
	if len(call.Args) == 0 || call.Args[0].Op != EStr {
		c.errorf(call.Pos(), `prism takes the model file first, in quotes: prism("model.prism", N = 5)`)
		return nil
	}
	path := call.Args[0].Text
	consts := map[string]prism.Value{}
	good := true
	for _, a := range call.Args[1:] {
		name, val := arg(a)
		switch {
		case name == "":
			c.errorf(a.Pos(), `after the file, prism takes the values of undefined constants by name: prism(%q, N = 5)`, path)
			good = false
			continue
		case consts[name].Pos.Line > 0:
			c.errorf(a.Pos(), "constant %s is given twice", name)
			good = false
			continue
		}
		v, ok := constEval{c}.expr(val)
		if !ok {
			good = false
			continue
		}
		pv := prism.Value{Pos: c.position(a.Pos()), Text: exprText(val)}
		switch v.k {
		case kNum:
			pv.Num = v.num
		case kBool:
			pv.Bool = v.b
		default:
			c.errorf(val.Pos(), "the value of a PRISM constant is a number or true or false, not %s", v.k)
			good = false
			continue
		}
		consts[name] = pv
	}
	if !good {
		return nil
	}
	if c.readFile == nil {
		c.errorf(call.Pos(), "this load reads no other file: give spec.Options a ReadFile to read PRISM models")
		return nil
	}
	full, src, ok := c.readNamed(call.Args[0], "the PRISM model")
	if !ok {
		return nil
	}
	mf, err := prism.ParseModel(full, src)
	if err == nil {
		var m *prism.Model
		m, err = prism.NewModel(mf, prism.Options{Consts: consts, Call: exprText(call), Pos: c.position(call.Pos()),
			ConstHint: func(name string) string { return fmt.Sprintf("give it in the call: prism(%q, %s = …)", path, name) }, Context: c.ctx, Limits: c.limits})
		if err == nil {
			return m
		}
	}
	if list, ok := err.(source.ErrorList); ok {
		c.errs = append(c.errs, list...)
	} else {
		c.errorf(call.Pos(), "%v", err)
	}
	return nil
}
