package documents

import (
	"errors"
	"strconv"
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
	RemitterName         string
	BeneficiaryName      string
	BeneficiaryPAN       string
	BeneficiaryAddress   string
	BeneficiaryEmail     string
	VaultID              string // the vault the payout settled through
	BeneficiaryWallet    string // the beneficiary's own receiving wallet
	AmountForeign        int64  // minor units of ForeignCurrency
	ForeignExponent      int    // ISO 4217 exponent of ForeignCurrency
	AmountINR            int64  // paise
	AmountINRWords       string
	SettlementRate       string    // INR per unit of ForeignCurrency, exact decimal text
	RateAsOf             time.Time // when a live rate was true; zero: the settlement time
	GeneratedAt          time.Time
	SettledAt            time.Time
	Livemode             bool
	// Ledger is the Stellar ledger that applied a live payout (whose close
	// time is SettledAt) and NetworkFee the fee it was charged, as text
	// ("0.0000100 XLM"); zero and empty for a sandbox payout.
	Ledger     int64
	NetworkFee string
	// InvoiceDate is the payment's invoice date ("" when none), the date
	// that decides the GST month; GST is the receipt's GST value at the rate
	// of its time of supply, nil for an advice of a payout settled before
	// GST values were kept.
	InvoiceDate string
	GST         *FIRAGST
	// Deposits are the transfers into the vault this payout pays out,
	// the inward remittance as the chain recorded it.
	Deposits []FIRADeposit
}

// FIRADeposit is one inward transfer as the advice cites it.
type FIRADeposit struct {
	From      string // the sender's address (or name, in the sandbox)
	TxHash    string // "" in the sandbox
	ClosedAt  time.Time
	Amount    string // with its currency, e.g. "USD 5.00"
	MatchedBy string // how the payout was tied to it: named, invoice reference
}

