package main

import (
	"crypto/rand"
	"crypto/rsa"
	"flag"
	"log"
)

var bits = flag.Int("bits", 4096, "RSA key size")

func main() {
	flag.Parse()
	key, err := rsa.GenerateKey(rand.Reader, *bits) // expect: key-generation RSA
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("generated %d-bit key", key.N.BitLen())
}
