package jwsutil

import (
	jose "github.com/go-jose/go-jose/v4"
)

func NewSigner(key any) (jose.Signer, error) {
	return jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, nil) // expect: signature ECDSA
}

func NewEncrypter(pub any) (jose.Encrypter, error) {
	recipient := jose.Recipient{Algorithm: jose.RSA_OAEP_256, Key: pub} // expect: encryption RSA
	return jose.NewEncrypter(jose.A256GCM, recipient, nil)
}