// FIRAGST is a receipt's GST value as the advice prints it.
type FIRAGST struct {
	TimeOfSupply string // YYYY-MM-DD
	Rate         string // INR per unit of the FIRA's currency
	RateDate     string // YYYY-MM-DD, the IST date the rate was true
	Basis        string // as GSTRate.Basis
	ValueINR     int64  // paise
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

// FIRAIssuer is the issuer line of every advice, in the PDF and the JSON.
const FIRAIssuer = "Issued by payoutd, the beneficiary's own payout service, from its settlement records; " +
	"not issued by a bank. The e-FIRA of the AD (Authorised Dealer) bank that received the funds remains the legal record."

// firaSections lists every field the advice shows, in reading order.
func firaSections(f FIRA) []firaSection {
	mode := "Live"
	if !f.Livemode {
		mode = "Sandbox (test data, no money moved)"
	}
	sections := []firaSection{
		{"Remitter", []firaRow{
			{"Name", f.RemitterName, false},
			{"Country", firaCountry(f), false},
			{"Bank", f.RemittingBank, false},
		}},
	}
	if len(f.Deposits) > 0 {
		sections = append(sections, firaSection{"Inward remittance", firaDeposits(f)})
	}
	return append(sections, []firaSection{
		{"Beneficiary", []firaRow{
			{"Name", f.BeneficiaryName, false},
			{"PAN", f.BeneficiaryPAN, false},
			{"Address", firaAddress(f.BeneficiaryAddress), false},
			{"Email", f.BeneficiaryEmail, false},
			{"Receiving vault", f.VaultID, false},
			{"Receiving wallet", f.BeneficiaryWallet, false},
		}},
		{"Amount", []firaRow{
			{"Amount remitted", firaForeign(f), false},
			{"Exchange rate", firaRateAsOf(f), false},
			{"Amount credited", "₹" + FormatINR(f.AmountINR), true},
			{"Amount in words", f.AmountINRWords, false},
		}},
		{"Settlement", firaSettlement(f)},
		{"Purpose and references", []firaRow{
			{"Purpose code", f.PurposeCode, false},
			{"Purpose", f.PurposeDescription, false},
			{"Invoice reference", f.InvoiceRef, false},
			{"Invoice date", firaDay(f.InvoiceDate), false},
			{"Environment", mode, false},
		}},
		{"GST (time of supply)", firaGSTRows(f)},
	}...)
}

// firaDeposits cite each inward transfer the payout pays out: sender,
// transaction, when its ledger closed (IST) and amount.
func firaDeposits(f FIRA) []firaRow {
	var rows []firaRow
	for i, d := range f.Deposits {
		n := ""
		if len(f.Deposits) > 1 {
			n = " " + strconv.Itoa(i+1)
		}
		how := "named by the payout"
		if d.MatchedBy != "named" {
			how = "matched by its " + d.MatchedBy
		}
		rows = append(rows, firaRow{"Received" + n, d.Amount + ", " + firaTime(d.ClosedAt) + " (" + how + ")", false},
			firaRow{"From", d.From, false})
		if d.TxHash != "" {
			rows = append(rows, firaRow{"Transaction", d.TxHash, false})
		}
	}
	return rows
}

// firaSettlement is when and where the money moved; a live payout adds the
// Stellar ledger that applied it and the network's fee.
func firaSettlement(f FIRA) []firaRow {
	rows := []firaRow{
		{"Settlement date", firaDate(f.SettledAt), true},
		{"Settled at", firaTime(f.SettledAt), false},
		{"Settlement reference", f.SettlementRef, false},
	}
	if f.Ledger > 0 {
		rows = append(rows, firaRow{"Stellar ledger", strconv.FormatInt(f.Ledger, 10), false},
			firaRow{"Network fee", f.NetworkFee, false})
	}
	return append(rows, firaRow{"Payment ID", f.PaymentID, false}, firaRow{"Advice generated", firaTime(f.GeneratedAt), false})
}

// firaGSTRows say when the supply took place for GST and at what value:
// the invoice date decides the month when there is one.
func firaGSTRows(f FIRA) []firaRow {
	basis := "settlement date"
	if f.InvoiceDate != "" {
		basis = "invoice date"
	}
	if f.GST == nil {
		day := firaDate(f.SettledAt)
		if f.InvoiceDate != "" {
			day = firaDay(f.InvoiceDate)
		}
		return []firaRow{{"Time of supply", day + ", the " + basis, false},
			{"GST value", "the amount credited (valued before payoutd kept GST values)", false}}
	}
	g := f.GST
	rate := "₹" + g.Rate + " per " + f.ForeignCurrency + ", the rate of " + firaDay(g.RateDate)
	switch g.Basis {
	case "latestEarlier":
		rate += " (the latest rate recorded before the time of supply)"
	case "settlementRate":
		rate += " (no rate was recorded on or before the time of supply; the settlement rate stands in)"
	}
	return []firaRow{
		{"Time of supply", firaDay(g.TimeOfSupply) + ", the " + basis, false},
		{"GST taxable value", "₹" + FormatINR(g.ValueINR), true},
		{"GST exchange rate", rate, false},
	}
}

// firaDay prints a YYYY-MM-DD date as the advice prints dates.
func firaDay(d string) string {
	t, err := time.Parse(time.DateOnly, d)
	if err != nil {
		return d
	}
	return t.Format("2 Jan 2006")
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
	return rate
}

// firaAddress joins an address's lines with commas: the row wraps it anew.
func firaAddress(a string) string {
	lines := strings.FieldsFunc(a, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := range lines {
		lines[i] = strings.TrimRight(strings.TrimSpace(lines[i]), ",")
	}
	return strings.Join(lines, ", ")
}

// firaRateAsOf is the rate with the moment it was true: the live rate's
// own as-of time when one was recorded, else the settlement, when the
// sandbox table's rate was fixed.
func firaRateAsOf(f FIRA) string {
	rate := firaRate(f)
	at := f.RateAsOf
	if at.IsZero() {
		at = f.SettledAt
	}
	if rate == "" || at.IsZero() {
		return rate
	}
	return rate + ", as of " + firaTime(at)
}

// firaDate is the Indian date of t, the one that decides the financial year
// and the GST month.
func firaDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(ist).Format("2 Jan 2006") + " (IST)"
}

// firaTime prints a time in IST, the zone of every Indian date, with UTC
// (the API's zone) beside it.
func firaTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(ist).Format("2 Jan 2006, 15:04 IST") + " (" + t.UTC().Format("2 Jan 2006, 15:04 UTC") + ")"
}
