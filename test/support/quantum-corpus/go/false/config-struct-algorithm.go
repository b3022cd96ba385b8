package config

type Auth struct {
	Algorithm string `yaml:"algorithm"`
	KeyType   string `yaml:"key_type"`
	KeyBits   int    `yaml:"key_bits"`
}

var Default = Auth{Algorithm: "RS256", KeyType: "rsa", KeyBits: 2048}

func (a Auth) Asymmetric() bool { return a.Algorithm != "HS256" }
