package sshserver

import (
	"crypto/ed25519"
	"crypto/rand"

	"golang.org/x/crypto/ssh"
)

func HostSigner() (ssh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader) // expect: key-generation EdDSA
	if err != nil {
		return nil, err
	}
	return ssh.NewSignerFromKey(priv) // expect: key-material EdDSA
}

func ClientConfig(user string, auth []ssh.AuthMethod) *ssh.ClientConfig {
	return &ssh.ClientConfig{
		User:              user,
		Auth:              auth,
		HostKeyAlgorithms: []string{ssh.KeyAlgoED25519, ssh.KeyAlgoRSASHA256}, // expect: signature EdDSA; signature RSA
	}
}
