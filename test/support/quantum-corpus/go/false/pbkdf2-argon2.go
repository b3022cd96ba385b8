package kdf

import (
	"crypto/sha256"

	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/pbkdf2"
)

func Legacy(password, salt []byte) []byte {
	return pbkdf2.Key(password, salt, 600000, 32, sha256.New)
}

func Modern(password, salt []byte) []byte {
	return argon2.IDKey(password, salt, 1, 64*1024, 4, 32)
}
