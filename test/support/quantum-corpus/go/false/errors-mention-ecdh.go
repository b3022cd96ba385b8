package handshake

import "errors"

var (
	ErrNoECDH       = errors.New("peer did not offer ECDH (X25519 or P-256)")
	ErrWeakRSA      = errors.New("peer certificate uses RSA below 2048 bits")
	ErrUnknownCurve = errors.New("unknown curve; expected secp256r1")
)
