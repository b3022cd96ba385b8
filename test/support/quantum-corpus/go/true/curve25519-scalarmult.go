package noise

import "golang.org/x/crypto/curve25519"

func PublicKey(private []byte) ([]byte, error) {
	return curve25519.X25519(private, curve25519.Basepoint) // expect: key-agreement X25519
}

func Shared(private, peer []byte) ([]byte, error) {
	return curve25519.X25519(private, peer) // expect: key-agreement X25519
}
