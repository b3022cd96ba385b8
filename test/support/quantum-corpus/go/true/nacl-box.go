package mailbox

import (
	"crypto/rand"

	"golang.org/x/crypto/nacl/box"
)

func Seal(message []byte, peer *[32]byte) ([]byte, *[32]byte, error) {
	pub, priv, err := box.GenerateKey(rand.Reader) // expect: key-generation X25519
	if err != nil {
		return nil, nil, err
	}
	var nonce [24]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, nil, err
	}
	return box.Seal(nonce[:], message, &nonce, peer, priv), pub, nil // expect: key-agreement X25519
}
