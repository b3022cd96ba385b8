module example.com/bad

go 1.22

require (
	github.com/good/one v1.0.0
	github.com/no/version
	github.com/bad/version latest
	github.com/good/two v0.2.0 // indirect
)

frobnicate github.com/x v1.0.0

replace github.com/good/one => github.com/fork/one
