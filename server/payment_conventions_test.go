package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// wireValue decodes a response body keeping numbers as their text.
func wireValue(t *testing.T, body []byte) map[string]any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return m
}

// exactINR requires obj[name] and obj[name+"Paise"] to be the same amount:
// the decimal, written with two places, is the integer's paise.
func exactINR(t *testing.T, obj map[string]any, name string) int64 {
	t.Helper()
	dec, _ := obj[name].(json.Number)
	minor, _ := obj[name+"Paise"].(json.Number)
	n, err := minor.Int64()
	if err != nil {
		t.Fatalf("%sPaise is %v, not an integer", name, obj[name+"Paise"])
	}
	inr, _ := money.Lookup("INR")
	if money.Format(n, inr) != string(dec) {
		t.Fatalf("%s is %s but %sPaise is %d", name, dec, name, n)
	}
	return n
}

// payIn initiates and confirms a payout in any currency from vault.
func (e *env) payIn(currency, vault, amount string, extra map[string]any) string {
	e.t.Helper()
	body := withRemitter(map[string]any{"amount": amount, "currency": currency, "destinationAddress": testAddress}, extra)
	r := e.req("POST", "/api/v1/payments/initiate", body)
	if r.Status != http.StatusCreated {
		e.t.Fatalf("initiate %s %s: %d %s", currency, amount, r.Status, r.Body)
	}
	id := r.JSON(e.t)["id"].(string)
	r = e.req("POST", "/api/v1/payments/confirm", map[string]any{"id": id, "destinationAddress": testAddress,
		"amount": amount, "currency": currency, "vaultId": vault})
	if r.Status != http.StatusCreated {
		e.t.Fatalf("confirm %s %s: %d %s", currency, amount, r.Status, r.Body)
	}
	return id
}

// fundedVault creates a vault in currency and funds it with amount.
func (e *env) fundedVault(currency, amount string) string {
	e.t.Helper()
	r := e.req("POST", "/api/v1/wallets", map[string]any{"currency": currency})
	if r.Status != http.StatusCreated {
		e.t.Fatalf("create %s vault: %d %s", currency, r.Status, r.Body)
	}
	id := r.JSON(e.t)["wallet"].(map[string]any)["id"].(string)
	if r := e.req("POST", "/api/v1/sandbox/vaults/"+id+"/fund", map[string]any{"amount": amount}); r.Status != http.StatusOK {
		e.t.Fatalf("fund %s vault: %d %s", currency, r.Status, r.Body)
	}
	return id
}

// TestReviewReason: a payout held in MANUAL_REVIEW says why, on the payment
// and in its payout.manual_review event, and stops saying so once a person
// has released it.
func TestReviewReason(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if r := e.req("POST", "/api/v1/sandbox/vaults/"+e.VaultID+"/fund", map[string]any{"amount": "200000.00"}); r.Status != http.StatusOK {
		t.Fatalf("fund: %d %s", r.Status, r.Body)
	}
	for _, c := range []struct{ name, amount, code string }{
		{"SandboxTrigger", "10.66", "SANDBOX_REVIEW: "},
		{"Threshold", "125000.00", "AMOUNT_ABOVE_REVIEW_THRESHOLD: "}, // ₹1,04,06,250 at 83.25
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			id := e.pay(c.amount, nil)
			e.waitStatus(id, store.StatusManualReview, 5*time.Second)
			reason, _ := e.req("GET", "/api/v1/payments/payouts/"+id, nil).JSON(t)["reviewReason"].(string)
			is.True(strings.HasPrefix(reason, c.code))
			var evReason any
			for _, ev := range e.events(e.Key, "?type=payout.manual_review&limit=100").Items {
				if ev.Data["paymentId"] == id {
					evReason = ev.Data["reviewReason"]
				}
			}
			is.Equal(evReason, reason)
			r := e.req("POST", "/api/v1/sandbox/payments/"+id+"/review", map[string]any{"decision": "approve"})
			is.Equal(r.Status, http.StatusOK)
			_, still := r.JSON(t)["reviewReason"]
			is.True(!still) // only a held payout carries it
		})
	}
}

