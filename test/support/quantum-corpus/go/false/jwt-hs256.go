package session

import "github.com/golang-jwt/jwt/v5"

var secret = []byte("change-me")

func Issue(user string) (string, error) {
	return jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": user}).SignedString(secret)
}

func keyFunc(t *jwt.Token) (any, error) {
	if _, ok := t.Method.(*jwt.SigningMethodHMAC); !ok {
		return nil, jwt.ErrSignatureInvalid
	}
	return secret, nil
}
