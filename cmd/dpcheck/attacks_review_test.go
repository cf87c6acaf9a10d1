package main

// The reports of a CI run: a file that cannot be read is that file's
// error, in every report, and the other files are checked.
func init() {
	const survey = "model survey()\ncheck dp(eps = ln(3))\n"
	attacks = append(attacks, []attack{
		{name: "reports: a walk meets a symbolic link to /proc/self/environ", files: map[string]string{"m/survey.dp": survey, "m/env.dp": "symlink:/proc/self/environ"},
			args: []string{"--format", "github", "--junit", "j.xml", "--markdown", "s.md", "m/"}, read: []string{"j.xml", "s.md"}, exit: 2,
			want: []string{"::error file=m/env.dp,title=dpcheck%3A cannot check::m/env.dp is a symbolic link to a file outside m/: a directory walk does not follow it",
				`<testsuite name="m/survey.dp" tests="1" failures="0" errors="0"`, "| PASS | m/survey\\.dp | 2 |", "| **ERROR** | m/env\\.dp |"},
			forbid: []string{"CI_SECRET_TOKEN", "PATH="}},
		{name: "reports: a file that does not exist", files: map[string]string{"m.dp": survey},
			args: []string{"--junit", "j.xml", "nonexist.dp", "m.dp"}, read: []string{"j.xml"}, exit: 2,
			want:   []string{"nonexist.dp: error: cannot read nonexist.dp: no such file", `<testsuite name="nonexist.dp" tests="1" failures="0" errors="1"`, "PASS  line 2"},
			forbid: []string{"stat nonexist.dp"}},
	}...)
}
