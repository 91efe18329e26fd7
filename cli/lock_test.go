package cli

import (
	"crypto/sha256"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store/storetest"
)

// loadPayouts posts payouts from two clients until the returned stop is
// called, which reports how many were accepted.
func loadPayouts(t *testing.T, url, key string) (stop func() int) {
	t.Helper()
	done := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	n := 0
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				status, m := post(t, url+"/v1/payments", key, map[string]any{
					"amount": fmt.Sprintf("%d.%02d", 1+w, 1+i%10), "currency": "USD", "recipient": crashAddress})
				if status != 201 {
					t.Errorf("payout under load: %d %v", status, m)
					return
				}
				mu.Lock()
				n++
				mu.Unlock()
			}
		}(w)
	}
	return func() int {
		close(done)
		wg.Wait()
		return n
	}
}

// integrityOK runs SQLite's integrity_check on the file through path.
func integrityOK(t *testing.T, path string) {
	t.Helper()
	var res string
	if err := storetest.Open(t, path).QueryRow("PRAGMA integrity_check").Scan(&res); err != nil {
		t.Fatal(err)
	}
	if res != "ok" {
		t.Fatalf("integrity_check: %s", res)
	}
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestCommandsThroughHardLinkRefusedUnderLoad: while a server writes the
// database under load, every command that opens it through a hard link
// (another name, so SQLite would keep another write-ahead log beside it)
// is refused, naming both paths, and writes nothing; the file stays
// sound. Through the server's own path the same commands still work.
func TestCommandsThroughHardLinkRefusedUnderLoad(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts processes under load")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "payoutd.db")
	masterKey := db + ".masterkey"
	cli(t, dir, "migrate")
	key := cli(t, dir, "keys", "create", "--email", "link@example.com", "--name", "Link Test", "--rate-exempt")
	keyID := strings.Fields(strings.Split(cli(t, dir, "keys", "list", "--email", "link@example.com"), "\n")[1])[0]
	p := start(t, dir, "-mode", "live")
	hardDir := t.TempDir()
	hard := filepath.Join(hardDir, "other-name.db")
	if err := os.Link(db, hard); err != nil {
		t.Fatal(err)
	}
	stop := loadPayouts(t, p.URL, key)
	commands := [][]string{
		{"keys", "create", "--email", "link@example.com", "--name", "Link Test", "-master-key", masterKey},
		{"keys", "list", "--email", "link@example.com"},
		{"keys", "rotate", keyID},
		{"keys", "revoke", keyID},
		{"review", "approve", "pay_none"},
		{"kyc", "list", "-master-key", masterKey},
		{"kyc", "approve", "link@example.com", "-master-key", masterKey},
		{"console-link", "--email", "link@example.com", "--base-url", "http://localhost:8080"},
		{"payouts", "list"},
		{"payouts", "retry", "pay_none"},
		{"vaults", "release", "vlt_none", "--note", "checked"},
		{"migrate", "-master-key", masterKey},
		{"check", "-master-key", masterKey},
		{"backup", "--out", filepath.Join(t.TempDir(), "copy.db")},
		{"serve", "-addr", "127.0.0.1:0", "-master-key", masterKey},
	}
	for _, args := range commands {
		t.Run(strings.Join(args[:min(2, len(args))], "_"), func(t *testing.T) {
			_, errOut, code := runBinary(t, hardDir, append(args, "-db", hard)...)
			if code == 0 {
				t.Fatalf("payoutd %v through a hard link ran while the server writes the file", args)
			}
			if !strings.Contains(errOut, hard) || !strings.Contains(errOut, db) {
				t.Errorf("the refusal should name both paths (%s, %s): %s", hard, db, errOut)
			}
		})
	}
	accepted := stop()
	is := is.New(t)
	is.True(accepted > 0)
	is.Equal(dirFiles(t, hardDir), []string{"other-name.db"}) // no log, index or key beside the link
	// The same commands through the server's path work beside it.
	is.True(strings.HasPrefix(cli(t, dir, "check"), "ok: "))
	is.True(strings.Contains(cli(t, dir, "keys", "list", "--email", "link@example.com"), keyID))
	p.Stop(t)
	integrityOK(t, db)
	is.True(strings.HasPrefix(cli(t, dir, "check"), "ok: "))
}

// TestCheckAndBackupLeaveFileUnchanged: check and backup open the file
// read-only: no migration, no write, no checkpoint. The file is
// byte-identical afterwards, with the server stopped and with a file
// at an older schema version (which check refuses and backup copies).
func TestCheckAndBackupLeaveFileUnchanged(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "payoutd.db")
	p := start(t, dir)
	p.Stop(t)
	before := fileSum(t, db)
	is.True(strings.HasPrefix(cli(t, dir, "check"), "ok: "))
	is.True(strings.Contains(cli(t, dir, "backup", "--out", filepath.Join(dir, "copy.db")), "backed up"))
	is.Equal(fileSum(t, db), before)

	// An older file is not migrated by either.
	_, err := storetest.Open(t, db).Exec("PRAGMA user_version = 4")
	is.NoErr(err)
	before = fileSum(t, db)
	_, errOut, code := runBinary(t, dir, "check", "-db", db)
	is.True(code != 0)
	is.True(strings.Contains(errOut, "schema version 4"))
	_, errOut, code = runBinary(t, dir, "backup", "-db", db, "--out", filepath.Join(dir, "old.db"))
	is.Equal(code, 0)
	is.Equal(errOut, "")
	is.Equal(fileSum(t, db), before)
}

