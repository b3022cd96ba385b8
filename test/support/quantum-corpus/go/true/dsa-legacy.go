package legacy

import (
	"crypto/dsa"
	"crypto/rand"
)

func NewKey() (*dsa.PrivateKey, error) {
	var params dsa.Parameters
	if err := dsa.GenerateParameters(&params, rand.Reader, dsa.L1024N160); err != nil { // expect: key-generation DSA
		return nil, err
	}
	priv := &dsa.PrivateKey{PublicKey: dsa.PublicKey{Parameters: params}}
	return priv, dsa.GenerateKey(priv, rand.Reader) // expect: key-generation DSA
}

func Sign(priv *dsa.PrivateKey, digest []byte) error {
	_, _, err := dsa.Sign(rand.Reader, priv, digest) // expect: signature DSA
	return err
}
