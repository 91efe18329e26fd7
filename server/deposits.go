package server

import (
	"encoding/json"
	"net/http"

	validation "github.com/go-ozzo/ozzo-validation/v4"

	"github.com/payoutd/payoutd/store"
)

// depositView is a deposit: money that arrived in one of the caller's
// vaults, read from the chain's events (live) or made through the sandbox
// API. It is what the deposit.received event carries.
type depositView struct {
	ID              string      `json:"id"`
	Object          string      `json:"object"`
	VaultID         string      `json:"vaultId"`
	Amount          json.Number `json:"amount"`
	AmountMinor     int64       `json:"amountMinor"`
	Currency        string      `json:"currency"`
	From            string      `json:"from"`
	FromMuxedID     string      `json:"fromMuxedId,omitempty"`
	Memo            string      `json:"memo"`
	Source          string      `json:"source"`
	TransactionHash string      `json:"transactionHash"`
	Ledger          int64       `json:"ledger"`
	LedgerClosedAt  string      `json:"ledgerClosedAt"`
	Livemode        bool        `json:"livemode"`
	CreatedAt       string      `json:"createdAt"`
}

// viewDeposit is the deposit as store.DepositData has it, typed.
func viewDeposit(m store.Movement) depositView {
	d := store.DepositData(m)
	v := depositView{ID: m.ID, Object: "deposit", VaultID: m.VaultID, Amount: amountJSON(m.Amount, m.Currency), AmountMinor: m.Amount,
		Currency: m.Currency, From: m.Counterparty, Memo: m.Memo, Source: d["source"].(string), TransactionHash: m.TxHash,
		Ledger: m.Ledger, LedgerClosedAt: ts(m.ClosedAt), Livemode: m.Livemode, CreatedAt: ts(m.CreatedAt)}
	if id, ok := d["fromMuxedId"].(string); ok {
		v.FromMuxedID = id
	}
	return v
}

type depositList struct {
	Items []depositView `json:"items"`
	pageInfo
}

// handleDepositList serves GET /deposits: the caller's deposits, newest
// ledger first, filtered by vault, counterparty and ledger close time
// (from/to, inclusive).
func (s *Server) handleDepositList(w http.ResponseWriter, c *call) error {
	win, err := listParams(c.r, 20, idPrefixed("dep_"), "a deposit id (dep_…)")
	if err != nil {
		return err
	}
	q := c.r.URL.Query()
	f := store.DepositFilter{UserID: c.p.UserID, Livemode: c.p.Livemode, VaultID: q.Get("vaultId"), Counterparty: q.Get("counterparty"),
		After: win.After, Page: win.Page, Limit: win.Limit}
	if f.VaultID != "" && !idPrefixed("vlt_")(f.VaultID) {
		return fieldError("vaultId", "must be a vault id (vlt_…)")
	}
	if f.Counterparty != "" && len(f.Counterparty) > 69 {
		return fieldError("counterparty", "must be a Stellar address")
	}
	if f.From, f.To, err = parseRange(q); err != nil {
		return err
	}
	if !f.To.IsZero() {
		f.To = f.To.Add(1) // parseRange's bound is inclusive; the store's is not
	}
	list, total, err := s.db.Vaults().ListDeposits(c.r.Context(), f)
	if err != nil {
		return err
	}
	list, info := pageOf(list, win, total, func(m store.Movement) string { return m.ID })
	out := depositList{Items: make([]depositView, 0, len(list)), pageInfo: info}
	for _, m := range list {
		out.Items = append(out.Items, viewDeposit(m))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) handleDepositGet(w http.ResponseWriter, c *call) error {
	m, err := s.db.Movements().FindDeposit(c.r.Context(), c.p.UserID, c.r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewDeposit(m))
	return nil
}

type sandboxDepositRequest struct {
	Amount json.Number `json:"amount"`
	From   string      `json:"from"`
	Memo   string      `json:"memo"`
}

// handleSandboxDeposit makes a deposit to one of the caller's sandbox
// vaults, recorded and booked as a live one read from the chain is, and
// announced with deposit.received.
func (s *Server) handleSandboxDeposit(w http.ResponseWriter, c *call) error {
	if c.p.Livemode {
		return errSandboxOnly
	}
	var q sandboxDepositRequest
	if err := c.decode(&q); err != nil {
		return err
	}
	v, err := s.db.Vaults().FindVault(c.r.Context(), c.p.UserID, c.r.PathValue("id"))
	if err != nil {
		return err
	}
	var minor int64
	err = asFieldErrors(validation.ValidateStruct(&q,
		validation.Field(&q.Amount, validation.Required, amountRule(v.Currency, &minor)),
		validation.Field(&q.From, validation.RuneLength(0, 128)),
		validation.Field(&q.Memo, validation.RuneLength(0, 28))))
	if err != nil {
		return err
	}
	from := q.From
	if from == "" {
		from = "sandbox"
	}
	return s.reply(w, c, http.StatusCreated, func(tx *store.Tx) (any, error) {
		m, err := tx.Vaults().SandboxDeposit(c.p.UserID, v.ID, minor, from, q.Memo)
		return viewDeposit(m), err
	})
}