// TestSettledPaymentNamesItsFIRA: a completed cross-border payout carries
// the id of its FIRA, and every INR amount on the payment and the FIRA has
// an exact companion equal to it (paise, or minor units for an amount in the
// payment's currency when that is INR).
func TestSettledPaymentNamesItsFIRA(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	e.approveKYC(e.UserID)
	id := e.pay("250.37", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-7"})
	e.waitStatus(id, store.StatusCompleted, 5*time.Second)
	p := wireValue(t, e.req("GET", "/api/v1/payments/payouts/"+id, nil).Body)
	firaID, _ := p["firaId"].(string)
	is.True(strings.HasPrefix(firaID, "fira_"))
	paise := exactINR(t, p, "amountInr")

	f := wireValue(t, e.req("GET", "/api/v1/compliance/fira/"+firaID, nil).Body)
	is.Equal(f["paymentId"], id)
	is.Equal(exactINR(t, f, "amountInr"), paise)
	is.Equal(f["amountForeignMinor"], json.Number("25037"))

	domestic := e.pay("12.00", nil)
	e.waitStatus(domestic, store.StatusCompleted, 5*time.Second)
	_, has := e.req("GET", "/api/v1/payments/payouts/"+domestic, nil).JSON(t)["firaId"]
	is.True(!has) // a domestic payout gets no FIRA

	// A payout in INR has INR amounts beyond amountInr: its invoice value,
	// on the payment and in the FIRA's GST valuation, has its exact
	// companion in minor units too.
	inr := e.fundedVault("INR", "100000.00")
	inInr := e.payIn("INR", inr, "1000.00", map[string]any{"invoiceAmount": "1010.07", "counterpartyCountry": "US"})
	e.waitStatus(inInr, store.StatusCompleted, 5*time.Second)
	p = wireValue(t, e.req("GET", "/api/v1/payments/payouts/"+inInr, nil).Body)
	is.Equal(p["invoiceAmount"], json.Number("1010.07"))
	is.Equal(p["invoiceAmountMinor"], json.Number("101007"))
	f = wireValue(t, e.req("GET", "/api/v1/compliance/fira/"+p["firaId"].(string), nil).Body)
	gst, _ := f["gst"].(map[string]any)
	is.Equal(gst["invoiceValue"], json.Number("1010.07"))
	is.Equal(gst["invoiceValueMinor"], json.Number("101007"))
}

// TestSandboxOutcomesInZeroDecimalCurrencies: in a currency without
// decimals the last two digits of the amount choose the sandbox outcome, as
// the first two decimals do elsewhere.
func TestSandboxOutcomesInZeroDecimalCurrencies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	jpy := e.fundedVault("JPY", "1000000")
	for _, c := range []struct{ amount, status, reason string }{
		{"1500", store.StatusCompleted, ""},
		{"1513", store.StatusFailed, "SETTLEMENT_REJECTED"},
		{"1542", store.StatusPending, ""},
		{"1566", store.StatusManualReview, ""},
	} {
		t.Run("JPY"+c.amount, func(t *testing.T) {
			is := is.New(t)
			p := e.waitStatus(e.payIn("JPY", jpy, c.amount, nil), c.status, 5*time.Second)
			is.True(strings.HasPrefix(p.FailedReason, c.reason))
		})
	}
}

