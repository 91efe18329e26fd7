package console

import (
	"html/template"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// funcs are the templates' helpers: amounts in Indian grouping for INR
// (₹12,34,567.89) and as the FIRA prints them otherwise, times in IST.
func funcs(cssVersion string) template.FuncMap {
	return template.FuncMap{
		"css":       func() string { return cssPath + "?v=" + cssVersion },
		"inr":       inr,
		"amount":    amount,
		"ist":       ist,
		"istp":      func(t *time.Time) string { return istPtr(t) },
		"day":       day,
		"statusTag": statusTag,
		"label":     labelOf,
		"add":       func(a, b int) int { return a + b },
		"field":     field,
		"paise":     func(v documents.INR) int64 { return int64(v) },
		"has":       func(list []string, v string) bool { return slices.Contains(list, v) },
		"count":     count,
		"int":       func(n int64) int { return int(n) },
		"deref":     func(n *int64) int64 { return *n },
		"payoutOf":  payoutOf,
		"statusOf":  statusOf,
		"helpOn":    help,
	}
}

// fieldView is one labelled input with its hint and error (template "input").
type fieldView struct {
	Name, ID, Label, Value, Hint, Type, Class, Error string
	Required                                         bool
}

// field builds an input of page p; opts are "req", "hint=…", "type=…",
// "class=…" and "id=…" (the element's id when it is not the name).
func field(p page, name, label, value string, opts ...string) fieldView {
	f := fieldView{Name: name, ID: name, Label: label, Value: value, Type: "text"}
	for _, o := range opts {
		k, v, _ := strings.Cut(o, "=")
		switch k {
		case "id":
			f.ID = v
		case "req":
			f.Required = true
		case "hint":
			f.Hint = v
		case "type":
			f.Type = v
		case "class":
			f.Class = v
		}
	}
	f.Error = p.Errors[f.ID]
	return f
}

// inr writes paise as rupees: ₹12,34,567.89.
func inr(paise int64) string {
	if paise < 0 {
		return "−₹" + documents.FormatINR(-paise)
	}
	return "₹" + documents.FormatINR(paise)
}

// amount writes minor units of a currency: INR as inr, others with their
// ISO 4217 decimals and the code (USD 1,234.56).
func amount(minor int64, currency string) string {
	if currency == "INR" {
		return inr(minor)
	}
	exp := 2
	if c, ok := money.Lookup(currency); ok {
		exp = c.Exponent
	}
	return currency + " " + documents.FormatForeign(minor, exp)
}

// ist writes an instant as the Indian time it was: 25 Nov 2026, 14:05 IST.
func ist(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(india.IST).Format("2 Jan 2006, 15:04 IST")
}

func istPtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return ist(*t)
}

// day writes a date (YYYY-MM-DD) as 15 Mar 2027; other text is left as it is.
func day(s string) string {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return s
	}
	return d.Format("2 Jan 2006")
}

// statusTag is the CSS modifier of a payout status's badge.
func statusTag(status string) string {
	switch status {
	case store.StatusCompleted, store.StatusConfirmed:
		return "ok"
	case store.StatusFailed:
		return "bad"
	case store.StatusManualReview, store.StatusPending, store.StatusUnknown:
		return "warn"
	}
	return "info"
}

// labels name the form fields in error summaries; the API's field names
// are the form's.
var labels = map[string]string{
	"amount": "Amount", "currency": "Currency", "destinationAddress": "Destination address", "memo": "Memo",
	"purposeCode": "Purpose code", "invoiceRef": "Invoice reference", "invoiceDate": "Invoice date",
	"counterpartyName": "Client name", "counterpartyCountry": "Client country", "counterpartyBank": "Client's bank",
	"vaultId": "Vault", "fy": "Financial year", "kind": "Kind", "paidOn": "Paid on", "bsrCode": "BSR code",
	"challanSerial": "Challan serial", "fromReserve": "Paid from the tax reserve:", "note": "Note", "url": "URL", "description": "Description",
	"eventTypes": "Events", "name": "Name", "email": "E-mail", "phone": "Phone", "pan": "PAN", "gstin": "GSTIN",
	"lutNumber": "LUT number", "lutValidUntil": "LUT valid until", "address": "Address", "scopes": "Scopes",
	"decision": "Decision", "reason": "Reason", "countryCode": "Country", "homeCurrency": "Home currency",
	"country": "Country", "notes": "Notes", "clientId": "Client", "q": "Search", "sort": "Order",
}

func labelOf(field string) string {
	if l, ok := labels[field]; ok {
		return l
	}
	return strings.ToUpper(field[:min(1, len(field))]) + field[min(1, len(field)):]
}

// count writes a number with the noun that agrees with it: "1 payout
// matches", "2 payouts match".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
