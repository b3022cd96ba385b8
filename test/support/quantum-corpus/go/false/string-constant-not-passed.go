package labels

import "fmt"

const alg = "RSA"
const curve = "P-256"

func Describe(kind string, bits int) string {
	if kind == alg {
		return fmt.Sprintf("RSA-%d", bits)
	}
	return fmt.Sprintf("EC (%s)", curve)
}
