package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store/storetest"
)

// dirFiles lists the names in dir.
func dirFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestHelp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"-help"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			is := is.New(t)
			out, _, code := runBinary(t, dir, args...)
			is.Equal(code, 0)
			for _, c := range []string{"serve", "keys", "review", "check", "migrate", "backup", "health", "bench", "payouts"} {
				is.True(strings.Contains(out, "\n  "+c+" "))
			}
		})
	}
	// Each command's -h shows its own usage line and flags only.
	cases := []struct {
		args      []string
		want, not []string
	}{
		{[]string{"serve", "-h"}, []string{"usage: payoutd [serve]", "-addr", "-rates", "-shutdown-grace", "-master-key"}, []string{"-email", "-out"}},
		{[]string{"keys", "-h"}, []string{"create --email E", "rotate KEY_ID"}, []string{"-addr"}},
		{[]string{"help", "keys"}, []string{"create --email E", "rotate KEY_ID"}, []string{"-addr"}},
		{[]string{"keys", "create", "-h"}, []string{"usage: payoutd keys create", "-email", "-scopes", "-master-key"}, []string{"-addr", "-reason", "-out"}},
		{[]string{"keys", "list", "--help"}, []string{"usage: payoutd keys list", "-email", "-env"}, []string{"-scopes", "-name", "-master-key"}},
		{[]string{"keys", "rotate", "-h"}, []string{"usage: payoutd keys rotate KEY_ID", "-db"}, []string{"-email", "-scopes"}},
		{[]string{"keys", "revoke", "-h"}, []string{"usage: payoutd keys revoke KEY_ID", "-db"}, []string{"-email"}},
		{[]string{"review", "-h"}, []string{"usage: payoutd review approve|reject PAYMENT_ID", "-reason", "-db"}, []string{"-email", "-addr"}},
		{[]string{"check", "-h"}, []string{"usage: payoutd check", "-db", "-master-key"}, []string{"-email", "-addr"}},
		{[]string{"migrate", "-h"}, []string{"usage: payoutd migrate", "-db", "-master-key"}, []string{"-email", "-addr"}},
		{[]string{"backup", "-h"}, []string{"usage: payoutd backup --out FILE", "-out", "-db", "master key"}, []string{"-email", "-addr"}},
		{[]string{"health", "-h"}, []string{"usage: payoutd health", "-addr"}, []string{"-db", "-email"}},
		{[]string{"help", "health"}, []string{"usage: payoutd health", "-addr"}, []string{"-db"}},
		{[]string{"bench", "-h"}, []string{"-duration"}, []string{"-email"}},
		{[]string{"payouts", "-h"}, []string{"usage: payoutd payouts list|show|resolve|retry", "-paid", "-unpaid", "-stellar-rpc", "-operator", "-db"},
			[]string{"-email", "-addr", "-master-key"}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			out, errOut, code := runBinary(t, dir, c.args...)
			all := out + errOut
			if code != 0 {
				t.Fatalf("exit %d: %s", code, all)
			}
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("help lacks %q:\n%s", w, all)
				}
			}
			for _, n := range c.not {
				if strings.Contains(all, n+" ") || strings.Contains(all, n+"\n") {
					t.Errorf("help shows another command's %q:\n%s", n, all)
				}
			}
		})
	}
	if names := dirFiles(t, dir); len(names) > 0 {
		t.Fatalf("help created %v", names)
	}
}

// TestAdminCommandsCreateNothing: on a path with no database, check,
// keys and review say so, name the path and exit non-zero, and leave no
// file behind; only serve and migrate create one.
func TestAdminCommandsCreateNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "typo.db")
	for _, args := range [][]string{
		{"check", "-db", db},
		{"keys", "create", "--email", "a@example.com", "-db", db},
		{"keys", "list", "--email", "a@example.com", "-db", db},
		{"keys", "rotate", "key_x", "-db", db},
		{"keys", "revoke", "key_x", "-db", db},
		{"review", "approve", "pay_x", "-db", db},
		{"payouts", "list", "-db", db},
		{"payouts", "retry", "pay_x", "-db", db},
		{"backup", "--out", filepath.Join(dir, "b.db"), "-db", db},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			is := is.New(t)
			out, errOut, code := runBinary(t, dir, args...)
			is.True(code != 0)
			is.True(!strings.Contains(out, "ok"))
			is.True(strings.Contains(errOut, "no payoutd database at "+db))
			is.Equal(dirFiles(t, dir), []string(nil))
		})
	}
	t.Run("NotADatabase", func(t *testing.T) {
		is := is.New(t)
		junk := filepath.Join(dir, "notes.txt")
		is.NoErr(os.WriteFile(junk, []byte("hello, this is not SQLite"), 0o600))
		defer os.Remove(junk)
		_, errOut, code := runBinary(t, dir, "check", "-db", junk)
		is.True(code != 0)
		is.True(strings.Contains(errOut, junk+" is not a SQLite database"))
	})
	t.Run("MigrateCreates", func(t *testing.T) {
		is := is.New(t)
		out, errOut, code := runBinary(t, dir, "migrate", "-db", db)
		is.Equal(code, 0)
		is.True(strings.HasPrefix(out, "schema at version"))
		_, err := os.Stat(db + ".masterkey")
		is.NoErr(err) // a new database gets its master key at once
		out, errOut, code = runBinary(t, dir, "check", "-db", db)
		is.Equal(code, 0)
		is.True(strings.HasPrefix(out, "ok: audit chain intact, books balanced;"))
		_ = errOut
	})
}

