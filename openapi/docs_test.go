package openapi

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func get(t *testing.T, h http.HandlerFunc, header ...string) *http.Response {
	t.Helper()
	r := httptest.NewRequest("GET", "/", nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h(w, r)
	return w.Result()
}

// TestDocsUseBaseURL: /docs shows the server's own -base-url in its header
// and in every curl example, never the document's localhost default.
func TestDocsUseBaseURL(t *testing.T) {
	is := is.New(t)
	const base = "https://payouts.example.in/pd"
	d, err := NewDocs(base + "/")
	is.NoErr(err)
	b, err := io.ReadAll(get(t, d.ServeReference).Body)
	is.NoErr(err)
	page := string(b)
	is.True(strings.Contains(page, "base URL <code>"+base+"</code>"))
	is.True(strings.Count(page, "curl") > 40)
	is.Equal(strings.Count(page, "curl &#39;"+base+"/"), strings.Count(page, "curl &#39;")) // every example targets the base URL
	is.True(strings.Count(page, "curl &#39;") > 40)
	is.True(!strings.Contains(page, "localhost:8080"))
}

// TestDocsShowEveryOperation: the reference renders every operation of the
// document, so an operation added to openapi.json is documented at once.
func TestDocsShowEveryOperation(t *testing.T) {
	is := is.New(t)
	d, err := NewDocs("http://localhost:8080")
	is.NoErr(err)
	b, err := io.ReadAll(get(t, d.ServeReference).Body)
	is.NoErr(err)
	page := html.UnescapeString(string(b))
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"paths"`
	}
	is.NoErr(json.Unmarshal(Document(), &doc))
	n := 0
	for path, ops := range doc.Paths {
		for method, op := range ops {
			if op.OperationID == "" {
				continue
			}
			n++
			if !strings.Contains(page, op.OperationID) {
				t.Errorf("%s %s (%s) is not on the page", strings.ToUpper(method), path, op.OperationID)
			}
		}
	}
	is.True(n > 40)
}

// TestDocumentCached: the document carries an ETag and answers a matching
// If-None-Match with 304 and no body.
func TestDocumentCached(t *testing.T) {
	is := is.New(t)
	d, err := NewDocs("http://localhost:8080")
	is.NoErr(err)
	res := get(t, d.ServeDocument)
	is.Equal(res.StatusCode, http.StatusOK)
	is.Equal(res.Header.Get("Content-Type"), "application/json")
	body, err := io.ReadAll(res.Body)
	is.NoErr(err)
	is.Equal(string(body), string(Document()))
	etag := res.Header.Get("ETag")
	is.True(etag != "")
	res = get(t, d.ServeDocument, "If-None-Match", etag)
	is.Equal(res.StatusCode, http.StatusNotModified)
}
