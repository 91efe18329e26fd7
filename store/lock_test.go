package store

import (
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestLockSeesFileIdentity: one file locked by one process (here, one
// descriptor: the locks belong to it, not to the process) is refused to a
// second through any other name, and to a second server through any name;
// through its own name or a symlink to it (SQLite resolves symlinks, so
// its log is the same) a command may work beside it.
func TestLockSeesFileIdentity(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("names are told apart with Linux's open file description locks")
	}
	const (
		ok          = ""
		server      = "another payoutd server is using the database"
		anotherPath = "in use through another path"
	)
	cases := []struct {
		first         Access
		second        Access
		through, want string
	}{
		{Serve, Serve, "same", server},
		{Serve, Serve, "symlink", server},
		{Serve, Serve, "hardlink", server},
		{Serve, Write, "same", ok},
		{Serve, Write, "symlink", ok},
		{Serve, Write, "hardlink", anotherPath},
		{Serve, Write, "sameDirOtherName", anotherPath},
		{Serve, Read, "same", ok},
		{Serve, Read, "hardlink", anotherPath},
		{Write, Serve, "same", ok},
		{Write, Serve, "hardlink", anotherPath},
		{Write, Write, "hardlink", anotherPath},
		{Write, Read, "same", ok},
		{Read, Read, "hardlink", anotherPath},
		{Read, Serve, "same", ok},
	}
	names := map[Access]string{Serve: "Serve", Write: "Write", Read: "Read"}
	for _, c := range cases {
		t.Run(names[c.first]+"_"+names[c.second]+"_"+c.through, func(t *testing.T) {
			dir, other := t.TempDir(), t.TempDir()
			db := filepath.Join(dir, "payoutd.db")
			if err := os.WriteFile(db, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			paths := map[string]string{"same": db, "symlink": filepath.Join(other, "link.db"),
				"hardlink": filepath.Join(other, "hard.db"), "sameDirOtherName": filepath.Join(dir, "again.db")}
			must(t, os.Symlink(db, paths["symlink"]))
			must(t, os.Link(db, paths["hardlink"]))
			must(t, os.Link(db, paths["sameDirOtherName"]))

			first, err := Lock(db, c.first)
			if err != nil {
				t.Fatal(err)
			}
			second, err := Lock(paths[c.through], c.second)
			switch {
			case c.want == ok && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != ok && err == nil:
				t.Fatalf("%s through %s was let in", names[c.second], c.through)
			case c.want != ok && !strings.Contains(err.Error(), c.want):
				t.Fatalf("got %v, want %q", err, c.want)
			}
			second.Release()
			first.Release()
			// Released, the file is anyone's by any name.
			again, err := Lock(paths[c.through], c.second)
			if err != nil {
				t.Fatalf("after release: %v", err)
			}
			again.Release()
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestLockSeesOlderReleaseThroughOtherName: a process that takes no part
// in these locks (the release before this one, serving through its own
// path with only <db>.lock beside it) still holds SQLite's own locks. A
// command of this release through another name for the file (a hard link)
// is refused, whatever its access; through the older process's own name,
// or a symlink to it, it works beside it as before.
func TestLockSeesOlderReleaseThroughOtherName(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("names are told apart with Linux's open file description locks")
	}
	cases := []struct {
		access  Access
		through string
		refused bool
	}{
		{Read, "hardlink", true},
		{Write, "hardlink", true},
		{Serve, "hardlink", true},
		{Read, "same", false},
		{Write, "symlink", false},
	}
	for _, c := range cases {
		t.Run(map[Access]string{Serve: "Serve", Write: "Write", Read: "Read"}[c.access]+"_"+c.through, func(t *testing.T) {
			dir, other := t.TempDir(), t.TempDir()
			db := filepath.Join(dir, "payoutd.db")
			paths := map[string]string{"same": db, "hardlink": filepath.Join(other, "hard.db"), "symlink": filepath.Join(other, "link.db")}
			older := olderRelease(t, db)
			must(t, os.Link(db, paths["hardlink"]))
			must(t, os.Symlink(db, paths["symlink"]))
			l, err := Lock(paths[c.through], c.access)
			switch {
			case c.refused && err == nil:
				t.Fatalf("%s through the %s was let in beside the older release", paths[c.through], c.through)
			case c.refused && !strings.Contains(err.Error(), "open through another path"):
				t.Fatalf("refused with %v", err)
			case !c.refused && err != nil:
				t.Fatalf("refused: %v", err)
			}
			l.Release()
			older.Close()
		})
	}
}

// olderRelease is the release before this one serving the file at path:
// it locks <path>.lock and uses the file through SQLite, nothing else.
func olderRelease(t *testing.T, path string) *sql.DB {
	t.Helper()
	f, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	must(t, err)
	t.Cleanup(func() { f.Close() })
	must(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	must(t, err)
	db.SetMaxOpenConns(1)
	_, err = db.Exec("CREATE TABLE IF NOT EXISTS t (v INTEGER)")
	must(t, err)
	return db
}
