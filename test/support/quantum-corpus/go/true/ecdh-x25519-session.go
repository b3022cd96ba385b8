package session

import (
	"crypto/ecdh"
	"crypto/rand"
)

func Establish(peer []byte) ([]byte, []byte, error) {
	priv, err := ecdh.X25519().GenerateKey(rand.Reader) // expect: key-generation X25519
	if err != nil {
		return nil, nil, err
	}
	peerKey, err := ecdh.X25519().NewPublicKey(peer) // expect: key-material X25519
	if err != nil {
		return nil, nil, err
	}
	secret, err := priv.ECDH(peerKey) // expect: key-agreement X25519
	return secret, priv.PublicKey().Bytes(), err
}
