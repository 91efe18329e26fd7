package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoPointersOutsideTheRepo: a user's clone holds nothing beside it, so
// no file (README, docs, the served OpenAPI document, code comments) may
// send the reader to documents that are not in the repository.
func TestNoPointersOutsideTheRepo(t *testing.T) {
	t.Parallel()
	// Spelled in pieces so this file does not match itself.
	banned := []string{"../" + "shared", "SPEC" + ".md", "DESIGN" + ".md", "STYLE" + ".md", "facts/" + "india.md"}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "artifacts", "fonts":
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() || info.Size() > 4<<20 {
			return err
		}
		switch filepath.Ext(path) {
		case ".pdf", ".png", ".ttf", ".db":
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, s := range banned {
				if strings.Contains(line, s) {
					t.Errorf("%s:%d points at %s: %s", path, i+1, s, strings.TrimSpace(line))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
