package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestPathOpenedAsLocked: a path holding what a URI would decode or cut
// (%41, ?, #, a space, a leading //) is the file SQLite opens, exactly as
// locked: the file and its log are created under that name and no other,
// each 0600, and a second server through the same path is refused.
func TestPathOpenedAsLocked(t *testing.T) {
	for _, name := range []string{"a%41.db", "q?mode=ro.db", "h#frag.db", "sp ace.db", "pct%2Fslash.db"} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			if name == "a%41.db" {
				path = "/" + path // //tmp/…: the same file, and no URI host
			}
			db, err := Open(context.Background(), path, todaysSchema(t))
			is.NoErr(err)
			defer db.Close()
			withoutRiver(db)
			is.NoErr(db.Health().Heartbeat(context.Background()))

			files, err := os.ReadDir(dir)
			is.NoErr(err)
			var names []string
			for _, f := range files {
				names = append(names, f.Name())
				info, err := f.Info()
				is.NoErr(err)
				if perm := info.Mode().Perm(); perm != 0o600 {
					t.Errorf("%s is %o, want 600", f.Name(), perm)
				}
			}
			slices.Sort(names)
			is.Equal(names, []string{name, name + "-shm", name + "-wal", name + ".lock"}) // .lock: the previous release's lock

			_, err = Lock(path, Serve)
			is.True(err != nil && strings.Contains(err.Error(), "another payoutd server"))
		})
	}
}
