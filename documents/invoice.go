package documents

import (
	"errors"
	"time"
)

// Invoice is an export invoice as its PDF prints it (CGST Rules r.46).
// Amounts: Total and the lines in the currency's minor units (Exponent
// decimals), ValueINR and IGST in paise.
type Invoice struct {
	ID, Number, Date string // Date YYYY-MM-DD
	Livemode         bool
	Supplier         InvoiceParty
	Recipient        InvoiceParty
	Currency         string
	Exponent         int
	Lines            []InvoiceLine
	Total            int64
	Rate, RateDate   string
	ValueINR, IGST   int64
	LUTARN           string // "" when issued with IGST
	Credited         int64  // minor units taken back by credit notes
	IssuedAt         time.Time
}

// InvoiceParty is a supplier (Name, Address, GSTIN, State) or a recipient
// (Name, Address, Country).
type InvoiceParty struct {
	Name, Address, GSTIN, State, Country string
}

// InvoiceLine is one service on the invoice.
type InvoiceLine struct {
	Description, SAC string
	Amount           int64
}

var errInvoiceIncomplete = errors.New("documents: invoice needs an ID, a number and IssuedAt")
