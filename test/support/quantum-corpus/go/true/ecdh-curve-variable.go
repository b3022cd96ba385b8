package exchange

import (
	"crypto/ecdh"
	"crypto/rand"
)

var curve = ecdh.P521()

func KeyPair() (*ecdh.PrivateKey, error) {
	return curve.GenerateKey(rand.Reader) // expect: key-generation ECDH
}

func Peer(raw []byte) (*ecdh.PublicKey, error) {
	return curve.NewPublicKey(raw) // expect: key-material ECDH
}
