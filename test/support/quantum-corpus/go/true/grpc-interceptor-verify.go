package interceptors

import (
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

func VerifyCaller(pubDER []byte) grpc.UnaryServerInterceptor {
	pub, err := x509.ParsePKCS1PublicKey(pubDER) // expect: key-material RSA
	if err != nil {
		panic(err)
	}
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		md, _ := metadata.FromIncomingContext(ctx)
		sum := sha256.Sum256([]byte(md.Get("x-body")[0]))
		if err := rsa.VerifyPSS(pub, crypto.SHA256, sum[:], []byte(md.Get("x-sig")[0]), nil); err != nil { // expect: signature RSA
			return nil, err
		}
		return next(ctx, req)
	}
}
