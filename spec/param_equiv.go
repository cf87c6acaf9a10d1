package spec

import "github.com/dpcheck/dpcheck/property"

// "check equivalent(M1, M2) for alpha" in a file with a parameter: each
// model is a builder call that may take the parameter as an argument (as
// the file's model does), the file's own model (model), or a model without
// the parameter — the same chain for every value. At least one of them
// must use the parameter (docs/semantics.md, "For every parameter value").

// paramEquivalence checks "check equivalent(MODEL, MODEL) for NAME".
func (c *checker) paramEquivalence(call *Expr, h property.Header) property.Statement {
	if call == nil || len(call.Args) != 2 || call.Args[0].Op == EArg || call.Args[1].Op == EArg {
		c.errorf(h.Pos.Offset, "equivalent takes two models: check equivalent(yarrow_geometric(alpha = %s, count_max = 5), truncated_geometric(alpha = %s, n = 5)) for %s",
			c.param.name, c.param.name, c.param.name)
		return nil
	}
	s := &property.ParamEquivalenceCheck{Header: h, Param: c.param.name, Interval: c.param.in, IntervalText: c.param.text,
		CallPos: c.position(call.Pos()), CallText: exprText(call)}
	ok, uses := true, 0
	for i, a := range call.Args {
		switch {
		case a.Op == EName && a.Text == "model":
			if c.model == nil {
				c.errorf(a.Pos(), "model stands for the file's own model, and this file has none (or it has errors)")
				ok = false
				continue
			}
			if _, isParam := c.model.(property.ParamSource); isParam {
				uses++
			}
			s.Models[i] = c.model
			continue
		case a.Op != ECall:
			c.errorf(a.Pos(), "the arguments of equivalent must be models, such as survey(), or model for the file's own")
			ok = false
			continue
		}
		var m property.Model
		switch a.Text {
		case "prism":
			if m = c.paramPRISMModel(a, true); m != nil {
				if _, isParam := m.(property.ParamSource); isParam {
					uses++
				}
			}
		case "explicit":
			m = c.modelCall(a)
		default:
			// Each call may take the parameter once, whatever the file's
			// model does.
			saved := c.param.arg
			c.param.arg = ""
			b := c.builderCall(a)
			arg := c.param.arg
			c.param.arg = saved
			switch {
			case b == nil:
			case arg != "":
				m = &property.ParamModel{Builder: b, Param: c.param.name, Arg: arg, Interval: c.param.in, IntervalText: c.param.text, Pos: c.position(a.Pos())}
				uses++
			default:
				m = b
			}
		}
		if m == nil {
			ok = false
			continue
		}
		s.Models[i] = m
	}
	if !ok || c.param.bad {
		return nil
	}
	if uses == 0 {
		c.errorf(call.Pos(), "neither model uses the parameter %s: write it as an argument of one, such as yarrow_geometric(alpha = %s, count_max = 5), or compare the models without for %s in a file without a parameter",
			c.param.name, c.param.name, c.param.name)
		return nil
	}
	return s
}
