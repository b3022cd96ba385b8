package legacyecdh

import (
	"crypto/elliptic"
	"crypto/rand"
	"math/big"
)

func Shared(peerX, peerY *big.Int) ([]byte, []byte, error) {
	curve := elliptic.P256()
	priv, x, y, err := elliptic.GenerateKey(curve, rand.Reader) // expect: key-generation ECDH
	if err != nil {
		return nil, nil, err
	}
	sx, _ := curve.ScalarMult(peerX, peerY, priv) // expect: key-agreement ECDH
	return sx.Bytes(), elliptic.Marshal(curve, x, y), nil
}
