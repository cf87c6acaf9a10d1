package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestJSONSchemaFile validates real JSON reports against the schema the
// repository documents, docs/dpcheck.schema.json (which allows no field it
// does not describe): the reports of every golden input, of models/
// (with and without --lump), and the report package's golden JSON (MDPs,
// parameters, hostile names).
func TestJSONSchemaFile(t *testing.T) {
	sch, err := jsonschema.NewCompiler().Compile("../../docs/dpcheck.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	validate := func(name string, doc []byte) {
		t.Helper()
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
		if err != nil {
			t.Fatalf("%s: not JSON: %v", name, err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s does not follow docs/dpcheck.schema.json: %v", name, err)
		}
	}
	// The schema is strict: a field it does not document fails.
	for _, bad := range []string{
		`{"schema": 1, "dpcheck": "x", "pass": true, "files": [{"file": "a", "status": "pass", "colour": 1}]}`,
		`{"schema": 1, "dpcheck": "x", "pass": true, "files": [{"file": "a", "status": "pass", "statements": [{"line": 1, "column": 1, "source": "s", "kind": "check dp", "semantics": "s", "outcome": "holds", "expect": null, "pass": true, "counterexample": {"from": {"name": "a"}, "to": {"name": "b"}, "event": [], "pr_from": {"exact": "1", "decimal": 1}, "pr_to": {"exact": "0", "decimal": 0}, "bound": {"exact": "0", "decimal": 0}, "excess": {"exact": "1", "decimal": 1}, "least_eps": {"exact": "∞", "decimal": null}, "odd": 1}}]}]}`,
		`{"schema": 2, "dpcheck": "x", "pass": true, "files": []}`,
	} {
		inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if sch.Validate(inst) == nil {
			t.Errorf("the schema accepts %s", bad)
		}
	}
	runs := [][]string{
		{"testdata/pass.dp", "testdata/violated.dp", "testdata/errors.dp", "testdata/dpctl.dp", "testdata/composition.dp", "testdata/broken.dp"},
		{"testdata/prism_errors.prism", "testdata/prism_errors.pctl"},
		{"--const", "p=1/2", "../../models/prism/randomized_response.prism", "../../models/prism/randomized_response.pctl"},
		{"--const", "p=1/2", "../../models/prism/randomized_response.prism", "testdata/prism_refused.pctl"},
		{"testdata/prism_rewards.pm", "testdata/prism_rewards.pctl"},
		{"--param", "p=(0,1)", "../../models/prism/randomized_response.prism", "../../models/prism/randomized_response.pctl"},
		{"../../models"},
		{"--lump", "../../models"},
		{"--timeout", "1ns", "testdata/pass.dp"},
	}
	for _, args := range runs {
		var stdout bytes.Buffer
		run(context.Background(), append([]string{"--format", "json"}, args...), &stdout, &bytes.Buffer{})
		validate("dpcheck --format json "+strings.Join(args, " "), stdout.Bytes())
	}
	golden, _ := filepath.Glob("../../report/testdata/golden/*_json.txt")
	if len(golden) < 4 {
		t.Fatalf("found %d golden JSON reports in report/testdata/golden", len(golden))
	}
	for _, f := range golden {
		doc, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		validate(f, doc)
	}
}

// TestJSONParamValues: a PRISM file's P=? for every value gives each
// initial state and its function of the parameter in parts, as well as in
// the one line of functions.
func TestJSONParamValues(t *testing.T) {
	var stdout bytes.Buffer
	run(context.Background(), []string{"--format", "json", "--param", "p=(0,1)", "../../models/prism/randomized_response.prism", "../../models/prism/randomized_response_param.pctl"}, &stdout, &bytes.Buffer{})
	var doc struct {
		Files []struct {
			Statements []struct {
				Source string
				Param  *struct {
					Functions []string
					Values    []struct {
						State    struct{ Name string }
						Function string
					}
				}
			}
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil || len(doc.Files) != 1 || len(doc.Files[0].Statements) == 0 {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	p := doc.Files[0].Statements[0].Param
	if p == nil || len(p.Values) != 2 || p.Values[0].State.Name != "s0" || p.Values[0].Function != "1/2 − 1/2·p" || p.Values[1].Function != "1/2·p + 1/2" {
		t.Fatalf("%s: %+v", doc.Files[0].Statements[0].Source, p)
	}
	if p.Functions[0] != "s0 (truth=0, answer=0): 1/2 − 1/2·p" {
		t.Errorf("functions: %q", p.Functions)
	}
}
