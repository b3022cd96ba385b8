package billing

import (
	"github.com/acme/regional/rsa"
)

// rsa here is the Regional Sales Area package of the billing domain.
func Areas() []string {
	area, _ := rsa.GenerateKey("north", 2048)
	return []string{area.Name, rsa.EncryptOAEP(area.Name)}
}
