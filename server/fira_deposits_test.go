package server_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

// TestFIRACitesDeposits: a client's deposit arrives with the invoice
// number as its memo, another is named by the payout; each payout's FIRA
// cites the deposit it pays out, with its sender, how it was tied, and the
// deposit as GET /deposits shows it. A deposit of another user, or in
// another currency, cannot be named.
func TestFIRACitesDeposits(t *testing.T) {
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.limits = map[string]int{"initiate": 1000, "confirm": 1000} })
	e.approveKYC(e.UserID)
	e.fixClock(ist(2026, time.November, 21, 15, 30))
	deposit := func(amount, from, memo string) string {
		r := e.req("POST", "/api/v1/sandbox/vaults/"+e.VaultID+"/deposits", map[string]any{"amount": amount, "from": from, "memo": memo})
		is.Equal(r.Status, http.StatusCreated)
		return r.JSON(t)["id"].(string)
	}
	byMemo := deposit("1500.00", "Acme Inc", "inv-2026-0042")
	named := deposit("20.00", "Globex GmbH", "")

	firaOf := func(paymentID string) map[string]any {
		items := e.req("GET", "/api/v1/compliance/fira?paymentId="+paymentID, nil).JSON(t)["items"].([]any)
		is.Equal(len(items), 1)
		return items[0].(map[string]any)
	}
	p1 := e.pay("1500.00", map[string]any{"counterpartyCountry": "US", "counterpartyName": "Acme Inc", "invoiceRef": "INV-2026-0042"})
	e.quiesce()
	deps := firaOf(p1)["deposits"].([]any)
	is.Equal(len(deps), 1)
	d := deps[0].(map[string]any)
	is.Equal(d["id"], byMemo)
	is.Equal(d["from"], "Acme Inc")
	is.Equal(d["memo"], "inv-2026-0042")
	is.Equal(d["matchedBy"], "invoice reference")

	p2 := e.pay("20.00", map[string]any{"counterpartyCountry": "DE", "counterpartyName": "Globex GmbH", "depositIds": []string{named}})
	e.quiesce()
	deps = firaOf(p2)["deposits"].([]any)
	is.Equal(len(deps), 1)
	is.Equal(deps[0].(map[string]any)["id"], named)
	is.Equal(deps[0].(map[string]any)["matchedBy"], "named")
	pdf := e.req("GET", "/api/v1/compliance/fira/"+firaOf(p2)["id"].(string)+"/pdf", nil)
	is.Equal(pdf.Status, http.StatusOK)

	otherKey, _, otherVault := e.newUser("deposit-other@example.com", false, store.AllScopes)
	r := e.reqAs(otherKey, "POST", "/api/v1/sandbox/vaults/"+otherVault+"/deposits", map[string]any{"amount": "5.00"})
	is.Equal(r.Status, http.StatusCreated)
	foreign := r.JSON(t)["id"].(string)
	r = e.req("POST", "/api/v1/payments/initiate", map[string]any{"amount": "5.00", "currency": "USD", "destinationAddress": testAddress,
		"counterpartyCountry": "US", "counterpartyName": "X", "depositIds": []string{foreign}})
	is.Equal(r.Status, http.StatusBadRequest)
	is.Equal(r.field(t, "depositIds"), foreign+" is not one of your deposits")
}
