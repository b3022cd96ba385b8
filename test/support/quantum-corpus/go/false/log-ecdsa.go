package inventory

import "log/slog"

func Report(rsaKeys, ecdsaKeys int) {
	slog.Info("generating ECDSA key inventory", "ecdsa", ecdsaKeys)
	slog.Warn("RSA keys below 2048 bits found; regenerate with rsa.GenerateKey(rand.Reader, 3072)", "count", rsaKeys)
}
