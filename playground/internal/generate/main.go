// Command generate refreshes the playground's generated files (go
// generate ./playground): the WebAssembly module, wasm_exec.js, the
// examples and the manifest, in playground/static. Run it from anywhere
// in the module.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/dpcheck/dpcheck/playground/internal/assets"
)

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return err
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	static := filepath.Join(root, "playground", "static")
	gz, m, err := assets.Build(ctx, root)
	if err != nil {
		return err
	}
	manifest, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	exec, err := assets.WASMExecJS(ctx, root)
	if err != nil {
		return err
	}
	examples, err := assets.ExamplesJSON(root)
	if err != nil {
		return err
	}
	files := map[string][]byte{}
	var old assets.ManifestDoc
	if b, err := os.ReadFile(filepath.Join(static, assets.Manifest)); err == nil {
		json.Unmarshal(b, &old)
	}
	if _, err := os.Stat(filepath.Join(static, assets.Viz)); err != nil || old.Viz != assets.VizVersion {
		viz, err := assets.VizJS(ctx)
		if err != nil {
			return err
		}
		files[assets.Viz] = viz
	}
	files[assets.WASM], files[assets.Manifest] = gz, append(manifest, '\n')
	files[assets.WASMExec], files[assets.Examples] = exec, append(examples, '\n')
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(static, name), b, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("playground/static: %s, %d bytes (%d gzipped), built by %s\n", assets.WASM, m.WASMBytes, m.GzipBytes, m.Go)
	return nil
}
