package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// TestBadSettingsTouchNothing: every setting serve can tell is wrong is
// refused before the database, its key or anything else exists, naming
// the flag (or the variable and the flag it was meant for).
func TestBadSettingsTouchNothing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		args  []string
		env   []string
		wants []string
	}{
		{"NegativeGrace", []string{"-shutdown-grace", "-5s"}, nil, []string{"-shutdown-grace -5s", "positive"}},
		{"ZeroGrace", []string{"-shutdown-grace", "0s"}, nil, []string{"-shutdown-grace"}},
		{"ZeroUnknownWindow", []string{"-sandbox-unknown-window", "0s"}, nil, []string{"-sandbox-unknown-window"}},
		{"ShortJobTimeout", []string{"-job-timeout", "500ms"}, nil, []string{"-job-timeout"}},
		{"ZeroWorkers", []string{"-workers", "0"}, nil, []string{"-workers 0"}},
		{"TooManyWorkers", []string{"-workers", "20000"}, nil, []string{"-workers 20000"}},
		{"WorkersFromEnv", nil, []string{"PAYOUTD_WORKERS=-3"}, []string{"-workers -3"}},
		{"UnknownLimit", []string{"-rate-limits", "initate=5"}, nil, []string{"-rate-limits", `"initate"`, "did you mean initiate"}},
		{"ZeroLimit", []string{"-rate-limits", "initiate=0"}, nil, []string{"-rate-limits"}},
		{"BaseURLNotHTTP", []string{"-base-url", "ftp://payouts.example.com"}, nil, []string{"-base-url"}},
		{"BaseURLNoScheme", []string{"-base-url", "payouts.example.com"}, nil, []string{"-base-url"}},
		{"BaseURLQuery", []string{"-base-url", "https://payouts.example.com/?x=1"}, nil, []string{"-base-url"}},
		{"TrustEveryIPv4", []string{"-trusted-proxies", "10.0.0.1,0.0.0.0/0"}, nil, []string{"-trusted-proxies", "0.0.0.0/0", "every address"}},
		{"TrustEveryIPv6", []string{"-trusted-proxies", "::/0"}, nil, []string{"-trusted-proxies", "::/0"}},
		{"SMTPNotAURL", []string{"-smtp-url", "mail.example.com:587", "-smtp-from", "p@example.com"}, nil, []string{"-smtp-url"}},
		{"SMTPHTTP", []string{"-smtp-url", "https://mail.example.com", "-smtp-from", "p@example.com"}, nil, []string{"-smtp-url"}},
		{"SMTPPasswordHidden", []string{"-smtp-url", "smtp://u:hunter2@mail.example.com:99999", "-smtp-from", "p@example.com"}, nil, []string{"-smtp-url", "port"}},
		{"SMTPNoFrom", []string{"-smtp-url", "smtp://mail.example.com"}, nil, []string{"-smtp-from"}},
		{"SMTPBadFrom", nil, []string{"PAYOUTD_SMTP_URL=smtps://mail.example.com", "PAYOUTD_SMTP_FROM=not an address"}, []string{"-smtp-from"}},
		{"SMTPFromAlone", []string{"-smtp-from", "p@example.com"}, nil, []string{"-smtp-from", "-smtp-url"}},
		{"MisspeltVariable", nil, []string{"PAYOUTD_SHUTDOWN_GRAEC=30s"}, []string{"PAYOUTD_SHUTDOWN_GRAEC", "PAYOUTD_SHUTDOWN_GRACE", "-shutdown-grace"}},
		{"MisspeltPrefix", nil, []string{"PAYOUT_WORKERS=8"}, []string{"PAYOUT_WORKERS", "PAYOUTD_WORKERS", "-workers"}},
		{"BadValueInVariable", nil, []string{"PAYOUTD_SHUTDOWN_GRACE=30"}, []string{"PAYOUTD_SHUTDOWN_GRACE", "-shutdown-grace"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			dir := t.TempDir()
			db := filepath.Join(dir, "payoutd.db")
			args := append([]string{"serve", "-db", db, "-addr", "127.0.0.1:0"}, c.args...)
			_, errOut, code := runBinaryEnv(t, dir, c.env, args...)
			is.True(code != 0)
			for _, w := range c.wants {
				if !strings.Contains(errOut, w) {
					t.Errorf("the refusal does not say %q: %s", w, errOut)
				}
			}
			is.Equal(dirFiles(t, dir), []string(nil))     // nothing created
			is.True(!strings.Contains(errOut, "hunter2")) // a password is never echoed
		})
	}
}

