// Package openapi holds payoutd's HTTP API contract: openapi.json, an
// OpenAPI 3.1 document written by hand and kept true by the contract test in
// server/ (every operation is driven against the real server and every
// response checked against it), and its rendering as the /docs reference
// page (docs.go, docs_model.go, docs_schema.go, reference.html and .css),
// which the server mounts. Everything is embedded, so the binary serves the
// contract without files or network.
package openapi

import (
	_ "embed"
	"slices"
)

//go:embed openapi.json
var document []byte

// referenceTemplate is the html/template source of the /docs page, and
// referenceCSS its stylesheet, inlined into the page (docs.go).
//
//go:embed reference.html
var referenceTemplate string

//go:embed reference.css
var referenceCSS string

// Document returns the OpenAPI 3.1 document, byte for byte as in the
// repository (a copy: callers may keep or change it).
func Document() []byte { return slices.Clone(document) }
