package server

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Limits of a payment's metadata: a client's own references (order,
// customer, project), not a document store.
const (
	metadataMaxKeys     = 20
	metadataMaxKeyLen   = 40
	metadataMaxValueLen = 500
)

// parseMetadata reads initiate's metadata: absent or null is none; else an
// object of at most 20 string keys of 1 to 40 characters with string values
// of at most 500. Each bad entry is named in the error as metadata.<key>.
func parseMetadata(raw json.RawMessage) (map[string]string, error) {
	if len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fieldError("metadata", "must be an object of string keys and string values")
	}
	if len(obj) > metadataMaxKeys {
		return nil, fieldError("metadata", "must have at most "+strconv.Itoa(metadataMaxKeys)+" keys")
	}
	out := make(map[string]string, len(obj))
	bad := map[string]string{}
	for k, v := range obj {
		name := "metadata." + clipKey(k)
		if n := utf8.RuneCountInString(k); n == 0 || n > metadataMaxKeyLen {
			bad[name] = "key must be 1 to " + strconv.Itoa(metadataMaxKeyLen) + " characters"
			continue
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil || !bytes.HasPrefix(bytes.TrimSpace(v), []byte(`"`)) {
			bad[name] = "must be a string"
			continue
		}
		if utf8.RuneCountInString(s) > metadataMaxValueLen {
			bad[name] = "must be at most " + strconv.Itoa(metadataMaxValueLen) + " characters"
			continue
		}
		out[k] = s
	}
	if len(bad) > 0 {
		return nil, validationError(bad)
	}
	return out, nil
}

// clipKey keeps an over-long key readable in an error's field name.
func clipKey(k string) string {
	if utf8.RuneCountInString(k) <= metadataMaxKeyLen+8 {
		return k
	}
	r := []rune(k)
	return string(r[:metadataMaxKeyLen]) + "…"
}
