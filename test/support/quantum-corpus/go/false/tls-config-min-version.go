package server

import (
	"crypto/tls"
	"net/http"
)

func New(addr string, handler http.Handler) *http.Server {
	return &http.Server{
		Addr:      addr,
		Handler:   handler,
		TLSConfig: &tls.Config{MinVersion: tls.VersionTLS13},
	}
}
