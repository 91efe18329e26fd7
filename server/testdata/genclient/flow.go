// Command flow is the quick flow of payoutd driven through a client that
// oapi-codegen generated from openapi/openapi.json, as an integrator would
// use it, with the payments read back through ogen's client too.
// TestGeneratedClients (server/contract_generators_test.go) copies it into a
// temporary module next to the generated package and runs it against a real
// server. It checks every amount the generated types carry against the exact
// decimal text on the wire, retries an ogen initiate whose metadata map ogen
// writes in Go's random order, sends amounts as amountMinor, cancels a
// payout, and reads a payment whose status the document does not know
// (through a proxy that rewrites it) with both clients; it prints what it
// saw as JSON for the test to compare with the database; any mismatch exits 1.
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
	ID          string  `json:"id"`
	TxnID       string  `json:"txnId"`
	Currency    string  `json:"currency"`
	Amount      string  `json:"amount"` // the generated float, formatted with the currency's decimals
	AmountMinor int64   `json:"amountMinor"`
	AmountInr   string  `json:"amountInr"`
	FIRAAmount  string  `json:"firaAmount"`
	Status      string  `json:"status"`
	Debited     int64   `json:"debited"`  // the ledger entry of this payment on its vault account
	ByMinor     bool    `json:"byMinor"`  // initiated and confirmed with amountMinor
	Versions    []int64 `json:"versions"` // as initiate, confirm and the completed payment said
}

