package server_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

// firaEnv settles four cross-border payouts and one domestic one at a fixed
// clock (21 Nov 2026 15:30 IST) and returns their payment ids.
func firaEnv(t *testing.T) (e *env, full, bare, unlisted, pending, domestic string) {
	e = newEnv(t, func(o *envOpts) { o.limits = map[string]int{"initiate": 1000, "confirm": 1000} })
	e.approveKYC(e.UserID)
	e.fixClock(ist(2026, time.November, 21, 15, 30))
	// The beneficiary details a FIRA freezes from the profile.
	for path, body := range map[string]map[string]any{
		"/api/v1/profile":             {"pan": testPAN, "address": "12 MG Road, Indiranagar, Bengaluru 560038, Karnataka"},
		"/api/v1/profile/link-wallet": {"walletAddress": testAddress},
	} {
		if r := e.req("PATCH", path, body); r.Status != http.StatusOK {
			t.Fatalf("PATCH %s: %d %s", path, r.Status, r.Body)
		}
	}
	// The rate history holds ₹83.10 for 14 November, the invoice date of
	// the first payout: its GST value is taken at that rate.
	if err := e.DB.WithTx(context.Background(), func(tx *store.Tx) error {
		return tx.Tax().RecordRates(false, []store.Rate{{Currency: "USD", Rate: "83.10", AsOf: ist(2026, time.November, 14, 10, 0)}})
	}); err != nil {
		t.Fatal(err)
	}
	// One at a time, so the FIRAs are generated in this order.
	pay := func(usd string, extra map[string]any) string {
		id := e.pay(usd, extra)
		e.quiesce()
		return id
	}
	full = pay("1500.00", map[string]any{"counterpartyCountry": "US", "counterpartyBank": "JPMorgan Chase Bank, N.A., New York",
		"counterpartyName": "Acme Inc", "purposeCode": "P0802", "invoiceRef": "INV-2026-0042", "invoiceDate": "2026-11-14"})
	bare = pay("20.00", map[string]any{"counterpartyCountry": "GB", "invoiceRef": "INV-2"})
	unlisted = pay("30.00", map[string]any{"counterpartyCountry": "DE", "purposeCode": "P9999", "invoiceRef": "INV-3"})
	pending = pay("40.00", map[string]any{"counterpartyCountry": "SG"})
	domestic = pay("50.00", map[string]any{"invoiceRef": "INV-5"})
	return
}

