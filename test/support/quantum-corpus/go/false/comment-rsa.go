// Package rotation schedules key rotation.
//
// Keys used to be created here with rsa.GenerateKey(rand.Reader, 2048) and signed with
// rsa.SignPKCS1v15; they now come from the KMS (RSA-3072 and ECDSA P-256), so this package only
// decides when to rotate.
package rotation

import "time"

// Every is the rotation period (ecdsa.GenerateKey is not called here).
const Every = 90 * 24 * time.Hour

func Next(last time.Time) time.Time { return last.Add(Every) }
