package console

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
	"github.com/payoutd/payoutd/wire"
)

// estimate is a payout's indicative INR value at the configured reference
// rate, before its settlement fixes the real one.
type estimate struct {
	INR  int64
	Rate string
}

func (c *Console) estimate(minor int64, currency string) *estimate {
	paise, rate, err := c.cfg.Rates.ToINR(minor, currency)
	if err != nil {
		return nil
	}
	return &estimate{INR: paise, Rate: rate.String()}
}

type newPayoutData struct {
	Form       input.Initiate
	Key        string // this rendering's Idempotency-Key
	Currencies []string
	Clients    []store.Client
	// Sent is where this form's key already led: the form was sent, and
	// the page offers that payout instead of the form again.
	Sent string
}

// initiateFields orders the form's fields in its error summary.
var initiateFields = []string{"amount", "currency", "destinationAddress", "counterpartyName", "counterpartyCountry",
	"counterpartyBank", "purposeCode", "invoiceRef", "invoiceDate", "memo"}

func (c *Console) newPayoutPage(w http.ResponseWriter, r *http.Request, u user, status int, f input.Initiate, key string, err error) {
	vaults, verr := c.db.Vaults().ListVaults(r.Context(), u.ID)
	if verr != nil {
		c.fail(w, r, verr)
		return
	}
	clients, verr := c.db.Invoices().ListClients(r.Context(), u.ID)
	if verr != nil {
		c.fail(w, r, verr)
		return
	}
	d := newPayoutData{Form: f, Key: key, Clients: clients}
	for _, v := range vaults {
		if !strings.Contains(strings.Join(d.Currencies, ","), v.Currency) {
			d.Currencies = append(d.Currencies, v.Currency)
		}
	}
	if d.Form.Currency == "" && len(d.Currencies) > 0 {
		d.Form.Currency = d.Currencies[0]
	}
	p := page{Title: "New payout", Nav: "new", Data: d}
	p.setErrors(err)
	c.render(w, r, status, "payout_new", p)
}

// handleNewPayout shows the first step of a payout under an
// Idempotency-Key that is part of its address (a fresh one when the
// address has none): submitting the form twice makes one payout, and
// going Back to it after sending shows what it made instead of a form
// that would make a second.
func (c *Console) handleNewPayout(w http.ResponseWriter, r *http.Request, u user) {
	q := r.URL.Query()
	key, clientID := q.Get("key"), q.Get("client")
	if uuid.Validate(key) != nil {
		q.Set("key", uuid.NewString())
		http.Redirect(w, r, listURL("payouts/new", q), http.StatusSeeOther)
		return
	}
	sent, err := c.sentBefore(r, u, "initiate", key)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if sent != "" {
		c.render(w, r, http.StatusOK, "payout_new", page{Title: "New payout", Nav: "new", Data: newPayoutData{Key: key, Sent: sent}})
		return
	}
	var form input.Initiate
	if clientID != "" {
		// Pay with this client: its currency to start with, and its
		// details taken at submit for what the form leaves empty.
		cl, err := c.db.Invoices().FindClient(r.Context(), u.ID, clientID)
		if err != nil {
			c.fail(w, r, err)
			return
		}
		form.ClientID, form.Currency = cl.ID, cl.Currency
	}
	if id := q.Get("invoice"); id != "" {
		if err := c.collectInvoice(r, u, id, &form); err != nil {
			c.fail(w, r, err)
			return
		}
	}
	c.newPayoutPage(w, r, u, http.StatusOK, form, key, nil)
}

