package keys

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"net/http"
)

const keyBits = 2048

func CreateKeyHandler(w http.ResponseWriter, r *http.Request) {
	key, err := rsa.GenerateKey(rand.Reader, keyBits) // expect: key-generation RSA
	if err != nil {
		http.Error(w, "key generation failed", http.StatusInternalServerError)
		return
	}
	der := x509.MarshalPKCS1PrivateKey(key) // expect: key-material RSA
	w.Header().Set("Content-Type", "application/x-pem-file")
	_ = pem.Encode(w, &pem.Block{Type: "RSA PRIVATE KEY", Bytes: der})
}