// TestMissingMasterKeyIsNotReplaced: a database whose master key file is
// missing is refused with both paths named; a fresh key (which could never
// open the sealed vault and token keys) is not made.
func TestMissingMasterKeyIsNotReplaced(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "payoutd.db")
	cli(t, dir, "migrate")
	cli(t, dir, "keys", "create", "--email", "mk@example.com")
	is.NoErr(os.Rename(db+".masterkey", filepath.Join(dir, "elsewhere.key")))
	for _, args := range [][]string{
		{"keys", "create", "--email", "mk2@example.com", "-db", db},
		{"serve", "-db", db, "-addr", "127.0.0.1:0"},
	} {
		_, errOut, code := runBinary(t, dir, args...)
		is.True(code != 0)
		is.True(strings.Contains(errOut, "master key "+db+".masterkey not found"))
		is.True(strings.Contains(errOut, db))
		_, err := os.Stat(db + ".masterkey")
		is.True(os.IsNotExist(err))
	}
	// Pointing -master-key at it works again.
	out, errOut, code := runBinary(t, dir, "keys", "create", "--email", "mk2@example.com", "-db", db, "-master-key", filepath.Join(dir, "elsewhere.key"))
	is.Equal(code, 0)
	is.True(strings.HasPrefix(out, "sk_sandbox_"))
	_ = errOut
}

func TestKeysCreateChecksEmail(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cli(t, dir, "migrate")
	for _, bad := range []string{"not-an-email", "a@b", "Asha <a@b.example>", "a@@b.example", " a@b.example", ""} {
		t.Run(bad, func(t *testing.T) {
			is := is.New(t)
			_, errOut, code := runBinary(t, dir, "keys", "create", "--email", bad, "-db", filepath.Join(dir, "payoutd.db"))
			is.True(code != 0)
			is.True(strings.Contains(errOut, "--email"))
		})
	}
	is := is.New(t)
	out, _, code := runBinary(t, dir, "keys", "create", "--email", "asha.rao+payouts@example.co.in", "-db", filepath.Join(dir, "payoutd.db"))
	is.Equal(code, 0)
	is.True(strings.HasPrefix(out, "sk_sandbox_"))
}

// TestRatesFlag: -rates takes inline JSON, as the README shows, or a file;
// anything else is refused before the database is touched.
func TestRatesFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "rates.json")
	if err := os.WriteFile(file, []byte(`{"USD":"84.10","EUR":91}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, ok := range []string{`{"USD":"83.25","GBP":"105.5"}`, ` {"USD":83.25}`, file} {
		t.Run("OK", func(t *testing.T) {
			is := is.New(t)
			tab, err := loadRates(ok)
			is.NoErr(err)
			is.True(tab["USD"].String() != "")
		})
	}
	for _, bad := range []string{`{"USD":"abc"}`, `{"XXX":"1"}`, `{"USD":`, filepath.Join(dir, "missing.json")} {
		t.Run("Err", func(t *testing.T) {
			is := is.New(t)
			_, err := loadRates(bad)
			is.True(err != nil)
			is.True(strings.Contains(err.Error(), "-rates"))
		})
	}
	is := is.New(t)
	sub := t.TempDir()
	_, errOut, code := runBinary(t, sub, "serve", "-addr", "127.0.0.1:0", "-rates", `{"USD":"nope"}`)
	is.True(code != 0)
	is.True(strings.Contains(errOut, "-rates"))
	is.Equal(dirFiles(t, sub), []string(nil)) // refused before anything was created
}

// TestNewerSchemaRefused: a database written by a newer binary is refused
// by every command that opens it, naming the file, and is left unchanged:
// rolling back means restoring a backup, never running old code on it.
func TestNewerSchemaRefused(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "payoutd.db")
	cli(t, dir, "migrate")
	raw := storetest.Open(t, db)
	_, err := raw.Exec("PRAGMA user_version = 999")
	is.NoErr(err)
	for _, args := range [][]string{{"check"}, {"migrate"}, {"keys", "list", "--email", "a@example.com"}, {"serve", "-addr", "127.0.0.1:0"}} {
		_, errOut, code := runBinary(t, dir, append(args, "-db", db)...)
		is.True(code != 0)
		is.True(strings.Contains(errOut, db))
		is.True(strings.Contains(errOut, "newer than this binary"))
	}
	var v int
	is.NoErr(raw.QueryRow("PRAGMA user_version").Scan(&v))
	is.Equal(v, 999)
}
