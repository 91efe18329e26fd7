package server

import (
	"net/http"
	"path"
	"strings"

	"github.com/payoutd/payoutd/apperr"
)

// MaxHeaderBytes is the most request header the API reads: a request
// beyond it is answered 431 with the error body. The HTTP server's own
// limit (ConnHeaderBytes) lies far above it, so only a request too large
// to read at all meets Go's plain-text 431.
const (
	MaxHeaderBytes  = 64 << 10
	ConnHeaderBytes = 1 << 20
)

// errHeadersTooLarge is the documented 431.
const errHeadersTooLarge = "ERR_HEADERS_TOO_LARGE"

// requestEdge answers, with the error body, a request no route should
// see: headers over MaxHeaderBytes, or a path that is not clean (// or
// . and .. segments), which ServeMux would answer with an HTML redirect.
func requestEdge(r *http.Request) error {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	if n > MaxHeaderBytes {
		return apperr.Errorf(errHeadersTooLarge, "the request's headers exceed %d bytes", MaxHeaderBytes)
	}
	p := r.URL.Path
	clean := path.Clean(p)
	if strings.HasSuffix(p, "/") && clean != "/" {
		clean += "/"
	}
	if p != "" && p != clean {
		return apperr.Errorf(apperr.ErrNotFound, "no such endpoint: the path is not in canonical form (use %s)", clean)
	}
	return nil
}

// setDefaultHeaders runs before every handler: no response is sniffed
// into another type or kept by a cache unless its handler says otherwise
// (the docs page, static assets and the JWKS replace Cache-Control), and
// under an https base URL browsers are told to come back over https only.
func (s *Server) setDefaultHeaders(h http.Header) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	if strings.HasPrefix(s.cfg.BaseURL, "https://") {
		h.Set("Strict-Transport-Security", "max-age=31536000")
	}
}

// oneCacheControl leaves a response one Cache-Control header: the hosted
// KYC page's session manager adds its own beside the page's, and caches
// disagree on what two mean. The strictest wins: no-store if either says
// so, otherwise both directives in one header.
func oneCacheControl(h http.Header) {
	v := h.Values("Cache-Control")
	if len(v) < 2 {
		return
	}
	for _, x := range v {
		if strings.Contains(x, "no-store") {
			h.Set("Cache-Control", "no-store")
			return
		}
	}
	h.Set("Cache-Control", strings.Join(v, ", "))
}
