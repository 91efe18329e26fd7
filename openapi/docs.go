package openapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html/template"
	"net/http"
	"sync"
)

// Docs serves the embedded OpenAPI document and the reference page
// rendered from it. Both are built once: the document is part of the binary,
// so a rendering error is a build defect the package tests catch.
type Docs struct {
	doc, page        []byte
	docETag, pageCSP string
}

// rendered holds each base URL's Docs: the document is embedded and a
// Docs never changes once built, so every server of a process (a test
// binary starts hundreds) shares one rendering instead of repeating it.
var rendered sync.Map // base URL → *Docs

// NewDocs renders the reference page, its examples addressed to baseURL.
func NewDocs(baseURL string) (*Docs, error) {
	if d, ok := rendered.Load(baseURL); ok {
		return d.(*Docs), nil
	}
	d, err := render(baseURL)
	if err != nil {
		return nil, err
	}
	shared, _ := rendered.LoadOrStore(baseURL, d)
	return shared.(*Docs), nil
}

func render(baseURL string) (*Docs, error) {
	doc := Document()
	sum := sha256.Sum256(doc)
	a := &Docs{doc: doc, docETag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	model, err := buildDocsPage(doc, baseURL)
	if err != nil {
		return nil, err
	}
	css := referenceCSS
	cssSum := sha256.Sum256([]byte(css))
	tmpl, err := template.New("reference").Parse(referenceTemplate)
	if err != nil {
		return nil, fmt.Errorf("openapi/reference.html: %w", err)
	}
	var buf bytes.Buffer
	data := struct {
		docsPage
		CSS template.CSS
	}{model, template.CSS(css)}
	if err := tmpl.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("openapi/reference.html: %w", err)
	}
	a.page = buf.Bytes()
	// The only style is the inlined sheet, allowed by its hash; the page has
	// no script at all.
	a.pageCSP = "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(cssSum[:]) +
		"'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
	return a, nil
}

// ServeDocument answers GET /api/v1/openapi.json without authentication:
// the contract is public, and browser tools may fetch it cross-origin.
func (a *Docs) ServeDocument(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("ETag", a.docETag)
	h.Set("Cache-Control", "no-cache")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Header.Get("If-None-Match") == a.docETag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(a.doc)
}

// ServeReference answers GET /docs with the rendered reference.
func (a *Docs) ServeReference(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", a.pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	w.Write(a.page)
}
