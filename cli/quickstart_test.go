package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// needTools skips without bash and curl, except in CI, where .ci/run
// installs them and their absence is a failure.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed (.ci/run installs it)", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
}

// runBash runs a bash script file or -c text against the server with key,
// in dir, and returns its combined output.
func runBash(t *testing.T, dir, url, key string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PAYOUTD_URL="+url, "PAYOUTD_KEY="+key, "PAYOUTD_OUT="+dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// readmeTryIt is the bash block of the README's "Try it" section.
func readmeTryIt(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Try it\n")
	if !ok {
		t.Fatal(`README.md has no "## Try it" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	_, block, ok := strings.Cut(section, "```bash\n")
	if !ok {
		t.Fatal(`README.md's "Try it" has no bash block`)
	}
	block, _, _ = strings.Cut(block, "```")
	return block
}

var apiPath = regexp.MustCompile(`/api/v1/[a-z0-9/_-]*`)

// TestQuickstart runs examples/quickstart.sh, and the README's "Try it"
// block, against a started server, each as a new sandbox user (KYC
// PENDING), so the README's steps are the ones that work.
func TestQuickstart(t *testing.T) {
	t.Parallel()
	needTools(t, "bash", "curl")
	dir := t.TempDir()
	cli(t, dir, "migrate")
	scriptKey := cli(t, dir, "keys", "create", "--email", "script@example.com", "--name", "Asha Rao")
	readmeKey := cli(t, dir, "keys", "create", "--email", "readme@example.com", "--name", "Ravi Iyer")
	p := start(t, dir)
	script, err := filepath.Abs(filepath.Join("examples", "quickstart.sh"))
	if err != nil {
		t.Fatal(err)
	}

	t.Run("Script", func(t *testing.T) {
		is := is.New(t)
		work := t.TempDir()
		out, err := runBash(t, work, p.URL, scriptKey, script)
		t.Logf("quickstart.sh:\n%s", out)
		is.NoErr(err)
		is.True(strings.Contains(out, "refused as expected")) // the ERR_KYC_REQUIRED step ran
		is.True(strings.Contains(out, "payout COMPLETED"))
		is.True(strings.HasSuffix(strings.TrimSpace(out), "quickstart: ok"))
		pdfs, _ := filepath.Glob(filepath.Join(work, "fira_*.pdf"))
		is.Equal(len(pdfs), 1)
		b, err := os.ReadFile(pdfs[0])
		is.NoErr(err)
		is.True(bytes.HasPrefix(b, []byte("%PDF-")))
	})

	t.Run("ScriptStopsAtFirstFailure", func(t *testing.T) {
		is := is.New(t)
		out, err := runBash(t, t.TempDir(), p.URL, "sk_sandbox_notakey", script)
		is.True(err != nil)
		is.True(strings.Contains(out, `step "1. find the default vault" failed: answered 401`))
		out, err = runBash(t, t.TempDir(), "http://127.0.0.1:1", scriptKey, script)
		is.True(err != nil)
		is.True(strings.Contains(out, "cannot reach"))
	})

	t.Run("README", func(t *testing.T) {
		is := is.New(t)
		block := readmeTryIt(t)
		work := t.TempDir()
		out, err := runBash(t, work, p.URL, readmeKey, "-eo", "pipefail", "-c", block)
		t.Logf("README block:\n%s", out)
		is.NoErr(err)
		is.True(strings.Contains(out, "ERR_KYC_REQUIRED"))
		is.True(strings.Contains(out, `"status":"APPROVED"`))
		is.True(strings.Contains(out, `"paymentId":"pay_`)) // the FIRA
		is.True(strings.Contains(out, `"settled":`))        // the ledger balance
		is.True(strings.Contains(out, `"financialYear":`))  // the liability
		pdfs, _ := filepath.Glob(filepath.Join(work, "fira_*.pdf"))
		is.Equal(len(pdfs), 1)
		_, body := get(t, p.URL+"/api/v1/payments", readmeKey)
		is.True(strings.Contains(string(body), `"status":"COMPLETED"`))
	})

	t.Run("SameSteps", func(t *testing.T) {
		is := is.New(t)
		b, err := os.ReadFile(script)
		is.NoErr(err)
		inScript := apiPath.FindAllString(string(b), -1)
		inREADME := apiPath.FindAllString(readmeTryIt(t), -1)
		is.True(len(inScript) > 8)
		is.Equal(inREADME, inScript) // the same endpoints in the same order
	})
}
