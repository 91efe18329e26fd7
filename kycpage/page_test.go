package kycpage

import (
	"bytes"
	"testing"
)

// TestEmbeddedFilesParse: the embedded templates parse and every asset the
// layout links is there; the page's HTTP behaviour is tested through the
// server that mounts it (server/verify_test.go).
func TestEmbeddedFilesParse(t *testing.T) {
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	for name := range pageAssets {
		if len(p.assets[name].body) == 0 {
			t.Errorf("asset %s is empty", name)
		}
	}
	for _, name := range []string{"layout", "steps.html", "outcome.html"} {
		if p.tmpl.Lookup(name) == nil {
			t.Errorf("template %s missing", name)
		}
	}
	if !bytes.Contains(Stylesheet(), []byte(":root")) {
		t.Error("the shared stylesheet lost its palette")
	}
}
