package pq

import (
	"crypto/ecdh"
	"crypto/mlkem"
	"crypto/rand"
)

func HybridKeys() (*mlkem.DecapsulationKey768, *ecdh.PrivateKey, error) {
	kem, err := mlkem.GenerateKey768() // expect: key-generation ML-KEM
	if err != nil {
		return nil, nil, err
	}
	classical, err := ecdh.X25519().GenerateKey(rand.Reader) // expect: key-generation X25519
	return kem, classical, err
}
