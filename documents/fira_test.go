package documents

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
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
		RemitterName:         "Acme Inc",
		BeneficiaryName:      "Asha Raghunathan",
		BeneficiaryPAN:       "ABCPR1234K",
		BeneficiaryAddress:   "12 MG Road, Indiranagar, Bengaluru 560038, Karnataka",
		BeneficiaryEmail:     "asha@example.in",
		VaultID:              "vlt_01JD6Q0A1B2C3D4E5F6G",
		BeneficiaryWallet:    "GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ",
		AmountForeign:        150000, // USD 1,500.00
		ForeignExponent:      2,
		AmountINR:            12487680, // 1,500.00 × 83.2512
		AmountINRWords:       "Rupees One Lakh Twenty-Four Thousand Eight Hundred Seventy-Six and Eighty Paise Only",
		SettlementRate:       "83.2512",
		GeneratedAt:          time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC),
		SettledAt:            time.Date(2026, 11, 21, 9, 58, 12, 0, time.UTC),
		Livemode:             false,
		// Invoiced a week before settlement: GST values USD 1,500.00 at
		// that day's ₹83.10.
		InvoiceDate: "2026-11-14",
		GST:         &FIRAGST{TimeOfSupply: "2026-11-14", Rate: "83.10", RateDate: "2026-11-14", Basis: "timeOfSupply", ValueINR: 12465000},
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

	t.Run("GoldenWithDeposits", func(t *testing.T) {
		f := testFIRA()
		f.Livemode = true
		f.Deposits = []FIRADeposit{
			{From: "GBWLKAOC6EZ36F7PRCSC6VYF4QGRF7IYPSBDTVXJVEEWFWK6ZXKYFZ2M", TxHash: "9d3b7e2c41f0a8b6d5c4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2",
				ClosedAt: time.Date(2026, 11, 20, 15, 4, 5, 0, time.UTC), Amount: "USD 1,000.00", MatchedBy: "named"},
			{From: "GBWLKAOC6EZ36F7PRCSC6VYF4QGRF7IYPSBDTVXJVEEWFWK6ZXKYFZ2M", TxHash: "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9",
				ClosedAt: time.Date(2026, 11, 21, 4, 0, 0, 0, time.UTC), Amount: "USD 500.00", MatchedBy: "invoice reference"},
		}
		golden(t, "fira_deposits.golden.txt", pdfText(t, f))
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

	t.Run("SettlementDateIsIST", func(t *testing.T) {
		// 31 March 23:59 IST is 18:29 UTC; 1 April 00:01 IST is 18:31 UTC,
		// still 31 March in UTC: the advice prints the Indian date.
		for _, c := range []struct {
			settled time.Time
			date    string
		}{
			{time.Date(2026, 3, 31, 18, 29, 0, 0, time.UTC), "31 Mar 2026 (IST)"},
			{time.Date(2026, 3, 31, 18, 31, 0, 0, time.UTC), "1 Apr 2026 (IST)"},
		} {
			is := is.New(t)
			f := testFIRA()
			f.SettledAt = c.settled
			text := string(pdfText(t, f))
			is.True(strings.Contains(text, c.date))
			is.True(strings.Contains(text, c.settled.Format("2 Jan 2006, 15:04 UTC")))
		}
	})

	t.Run("WorstCaseFitsOnePage", func(t *testing.T) {
		is := is.New(t)
		f := longestFIRA()
		pdf, err := RenderFIRA(f)
		is.NoErr(err)
		is.Equal(pageCount(pdf), 1)
		text := string(pdfText(t, f))
		is.Equal(strings.Count(text, "\f"), 1) // pdftotext: one form feed per page
		// Every row is on the page, down to the last, and the footer.
		for _, label := range []string{"REMITTER", "Bank", "BENEFICIARY", "Receiving wallet", "Amount in words",
			"SETTLEMENT", "Advice generated", "Invoice reference", "Environment", "remains the legal record"} {
			is.True(strings.Contains(text, label))
		}
		// Nothing of the longest values was cut off: their characters all print.
		flat := strings.Join(strings.Fields(text), "")
		is.True(strings.Contains(flat, strings.Repeat("W", 60)))
		is.Equal(strings.Count(flat, "Ж"), 76) // one in the remitter, 75 in the address
	})

	t.Run("ErrIncomplete", func(t *testing.T) {
		is := is.New(t)
		f := testFIRA()
		f.GeneratedAt = time.Time{}
		_, err := RenderFIRA(f)
		is.True(errors.Is(err, errFIRAIncomplete))
	})
}

// longestFIRA has every field at the longest the service accepts: the
// payout's counterparty name and bank (256), invoice reference (128), the
// profile's name (100), address (300) and email (254), the longest RBI
// purpose description and country name, the words of the largest amount,
// and a 64-character settlement hash. Wide letters make it the worst case.
func longestFIRA() FIRA {
	f := testFIRA()
	wide := func(n int, marker string) string {
		return strings.Repeat("W", n-len(marker)) + marker
	}
	f.RemitterName = wide(256, "Ж")
	f.RemittingBank = strings.Repeat("Mw ", 85) + "M"
	f.RemittingCountry, f.RemittingCountryName = "GB", "United Kingdom of Great Britain and Northern Ireland"
	f.InvoiceRef = wide(128, "")
	f.BeneficiaryName = strings.Repeat("W", 100)
	f.BeneficiaryAddress = strings.Repeat("WЖW ", 75)
	f.BeneficiaryEmail = strings.Repeat("w", 64) + "@" + strings.Repeat("m", 185) + ".com"
	f.PurposeCode = "P0028"
	f.PurposeDescription, _ = india.PurposeDescription("P0028")
	f.SettlementRef = strings.Repeat("f", 64)
	f.AmountINR = 99_99_99_99_99_999_99
	f.AmountINRWords = india.AmountInWordsINR(f.AmountINR)
	f.AmountForeign, f.ForeignExponent, f.ForeignCurrency = 999_999_999_999_999, 3, "KWD"
	f.SettlementRate = "12345678.123456"
	return f
}

// pageCount counts the page objects of an uncompressed PDF.
func pageCount(pdf []byte) int {
	return bytes.Count(pdf, []byte("/Type /Page\n")) + bytes.Count(pdf, []byte("/Type /Page ")) +
		bytes.Count(pdf, []byte("/Type /Page/"))
}

// pdfText renders f and extracts its text with poppler's pdftotext, which
// also proves the PDF parses and that "₹" maps back to U+20B9.
func pdfText(t *testing.T, f FIRA) []byte {
	t.Helper()
	is := is.New(t)
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pdftotext not on PATH: .ci/run installs poppler-utils")
		}
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

// TestRenderFIRAConcurrently: FIRAs rendered at once (two downloads in
// parallel) come out exactly as one rendered alone, and leave the embedded
// fonts as they were (the race detector, which CI runs on this package,
// sees any byte two renders share).
func TestRenderFIRAConcurrently(t *testing.T) {
	regular, bold := bytes.Clone(dejaVuSans), bytes.Clone(dejaVuSansBold)
	alone, err := RenderFIRA(testFIRA())
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]byte, 8)
	errs := make([]error, len(out))
	var wg sync.WaitGroup
	for i := range out {
		wg.Go(func() { out[i], errs[i] = RenderFIRA(testFIRA()) })
	}
	wg.Wait()
	for i := range out {
		if errs[i] != nil || !bytes.Equal(out[i], alone) {
			t.Errorf("render %d of %d at once: %v, same bytes as alone: %v", i+1, len(out), errs[i], bytes.Equal(out[i], alone))
		}
	}
	if !bytes.Equal(regular, dejaVuSans) || !bytes.Equal(bold, dejaVuSansBold) {
		t.Error("rendering changed the embedded fonts")
	}
}
