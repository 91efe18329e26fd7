package documents

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

func testInvoice() Invoice {
	return Invoice{ID: "inv_01kf3s2b4c6d8e0f2g4h6j8k0m", Number: "INV/26-27/00001", Date: "2026-10-14", Livemode: true,
		Supplier:  InvoiceParty{Name: "Asha Rao", Address: "12 MG Road, Bengaluru 560038", GSTIN: "29ABCPR1234K1ZP", State: "29"},
		Recipient: InvoiceParty{Name: "Acme Inc", Address: "1 Market St, San Francisco CA 94105", Country: "US"},
		Currency:  "USD", Exponent: 2,
		Lines: []InvoiceLine{{Description: "Backend development, September 2026", SAC: "998314", Amount: 120000},
			{Description: "Code review", SAC: "998314", Amount: 30050}},
		Total: 150050, Rate: "83.10", RateDate: "2026-10-14", ValueINR: 12469155, LUTARN: "AD2903260001234",
		IssuedAt: time.Date(2026, 10, 14, 6, 0, 0, 0, time.UTC)}
}

// invoiceText is the PDF's text as pdftotext lays it out.
func invoiceText(t *testing.T, inv Invoice) string {
	t.Helper()
	is := is.New(t)
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pdftotext not on PATH: .ci/run installs poppler-utils")
		}
		t.Skip("pdftotext not on PATH: install poppler-utils to run the invoice text tests")
	}
	pdf, err := RenderInvoice(inv)
	is.NoErr(err)
	in := filepath.Join(t.TempDir(), "invoice.pdf")
	is.NoErr(os.WriteFile(in, pdf, 0o644))
	out, err := exec.Command("pdftotext", "-layout", "-enc", "UTF-8", in, "-").Output()
	is.NoErr(err)
	return string(out)
}

// TestRenderInvoice: the PDF carries every rule 46 field of an export
// invoice, the LUT endorsement with its ARN (or the IGST without one), one
// page, Indian grouping, and the same bytes every time.
func TestRenderInvoice(t *testing.T) {
	t.Run("Rule46Fields", func(t *testing.T) {
		is := is.New(t)
		text := invoiceText(t, testInvoice())
		flat := strings.Join(strings.Fields(text), " ")
		for _, want := range []string{
			"Asha Rao", "12 MG Road, Bengaluru 560038", "29ABCPR1234K1ZP", // supplier name, address, GSTIN
			"INV/26-27/00001", "14 October 2026", // consecutive number, date
			"Acme Inc", "1 Market St, San Francisco CA 94105", "United States", // recipient name, address, country
			"Outside India (96: other country)",                 // place of supply
			"SAC 998314", "Backend development, September 2026", // SAC and description per line
			"USD 1,500.50", "₹1,24,691.55", "₹83.10 per USD", // value in currency and INR at the r.34 rate
			india.EndorsementLUT, "LUT ARN AD2903260001234", // endorsement and ARN
			"Signature or digital signature of the supplier",
		} {
			is.True(strings.Contains(flat, want)) // every rule 46 field
		}
		is.Equal(strings.Count(text, "\f"), 1) // one page
	})
	t.Run("WithIGST", func(t *testing.T) {
		is := is.New(t)
		inv := testInvoice()
		inv.LUTARN, inv.IGST = "", 2244448
		flat := strings.Join(strings.Fields(invoiceText(t, inv)), " ")
		is.True(strings.Contains(flat, india.EndorsementIGST))
		is.True(strings.Contains(flat, "IGST at 18%: ₹22,444.48"))
		is.True(strings.Contains(flat, "₹1,47,136.03")) // value plus IGST
		is.True(!strings.Contains(flat, "UNDER LETTER OF UNDERTAKING"))
	})
	t.Run("Deterministic", func(t *testing.T) {
		is := is.New(t)
		a, err := RenderInvoice(testInvoice())
		is.NoErr(err)
		b, err := RenderInvoice(testInvoice())
		is.NoErr(err)
		is.Equal(a, b)
	})
	t.Run("ErrIncomplete", func(t *testing.T) {
		_, err := RenderInvoice(Invoice{})
		is.New(t).True(err != nil)
	})
	t.Run("Golden", func(t *testing.T) {
		golden(t, "invoice.golden.txt", []byte(invoiceText(t, testInvoice())))
	})
}
