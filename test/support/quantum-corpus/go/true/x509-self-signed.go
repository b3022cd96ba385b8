package pki

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"time"
)

func SelfSigned(host string) ([]byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader) // expect: key-generation ECDSA
	if err != nil {
		return nil, err
	}
	template := x509.Certificate{
		SerialNumber:       big.NewInt(1),
		Subject:            pkix.Name{CommonName: host},
		NotAfter:           time.Now().Add(365 * 24 * time.Hour),
		SignatureAlgorithm: x509.ECDSAWithSHA256, // expect: signature ECDSA
	}
	return x509.CreateCertificate(rand.Reader, &template, &template, &key.PublicKey, key)
}
