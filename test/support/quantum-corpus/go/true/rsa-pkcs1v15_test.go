package tokens

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"testing"
)

func TestVerifyRejectsTamperedToken(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 1024) // expect: key-generation RSA
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("token"))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:]) // expect: signature RSA
	if err != nil {
		t.Fatal(err)
	}
	sig[0] ^= 0xff
	if rsa.VerifyPKCS1v15(&key.PublicKey, crypto.SHA256, sum[:], sig) == nil { // expect: signature RSA
		t.Fatal("tampered signature verified")
	}
}
