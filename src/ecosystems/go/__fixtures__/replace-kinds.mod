module example.com/replacing

require (
	gopkg.in/yaml.v3 v3.0.0
	golang.org/x/net v0.17.0
	github.com/vendored/lib v1.4.0
)

replace gopkg.in/yaml.v3 => github.com/acme/yaml v3.0.2

replace golang.org/x/net v0.17.0 => golang.org/x/net v0.33.0

replace github.com/vendored/lib => ../lib
