package config

import (
	"crypto/rand"
	"crypto/rsa"
)

func keySize() int {
	return 3072
}

func ServiceKey() (*rsa.PrivateKey, error) {
	return rsa.GenerateKey(rand.Reader, keySize()) // expect: key-generation RSA
}