// holdOlderLock takes the lock the previous release's server held,
// <db>.lock, until the test ends or the file is closed.
func holdOlderLock(t *testing.T, db string) *os.File {
	t.Helper()
	f, err := os.OpenFile(db+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestOldReleaseLockBlocksServe: the previous release locked <db>.lock
// (a flock on a file named after the path); a process holding it keeps
// this release's server off the file, and nothing is created.
func TestOldReleaseLockBlocksServe(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "payoutd.db")
	cli(t, dir, "migrate")
	f := holdOlderLock(t, db)
	_, errOut, code := runBinary(t, dir, "serve", "-db", db, "-addr", "127.0.0.1:0")
	is.True(code != 0)
	is.True(strings.Contains(errOut, "an older payoutd server is using the database "+db))
	// Once the old server is gone, this one serves.
	is.NoErr(f.Close())
	start(t, dir)
}

// TestHardLinkBackupRefusedBesideOlderRelease: the release before this
// one, serving through its own path, announces nothing on the file; a
// backup through a hard link is still refused (it would copy a stale file
// and leave a log beside the link), naming both paths, and leaves nothing
// beside the link. Through the older server's own path the backup runs.
func TestHardLinkBackupRefusedBesideOlderRelease(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "payoutd.db")
	cli(t, dir, "migrate")
	// The older server: its lock file, and the file open in SQLite.
	holdOlderLock(t, db)
	older := storetest.Open(t, db)
	_, err := older.Exec("INSERT INTO storage_probe (id, at) VALUES (1, 1)")
	is.NoErr(err)

	linkDir := t.TempDir()
	link := filepath.Join(linkDir, "payoutd.db")
	is.NoErr(os.Link(db, link))
	_, errOut, code := runBinary(t, linkDir, "backup", "-db", link, "--out", filepath.Join(t.TempDir(), "copy.db"))
	is.True(code != 0)
	is.True(strings.Contains(errOut, "open through another path, "+db))
	is.True(strings.Contains(errOut, link))
	is.Equal(dirFiles(t, linkDir), []string{"payoutd.db"})

	copied := filepath.Join(t.TempDir(), "copy.db")
	out, errOut, code := runBinary(t, dir, "backup", "-db", db, "--out", copied)
	is.Equal(code, 0)
	is.Equal(errOut, "")
	is.True(strings.Contains(out, "backed up"))
	info, err := os.Stat(copied)
	is.NoErr(err)
	is.Equal(info.Mode().Perm(), os.FileMode(0o600))
}

