package paths

import (
	"os"
	"path/filepath"
)

var rsaKeyPath = filepath.Join("/etc", "app", "rsa_private.pem")
var ecdsaCertPath = filepath.Join("/etc", "app", "ecdsa_cert.pem")

func ReadRSAKey() ([]byte, error) { return os.ReadFile(rsaKeyPath) }

func HasECDSACert() bool {
	_, err := os.Stat(ecdsaCertPath)
	return err == nil
}
