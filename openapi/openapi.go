// Package openapi holds payoutd's HTTP API contract: openapi.json, an
// OpenAPI 3.1 document written by hand and kept true by the contract test in
// server/ (every operation is driven against the real server and every
// response checked against it), plus the template and stylesheet the server
// renders it with at /docs. Everything is embedded, so the binary serves the
// contract without files or network.
package openapi

import (
	_ "embed"
	"slices"
)

//go:embed openapi.json
var document []byte

//go:embed reference.html
var referenceTemplate string

//go:embed reference.css
var referenceCSS string

// Document returns the OpenAPI 3.1 document, byte for byte as in the
// repository (a copy: callers may keep or change it).
func Document() []byte { return slices.Clone(document) }

// ReferenceTemplate is the html/template source of the /docs page.
func ReferenceTemplate() string { return referenceTemplate }

// ReferenceCSS is the /docs page's stylesheet, inlined into the page.
func ReferenceCSS() string { return referenceCSS }