// TestPercentPathOneFile: -db a%41.db is that file, not aA.db (which a
// SQLite URI would decode it to): the server creates it and everything
// beside it under that name, 0600; a second server by the same path is
// refused, and one by the decoded path serves a file of its own.
func TestPercentPathOneFile(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "a%41.db")
	startDB(t, dir, db)
	files := dirFiles(t, dir)
	is.Equal(files, []string{"a%41.db", "a%41.db-shm", "a%41.db-wal", "a%41.db.lock", "a%41.db.masterkey"})
	for _, f := range files {
		info, err := os.Stat(filepath.Join(dir, f))
		is.NoErr(err)
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s is %o, want 600", f, info.Mode().Perm())
		}
	}
	_, errOut, code := runBinary(t, dir, "serve", "-db", db, "-addr", "127.0.0.1:0")
	is.True(code != 0)
	is.True(strings.Contains(errOut, "another payoutd server is using the database "+db))
	startDB(t, dir, filepath.Join(dir, "aA.db"))
}

// TestMigrateRefusedWhileServing: migrate changes the schema under no
// running server, through any path.
func TestMigrateRefusedWhileServing(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "payoutd.db")
	p := start(t, dir)
	_, errOut, code := runBinary(t, dir, "migrate", "-db", db)
	is.True(code != 0)
	is.True(strings.Contains(errOut, "another payoutd server is using the database "+db))
	p.Stop(t)
	out, _, code := runBinary(t, dir, "migrate", "-db", db)
	is.Equal(code, 0)
	is.True(strings.HasPrefix(out, "schema at version"))
}

// TestCheckFindsWrongMasterKey: a copy whose master key is missing or
// another database's fails check, before a serve would refuse it.
func TestCheckFindsWrongMasterKey(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "payoutd.db")
	p := start(t, dir) // the demo user's vault and the session signing key are sealed
	p.Stop(t)
	is.True(strings.HasPrefix(cli(t, dir, "check"), "ok: "))

	other := t.TempDir()
	runBinary(t, other, "migrate", "-db", filepath.Join(other, "payoutd.db"))
	out, errOut, code := runBinary(t, dir, "check", "-db", db, "-master-key", filepath.Join(other, "payoutd.db.masterkey"))
	is.True(code != 0)
	is.True(strings.Contains(out, "does not open with this master key"))
	is.True(strings.Contains(errOut, "problem(s)"))

	is.NoErr(os.Rename(db+".masterkey", db+".masterkey.away"))
	_, errOut, code = runBinary(t, dir, "check", "-db", db)
	is.True(code != 0)
	is.True(strings.Contains(errOut, "master key "+db+".masterkey not found"))
	_, err := os.Stat(db + ".masterkey")
	is.True(os.IsNotExist(err)) // check never makes a key
}

// TestPortInUseCreatesNothing: a port already taken is found before the
// database or its master key is created, and the error says so plainly.
func TestPortInUseCreatesNothing(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	defer taken.Close()
	_, errOut, code := runBinary(t, dir, "serve", "-db", filepath.Join(dir, "payoutd.db"), "-addr", taken.Addr().String())
	is.True(code != 0)
	is.True(strings.Contains(errOut, "-addr "+taken.Addr().String()+": the address is in use"))
	is.Equal(dirFiles(t, dir), []string(nil))
}

// TestBackupIntoMissingDirectory: the error names the directory and what
// to do, and nothing is opened or written.
func TestBackupIntoMissingDirectory(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	cli(t, dir, "migrate")
	out := filepath.Join(dir, "no-such-dir", "copy.db")
	_, errOut, code := runBinary(t, dir, "backup", "-db", filepath.Join(dir, "payoutd.db"), "--out", out)
	is.True(code != 0)
	is.True(strings.Contains(errOut, "the directory "+filepath.Dir(out)+" does not exist"))
}
