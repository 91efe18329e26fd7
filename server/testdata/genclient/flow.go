// Command flow is the quick flow of payoutd driven through a client that
// oapi-codegen generated from openapi/openapi.json, as an integrator would
// use it, with the payments read back through ogen's client too. TestGeneratedClients (server/contract_generators_test.go) copies
// it into a temporary module next to the generated package and runs it
// against a real server. It checks every amount the generated types carry
// against the exact decimal text on the wire and prints what it saw as JSON
// for the test to compare with the database; any mismatch exits 1.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/ogen-go/ogen/ogenerrors"

	api "gencheck/oapi"
	"gencheck/ogenc"
)

type seen struct {
	ID          string `json:"id"`
	TxnID       string `json:"txnId"`
	Currency    string `json:"currency"`
	Amount      string `json:"amount"` // the generated float, formatted with the currency's decimals
	AmountMinor int64  `json:"amountMinor"`
	AmountInr   string `json:"amountInr"`
	FIRAAmount  string `json:"firaAmount"`
	Status      string `json:"status"`
	Debited     int64  `json:"debited"` // the ledger entry of this payment on its vault account
}

type report struct {
	Payments      []seen `json:"payments"`
	GrossReceipts string `json:"grossReceipts"`
	NullStatus    bool   `json:"nullStatus"`
	OgenNull      bool   `json:"ogenNull"`
}

var ctx = context.Background()

func main() {
	base, key := os.Getenv("PAYOUTD_URL"), os.Getenv("PAYOUTD_KEY")
	auth := func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+key)
		return nil
	}
	c, err := api.NewClientWithResponses(base, api.WithRequestEditorFn(auth))
	must(err)
	out := report{}

	prof, err := c.GetFullProfileWithResponse(ctx)
	must(err)
	expect(prof.StatusCode(), 200, prof.Body)
	usd := ""
	for _, v := range prof.JSON200.Profile.Vaults {
		if v.Currency == "USD" {
			usd = v.Id
		}
	}
	fund(c, usd, "200000000.00")
	w, err := c.CreateWalletWithResponse(ctx, &api.CreateWalletParams{}, api.WalletCreateRequest{Currency: "KWD"})
	must(err)
	expect(w.StatusCode(), 201, w.Body)
	kwd := w.JSON201.Wallet.Id
	fund(c, kwd, "50000.000")

	// A txnId nothing was initiated with answers null, which the generated
	// client must tell apart from a payment.
	st, err := c.GetPaymentStatusWithResponse(ctx, uuid.NewString())
	must(err)
	expect(st.StatusCode(), 200, st.Body)
	out.NullStatus = st.JSON200 != nil && *st.JSON200 == nil

	for _, in := range []struct{ amount, currency, vault string }{
		{"1234567.89", "USD", usd}, {"99999999.99", "USD", usd}, {"12345.678", "KWD", kwd},
	} {
		out.Payments = append(out.Payments, pay(c, in.amount, in.currency, in.vault))
	}

	firas, err := c.ListFirasWithResponse(ctx, &api.ListFirasParams{})
	must(err)
	expect(firas.StatusCode(), 200, firas.Body)
	raw := wire(firas.Body)
	for i, f := range firas.JSON200.Items {
		for j := range out.Payments {
			p := &out.Payments[j]
			if f.PaymentId == p.ID {
				p.FIRAAmount = exact(f.AmountForeign, p.Currency, num(raw, "items", i, "amountForeign"), "FIRA amountForeign")
				if exact(f.AmountInr, "INR", num(raw, "items", i, "amountInr"), "FIRA amountInr") != p.AmountInr {
					fail("FIRA %s amountInr %v differs from the payment's %s", f.Id, f.AmountInr, p.AmountInr)
				}
			}
		}
	}

	accounts, err := c.ListLedgerAccountsWithResponse(ctx)
	must(err)
	expect(accounts.StatusCode(), 200, accounts.Body)
	for _, a := range accounts.JSON200.Items {
		if a.VaultId == nil || (*a.VaultId != usd && *a.VaultId != kwd) {
			continue
		}
		bal, err := c.GetLedgerBalanceWithResponse(ctx, a.Id)
		must(err)
		expect(bal.StatusCode(), 200, bal.Body)
		if int64(bal.JSON200.Settled) != int64(a.Balance) {
			fail("account %s: balance %d but settled %d", a.Id, a.Balance, bal.JSON200.Settled)
		}
		var cursor *string
		for {
			limit := api.Limit(2)
			es, err := c.ListLedgerEntriesWithResponse(ctx, a.Id, &api.ListLedgerEntriesParams{Limit: &limit, After: cursor})
			must(err)
			expect(es.StatusCode(), 200, es.Body)
			for _, e := range es.JSON200.Entries {
				for j := range out.Payments {
					p := &out.Payments[j]
					if e.PaymentId != nil && *e.PaymentId == p.ID && e.Type == api.DEBIT {
						p.Debited += int64(e.Amount)
					}
				}
			}
			if !es.JSON200.HasMore {
				break
			}
			cursor = es.JSON200.NextCursor
		}
	}

	tax, err := c.GetTaxLiabilityWithResponse(ctx, &api.GetTaxLiabilityParams{})
	must(err)
	expect(tax.StatusCode(), 200, tax.Body)
	out.GrossReceipts = exact(tax.JSON200.GrossReceipts, "INR", num(wire(tax.Body), "grossReceipts"), "grossReceipts")

	out.OgenNull = readWithOgen(base, key, out.Payments)
	must(json.NewEncoder(os.Stdout).Encode(out))
}