type report struct {
	Payments      []seen `json:"payments"`
	GrossReceipts string `json:"grossReceipts"`
	NullStatus    bool   `json:"nullStatus"`
	OgenNull      bool   `json:"ogenNull"`
	// OgenRetry is the payment ogen's retries of one initiate came back
	// with: every attempt's id, each sent with the same Idempotency-Key
	// and a metadata map ogen serialises in random order.
	OgenRetry []string `json:"ogenRetry"`
	OgenKey   string   `json:"ogenKey"`
	// Cancelled is a payout cancelled through ogen's client, twice.
	Cancelled       string   `json:"cancelled"`
	CancelledStatus []string `json:"cancelledStatus"`
	// Unknown is the status each client read for a payment whose status
	// the proxy rewrote to one the document does not know.
	UnknownOapi string `json:"unknownOapi"`
	UnknownOgen string `json:"unknownOgen"`
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

	for _, in := range []struct {
		amount, currency, vault string
		byMinor                 bool
	}{
		{"1234567.89", "USD", usd, false}, {"99999999.99", "USD", usd, false}, {"12345.678", "KWD", kwd, true},
	} {
		out.Payments = append(out.Payments, pay(c, in.amount, in.currency, in.vault, in.byMinor))
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
					if e.PaymentId != nil && *e.PaymentId == p.ID && e.Type == "DEBIT" {
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
	out.OgenKey, out.OgenRetry = retryWithOgen(base, key)
	out.Cancelled, out.CancelledStatus = cancelWithOgen(base, key)
	out.UnknownOapi, out.UnknownOgen = readUnknownStatus(os.Getenv("PAYOUTD_ODD_URL"), key, out.Payments[0].ID)
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

const destination = "GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ"

// pay initiates, confirms and follows one payout to COMPLETED, approving it
// when it stops for review; byMinor sends the amount as amountMinor.
func pay(c *api.ClientWithResponses, amount, currency, vault string, byMinor bool) seen {
	key := uuid.New()
	name, country, bank, purpose, ref := "Acme Inc", "US", "JPMorgan Chase", "P0802", "INV-"+amount
	meta := api.PaymentMetadata{"orderId": "A-" + amount}
	req := api.InitiateRequest{Currency: api.CurrencyCode(currency), DestinationAddress: destination, CounterpartyName: &name,
		CounterpartyCountry: &country, CounterpartyBank: &bank, PurposeCode: &purpose, InvoiceRef: &ref, Metadata: &meta}
	minor := minorOf(amount)
	if byMinor {
		req.AmountMinor = &minor
	} else {
		req.Amount = &amount
	}
	in, err := c.InitiatePaymentWithResponse(ctx, &api.InitiatePaymentParams{IdempotencyKey: &key}, req)
	must(err)
	expect(in.StatusCode(), 201, in.Body)
	p := *in.JSON201
	s := seen{ID: p.Id, TxnID: p.TxnId, Currency: currency, AmountMinor: p.AmountMinor, ByMinor: byMinor, Versions: []int64{p.Version}}
	s.Amount = exact(p.Amount, currency, num(wire(in.Body), "amount"), "initiate amount")
	if s.Amount != amount {
		fail("initiated %s %s, the generated client reads %s", amount, currency, s.Amount)
	}
	if want := minorOf(amount); p.AmountMinor != want {
		fail("initiated %s %s: amountMinor %d, want %d", amount, currency, p.AmountMinor, want)
	}

	confirm := api.ConfirmRequest{Id: p.Id, DestinationAddress: p.DestinationAddress, Currency: api.CurrencyCode(currency), VaultId: vault}
	if byMinor {
		confirm.AmountMinor = &minor
	} else {
		confirm.Amount = &amount
	}
	conf, err := c.ConfirmPaymentWithResponse(ctx, &api.ConfirmPaymentParams{}, confirm)
	must(err)
	expect(conf.StatusCode(), 201, conf.Body)
	s.Versions = append(s.Versions, conf.JSON201.Version)

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
		s.Status = got.Status
		switch got.Status {
		case "COMPLETED":
			s.Versions = append(s.Versions, got.Version)
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
		case "MANUAL_REVIEW":
			if !reviewed {
				r, err := c.SandboxReviewPaymentWithResponse(ctx, p.Id, api.ReviewRequest{Decision: api.Approve})
				must(err)
				expect(r.StatusCode(), 200, r.Body)
				reviewed = true
			}
		case "FAILED":
			fail("payment %s failed: %s", p.Id, st.Body)
		}
		if time.Now().After(deadline) {
			fail("payment %s still %s after 60s", p.Id, got.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// retryWithOgen initiates one payout through ogen's client ten times with
// one Idempotency-Key and a metadata map of six keys, which ogen writes in
// Go's map order, different from one call to the next. Every attempt must
// come back with the one payment.
func retryWithOgen(base, key string) (string, []string) {
	c, err := ogenc.NewClient(base, bearer(key))
	must(err)
	idem := uuid.New()
	meta := ogenc.PaymentMetadata{"orderId": "A-7", "customer": "c_9", "project": "p-1", "invoice": "INV-7", "team": "ops", "region": "eu"}
	var ids []string
	for range 10 {
		res, err := c.InitiatePayment(ctx, &ogenc.InitiateRequest{
			AmountMinor: ogenc.NewOptInt64(700), Currency: "USD", DestinationAddress: destination,
			Metadata: ogenc.NewOptPaymentMetadata(meta),
		}, ogenc.InitiatePaymentParams{IdempotencyKey: ogenc.NewOptUUID(idem)})
		must(err)
		got, ok := res.(*ogenc.PaymentHeaders)
		if !ok {
			fail("ogen retry of one initiate answered %T %+v", res, res)
		}
		ids = append(ids, got.Response.ID)
	}
	return idem.String(), ids
}

// cancelWithOgen initiates a payout and cancels it twice through ogen's
// client, reporting the status and reason each cancel answered.
func cancelWithOgen(base, key string) (string, []string) {
	c, err := ogenc.NewClient(base, bearer(key))
	must(err)
	res, err := c.InitiatePayment(ctx, &ogenc.InitiateRequest{Amount: ogenc.NewOptPositiveAmount("12.00"), Currency: "USD",
		DestinationAddress: destination}, ogenc.InitiatePaymentParams{})
	must(err)
	p, ok := res.(*ogenc.PaymentHeaders)
	if !ok {
		fail("ogen initiate answered %T %+v", res, res)
	}
	var out []string
	for _, idem := range []ogenc.OptUUID{ogenc.NewOptUUID(uuid.New()), {}} {
		res, err := c.CancelPayment(ctx, ogenc.CancelPaymentParams{ID: p.Response.ID, IdempotencyKey: idem})
		must(err)
		got, ok := res.(*ogenc.PaymentHeaders)
		if !ok {
			fail("ogen cancel answered %T %+v", res, res)
		}
		out = append(out, string(got.Response.Status)+" "+got.Response.FailedReason.Or("")+fmt.Sprintf(" v%d", got.Response.Version))
	}
	return p.Response.ID, out
}

// readUnknownStatus reads one payment through a proxy that rewrites its
// status to one the document does not list, with both clients: each must
// decode it and hand the value over.
func readUnknownStatus(odd, key, id string) (string, string) {
	auth := func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+key)
		return nil
	}
	oc, err := api.NewClientWithResponses(odd, api.WithRequestEditorFn(auth))
	must(err)
	r, err := oc.GetPayoutWithResponse(ctx, id)
	must(err)
	expect(r.StatusCode(), 200, r.Body)
	if r.JSON200 == nil {
		fail("oapi-codegen decoded no payment from %s", r.Body)
	}
	gc, err := ogenc.NewClient(odd, bearer(key))
	must(err)
	res, err := gc.GetPayout(ctx, ogenc.GetPayoutParams{ID: id})
	if err != nil {
		fail("ogen cannot read a payment whose status it does not know: %v", err)
	}
	got, ok := res.(*ogenc.GetPayoutOKHeaders)
	if !ok {
		fail("ogen read the rewritten payment as %T %+v", res, res)
	}
	return r.JSON200.Status, string(got.Response.Status)
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
