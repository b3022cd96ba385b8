package audit

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha512"
)

type Signer struct {
	key *ecdsa.PrivateKey
}

func NewSigner() (*Signer, error) {
	key, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader) // expect: key-generation ECDSA
	if err != nil {
		return nil, err
	}
	return &Signer{key: key}, nil
}

func (s *Signer) Sign(record []byte) ([]byte, error) {
	digest := sha512.Sum384(record)
	return ecdsa.SignASN1(rand.Reader, s.key, digest[:]) // expect: signature ECDSA
}

func (s *Signer) Verify(record, sig []byte) bool {
	digest := sha512.Sum384(record)
	return ecdsa.VerifyASN1(&s.key.PublicKey, digest[:], sig) // expect: signature ECDSA
}