type bearer string

func (b bearer) ApiKey(context.Context, ogenc.OperationName) (ogenc.ApiKey, error) {
	return ogenc.ApiKey{Token: string(b)}, nil
}

func (b bearer) SessionToken(context.Context, ogenc.OperationName) (ogenc.SessionToken, error) {
	return ogenc.SessionToken{}, ogenerrors.ErrSkipClientSecurity
}

func (b bearer) VerifySession(context.Context, ogenc.OperationName) (ogenc.VerifySession, error) {
	return ogenc.VerifySession{}, ogenerrors.ErrSkipClientSecurity
}

// readWithOgen reads each payment's status through ogen's client: the
// amounts must be the ones oapi-codegen's client read, and an unknown txnId
// must come back as null. It reports the latter.
func readWithOgen(base, key string, payments []seen) bool {
	c, err := ogenc.NewClient(base, bearer(key))
	must(err)
	for _, p := range payments {
		res, err := c.GetPaymentStatus(ctx, ogenc.GetPaymentStatusParams{TxnId: p.TxnID})
		must(err)
		got, ok := res.(*ogenc.NilPaymentHeaders)
		if !ok || got.Response.Null {
			fail("ogen: status of %s is %T %+v", p.TxnID, res, res)
		}
		v := got.Response.Value
		amount := strconv.FormatFloat(float64(v.Amount), 'f', decimals[p.Currency], 64)
		if v.ID != p.ID || amount != p.Amount || v.AmountMinor != p.AmountMinor {
			fail("ogen reads %s as %s (%d minor), oapi-codegen as %s (%d minor)", p.ID, amount, v.AmountMinor, p.Amount, p.AmountMinor)
		}
	}
	res, err := c.GetPaymentStatus(ctx, ogenc.GetPaymentStatusParams{TxnId: uuid.NewString()})
	must(err)
	got, ok := res.(*ogenc.NilPaymentHeaders)
	return ok && got.Response.Null
}

