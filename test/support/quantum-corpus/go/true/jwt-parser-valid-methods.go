package gateway

import jwtlib "github.com/golang-jwt/jwt/v4"

var parser = jwtlib.NewParser(jwtlib.WithValidMethods([]string{"ES256"})) // expect: signature ECDSA

func Parse(raw string, key any) (*jwtlib.Token, error) {
	return parser.Parse(raw, func(*jwtlib.Token) (any, error) { return key, nil })
}
