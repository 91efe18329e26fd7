package console

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// csvRows reads a downloaded CSV: UTF-8 byte-order mark, then rows after
// the header.
func (b *browser) csvRows() [][]string {
	b.t.Helper()
	body, ok := strings.CutPrefix(b.page, "\ufeff")
	if !ok || b.header.Get("Content-Type") != "text/csv; charset=utf-8" {
		b.t.Fatalf("not a CSV download: %s %q", b.header.Get("Content-Type"), b.page[:min(len(b.page), 80)])
	}
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		b.t.Fatal(err)
	}
	return rows[1:]
}

// TestConsoleExports: the Payouts list's CSV link downloads exactly what
// the list counts, with its amounts; the FIRAs page downloads the year's
// PDFs as one ZIP and its CSV; the tax page its challans.
func TestConsoleExports(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{river: true})
	u, key := h.newUser("asha@example.com", false)
	status, _ := h.api("POST", "/api/v1/sandbox/kyc/approve", key, "")
	is.Equal(status, http.StatusOK)
	b := h.signIn(u)
	for _, amount := range []string{"450.00", "120.00"} {
		id := b.initiate(amount, "US")
		is.Equal(b.confirm(id, ""), http.StatusSeeOther)
		h.waitStatus(u.ID, id, store.StatusCompleted)
	}
	b.initiate("75.00", "") // domestic, unconfirmed

	b.get("/console/payouts?q=acme")
	is.True(b.has("2 payouts match"))
	m := regexp.MustCompile(`<a href="(/console/payouts\.csv\?[^"]+)" download>`).FindStringSubmatch(b.page)
	is.True(m != nil)
	export := html.UnescapeString(m[1])
	is.Equal(export, "/console/payouts.csv?q=acme")
	is.Equal(b.get(export), http.StatusOK)
	rows := b.csvRows()
	is.Equal(len(rows), 2)
	is.Equal(rows[0][6]+" "+rows[1][6], "120.00 450.00") // newest first
	is.Equal(rows[0][3], "Acme Inc")

	fy := india.FYOf(h.db.Now()).String()
	is.Equal(b.get("/console/firas.zip?fy="+fy), http.StatusOK)
	is.Equal(b.header.Get("Content-Disposition"), `attachment; filename="FIRAs-`+fy+`.zip"`)
	zr, err := zip.NewReader(bytes.NewReader([]byte(b.page)), int64(len(b.page)))
	is.NoErr(err)
	is.Equal(len(zr.File), 2)
	is.Equal(b.get("/console/firas.csv?fy="+fy), http.StatusOK)
	is.Equal(len(b.csvRows()), 2)
	is.Equal(b.get("/console/firas.zip?fy=1999-00"), http.StatusBadRequest)
	is.Equal(b.get("/console/tax/payments.csv?fy="+fy), http.StatusOK)
	is.Equal(len(b.csvRows()), 0)
}
