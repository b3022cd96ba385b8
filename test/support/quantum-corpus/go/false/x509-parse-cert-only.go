package certinfo

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"time"
)

func Expiry(pemBytes []byte) (time.Time, bool, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return time.Time{}, false, errors.New("no PEM block")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return time.Time{}, false, err
	}
	return cert.NotAfter, cert.PublicKeyAlgorithm == x509.RSA, nil
}
