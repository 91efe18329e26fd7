package documents

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

func testFIRA() FIRA {
	return FIRA{
		ID:                   "fira_01JD6Q2W8K4M7N9P3R5T",
		PaymentID:            "pay_01JD6Q1X3Y5Z7A9B2C4D",
		RemittingBank:        "JPMorgan Chase Bank, N.A., New York",
		RemittingCountry:     "US",
		RemittingCountryName: "United States",
		ForeignCurrency:      "USD",
		PurposeCode:          "P0802",
		PurposeDescription:   "Software consultancy/implementation (other than those covered in SOFTEX form)",
		InvoiceRef:           "INV-2026-0042",
		SettlementRef:        "stl_7f3a9c21e4b8",
		BeneficiaryName:      "Asha Raghunathan",
		BeneficiaryEmail:     "asha@example.in",
		AmountForeign:        150000, // USD 1,500.00
		ForeignExponent:      2,
		AmountINR:            12487680, // 1,500.00 × 83.2512
		AmountINRWords:       "Rupees One Lakh Twenty-Four Thousand Eight Hundred Seventy-Six and Eighty Paise Only",
		SettlementRate:       "83.2512",
		GeneratedAt:          time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC),
		SettledAt:            time.Date(2026, 11, 21, 9, 58, 12, 0, time.UTC),
		Livemode:             false,
	}
}

func TestRenderFIRA(t *testing.T) {
	t.Run("Deterministic", func(t *testing.T) {
		is := is.New(t)
		a, err := RenderFIRA(testFIRA())
		is.NoErr(err)
		b, err := RenderFIRA(testFIRA())
		is.NoErr(err)
		is.True(bytes.HasPrefix(a, []byte("%PDF-")))
		is.True(bytes.Equal(a, b)) // same input, same bytes
	})

	t.Run("LivemodeHasNoBanner", func(t *testing.T) {
		is := is.New(t)
		f := testFIRA()
		f.Livemode = true
		got := pdfText(t, f)
		is.True(!bytes.Contains(got, []byte("SANDBOX")))
	})

	t.Run("Golden", func(t *testing.T) {
		golden(t, "fira.golden.txt", pdfText(t, testFIRA()))
	})

	t.Run("HostileTextStillRenders", func(t *testing.T) {
		is := is.New(t)
		f := testFIRA()
		f.RemittingBank = strings.Repeat("Very Long Bank Name Incorporated ", 40)
		f.PurposeDescription = "emoji 😀, tab\t, newline\n, bad UTF-8 \xff"
		f.AmountForeign, f.ForeignExponent, f.ForeignCurrency = 1234567, 3, "KWD"
		pdf, err := RenderFIRA(f)
		is.NoErr(err)
		is.True(bytes.HasPrefix(pdf, []byte("%PDF-")))
	})

	t.Run("ErrIncomplete", func(t *testing.T) {
		is := is.New(t)
		f := testFIRA()
		f.GeneratedAt = time.Time{}
		_, err := RenderFIRA(f)
		is.True(errors.Is(err, errFIRAIncomplete))
	})
}

// pdfText renders f and extracts its text with poppler's pdftotext, which
// also proves the PDF parses and that "₹" maps back to U+20B9.
func pdfText(t *testing.T, f FIRA) []byte {
	t.Helper()
	is := is.New(t)
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext not on PATH: install poppler-utils to run the FIRA text tests")
	}
	pdf, err := RenderFIRA(f)
	is.NoErr(err)
	dir := t.TempDir()
	in := filepath.Join(dir, "fira.pdf")
	is.NoErr(os.WriteFile(in, pdf, 0o644))
	out, err := exec.Command("pdftotext", "-layout", "-enc", "UTF-8", in, "-").Output()
	is.NoErr(err)
	return out
}

func BenchmarkRenderFIRA(b *testing.B) {
	f := testFIRA()
	for b.Loop() {
		if _, err := RenderFIRA(f); err != nil {
			b.Fatal(err)
		}
	}
}