// TestAmountMinor: a payout's amount may be sent as amountMinor, an integer
// in minor units, instead of amount (exactly one of them), on initiate,
// confirm and the quick-start; {"amount":25000} stays 25,000.00.
func TestAmountMinor(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver, o.limits = true, map[string]int{"initiate": 1000, "confirm": 1000} })
	init := func(body string) resp {
		return e.req("POST", "/api/v1/payments/initiate", `{"destinationAddress":"`+testAddress+`",`+body+`}`)
	}
	for _, c := range []struct{ body, amount, minor string }{
		{`"amountMinor":25000,"currency":"USD"`, "250.00", "25000"},
		{`"amountMinor":1500,"currency":"JPY"`, "1500", "1500"},
		{`"amountMinor":1234,"currency":"KWD"`, "1.234", "1234"},
		{`"amount":25000,"currency":"USD"`, "25000.00", "2500000"},
	} {
		t.Run("OK_"+c.body, func(t *testing.T) {
			is := is.New(t)
			r := init(c.body)
			is.Equal(r.Status, http.StatusCreated)
			v := wireValue(t, r.Body)
			is.Equal(v["amount"], json.Number(c.amount))
			is.Equal(v["amountMinor"], json.Number(c.minor))
		})
	}
	for _, c := range []struct{ name, body, field string }{
		{"ErrBoth", `"amount":"250.00","amountMinor":25000,"currency":"USD"`, "amountMinor"},
		{"ErrNeither", `"currency":"USD"`, "amount"},
		{"ErrZero", `"amountMinor":0,"currency":"USD"`, "amountMinor"},
		{"ErrNegative", `"amountMinor":-5,"currency":"USD"`, "amountMinor"},
		{"ErrFraction", `"amountMinor":25000.5,"currency":"USD"`, "amountMinor"},
		{"ErrString", `"amountMinor":"25000","currency":"USD"`, "amountMinor"},
		{"ErrAboveMax", `"amountMinor":100000000000001,"currency":"USD"`, "amountMinor"},
		{"ErrAboveSafeInteger", `"amountMinor":9007199254740993,"currency":"KWD"`, "amountMinor"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := init(c.body)
			is.Equal(r.Status, http.StatusBadRequest)
			is.True(r.field(t, c.field) != "")
		})
	}
	t.Run("ConfirmAndQuickStart", func(t *testing.T) {
		is := is.New(t)
		id := init(`"amountMinor":1999,"currency":"USD"`).JSON(t)["id"].(string)
		r := e.req("POST", "/api/v1/payments/confirm", map[string]any{"id": id, "destinationAddress": testAddress,
			"amountMinor": 1998, "currency": "USD", "vaultId": e.VaultID})
		is.Equal(r.Status, http.StatusBadRequest) // 19.98 is not the 19.99 initiated
		is.Equal(r.errCode(t), "ERR_CONFIRM_MISMATCH")
		r = e.req("POST", "/api/v1/payments/confirm", map[string]any{"id": id, "destinationAddress": testAddress,
			"amountMinor": 1999, "currency": "USD", "vaultId": e.VaultID})
		is.Equal(r.Status, http.StatusCreated)
		r = e.req("POST", "/v1/payments", map[string]any{"amountMinor": 700, "currency": "USD", "recipient": testAddress})
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(r.JSON(t)["amountMinor"], float64(700))
	})
}

// TestCancel: an INITIATED payout can be cancelled: FAILED with
// failedReason CANCELLED, a payout.failed event, nothing reserved. Cancel
// again answers the same; confirm and retry are then refused, and any
// payout past INITIATED cannot be cancelled.
func TestCancel(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	id := e.initiate("40.00", nil)
	before := e.vault()
	r := e.req("POST", "/api/v1/payments/"+id+"/cancel", nil)
	is.Equal(r.Status, http.StatusOK)
	p := r.JSON(t)
	is.Equal(p["status"], store.StatusFailed)
	is.True(strings.HasPrefix(p["failedReason"].(string), "CANCELLED: "))
	is.Equal(p["version"], float64(2))
	again := e.req("POST", "/api/v1/payments/"+id+"/cancel", nil)
	is.Equal(again.Status, http.StatusOK) // idempotent
	is.Equal(again.JSON(t)["version"], float64(2))
	is.Equal(e.vault().Reserved, before.Reserved)

	var failed int
	for _, ev := range e.events(e.Key, "?type=payout.failed&limit=100").Items {
		if ev.Data["paymentId"] == id {
			failed++
			is.True(strings.HasPrefix(ev.Data["failedReason"].(string), "CANCELLED: "))
		}
	}
	is.Equal(failed, 1)

	is.Equal(e.confirm(id, "40.00").Status, http.StatusConflict)
	r = e.req("POST", "/api/v1/payments/"+id+"/retry", nil)
	is.Equal(r.Status, http.StatusConflict)
	is.Equal(r.errCode(t), "ERR_INVALID_STATE")

	confirmed := e.pay("41.00", nil)
	r = e.req("POST", "/api/v1/payments/"+confirmed+"/cancel", nil)
	is.Equal(r.Status, http.StatusConflict)
	is.Equal(r.errCode(t), "ERR_INVALID_STATE")
	e.waitStatus(confirmed, store.StatusCompleted, 20*time.Second)
	is.Equal(e.req("POST", "/api/v1/payments/"+confirmed+"/cancel", nil).Status, http.StatusConflict)
	is.Equal(e.req("POST", "/api/v1/payments/pay_00000000000000000000000000/cancel", nil).Status, http.StatusNotFound)
}
