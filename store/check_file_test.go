package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// fileWithKeys is a real database at today's schema with n idempotency
// keys, each named corruptme-NNNN, written and checkpointed into the file.
func fileWithKeys(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "payoutd.db")
	db, err := Open(context.Background(), path, todaysSchema(t))
	if err != nil {
		t.Fatal(err)
	}
	must(t, db.Close())
	raw, err := sql.Open("sqlite", path)
	must(t, err)
	for i := range n {
		_, err := raw.Exec(`INSERT INTO idempotency_keys VALUES ('key_1', ?, x'00', 200, x'', 1, ?)`,
			fmt.Sprintf("corruptme-%04d", i), 1000+i)
		must(t, err)
	}
	_, err = raw.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	must(t, err)
	must(t, raw.Close())
	return path
}

// damagePage sets the first byte of the first occurrence of needle in the
// root page of the table or index name to to.
func damagePage(t *testing.T, path, name string, needle []byte, to byte) {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	must(t, err)
	var root, size int64
	must(t, raw.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = ?", name).Scan(&root))
	must(t, raw.QueryRow("PRAGMA page_size").Scan(&size))
	must(t, raw.Close())
	b, err := os.ReadFile(path)
	must(t, err)
	page := b[(root-1)*size : root*size]
	i := bytes.Index(page, needle)
	if i < 0 {
		t.Fatalf("%q not in %s's page %d", needle, name, root)
	}
	page[i] = to
	must(t, os.WriteFile(path, b, 0o600))
}

func checkFile(t *testing.T, path string, quick bool) []string {
	t.Helper()
	l, err := Lock(path, Read)
	must(t, err)
	db, err := l.Open(context.Background(), "")
	must(t, err)
	defer db.Close()
	problems, err := db.Health().CheckFile(context.Background(), quick)
	must(t, err)
	return problems
}

// TestCheckFileFindsDamage: a sound file has no findings; a damaged index
// page, a page whose structure is broken and a row whose parent is missing
// are each found, naming the index or table they are in.
func TestCheckFileFindsDamage(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, path string)
		quick  bool
		want   []string // each in some finding; none: no finding at all
	}{
		{"Sound", func(*testing.T, string) {}, false, nil},
		{"SoundQuick", func(*testing.T, string) {}, true, nil},
		{"IndexEntryChanged", func(t *testing.T, path string) {
			damagePage(t, path, "idempotency_expiry", []byte("corruptme-0007"), 'k')
		}, false, []string{"integrity_check", "idempotency_expiry"}},
		{"IndexPageTypeBroken", func(t *testing.T, path string) {
			// A b-tree page's first byte is its type (10: index leaf).
			damagePage(t, path, "idempotency_expiry", []byte{10}, 0x55)
		}, true, []string{"quick_check: index idempotency_expiry: Tree"}},
		{"ParentMissing", func(t *testing.T, path string) {
			raw, err := sql.Open("sqlite", path)
			must(t, err)
			_, err = raw.Exec(`INSERT INTO webhook_secrets (id, endpoint_id, sealed, created_at)
				VALUES ('whsec_orphan', 'we_gone', x'00', 1)`)
			must(t, err)
			must(t, raw.Close())
		}, false, []string{"foreign_key_check", "table webhook_secrets", "webhook_endpoints"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			path := fileWithKeys(t, 40)
			c.damage(t, path)
			problems := checkFile(t, path, c.quick)
			if len(c.want) == 0 {
				is.Equal(problems, nil)
				return
			}
			all := strings.Join(problems, "\n")
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("no finding names %q:\n%s", w, all)
				}
			}
		})
	}
}