// handleInitiate records the payout INITIATED (payout.Initiate, as POST
// /payments/initiate, its txnId the form's key) and moves on to the
// confirmation step.
func (c *Console) handleInitiate(w http.ResponseWriter, r *http.Request, u user) {
	f := r.PostForm
	q := input.Initiate{Amount: json.Number(strings.TrimSpace(f.Get("amount"))), Currency: strings.ToUpper(strings.TrimSpace(f.Get("currency"))),
		DestinationAddress: strings.TrimSpace(f.Get("destinationAddress")), Memo: f.Get("memo"),
		PurposeCode: strings.ToUpper(strings.TrimSpace(f.Get("purposeCode"))), InvoiceRef: strings.TrimSpace(f.Get("invoiceRef")),
		CounterpartyName: strings.TrimSpace(f.Get("counterpartyName")), CounterpartyCountry: strings.ToUpper(strings.TrimSpace(f.Get("counterpartyCountry"))),
		CounterpartyBank: strings.TrimSpace(f.Get("counterpartyBank")), InvoiceDate: strings.TrimSpace(f.Get("invoiceDate")),
		ClientID: f.Get("clientId"), InvoiceID: f.Get("invoiceId")}
	key := f.Get("idempotencyKey")
	if uuid.Validate(key) != nil {
		c.problem(w, r, http.StatusBadRequest, "Form expired", "This form has no valid key, so nothing was sent. Open New payout again.")
		return
	}
	typed := q // shown again as typed, not as the client filled it
	err := c.useClient(r, u, &q)
	var minor int64
	if err == nil {
		minor, err = q.Validate(c.db.Now())
	}
	if err == nil {
		err = textFields(map[string]string{"memo": q.Memo, "invoiceRef": q.InvoiceRef, "counterpartyName": q.CounterpartyName,
			"counterpartyBank": q.CounterpartyBank})
	}
	if err != nil {
		c.newPayoutPage(w, r, u, http.StatusBadRequest, typed, key, err)
		return
	}
	p := store.Payment{UserID: u.ID, Livemode: u.Livemode, TxnID: strings.ToLower(key), Amount: minor, Currency: q.Currency,
		DestinationAddress: q.DestinationAddress, Memo: q.Memo, PurposeCode: q.PurposeCode, InvoiceRef: q.InvoiceRef,
		CounterpartyName: q.CounterpartyName, CounterpartyCountry: q.CounterpartyCountry, CounterpartyBank: q.CounterpartyBank,
		InvoiceDate: q.InvoiceDate, ClientID: q.ClientID}
	details := []string{strconv.FormatInt(p.Amount, 10), p.Currency, p.DestinationAddress, p.Memo, p.PurposeCode, p.InvoiceRef,
		p.CounterpartyName, p.CounterpartyCountry, p.CounterpartyBank, p.InvoiceDate, p.ClientID, q.InvoiceID}
	target, err := c.once(r, u, "initiate", key, details, func(tx *store.Tx) (string, error) {
		p, inv, err := taxes.CollectsInvoice(tx, p, q.InvoiceID)
		if err != nil {
			return "", err
		}
		created, err := payout.Initiate(tx, c.cfg.Rates, p)
		if err == nil && inv != nil {
			err = tx.Invoices().LinkPayment(created.ID, *inv)
		}
		return Prefix + "payouts/" + created.ID + "/confirm", err
	})
	if reused := (*formReused)(nil); errors.As(err, &reused) {
		// The details shown stay as typed under a fresh key: sending
		// them again is a deliberate second payout.
		c.newPayoutPage(w, r, u, http.StatusConflict, typed, uuid.NewString(), apperr.Errorf(apperr.ErrIdempotencyReused,
			"This form was already sent as payout %s with other details, so nothing was sent now. Check the details and continue to make a second payout", payoutOf(reused.Target)))
		return
	}
	var e *apperr.Error
	if errors.As(err, &e) {
		if e.Code == apperr.ErrKYCRequired {
			err = input.FieldError("counterpartyCountry", e.Message+"; start verification under Settings")
		}
		c.newPayoutPage(w, r, u, http.StatusBadRequest, typed, key, err)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// collectInvoice fills New payout in to collect an invoice: what it still
// holds, in its currency, from its client, under its number.
func (c *Console) collectInvoice(r *http.Request, u user, id string, f *input.Initiate) error {
	inv, err := c.db.Invoices().FindInvoice(r.Context(), u.ID, id)
	if err != nil {
		return err
	}
	cur, _ := money.Lookup(inv.Currency)
	f.InvoiceID, f.InvoiceRef, f.InvoiceDate, f.Currency = inv.ID, inv.Number, inv.Date, inv.Currency
	f.Amount = json.Number(money.Format(inv.Total-inv.Credited, cur))
	f.CounterpartyName, f.CounterpartyCountry = inv.Recipient.Name, inv.Recipient.Country
	if inv.ClientID != "" {
		f.ClientID = inv.ClientID
	}
	return nil
}

// useClient makes the payout one for the client chosen in the form, as
// the API's clientId does.
func (c *Console) useClient(r *http.Request, u user, q *input.Initiate) error {
	if q.ClientID == "" {
		return nil
	}
	cl, err := c.db.Invoices().FindClient(r.Context(), u.ID, q.ClientID)
	if apperr.Code(err) == apperr.ErrNotFound {
		return input.FieldError("clientId", "is not one of your clients")
	}
	if err != nil {
		return err
	}
	q.UseClient(cl)
	return nil
}

// textFields applies the API's text rule (no control or bidi characters)
// to form fields the JSON decoder would have checked.
func textFields(fields map[string]string) error {
	bad := map[string]string{}
	for k, v := range fields {
		if msg := input.TextProblem(v); msg != "" {
			bad[k] = msg
		}
	}
	if len(bad) > 0 {
		return input.Invalid(bad)
	}
	return nil
}

type confirmData struct {
	P        store.Payment
	Vaults   []store.Vault
	VaultID  string
	Key      string
	Estimate *estimate
}

func (c *Console) confirmPage(w http.ResponseWriter, r *http.Request, u user, status int, p store.Payment, vaultID, key string, err error) {
	vaults, verr := c.db.Vaults().ListVaults(r.Context(), u.ID)
	if verr != nil {
		c.fail(w, r, verr)
		return
	}
	d := confirmData{P: p, VaultID: vaultID, Key: key, Estimate: c.estimate(p.Amount, p.Currency)}
	for _, v := range vaults {
		if v.Currency == p.Currency {
			d.Vaults = append(d.Vaults, v)
			if d.VaultID == "" && v.IsDefault {
				d.VaultID = v.ID
			}
		}
	}
	pg := page{Title: "Confirm payout", Nav: "new", Data: d}
	pg.setErrors(err)
	c.render(w, r, status, "payout_confirm", pg)
}

// handleConfirmPage is the second step: what will be sent, from which
// vault, and its INR estimate, before anything moves.
func (c *Console) handleConfirmPage(w http.ResponseWriter, r *http.Request, u user) {
	p, err := c.db.Payments().FindPayment(r.Context(), u.ID, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if p.Status != store.StatusInitiated {
		http.Redirect(w, r, Prefix+"payouts/"+p.ID, http.StatusSeeOther)
		return
	}
	c.confirmPage(w, r, u, http.StatusOK, p, "", uuid.NewString(), nil)
}

// handleConfirm confirms the payout as it was shown (payout.PrepareConfirm
// and payout.Confirm, as POST /payments/confirm): the funds are reserved and
// the payout moves to COMPLIANCE_CHECK.
func (c *Console) handleConfirm(w http.ResponseWriter, r *http.Request, u user) {
	ctx := r.Context()
	p, err := c.db.Payments().FindPayment(ctx, u.ID, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	key := r.PostForm.Get("idempotencyKey")
	if uuid.Validate(key) != nil {
		c.problem(w, r, http.StatusBadRequest, "Form expired", "This form has no valid key, so nothing was sent. Open the payout again.")
		return
	}
	q := input.Confirm{ID: p.ID, DestinationAddress: p.DestinationAddress, Amount: wire.Amount(p.Amount, p.Currency),
		Currency: p.Currency, Memo: p.Memo, VaultID: r.PostForm.Get("vaultId")}
	minor, err := q.Validate()
	var in store.ConfirmInput
	if err == nil {
		in = store.ConfirmInput{ID: q.ID, DestinationAddress: q.DestinationAddress, Amount: minor, Currency: q.Currency, VaultID: q.VaultID}
		in, err = payout.PrepareConfirm(ctx, c.db, c.cfg.Live, u.Livemode, u.ID, in)
	}
	var target string
	if err == nil {
		target, err = c.once(r, u, "confirm", key, []string{q.VaultID}, func(tx *store.Tx) (string, error) {
			in.Sealer = c.cfg.Sealer
			_, err := payout.Confirm(tx, u.ID, in)
			return Prefix + "payouts/" + p.ID, err
		})
	}
	var e *apperr.Error
	if errors.As(err, &e) && e.Code != apperr.ErrInvalidState {
		if len(e.Fields) == 0 && (e.Code == apperr.ErrInsufficientFunds || e.Code == apperr.ErrCurrencyMismatch || e.Code == apperr.ErrVaultNoKey) {
			err = input.FieldError("vaultId", e.Message)
		}
		c.confirmPage(w, r, u, http.StatusBadRequest, p, q.VaultID, key, err)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Payout confirmed: the funds are reserved and it is on its way.")
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// payoutOf is the payout id in a console address of a payout.
func payoutOf(target string) string {
	id, _, _ := strings.Cut(strings.TrimPrefix(target, Prefix+"payouts/"), "/")
	return id
}