func TestFIRA(t *testing.T) {
	t.Parallel()
	e, full, bare, unlisted, pending, domestic := firaEnv(t)
	list := e.getExact("/api/v1/compliance/fira")
	firaOf := map[string]map[string]any{}
	for _, it := range list["items"].([]any) {
		f := it.(map[string]any)
		firaOf[f["paymentId"].(string)] = f
	}

	t.Run("OneForEachSettledCrossBorderPayout", func(t *testing.T) {
		is := is.New(t)
		is.Equal(at(list, "total"), "4")
		is.True(firaOf[full] != nil && firaOf[bare] != nil && firaOf[unlisted] != nil)
		is.True(firaOf[pending] != nil) // a FIRA records the remittance, reconciled or not
		is.True(firaOf[domestic] == nil)
	})

	t.Run("Fields", func(t *testing.T) {
		is := is.New(t)
		f := firaOf[full]
		id := f["id"].(string)
		is.True(strings.HasPrefix(id, "fira_"))
		want := map[string]string{
			"status": "GENERATED", "remittingBank": "JPMorgan Chase Bank, N.A., New York", "remittingCountry": "US",
			"amountForeign": "1500.00", "foreignCurrency": "USD", "amountInr": "124875.00", "settlementRate": "83.25",
			"purposeCode": "P0802", "purposeDescription": "Software consultancy/implementation (other than those covered in SOFTEX form)",
			"invoiceRef": "INV-2026-0042", "generatedAt": "2026-11-21T10:00:00.000Z", "settledAt": "2026-11-21T10:00:00.000Z",
			"downloadUrl": "http://payoutd.test/api/v1/compliance/fira/" + id + "/pdf",
		}
		for k, v := range want {
			is.Equal(at(f, k), v)
		}
		one := e.getExact("/api/v1/compliance/fira/" + id)
		for k, v := range want {
			is.Equal(at(one, k), v)
		}
		// What a bank's advice carries: remitter, beneficiary with PAN,
		// address and where the money landed, the rate's time, the IST
		// settlement date beside the UTC time, and the issuer.
		for k, v := range map[string]string{
			"remitter.name": "Acme Inc", "remitter.country": "US", "remitter.countryName": "United States of America",
			"remitter.bank":    "JPMorgan Chase Bank, N.A., New York",
			"beneficiary.name": "Asha Rao", "beneficiary.pan": testPAN,
			"beneficiary.address": "12 MG Road, Indiranagar, Bengaluru 560038, Karnataka",
			"beneficiary.email":   at(one, "beneficiary.email"), "beneficiary.vaultId": e.VaultID, "beneficiary.walletAddress": testAddress,
			"settlementDate": "2026-11-21", "rateAsOf": "2026-11-21T10:00:00.000Z",
		} {
			is.Equal(at(one, k), v)
		}
		is.True(at(one, "beneficiary.email") != "")
		is.True(strings.Contains(at(one, "issuer"), "not issued by a bank"))
		rec := e.req("GET", "/api/v1/ledger/reconciliation/"+full, nil).JSON(t)
		is.Equal(rec["firaId"], id)
	})

	t.Run("Fallbacks", func(t *testing.T) {
		is := is.New(t)
		is.Equal(at(firaOf[bare], "remittingBank"), "Unknown remitting bank")
		is.Equal(at(firaOf[bare], "purposeCode"), "P1099")
		is.Equal(at(firaOf[bare], "purposeDescription"), "Other services not included elsewhere")
		is.Equal(at(firaOf[unlisted], "purposeCode"), "P9999")
		is.Equal(at(firaOf[unlisted], "purposeDescription"),
			"Unlisted purpose code P9999; treated as P1099 (Other services not included elsewhere)")
		is.Equal(at(firaOf[pending], "invoiceRef"), "")
	})

	t.Run("ListFilters", func(t *testing.T) {
		cases := []struct {
			name, query   string
			status, total int
		}{
			{"PaymentID", "?paymentId=" + bare, 200, 1},
			{"PaymentIDOfDomestic", "?paymentId=" + domestic, 200, 0},
			{"FromDay", "?from=2026-11-21", 200, 4},
			{"ToDayInclusive", "?to=2026-11-21", 200, 4},
			{"FromLater", "?from=2026-11-22", 200, 0},
			{"ToEarlier", "?to=2026-11-20T23:59:59Z", 200, 0},
			{"Paged", "?limit=3&page=2", 200, 4},
			{"ErrFrom", "?from=yesterday", 400, 0},
			{"ErrToBeforeFrom", "?from=2026-11-21&to=2026-11-20", 400, 0},
			{"ErrPage", "?page=0", 400, 0},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				is := is.New(t)
				r := e.req("GET", "/api/v1/compliance/fira"+c.query, nil)
				is.Equal(r.Status, c.status)
				if c.status != 200 {
					is.Equal(r.errCode(t), "ERR_VALIDATION")
					return
				}
				is.Equal(r.JSON(t)["total"], float64(c.total))
			})
		}
		is := is.New(t)
		page2 := e.req("GET", "/api/v1/compliance/fira?limit=3&page=2", nil).JSON(t)["items"].([]any)
		is.Equal(len(page2), 1)
		// Newest first: the first payout's FIRA was generated first.
		is.Equal(page2[0].(map[string]any)["paymentId"], full)
	})

	t.Run("ErrNotFound", func(t *testing.T) {
		is := is.New(t)
		id := at(firaOf[full], "id")
		other, _, _ := e.newUser("other@example.com", false, store.AllScopes)
		for _, c := range []struct{ key, path string }{
			{e.Key, "/api/v1/compliance/fira/fira_nope"},
			{other, "/api/v1/compliance/fira/" + id},
			{other, "/api/v1/compliance/fira/" + id + "/pdf"},
		} {
			r := e.reqAs(c.key, "GET", c.path, nil)
			is.Equal(r.Status, http.StatusNotFound)
			is.Equal(r.errCode(t), "ERR_FIRA_NOT_FOUND")
		}
		r := e.reqAs(other, "GET", "/api/v1/compliance/fira", nil)
		is.Equal(r.JSON(t)["total"], float64(0))
	})

	t.Run("ErrScope", func(t *testing.T) {
		is := is.New(t)
		key, _, _ := e.newUser("tax-only@example.com", false, []string{"tax:read"})
		r := e.reqAs(key, "GET", "/api/v1/compliance/fira", nil)
		is.Equal(r.Status, http.StatusForbidden)
	})

	t.Run("GeneratedOnceWithOneEvent", func(t *testing.T) {
		is := is.New(t)
		var events int
		is.NoErr(e.SQL.QueryRow(`SELECT count(*) FROM events WHERE user_id = ? AND type = 'fira.generated'
			AND json_extract(data, '$.firaId') IS NOT NULL AND json_extract(data, '$.paymentId') IS NOT NULL`, e.UserID).Scan(&events))
		is.Equal(events, 4)
		// Running generation again (a retried post-settlement job) returns
		// the same FIRA and emits nothing.
		var again store.FIRA
		is.NoErr(e.DB.WithTx(context.Background(), func(tx *store.Tx) error {
			p, err := tx.Payments().LoadPayment(full)
			if err != nil {
				return err
			}
			again, err = tx.Tax().GenerateFIRA(p)
			return err
		}))
		is.Equal(again.ID, at(firaOf[full], "id"))
		is.NoErr(e.SQL.QueryRow(`SELECT count(*) FROM events WHERE user_id = ? AND type = 'fira.generated'`, e.UserID).Scan(&events))
		is.Equal(events, 4)
	})

	t.Run("ReconcileAgainReturnsTheRecord", func(t *testing.T) {
		is := is.New(t)
		audits := func() (n int) {
			is.NoErr(e.SQL.QueryRow(`SELECT count(*) FROM audit_log WHERE resource_id IN (?, ?) AND action LIKE 'reconciliation.%'`,
				full, pending).Scan(&n))
			return n
		}
		before := audits()
		is.Equal(before, 2)
		for id, want := range map[string]string{full: store.Reconciled, pending: store.PendingReconciliation} {
			var again store.Reconciliation
			is.NoErr(e.DB.WithTx(context.Background(), func(tx *store.Tx) error {
				p, err := tx.Payments().LoadPayment(id)
				if err != nil {
					return err
				}
				again, err = payout.Reconcile(tx, p)
				return err
			}))
			is.Equal(again.Status, want)
			is.Equal(again.FIRAID, at(firaOf[id], "id"))
			is.True(strings.HasPrefix(again.LedgerEntryID, "je_"))
		}
		is.Equal(audits(), before) // nothing recorded twice
	})

	t.Run("PDF", func(t *testing.T) {
		is := is.New(t)
		id := at(firaOf[full], "id")
		r := e.req("GET", "/api/v1/compliance/fira/"+id+"/pdf", nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("Content-Type"), "application/pdf")
		is.Equal(r.Header.Get("Content-Disposition"), `attachment; filename="FIRA-`+id+`.pdf"`)
		is.True(bytes.HasPrefix(r.Body, []byte("%PDF-")))
		// A later profile edit does not change the document.
		if p := e.req("PATCH", "/api/v1/profile", map[string]any{"name": "Someone Else"}); p.Status != http.StatusOK {
			t.Fatalf("PATCH /profile: %d %s", p.Status, p.Body)
		}
		again := e.req("GET", "/api/v1/compliance/fira/"+id+"/pdf", nil)
		is.True(bytes.Equal(r.Body, again.Body)) // deterministic bytes
	})
}

