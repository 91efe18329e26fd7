package store

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
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
