package input

import (
	validation "github.com/go-ozzo/ozzo-validation/v4"

	"github.com/payoutd/payoutd/store"
)

// Client is what POST and PATCH /clients and the console's client form
// take: the whole client, as it is to be.
type Client struct {
	Name        string `json:"name"`
	Country     string `json:"country"`
	Address     string `json:"address"`
	Email       string `json:"email"`
	PurposeCode string `json:"purposeCode"`
	Currency    string `json:"currency"`
	Notes       string `json:"notes"`
}

// Validate checks the client's fields and returns it as the store keeps it.
func (q *Client) Validate(userID string, livemode bool) (store.Client, error) {
	err := FieldErrors(validation.ValidateStruct(q,
		validation.Field(&q.Name, validation.Required, notBlank, validation.RuneLength(1, 256)),
		validation.Field(&q.Country, validation.Length(2, 2), IsCountry),
		validation.Field(&q.Address, validation.RuneLength(0, maxAddressRunes)),
		validation.Field(&q.Email, validation.RuneLength(0, 254), validation.When(q.Email != "", isEmail)),
		validation.Field(&q.PurposeCode, IsPurposeCode),
		validation.Field(&q.Currency, validation.Length(3, 3), IsCurrency),
		validation.Field(&q.Notes, validation.RuneLength(0, 2000)),
	))
	return store.Client{UserID: userID, Livemode: livemode, Name: q.Name, Country: q.Country, Address: q.Address,
		Email: q.Email, PurposeCode: q.PurposeCode, Currency: q.Currency, Notes: q.Notes}, err
}

// UseClient makes the payout one for client c: the fields the payout does
// not give are the client's (name, country, purpose code, and currency),
// so a cross-border payout to a client on record needs no name typed.
func (q *Initiate) UseClient(c store.Client) {
	q.ClientID = c.ID
	fillEmpty(&q.CounterpartyName, c.Name)
	fillEmpty(&q.CounterpartyCountry, c.Country)
	fillEmpty(&q.PurposeCode, c.PurposeCode)
	fillEmpty(&q.Currency, c.Currency)
}

// fillEmpty sets a field the request left empty to the client's value.
func fillEmpty(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}
