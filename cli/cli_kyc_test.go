package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestKYCCLI reviews live users' KYC with the operator commands while the
// server runs: the API, the audit log and the events see the same moves
// the sandbox provider makes.
func TestKYCCLI(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	cli(t, dir, "migrate") // keys never creates a database
	key := cli(t, dir, "keys", "create", "--email", "asha@example.com", "--name", "Asha Rao", "--env", "production")
	cli(t, dir, "keys", "create", "--email", "ravi@example.com", "--name", "Ravi Kumar", "--env", "production")
	p := start(t, dir, "-mode", "live")
	doc := []byte("%PDF-1.4 a scanned PAN card")
	submitLiveKYC(t, dir, "asha@example.com", doc)
	submitLiveKYC(t, dir, "ravi@example.com", []byte("another scan"))

	list := cli(t, dir, "kyc", "list")
	is.True(strings.Contains(list, "asha@example.com") && strings.Contains(list, "ravi@example.com"))
	is.True(strings.Contains(list, "DOCS_SUBMITTED"))
	is.Equal(strings.TrimSpace(cli(t, dir, "kyc", "list", "--status", "APPROVED")), "USER  EMAIL  STATUS  ATTEMPTS  NAME  SINCE")

	sum := sha256.Sum256(doc)
	show := cli(t, dir, "kyc", "show", "asha@example.com")
	is.True(strings.Contains(show, "PAN_CARD"))
	is.True(strings.Contains(show, hex.EncodeToString(sum[:])))
	is.True(strings.Contains(show, "27 bytes"))
	is.True(strings.Contains(show, "ABCDE1234F"))

	out := filepath.Join(dir, "docs")
	written := cli(t, dir, "kyc", "documents", "asha@example.com", "--out", out)
	is.True(strings.HasPrefix(written, out+string(filepath.Separator))) // the uploaded name cannot climb out
	got, err := os.ReadFile(written)
	is.NoErr(err)
	is.Equal(got, doc)

	is.True(strings.HasSuffix(cli(t, dir, "kyc", "approve", "asha@example.com"), " APPROVED"))
	is.True(strings.HasSuffix(cli(t, dir, "kyc", "reject", "ravi@example.com", "--reason", "the scan is unreadable"), " REJECTED"))
	_, body := get(t, p.URL+"/api/v1/kyc/status", key)
	var st map[string]any
	is.NoErr(json.Unmarshal(body, &st))
	is.Equal(st["status"], "APPROVED")

	// The same audited moves and events as the sandbox path.
	_, body = get(t, p.URL+"/api/v1/compliance/audit?action=kyc.updated", key)
	is.True(strings.Count(string(body), `"kyc.updated"`) >= 2) // DOCS_SUBMITTED → UNDER_REVIEW → APPROVED
	_, body = get(t, p.URL+"/api/v1/events?type=kyc.updated", key)
	is.True(strings.Contains(string(body), "APPROVED"))

	// A decided record is not reviewed again.
	cmd := exec.Command(binary, "kyc", "approve", "asha@example.com", "-db", filepath.Join(dir, "payoutd.db"))
	is.True(cmd.Run() != nil)
}
