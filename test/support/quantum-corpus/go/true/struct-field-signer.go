package signing

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
)

type Service struct {
	key *rsa.PrivateKey
}

func (s *Service) SignDigest(digest []byte) ([]byte, error) {
	return s.key.Sign(rand.Reader, digest, crypto.SHA256) // expect: signature RSA
}

func (s *Service) SignPSS(message []byte) ([]byte, error) {
	sum := sha256.Sum256(message)
	return rsa.SignPSS(rand.Reader, s.key, crypto.SHA256, sum[:], nil) // expect: signature RSA
}
