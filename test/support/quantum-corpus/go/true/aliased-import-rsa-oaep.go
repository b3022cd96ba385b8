package vault

import (
	crand "crypto/rand"
	cr "crypto/rsa"
	"crypto/sha256"
)

func Wrap(pub *cr.PublicKey, dataKey []byte) ([]byte, error) {
	return cr.EncryptOAEP(sha256.New(), crand.Reader, pub, dataKey, []byte("dek")) // expect: encryption RSA
}

func Unwrap(priv *cr.PrivateKey, blob []byte) ([]byte, error) {
	return cr.DecryptOAEP(sha256.New(), crand.Reader, priv, blob, []byte("dek")) // expect: encryption RSA
}
