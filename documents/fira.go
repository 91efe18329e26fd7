package documents

import (
	"errors"
	"strings"
	"time"
)

// FIRA is everything the advice prints about one inward remittance. Amounts
// are minor units; the caller supplies the words and the rate as text because
// both are already fixed elsewhere (the rate at settlement, exactly).
type FIRA struct {
	ID                   string
	PaymentID            string
	RemittingBank        string
	RemittingCountry     string // ISO 3166-1 alpha-2
	RemittingCountryName string
	ForeignCurrency      string // ISO 4217 code
	PurposeCode          string // RBI purpose code, e.g. P0802
	PurposeDescription   string
	InvoiceRef           string
	SettlementRef        string
	BeneficiaryName      string
	BeneficiaryEmail     string
	AmountForeign        int64 // minor units of ForeignCurrency
	ForeignExponent      int   // ISO 4217 exponent of ForeignCurrency
	AmountINR            int64 // paise
	AmountINRWords       string
	SettlementRate       string    // INR per unit of ForeignCurrency, exact decimal text
	RateAsOf             time.Time // when the rate was true (live rates); zero: not recorded
	GeneratedAt          time.Time
	SettledAt            time.Time
	Livemode             bool
}

// errFIRAIncomplete is returned for a FIRA the PDF cannot be made
// deterministic for; it is a programming error in the caller, not user input.
var errFIRAIncomplete = errors.New("documents: FIRA needs an ID and GeneratedAt")

// firaSection is a titled group of label/value rows in the advice's table.
type firaSection struct {
	title string
	rows  []firaRow
}

// firaRow is one line of the table; strong rows are set in bold.
type firaRow struct {
	label, value string
	strong       bool
}

// firaDash stands in for a value the service does not have, so an empty cell
// reads as "none" rather than as a rendering fault.
const firaDash = "—"

// firaSections lists every field the advice shows, in reading order.
func firaSections(f FIRA) []firaSection {
	mode := "Live"
	if !f.Livemode {
		mode = "Sandbox (test data, no money moved)"
	}
	return []firaSection{
		{"Remittance", []firaRow{
			{"FIRA number", f.ID, false},
			{"Payment ID", f.PaymentID, false},
			{"Remitting bank", f.RemittingBank, false},
			{"Remitting country", firaCountry(f), false},
			{"Settled on", firaTime(f.SettledAt), false},
			{"Settlement reference", f.SettlementRef, false},
		}},
		{"Beneficiary", []firaRow{
			{"Name", f.BeneficiaryName, false},
			{"Email", f.BeneficiaryEmail, false},
		}},
		{"Amount", []firaRow{
			{"Amount remitted", firaForeign(f), false},
			{"Settlement rate", firaRate(f), false},
			{"Amount credited", "₹" + FormatINR(f.AmountINR), true},
			{"Amount in words", f.AmountINRWords, false},
		}},
		{"Purpose and references", []firaRow{
			{"Purpose code", f.PurposeCode, false},
			{"Purpose", f.PurposeDescription, false},
			{"Invoice reference", f.InvoiceRef, false},
			{"Environment", mode, false},
		}},
	}
}

func firaCountry(f FIRA) string {
	switch {
	case f.RemittingCountryName != "" && f.RemittingCountry != "":
		return f.RemittingCountryName + " (" + f.RemittingCountry + ")"
	case f.RemittingCountryName != "":
		return f.RemittingCountryName
	}
	return f.RemittingCountry
}

func firaForeign(f FIRA) string {
	return strings.TrimSpace(f.ForeignCurrency + " " + formatForeign(f.AmountForeign, f.ForeignExponent))
}

func firaRate(f FIRA) string {
	if f.SettlementRate == "" {
		return ""
	}
	rate := "₹" + f.SettlementRate
	if f.ForeignCurrency != "" {
		rate += " per " + f.ForeignCurrency
	}
	if !f.RateAsOf.IsZero() {
		rate += ", as of " + f.RateAsOf.UTC().Format("2006-01-02 15:04 UTC")
	}
	return rate
}

// firaTime prints times in UTC, as the API returns them, with the zone named
// so nobody reads them as IST.
func firaTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2 Jan 2006, 15:04 UTC")
}