// pay initiates, confirms and follows one payout to COMPLETED, approving it
// when it stops for review.
func pay(c *api.ClientWithResponses, amount, currency, vault string) seen {
	key := uuid.New()
	country, bank, purpose, ref := "US", "JPMorgan Chase", "P0802", "INV-"+amount
	meta := api.PaymentMetadata{"orderId": "A-" + amount}
	in, err := c.InitiatePaymentWithResponse(ctx, &api.InitiatePaymentParams{IdempotencyKey: &key}, api.InitiateRequest{
		Amount: amount, Currency: currency, DestinationAddress: "GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ",
		CounterpartyCountry: &country, CounterpartyBank: &bank, PurposeCode: &purpose, InvoiceRef: &ref, Metadata: &meta,
	})
	must(err)
	expect(in.StatusCode(), 201, in.Body)
	p := *in.JSON201
	s := seen{ID: p.Id, TxnID: p.TxnId, Currency: currency, AmountMinor: p.AmountMinor}
	s.Amount = exact(p.Amount, currency, num(wire(in.Body), "amount"), "initiate amount")
	if s.Amount != amount {
		fail("initiated %s %s, the generated client reads %s", amount, currency, s.Amount)
	}
	if want := minorOf(amount); p.AmountMinor != want {
		fail("initiated %s %s: amountMinor %d, want %d", amount, currency, p.AmountMinor, want)
	}

	conf, err := c.ConfirmPaymentWithResponse(ctx, &api.ConfirmPaymentParams{}, api.ConfirmRequest{
		Id: p.Id, DestinationAddress: p.DestinationAddress, Amount: amount, Currency: currency, VaultId: vault,
	})
	must(err)
	expect(conf.StatusCode(), 201, conf.Body)

	deadline := time.Now().Add(60 * time.Second)
	reviewed := false
	for {
		st, err := c.GetPaymentStatusWithResponse(ctx, p.TxnId)
		must(err)
		expect(st.StatusCode(), 200, st.Body)
		if st.JSON200 == nil || *st.JSON200 == nil {
			fail("status of %s is null", p.TxnId)
		}
		got := **st.JSON200
		s.Status = string(got.Status)
		switch got.Status {
		case api.PaymentStatusCOMPLETED:
			s.Amount = exact(got.Amount, currency, num(wire(st.Body), "amount"), "completed amount")
			if got.AmountInr == nil {
				fail("completed payment %s has no amountInr", p.Id)
			}
			s.AmountInr = exact(*got.AmountInr, "INR", num(wire(st.Body), "amountInr"), "amountInr")
			if got.AmountMinor != s.AmountMinor || s.Amount != amount {
				fail("completed %s reads %s (%d minor), initiated %s", p.Id, s.Amount, got.AmountMinor, amount)
			}
			if got.Metadata == nil || (*got.Metadata)["orderId"] != meta["orderId"] {
				fail("completed %s has metadata %v, initiated with %v", p.Id, got.Metadata, meta)
			}
			return s
		case api.PaymentStatusMANUALREVIEW:
			if !reviewed {
				r, err := c.SandboxReviewPaymentWithResponse(ctx, p.Id, api.ReviewRequest{Decision: api.Approve})
				must(err)
				expect(r.StatusCode(), 200, r.Body)
				reviewed = true
			}
		case api.PaymentStatusFAILED:
			fail("payment %s failed: %s", p.Id, st.Body)
		}
		if time.Now().After(deadline) {
			fail("payment %s still %s after 60s", p.Id, got.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func fund(c *api.ClientWithResponses, vault, amount string) {
	r, err := c.SandboxFundVaultWithResponse(ctx, vault, &api.SandboxFundVaultParams{}, api.FundRequest{Amount: amount})
	must(err)
	expect(r.StatusCode(), 200, r.Body)
}

var decimals = map[string]int{"USD": 2, "INR": 2, "KWD": 3}

// exact formats the generated float with the currency's decimals and
// requires it to be the decimal text the server sent.
func exact(v float64, currency string, wire json.Number, what string) string {
	got := strconv.FormatFloat(v, 'f', decimals[currency], 64)
	if got != string(wire) {
		fail("%s: the generated client holds %s, the server sent %s", what, got, wire)
	}
	return got
}

func minorOf(amount string) int64 {
	digits := ""
	for _, r := range amount {
		if r != '.' {
			digits += string(r)
		}
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	must(err)
	return n
}

// wire is a response body decoded with its numbers kept as their text.
func wire(body []byte) any {
	var v any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	must(d.Decode(&v))
	return v
}

// num is the number at a path of object keys and array indexes.
func num(v any, path ...any) json.Number {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return ""
			}
			v = a[k]
		}
	}
	n, _ := v.(json.Number)
	return n
}

func expect(got, want int, body []byte) {
	if got != want {
		fail("status %d, want %d: %s", got, want, body)
	}
}

func must(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "flow: "+format+"\n", args...)
	os.Exit(1)
}
