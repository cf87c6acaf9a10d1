package param

import (
	"context"
	"errors"
	"fmt"

	"github.com/dpcheck/dpcheck/builder"
	"github.com/dpcheck/dpcheck/poly"
)

// FromBuilder returns the catalogue's builder d, called with the checked
// arguments a (defaults filled), for every value in the interval in of its
// argument arg (one of d.ParamArgs), as a parametric chain whose
// parameter is named name. Its rows are the builder's own, written once
// over a number field and made here over the rational functions of the
// parameter (d.Parametric), so that at every parameter value the chain is
// the one d.Build makes there. An argument out of the parametric form's
// range is an error wrapping ErrParam; a limit of the algebra wraps
// poly.ErrLimit; ctx's error is returned when ctx ends.
func FromBuilder(ctx context.Context, lim poly.Limits, d *builder.Def, a *builder.Args, arg, name string, in poly.Interval) (*Chain, error) {
	if !d.ParamArg(arg) || d.Parametric == nil {
		return nil, fmt.Errorf("%w: the argument %s of %s cannot be the parameter (%s can)", ErrParam, arg, d.Name, builder.ParamBuilders())
	}
	f := poly.Field{Ctx: ctx, Limits: lim, Interval: in, Param: name}
	t, err := d.Parametric(ctx, a, builder.Parametric{Field: f, Arg: arg})
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, poly.ErrLimit):
		return nil, err
	default:
		return nil, fmt.Errorf("%w: %v", ErrParam, err)
	}
	frame, err := Frame(t.Names, t.Vals, t.Labels, t.Inputs)
	if err != nil {
		return nil, err
	}
	return New(ctx, lim, frame, name, in, t.Rows, t.Neighbours)
}
