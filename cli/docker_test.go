package cli

import (
	"net/netip"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"go.yaml.in/yaml/v3"
)

// Docker does not run on every machine the tests run on, so the container
// files are held to what go.mod, serve and the README promise by reading
// them.

// TestDockerFiles holds the container files to what the README promises:
// the image checks itself with `payoutd health`, documents
// PAYOUTD_BASE_URL, and no node_modules (the test tools install two, under
// testdata/) or database file enters the build context.
func TestDockerFiles(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	df, err := os.ReadFile("Dockerfile")
	is.NoErr(err)
	is.True(strings.Contains(string(df), `HEALTHCHECK`))
	is.True(strings.Contains(string(df), `CMD ["/payoutd", "health"`))
	is.True(strings.Contains(string(df), "PAYOUTD_BASE_URL"))
	ignore, err := os.ReadFile(".dockerignore")
	is.NoErr(err)
	patterns := map[string]bool{}
	for _, l := range strings.Split(string(ignore), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns[l] = true
		}
	}
	// Docker matches a pattern without **/ at the context root only.
	for _, p := range []string{"**/node_modules", "**/*.db", "**/*.masterkey", ".git"} {
		if !patterns[p] {
			t.Errorf(".dockerignore lacks %s", p)
		}
	}
}

var (
	goLine     = regexp.MustCompile(`(?m)^go (\d+(?:\.\d+)*)\s*$`)
	toolchain  = regexp.MustCompile(`(?m)^toolchain go(\d+(?:\.\d+)*)\s*$`)
	golangFrom = regexp.MustCompile(`(?m)^FROM golang:(\d+(?:\.\d+)*)(\S*)`)
)

// versionAtLeast compares dotted Go versions: 1.26.8 ≥ 1.26 and ≥ 1.26.8.
func versionAtLeast(have, want string) bool {
	h, w := strings.Split(have, "."), strings.Split(want, ".")
	for i := 0; i < len(w); i++ {
		var hv int
		if i < len(h) {
			hv, _ = strconv.Atoi(h[i])
		}
		wv, _ := strconv.Atoi(w[i])
		if hv != wv {
			return hv > wv
		}
	}
	return true
}

// TestDockerfileGoSatisfiesGoMod: the build stage's image is pinned to a
// Go at least as new as go.mod's go (and toolchain) line, down to the
// patch release: the official image sets GOTOOLCHAIN=local, so a 1.26 tag
// that resolves to an older cached 1.26 cannot build a module that needs
// 1.26.8.
func TestDockerfileGoSatisfiesGoMod(t *testing.T) {
	t.Parallel()
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	df, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	want := goLine.FindStringSubmatch(string(mod))[1]
	if m := toolchain.FindStringSubmatch(string(mod)); m != nil && versionAtLeast(m[1], want) {
		want = m[1]
	}
	from := golangFrom.FindStringSubmatch(string(df))
	if from == nil {
		t.Fatal("the Dockerfile has no FROM golang:<version> build stage")
	}
	if strings.Count(from[1], ".") < 2 {
		t.Errorf("FROM golang:%s%s is not pinned to a patch release; go.mod needs %s", from[1], from[2], want)
	}
	if !versionAtLeast(from[1], want) {
		t.Errorf("FROM golang:%s cannot build a module that needs go %s", from[1], want)
	}
	for _, line := range strings.Split(string(df), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") && strings.Contains(line, "GOTOOLCHAIN=local") {
			t.Error("the Dockerfile forces GOTOOLCHAIN=local")
		}
	}
}

// composeFile is what the tests read of compose.yaml.
type composeFile struct {
	Services map[string]struct {
		Image           string            `yaml:"image"`
		Build           any               `yaml:"build"`
		Restart         string            `yaml:"restart"`
		StopGracePeriod string            `yaml:"stop_grace_period"`
		Environment     map[string]string `yaml:"environment"`
		Volumes         []string          `yaml:"volumes"`
		Ports           []string          `yaml:"ports"`
		Healthcheck     struct {
			Test []string `yaml:"test"`
		} `yaml:"healthcheck"`
		ReadOnly    bool     `yaml:"read_only"`
		CapDrop     []string `yaml:"cap_drop"`
		CapAdd      []string `yaml:"cap_add"`
		SecurityOpt []string `yaml:"security_opt"`
		User        string   `yaml:"user"`
		Command     []string `yaml:"command"`
	} `yaml:"services"`
	Networks map[string]struct {
		IPAM struct {
			Config []struct {
				Subnet string `yaml:"subnet"`
			} `yaml:"config"`
		} `yaml:"ipam"`
	} `yaml:"networks"`
	Volumes map[string]any `yaml:"volumes"`
}

