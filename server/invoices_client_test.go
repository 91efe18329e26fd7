package server_test

import (
	"maps"
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

// TestInvoiceNamesAClient: clientId fills the recipient (name, address,
// country) and the currency from the client record; what the request
// gives wins; the invoice keeps the recipient it was issued with after the
// client is edited; a clientId that is not one of the caller's clients, a
// client without an address and a client in India are refused naming the
// field.
func TestInvoiceNamesAClient(t *testing.T) {
	t.Parallel()
	e, _ := invoiceEnv(t)
	client := func(key string, body map[string]any) string {
		t.Helper()
		r := e.reqAs(key, "POST", "/api/v1/clients", body)
		if r.Status != http.StatusCreated {
			t.Fatalf("POST /clients: %d %s", r.Status, r.Body)
		}
		return r.JSON(t)["id"].(string)
	}
	acme := map[string]any{"name": "Acme Inc", "address": "1 Market St, San Francisco CA 94105", "country": "US", "currency": "USD"}
	acmeID := client(e.Key, acme)
	line := []map[string]any{{"description": "Backend development", "amount": "1500.50"}}
	issue := func(body map[string]any) resp {
		t.Helper()
		full := map[string]any{"date": "2026-10-14", "inrRate": "83.10", "lines": line}
		maps.Copy(full, body)
		return e.req("POST", "/api/v1/invoices", full)
	}

	r := issue(map[string]any{"clientId": acmeID})
	is := is.New(t)
	is.Equal(r.Status, http.StatusCreated)
	inv := r.JSON(t)
	is.Equal(at(inv, "clientId"), acmeID)
	is.Equal(at(inv, "currency"), "USD")
	is.Equal(at(inv, "recipient.name"), "Acme Inc")
	is.Equal(at(inv, "recipient.address"), "1 Market St, San Francisco CA 94105")
	is.Equal(at(inv, "recipient.country"), "US")

	t.Run("FrozenAsIssued", func(t *testing.T) {
		is := is.New(t)
		moved := map[string]any{"name": "Acme Corporation", "address": "500 Howard St, San Francisco CA 94105", "country": "US"}
		if r := e.req("PUT", "/api/v1/clients/"+acmeID, moved); r.Status != http.StatusOK {
			t.Fatalf("PUT /clients: %d %s", r.Status, r.Body)
		}
		v := e.getExact("/api/v1/invoices/" + at(inv, "id"))
		is.Equal(at(v, "recipient.name"), "Acme Inc")
		is.Equal(at(v, "recipient.address"), "1 Market St, San Francisco CA 94105")
	})
	t.Run("GivenFieldsWin", func(t *testing.T) {
		is := is.New(t)
		r := issue(map[string]any{"clientId": acmeID, "currency": "EUR",
			"recipient": map[string]any{"name": "Acme Europe BV", "country": "NL"}})
		is.Equal(r.Status, http.StatusCreated)
		v := r.JSON(t)
		is.Equal(at(v, "recipient.name"), "Acme Europe BV")
		is.Equal(at(v, "recipient.country"), "NL")
		is.Equal(at(v, "recipient.address"), "500 Howard St, San Francisco CA 94105") // the client's, as edited
		is.Equal(at(v, "currency"), "EUR")
	})

	otherKey, _, _ := e.newUser("other@example.com", false, store.AllScopes)
	noAddress := client(e.Key, map[string]any{"name": "Beta GmbH", "country": "DE", "currency": "EUR"})
	inIndia := client(e.Key, map[string]any{"name": "Gamma Pvt Ltd", "address": "1 Park St, Kolkata", "country": "IN"})
	for _, c := range []struct {
		name, clientID, field, mention string
	}{
		{"ErrUnknownClient", "cli_unknown", "clientId", "not a client"},
		{"ErrAnotherUsersClient", client(otherKey, acme), "clientId", "not a client"},
		{"ErrClientWithoutAddress", noAddress, "recipient.address", "client record has no address"},
		{"ErrClientInIndia", inIndia, "recipient.country", "outside India"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			body := map[string]any{"clientId": c.clientID}
			if c.clientID == inIndia {
				body["currency"] = "USD"
			}
			r := issue(body)
			is.Equal(r.Status, http.StatusBadRequest)
			is.True(strings.Contains(r.field(t, c.field), c.mention))
		})
	}
}
