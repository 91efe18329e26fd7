package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// pinned is an image reference with its tag and its digest: name:tag@sha256:….
var pinned = regexp.MustCompile(`^[a-z0-9./_-]+:[A-Za-z0-9._-]+@sha256:[0-9a-f]{64}$`)

func readCompose(t *testing.T) composeFile {
	t.Helper()
	raw, err := os.ReadFile("compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatalf("compose.yaml does not parse: %v", err)
	}
	return c
}

// TestContainerHardening: every base image in the Dockerfile and every
// image compose.yaml pulls is pinned by digest with its tag beside it;
// every service runs read-only, with every capability dropped (Caddy adds
// back only the one that binds low ports) and no-new-privileges.
func TestContainerHardening(t *testing.T) {
	t.Parallel()
	df, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	stages := map[string]bool{}
	for _, line := range strings.Split(string(df), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || !strings.EqualFold(f[0], "FROM") {
			continue
		}
		if len(f) >= 4 && strings.EqualFold(f[2], "AS") {
			stages[f[3]] = true
		}
		if !stages[f[1]] && !pinned.MatchString(f[1]) {
			t.Errorf("Dockerfile: FROM %s is not pinned as name:tag@sha256:digest", f[1])
		}
	}
	c := readCompose(t)
	for name, s := range c.Services {
		if s.Build == nil && !pinned.MatchString(s.Image) {
			t.Errorf("%s: image %q is not pinned as name:tag@sha256:digest", name, s.Image)
		}
		if !s.ReadOnly {
			t.Errorf("%s: read_only is not true", name)
		}
		if !contains(s.CapDrop, "ALL") {
			t.Errorf("%s: cap_drop %v does not drop ALL", name, s.CapDrop)
		}
		if len(s.CapAdd) > 0 && !(name == "caddy" && strings.Join(s.CapAdd, ",") == "NET_BIND_SERVICE") {
			t.Errorf("%s: cap_add %v", name, s.CapAdd)
		}
		if !contains(s.SecurityOpt, "no-new-privileges:true") {
			t.Errorf("%s: security_opt %v lacks no-new-privileges:true", name, s.SecurityOpt)
		}
	}
}

// TestComposeLitestream: the Litestream service replicates the database
// payoutd serves, by the same path on the same volume (payoutd's lock and
// SQLite's index see one name), as payoutd's user, with the configuration
// litestream_test.go proves, at the version CI tests; it never mounts the
// master key's volume.
func TestComposeLitestream(t *testing.T) {
	t.Parallel()
	c := readCompose(t)
	p, ls := c.Services["payoutd"], c.Services["litestream"]
	if ls.Image == "" {
		t.Fatal("compose.yaml has no litestream service")
	}
	mounts := func(vols []string) map[string]string {
		m := map[string]string{}
		for _, v := range vols {
			parts := strings.Split(v, ":")
			m[parts[1]] = parts[0]
		}
		return m
	}
	pm, lm := mounts(p.Volumes), mounts(ls.Volumes)
	db := p.Environment["PAYOUTD_DB"]
	if ls.Environment["PAYOUTD_DB"] != db || lm[dirOf(db)] != pm[dirOf(db)] {
		t.Errorf("litestream replicates %s on %s; payoutd serves %s on %s", ls.Environment["PAYOUTD_DB"], lm[dirOf(db)], db, pm[dirOf(db)])
	}
	for path, src := range lm {
		if src == pm[dirOf(p.Environment["PAYOUTD_MASTER_KEY"])] {
			t.Errorf("litestream mounts the master key's volume at %s", path)
		}
	}
	if ls.User != "65532:65532" {
		t.Errorf("litestream runs as %q, not payoutd's uid 65532 (the database is 0600)", ls.User)
	}
	if lm["/etc/litestream.yml"] != "./litestream.yml" || strings.Join(ls.Command, " ") != "replicate -config /etc/litestream.yml" {
		t.Errorf("litestream does not run ./litestream.yml: %v %v", ls.Volumes, ls.Command)
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`ls_version=v(\S+)`).FindSubmatch(ci)
	if m == nil || !strings.Contains(ls.Image, ":"+string(m[1])+"@") {
		t.Errorf("litestream image %s is not the version CI tests (%s)", ls.Image, m)
	}
}