// TestComposeFile: compose.yaml runs what the README says it runs, and
// each setting means what serve reads: every PAYOUTD_* variable is one a
// serve flag reads, the database and the master key sit on different
// volumes, Docker waits longer than the shutdown grace before it kills,
// the health check and restart policy are set, Caddy terminates TLS in
// front of payoutd's port, and the trusted proxy range is the network
// Caddy is on.
func TestComposeFile(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatalf("compose.yaml does not parse: %v", err)
	}
	p, ok := c.Services["payoutd"]
	if !ok {
		t.Fatal("compose.yaml has no payoutd service")
	}
	env := map[string]string{}
	for k, v := range p.Environment {
		env[k] = expandDefault(v)
	}
	help := serveHelp(t)
	known := map[string]string{}
	for name, f := range help {
		known[f.env] = name
	}
	for k := range env {
		if _, ok := known[k]; !ok {
			t.Errorf("compose.yaml sets %s, which no serve flag reads", k)
		}
	}

	// Restart, health check, stop grace.
	if p.Restart != "unless-stopped" && p.Restart != "always" {
		t.Errorf("restart: %q, want unless-stopped or always", p.Restart)
	}
	if strings.Join(p.Healthcheck.Test, " ") != "CMD /payoutd health -timeout 4s" {
		t.Errorf("healthcheck: %v", p.Healthcheck.Test)
	}
	stop, err := time.ParseDuration(p.StopGracePeriod)
	if err != nil {
		t.Fatalf("stop_grace_period %q: %v", p.StopGracePeriod, err)
	}
	grace, err := time.ParseDuration(env["PAYOUTD_SHUTDOWN_GRACE"])
	if err != nil {
		grace, _ = time.ParseDuration(help["shutdown-grace"].def)
	}
	// The grace covers requests and jobs; cancelled jobs then get 5 s more
	// (app.cancelWait) before the process exits.
	if stop < grace+5*time.Second+5*time.Second {
		t.Errorf("stop_grace_period %s leaves no room after the shutdown grace %s", stop, grace)
	}

	// The database and the master key on different volumes.
	mounts := map[string]string{} // container path → source
	for _, v := range p.Volumes {
		parts := strings.Split(v, ":")
		if len(parts) < 2 {
			t.Fatalf("volume %q", v)
		}
		mounts[parts[1]] = parts[0]
	}
	dbDir, keyDir := dirOf(env["PAYOUTD_DB"]), dirOf(env["PAYOUTD_MASTER_KEY"])
	dbVol, keyVol := mounts[dbDir], mounts[keyDir]
	if dbVol == "" || keyVol == "" {
		t.Fatalf("the database (%s) and the master key (%s) must each be on a volume: %v", dbDir, keyDir, p.Volumes)
	}
	if dbVol == keyVol || strings.HasPrefix(keyDir+"/", dbDir+"/") {
		t.Errorf("the master key (%s on %s) shares the database's volume (%s on %s)", keyDir, keyVol, dbDir, dbVol)
	}
	for _, v := range []string{dbVol, keyVol} {
		if _, ok := c.Volumes[v]; !ok {
			t.Errorf("volume %s is not declared", v)
		}
	}
	if mounts["/backups"] == "" {
		t.Error("no /backups mount for `payoutd backup --out /backups/…`")
	}

	// TLS in front: https base URL, Caddy proxying to payoutd's port.
	if !strings.HasPrefix(env["PAYOUTD_BASE_URL"], "https://") {
		t.Errorf("PAYOUTD_BASE_URL %q is not https", env["PAYOUTD_BASE_URL"])
	}
	for _, port := range p.Ports {
		if strings.HasSuffix(port, ":8080") && !strings.HasPrefix(port, "127.0.0.1:") {
			t.Errorf("payoutd's plain HTTP port is published: %s", port)
		}
	}
	caddy, ok := c.Services["caddy"]
	if !ok || !strings.HasPrefix(caddy.Image, "caddy:") {
		t.Fatal("compose.yaml has no caddy service")
	}
	if !contains(caddy.Ports, "443:443") {
		t.Errorf("caddy publishes %v, not 443", caddy.Ports)
	}
	caddyfile, err := os.ReadFile("Caddyfile")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := strings.Cut(env["PAYOUTD_ADDR"], ":")
	if !strings.Contains(string(caddyfile), "reverse_proxy payoutd:"+port) {
		t.Errorf("the Caddyfile does not proxy to payoutd:%s", port)
	}

	// The trusted proxy range is the network's subnet.
	var subnets []string
	for _, n := range c.Networks {
		for _, cfg := range n.IPAM.Config {
			subnets = append(subnets, cfg.Subnet)
		}
	}
	trusted, err := parsePrefixes(env["PAYOUTD_TRUSTED_PROXIES"])
	if err != nil || len(trusted) != 1 || !contains(subnets, trusted[0].String()) {
		t.Errorf("PAYOUTD_TRUSTED_PROXIES %q is not the compose network's subnet %v", env["PAYOUTD_TRUSTED_PROXIES"], subnets)
	}
	if _, err := netip.ParsePrefix(subnets[0]); err != nil {
		t.Error(err)
	}
}

// TestReadmeCompose: the README shows what an operator of the container
// needs, with commands that name compose.yaml's service and mounts.
func TestReadmeCompose(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"docker compose up",
		"docker compose exec payoutd /payoutd keys create",
		"docker compose run --rm payoutd",
		"docker compose exec payoutd /payoutd backup --out /backups/",
		"sudo chown 65532:65532",
		"stop_grace_period",
		"PAYOUTD_MODE=live",
		"PAYOUTD_STELLAR_RPC=",
		"Caddy",
		"payoutd:/key/payoutd.masterkey",
		"What to alert on",
	} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("README.md lacks %q", want)
		}
	}
}

// expandDefault is compose's ${VAR:-default} as the variable unset reads it.
func expandDefault(v string) string {
	return regexp.MustCompile(`\$\{[A-Z_]+:-([^}]*)\}`).ReplaceAllString(v, "$1")
}

func dirOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i > 0 {
		return path[:i]
	}
	return path
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
