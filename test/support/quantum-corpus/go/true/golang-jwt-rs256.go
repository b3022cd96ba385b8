package auth

import (
	"errors"
	"os"

	"github.com/golang-jwt/jwt/v5"
)

func Issue(subject string) (string, error) {
	pem, err := os.ReadFile(os.Getenv("JWT_KEY"))
	if err != nil {
		return "", err
	}
	key, err := jwt.ParseRSAPrivateKeyFromPEM(pem) // expect: key-material RSA
	if err != nil {
		return "", err
	}
	token := jwt.NewWithClaims(jwt.SigningMethodRS256, jwt.MapClaims{"sub": subject}) // expect: signature RSA
	return token.SignedString(key)
}

func keyFunc(token *jwt.Token) (any, error) {
	if _, ok := token.Method.(*jwt.SigningMethodRSA); !ok { // expect: signature RSA
		return nil, errors.New("unexpected signing method")
	}
	return publicKey, nil
}

var publicKey any
