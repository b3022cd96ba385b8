package release

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
)

// SignBlob signs with whatever key the caller hands in; the parameter's type says ECDSA.
func SignBlob(key *ecdsa.PrivateKey, digest []byte) ([]byte, error) {
	return key.Sign(rand.Reader, digest, crypto.SHA256) // expect: signature ECDSA
}
