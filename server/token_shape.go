package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
)

// tokenShapeOK checks what the JWT library would let through: the
// protected header must name EdDSA, the only algorithm this server signs
// with (the library verifies with the key's algorithm whatever the header
// says, so a header claiming "none" over a good signature would pass), and
// exp and iat must be JSON integers (NumericDate as RFC 7519 writes it;
// the library also takes strings and fractions).
func tokenShapeOK(raw string) bool {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		return false
	}
	var header struct {
		Alg string `json:"alg"`
	}
	if !decodeSegment(parts[0], &header) || header.Alg != "EdDSA" {
		return false
	}
	var claims map[string]json.RawMessage
	if !decodeSegment(parts[1], &claims) {
		return false
	}
	for _, name := range []string{"exp", "iat"} {
		if !isJSONInteger(claims[name]) {
			return false
		}
	}
	return true
}

func decodeSegment(seg string, v any) bool {
	b, err := base64.RawURLEncoding.DecodeString(seg)
	return err == nil && json.Unmarshal(b, v) == nil
}

// isJSONInteger reports a JSON number with neither fraction nor exponent.
func isJSONInteger(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return false
	}
	for i, c := range v {
		if !(c >= '0' && c <= '9' || c == '-' && i == 0) {
			return false
		}
	}
	return true
}
