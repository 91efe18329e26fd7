package input

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// sacRE is a services accounting code: six digits starting 99.
var sacRE = regexp.MustCompile(`^99[0-9]{4}$`)

// maxInvoiceLines bounds an invoice's lines so its PDF stays readable.
const maxInvoiceLines = 20

// Invoice is an export invoice to issue, as POST /invoices and the
// console's invoice form take it. ClientID names a client record whose
// name, address and country fill the recipient's fields not given
// (UseClient); the invoice freezes the recipient as issued either way.
type Invoice struct {
	Date      string        `json:"date"`
	Currency  string        `json:"currency"`
	Lines     []InvoiceLine `json:"lines"`
	INRRate   string        `json:"inrRate"`
	Recipient Recipient     `json:"recipient"`
	ClientID  string        `json:"clientId"`
}

// InvoiceLine is one service: description, SAC and amount in the invoice
// currency (an exact decimal).
type InvoiceLine struct {
	Description string      `json:"description"`
	SAC         string      `json:"sac"`
	Amount      json.Number `json:"amount"`
	minor       int64
}

// Minor is the validated amount in minor units.
func (l InvoiceLine) Minor() int64 { return l.minor }

// Recipient is the client abroad as the invoice names it.
type Recipient struct {
	Name    string `json:"name"`
	Address string `json:"address"`
	Country string `json:"country"`
}

// Validate checks each field and line: the date an IST date not in the
// future and at most a year back; the currency one with an INR rate to
// value it; the recipient abroad (country not IN); lines 1 to 20, each with
// a description, a SAC (99xxxx, default 998314) and a positive amount.
func (q *Invoice) Validate(now time.Time) error {
	for i := range q.Lines {
		if q.Lines[i].SAC == "" {
			q.Lines[i].SAC = india.SACITDesign
		}
	}
	err := validation.ValidateStruct(q,
		validation.Field(&q.Date, validation.Required, invoiceDateRule(now)),
		validation.Field(&q.Currency, validation.Required, validation.Length(3, 3), IsCurrency,
			validation.NotIn("INR").Error("must be the foreign currency the client pays in: an export is paid in convertible foreign exchange")),
		validation.Field(&q.Lines, validation.Required.Error("must list at least one service"), validation.Length(1, maxInvoiceLines)),
		validation.Field(&q.INRRate, validation.By(func(v any) error {
			if s, _ := v.(string); s != "" {
				if r, err := money.ParseRate(s); err != nil || r.String() == "0" {
					return errors.New("must be a positive decimal: INR per unit of the currency, e.g. 83.10")
				}
			}
			return nil
		})),
		validation.Field(&q.ClientID, validation.RuneLength(0, 64)),
	)
	fields := validation.Errors{}
	var ve validation.Errors
	if err != nil && !errors.As(err, &ve) {
		return err
	}
	for k, v := range ve {
		fields[k] = v
	}
	rec := validation.ValidateStruct(&q.Recipient,
		validation.Field(&q.Recipient.Name, validation.Required, validation.RuneLength(1, 200), notBlank),
		validation.Field(&q.Recipient.Address, validation.Required, validation.RuneLength(1, maxAddressRunes), notBlank),
		validation.Field(&q.Recipient.Country, validation.Required, validation.Length(2, 2), IsCountry,
			validation.NotIn("IN").Error("must be a country outside India: an export's recipient is abroad")),
	)
	var rv validation.Errors
	if q.Recipient == (Recipient{}) {
		fields["recipient"] = errors.New("is required: the name, address and country of the client abroad, or a clientId whose record has them")
	} else if errors.As(rec, &rv) {
		for k, v := range rv {
			fields["recipient."+k] = v
		}
		for k, v := range map[string]string{"name": q.Recipient.Name, "address": q.Recipient.Address, "country": q.Recipient.Country} {
			if q.ClientID != "" && v == "" {
				fields["recipient."+k] = fmt.Errorf("is required: the client record has no %s; give recipient.%s or add it to the client", k, k)
			}
		}
	}
	if fields["currency"] == nil && fields["lines"] == nil {
		for i := range q.Lines {
			l := &q.Lines[i]
			lerr := validation.ValidateStruct(l,
				validation.Field(&l.Description, validation.Required, validation.RuneLength(1, 200), notBlank),
				validation.Field(&l.SAC, validation.Match(sacRE).Error("must be a 6-digit SAC starting 99, e.g. 998314")),
				validation.Field(&l.Amount, validation.Required, AmountRule(q.Currency, &l.minor)),
			)
			var lv validation.Errors
			if errors.As(lerr, &lv) {
				for k, v := range lv {
					fields[fmt.Sprintf("lines[%d].%s", i, k)] = v
				}
			} else if lerr == nil && l.minor <= 0 {
				fields[fmt.Sprintf("lines[%d].amount", i)] = errors.New("must be positive")
			}
		}
	}
	if len(fields) > 0 {
		return FieldErrors(fields)
	}
	q.Recipient.Name, q.Recipient.Address = strings.TrimSpace(q.Recipient.Name), strings.TrimSpace(q.Recipient.Address)
	return nil
}

// UseClient makes the invoice one to client c: the recipient's name,
// address and country, and the currency, that the request does not give
// are the client's. Validate then holds them to the same rules, so a
// client without an address or in India is refused naming the field.
func (q *Invoice) UseClient(c store.Client) {
	q.ClientID = c.ID
	fillEmpty(&q.Recipient.Name, c.Name)
	fillEmpty(&q.Recipient.Address, c.Address)
	fillEmpty(&q.Recipient.Country, c.Country)
	fillEmpty(&q.Currency, c.Currency)
}

// CreditNote is a credit note to issue against an invoice: its date, the
// amount in the invoice currency ("" for all the invoice still holds: a
// cancellation) and the reason.
type CreditNote struct {
	Date   string      `json:"date"`
	Amount json.Number `json:"amount"`
	Reason string      `json:"reason"`
}

// decimalRE is an unsigned decimal, checked before the invoice (and so its
// currency) is known.
var decimalRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// Validate checks the note's own fields: its date, reason, and an amount
// that is a decimal; AmountIn checks the amount against the invoice.
func (q *CreditNote) Validate(now time.Time) error {
	return FieldErrors(validation.ValidateStruct(q,
		validation.Field(&q.Date, validation.Required, invoiceDateRule(now)),
		validation.Field(&q.Amount, validation.By(func(v any) error {
			if n, _ := v.(json.Number); n != "" && !decimalRE.MatchString(string(n)) {
				return errors.New("must be a positive decimal in the invoice currency, e.g. 50.00")
			}
			return nil
		})),
		validation.Field(&q.Reason, validation.Required, validation.RuneLength(1, 200), notBlank),
	))
}

// AmountIn returns the amount in the invoice currency's minor units (0:
// all the invoice still holds).
func (q *CreditNote) AmountIn(currency string) (int64, error) {
	var minor int64
	if err := FieldErrors(validation.ValidateStruct(q, validation.Field(&q.Amount, AmountRule(currency, &minor)))); err != nil {
		return 0, err
	}
	if q.Amount != "" && minor <= 0 {
		return 0, Invalid(map[string]string{"amount": "must be positive"})
	}
	return minor, nil
}
