package apikeys

import (
	"crypto/rand"
	"encoding/base32"
)

// GenerateKey returns a random API key; it has nothing to do with public-key cryptography.
func GenerateKey() (string, error) {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base32.StdEncoding.EncodeToString(b), nil
}

func Sign(key string) string { return "sk_" + key }

func Issue() (string, error) {
	key, err := GenerateKey()
	return Sign(key), err
}
