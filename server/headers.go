package server

import (
	"net/http"
	"strings"
)

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
