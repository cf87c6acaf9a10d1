//go:build js

package picture

import (
	"errors"

	"gonum.org/v1/plot/vg"
)

// pngCanvas refuses PNG in a WebAssembly build (the playground): a page
// shows the SVG, and the rasteriser would only make the module larger.
func pngCanvas() (vg.CanvasWriterTo, error) {
	return nil, errors.New("a profile is drawn as SVG in the browser, not PNG")
}
