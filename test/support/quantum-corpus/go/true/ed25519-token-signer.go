package token

import (
	"crypto/ed25519"
	"encoding/base64"
)

var signingKey ed25519.PrivateKey

func init() {
	_, signingKey, _ = ed25519.GenerateKey(nil) // expect: key-generation EdDSA
}

func Sign(claims []byte) string {
	sig := ed25519.Sign(signingKey, claims) // expect: signature EdDSA
	return base64.RawURLEncoding.EncodeToString(sig)
}

func Verify(pub ed25519.PublicKey, claims, sig []byte) bool {
	return ed25519.Verify(pub, claims, sig) // expect: signature EdDSA
}