// TestKnownEnvIsEveryFlagsEnv: knownEnv, which misspelt variables are
// measured against, lists exactly the variables the flags read.
func TestKnownEnvIsEveryFlagsEnv(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("cli/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	read := map[string]bool{}
	re := regexp.MustCompile(`env (PAYOUTD_[A-Z0-9_]+)|getenv\("(PAYOUTD_[A-Z0-9_]+)"\)|envOr\(getenv, "(PAYOUTD_[A-Z0-9_]+)"`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			read[m[1]+m[2]+m[3]] = true
		}
	}
	var got []string
	for name := range read {
		got = append(got, name)
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(knownEnv))
	if !slices.Equal(got, want) {
		t.Errorf("the flags read %v; knownEnv lists %v", got, want)
	}
}

// TestMasterKeyFile: a key others can read is refused with the chmod to
// run, a key of the wrong size with one plain message, before anything is
// created; two processes making the first key at once end with one key
// both use, and no temporary file.
func TestMasterKeyFile(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "payoutd.db")
	key := db + ".masterkey"
	is.NoErr(os.WriteFile(key, make([]byte, 32), 0o644))
	_, errOut, code := runBinary(t, dir, "serve", "-db", db, "-addr", "127.0.0.1:0")
	is.True(code != 0)
	is.True(strings.Contains(errOut, "chmod 600 "+key))
	is.Equal(dirFiles(t, dir), []string{"payoutd.db.masterkey"}) // no database made beside it

	is.NoErr(os.WriteFile(key, nil, 0o600)) // an empty key, as a crash mid-write once left
	is.NoErr(os.Chmod(key, 0o600))
	_, errOut, code = runBinary(t, dir, "serve", "-db", db, "-addr", "127.0.0.1:0")
	is.True(code != 0)
	is.True(strings.Contains(errOut, "want 32 bytes, have 0"))
	is.Equal(strings.Count(errOut, "master key"), 1) // said once

	fresh := filepath.Join(t.TempDir(), "new.masterkey")
	var wg sync.WaitGroup
	sealers := make([]*store.Sealer, 8)
	for i := range sealers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := store.LoadOrCreateMasterKey(fresh)
			if err != nil {
				t.Error(err)
			}
			sealers[i] = s
		}()
	}
	wg.Wait()
	sealed := sealers[0].Seal([]byte("vault seed"), []byte("vlt_1"))
	for _, s := range sealers[1:] {
		opened, err := s.Open(sealed, []byte("vlt_1"))
		is.NoErr(err) // every process got the same key
		is.Equal(string(opened), "vault seed")
	}
	is.Equal(dirFiles(t, filepath.Dir(fresh)), []string{"new.masterkey"})
	info, err := os.Stat(fresh)
	is.NoErr(err)
	is.Equal(info.Mode().Perm(), os.FileMode(0o600))
}

// TestOlderSchemaSaysMigrate: on a database an older binary left, every
// command that reads or writes it answers with the version and `payoutd
// migrate`, never a raw SQL error; backup still copies it.
func TestOlderSchemaSaysMigrate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "payoutd.db")
	cli(t, dir, "migrate")
	cli(t, dir, "keys", "create", "--email", "old@example.com", "--name", "Old Schema")
	_, err := storetest.Open(t, db).Exec("PRAGMA user_version = 4")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"payouts", "list"},
		{"payouts", "show", "pay_none"},
		{"keys", "list", "--email", "old@example.com"},
		{"kyc", "list"},
		{"review", "approve", "pay_none"},
		{"vaults", "release", "vlt_none", "--note", "checked"},
		{"console-link", "--email", "old@example.com", "--base-url", "http://localhost:8080"},
		{"check"},
	} {
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			_, errOut, code := runBinary(t, dir, append(args, "-db", db)...)
			if code == 0 || !strings.Contains(errOut, "schema version 4") || !strings.Contains(errOut, "payoutd migrate") {
				t.Fatalf("payoutd %v on a version-4 file: exit %d, %s", args, code, errOut)
			}
		})
	}
	out, _, code := runBinary(t, dir, "backup", "-db", db, "--out", filepath.Join(t.TempDir(), "copy.db"))
	if code != 0 || !strings.Contains(out, "backed up") {
		t.Fatalf("backup of an older file: exit %d, %s", code, out)
	}
}
