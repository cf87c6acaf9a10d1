package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dpcheck/dpcheck/prism"
	"github.com/dpcheck/dpcheck/property"
	"github.com/dpcheck/dpcheck/source"
)

// modelCall checks the call of a model: prism(…), explicit(…) or a
// builder's. It returns nil after reporting an error.
func (c *checker) modelCall(call *Expr) property.Model {
	switch call.Text {
	case "prism":
		if m, _ := c.prismModel(call, nil, false); m != nil {
			return m
		}
		return nil
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
//
// With param, the undefined double constant of its name is the file's
// parameter (prism.Options.Param), and uses says so; a model without that
// constant, or a value given for it, is an error, unless optional, when
// the model is read without the parameter.
func (c *checker) prismModel(call *Expr, param *prism.Param, optional bool) (m *prism.Model, uses bool) {
	if len(call.Args) == 0 || call.Args[0].Op != EStr {
		c.errorf(call.Pos(), `prism takes the model file first, in quotes: prism("model.prism", N = 5)`)
		return nil, false
	}
	path := call.Args[0].Text
	if optional && param != nil && slices.ContainsFunc(call.Args[1:], func(a *Expr) bool { n, _ := arg(a); return n == param.Name }) {
		param = nil // a value given: the model without the parameter
	}
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
		case param != nil && name == param.Name:
			c.errorf(a.Pos(), "%s is the parameter (param %s in …): it takes every value of its interval, and no value here", name, name)
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
		return nil, false
	}
	if c.readFile == nil {
		c.errorf(call.Pos(), "this load reads no other file: give spec.Options a ReadFile to read PRISM models")
		return nil, false
	}
	full, src, ok := c.readNamed(call.Args[0], "the PRISM model")
	if !ok {
		return nil, false
	}
	mf, err := prism.ParseModel(full, src)
	declares := err == nil && param != nil && slices.ContainsFunc(mf.Consts, func(k *prism.Const) bool { return k.Value == nil && k.Name.Name == param.Name })
	if err == nil && param != nil && !declares && optional {
		param = nil
	}
	if err == nil && param != nil && !declares && !optional {
		for _, k := range mf.Consts {
			if k.Name.Name == param.Name {
				c.errorf(call.Pos(), "the PRISM model defines %s (%s line %d): leave it undefined, const double %s;, to make it the parameter", param.Name, mf.Name, mf.Line(k.Start), param.Name)
				return nil, false
			}
		}
	}
	if err == nil && param != nil && !declares {
		var undefined []string
		for _, k := range mf.Consts {
			if k.Value == nil {
				undefined = append(undefined, k.Name.Name)
			}
		}
		hint := "it leaves no constant undefined"
		if len(undefined) > 0 {
			hint = "its undefined constants: " + strings.Join(undefined, ", ")
		}
		c.errorf(call.Pos(), "the PRISM model has no undefined constant %s to be the parameter (%s): declare it const double %s; in the model", param.Name, hint, param.Name)
		return nil, false
	}
	if err == nil {
		m, err = prism.NewModel(mf, prism.Options{Consts: consts, Call: exprText(call), Pos: c.position(call.Pos()), Param: param,
			ConstHint: func(name string) string { return fmt.Sprintf("give it in the call: prism(%q, %s = …)", path, name) }, Context: c.ctx, Limits: c.limits})
		if err == nil {
			return m, param != nil
		}
	}
	if list, ok := err.(source.ErrorList); ok {
		c.errs = append(c.errs, list...)
	} else {
		c.errorf(call.Pos(), "%v", err)
	}
	return nil, false
}
