module example.com/cut

go 1.22

require (
	github.com/first/dep v1.0.0
	github.com/second/dep v2.1.0+incompatible // indirect
	github.com/third/
