//go:build !js

package picture

import (
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
)

// pngCanvas is the canvas of a profile drawn as PNG.
func pngCanvas() (vg.CanvasWriterTo, error) {
	return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(figWidth, figHeight), vgimg.UseDPI(pngDPI))}, nil
}
