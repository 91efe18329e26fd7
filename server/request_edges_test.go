package server_test

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestRequestEdges: what real clients send at the edges of the document is
// answered as the document says, each with the error body: a txnId over
// 128 characters, an empty limit or after, a compressed body, oversized
// headers and a path that is not clean.
func TestRequestEdges(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	initiate := `{"amount":"1.00","currency":"USD","destinationAddress":"` + testAddress + `"}`
	cases := []struct {
		name          string
		method, path  string
		body          string
		headers       []string
		status        int
		code, field   string
		messageSubstr string
	}{
		{"TxnIDTooLong", "GET", "/api/v1/payments/" + strings.Repeat("a", 129) + "/status", "", nil, 400, "ERR_VALIDATION", "txnId", ""},
		{"TxnIDLongest", "GET", "/api/v1/payments/" + strings.Repeat("a", 128) + "/status", "", nil, 200, "", "", ""},
		{"LimitEmpty", "GET", "/api/v1/payments?limit=", "", nil, 400, "ERR_VALIDATION", "limit", ""},
		{"AfterEmpty", "GET", "/api/v1/payments?after=", "", nil, 400, "ERR_VALIDATION", "after", ""},
		{"StatusEmpty", "GET", "/api/v1/payments?status=", "", nil, 400, "ERR_VALIDATION", "status", ""},
		{"Gzip", "POST", "/api/v1/payments/initiate", initiate, []string{"Content-Encoding", "gzip"}, 415, "ERR_UNSUPPORTED_MEDIA_TYPE", "", "Content-Encoding"},
		{"Brotli", "POST", "/api/v1/payments/initiate", initiate, []string{"Content-Encoding", "br"}, 415, "ERR_UNSUPPORTED_MEDIA_TYPE", "", "Content-Encoding"},
		{"Identity", "POST", "/api/v1/payments/initiate", initiate, []string{"Content-Encoding", "identity"}, 201, "", "", ""},
		{"HeadersTooLarge", "GET", "/api/v1/payments", "", []string{"X-Filler", strings.Repeat("x", 70<<10)}, 431, "ERR_HEADERS_TOO_LARGE", "", ""},
		{"DoubleSlash", "GET", "//api/v1/payments", "", nil, 404, "ERR_NOT_FOUND", "", "/api/v1/payments"},
		{"DotSegment", "POST", "/api/v1/payments/./initiate", initiate, nil, 404, "ERR_NOT_FOUND", "", "/api/v1/payments/initiate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			var body any
			if c.body != "" {
				body = []byte(c.body)
			}
			r := e.req(c.method, c.path, body, c.headers...)
			if r.Status != c.status {
				t.Fatalf("%s %s: %d %s", c.method, c.path, r.Status, r.Body)
			}
			if c.code == "" {
				return
			}
			is.Equal(r.Header.Get("Content-Type"), "application/json")
			is.Equal(r.errCode(t), c.code)
			if c.field != "" && r.field(t, c.field) == "" {
				t.Fatalf("no message on %s: %s", c.field, r.Body)
			}
			is.True(strings.Contains(string(r.Body), c.messageSubstr))
		})
	}
}
