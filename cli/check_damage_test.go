package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store/storetest"
)

// TestCheckFindsDamagedIndex: a database whose index page was damaged on
// disk (one byte of a key changed, so the file still opens and every
// query still answers) fails `check`, which exits non-zero naming the
// index and tells the operator not to serve the file.
func TestCheckFindsDamagedIndex(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "payoutd.db")
	cli(t, dir, "migrate")
	cli(t, dir, "keys", "create", "--email", "damage@example.com", "--name", "Damage Test")
	is.True(strings.HasPrefix(cli(t, dir, "check"), "ok: "))

	raw := storetest.Open(t, db)
	_, err := raw.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	is.NoErr(err)
	var root, size int64
	is.NoErr(raw.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = 'api_keys_user'").Scan(&root))
	is.NoErr(raw.QueryRow("PRAGMA page_size").Scan(&size))
	b, err := os.ReadFile(db)
	is.NoErr(err)
	page := b[(root-1)*size : root*size]
	i := bytes.Index(page, []byte("usr_"))
	is.True(i >= 0) // the index holds the key's user id
	page[i] = 'v'
	is.NoErr(os.WriteFile(db, b, 0o600))

	out, errOut, code := runBinary(t, dir, "check", "-db", db)
	is.True(code != 0)
	is.True(strings.Contains(out, "FAIL integrity_check:"))
	is.True(strings.Contains(out, "api_keys_user")) // names the damaged index
	is.True(strings.Contains(errOut, "do not serve it"))
}
