package binarytest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// Call is one request to a started payoutd with key (none when ""), body
// sent as JSON, and its full answer, the body decoded as a JSON object.
func Call(t testing.TB, method, url, key string, body any) (int, http.Header, map[string]any) {
	t.Helper()
	var r *bytes.Reader
	if body != nil {
		j, _ := json.Marshal(body)
		r = bytes.NewReader(j)
	} else {
		r = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, url, r)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	json.NewDecoder(res.Body).Decode(&m)
	return res.StatusCode, res.Header, m
}

// Get is an authenticated GET and its raw body.
func Get(t testing.TB, url, key string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// Post is an authenticated POST of body as JSON.
func Post(t testing.TB, url, key string, body any) (int, map[string]any) {
	t.Helper()
	status, _, m := Call(t, "POST", url, key, body)
	return status, m
}
