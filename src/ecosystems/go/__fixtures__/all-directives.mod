// A module using every go.mod directive.
module example.com/app

go 1.23.4

toolchain go1.23.6

godebug (
	default=go1.21
	panicnil=1
)

require github.com/single/line v1.0.0

require (
	github.com/BurntSushi/toml v1.4.0
	"github.com/quoted/path" v0.3.1 // used by the CLI
	golang.org/x/mod v0.21.0 // indirect
	github.com/pseudo/dep v0.0.0-20240927000941-0f3dac36c52b // indirect; kept for tests
	github.com/legacy/pkg v2.3.0+incompatible
	github.com/replaced/all v1.1.0
	github.com/replaced/exact v1.2.0 // indirect
	github.com/replaced/other v1.3.0
	github.com/local/fork v0.5.0
)

exclude github.com/BurntSushi/toml v1.3.0

exclude (
	golang.org/x/mod v0.20.0
)

replace github.com/replaced/all => github.com/fork/all v1.1.5

replace (
	github.com/replaced/exact v1.2.0 => github.com/fork/exact v1.2.1-0.20241212181136-fad1cd13edbd
	// A replace for a version that is not required changes nothing.
	github.com/replaced/other v1.0.0 => github.com/fork/other v9.9.9
	github.com/local/fork => ./third_party/fork
)

retract v0.9.0 // published by mistake

retract (
	[v0.1.0, v0.2.5]
)

tool golang.org/x/tools/cmd/stringer