// TestFIRAPDFGolden pins the text of the PDF the endpoint serves. Ids are
// random, so they are replaced by fixed placeholders, and runs of spaces are
// collapsed: -layout pads columns by the rendered width of those ids.
func TestFIRAPDFGolden(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pdftotext not on PATH: .ci/run installs poppler-utils")
		}
		t.Skip("pdftotext not on PATH: install poppler-utils (.ci/run does)")
	}
	e, full, _, _, _, _ := firaEnv(t)
	is := is.New(t)
	f := e.getExact("/api/v1/compliance/fira?paymentId=" + full)
	id := at(f, "items.0.id")
	r := e.req("GET", "/api/v1/compliance/fira/"+id+"/pdf", nil)
	is.Equal(r.Status, http.StatusOK)
	in := filepath.Join(t.TempDir(), "fira.pdf")
	is.NoErr(os.WriteFile(in, r.Body, 0o644))
	out, err := exec.Command("pdftotext", "-layout", "-enc", "UTF-8", in, "-").Output()
	is.NoErr(err)
	text := strings.NewReplacer(id, "fira_ID", full, "pay_ID", "sbx_"+strings.TrimPrefix(full, "pay_"), "sbx_REF",
		e.VaultID, "vlt_ID").Replace(string(out))
	text = regexp.MustCompile(` {2,}`).ReplaceAllString(text, "  ")
	text = regexp.MustCompile(`(?m) +$`).ReplaceAllString(text, "")
	golden(t, "fira.golden.txt", []byte(text))
}
