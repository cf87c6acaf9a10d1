module github.com/dpcheck/dpcheck

go 1.24.0

require (
	github.com/google/go-cmp v0.7.0
	gonum.org/v1/gonum v0.17.0
)

require github.com/alecthomas/participle/v2 v2.1.4 // indirect
