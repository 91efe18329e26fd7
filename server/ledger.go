package server

import (
	"net/http"
	"net/url"
	"time"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store"
)

type ledgerAccountView struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Currency  string `json:"currency"`
	VaultID   string `json:"vaultId,omitempty"`
	Balance   int64  `json:"balance"`
	CreatedAt string `json:"createdAt"`
}

// handleLedgerAccounts lists the caller's ledger accounts (so clients
// can find the settlement account id).
func (s *Server) handleLedgerAccounts(w http.ResponseWriter, c *call) error {
	accts, err := s.db.Ledger().ListLedgerAccounts(c.r.Context(), c.p.UserID)
	if err != nil {
		return err
	}
	out := make([]ledgerAccountView, 0, len(accts))
	for _, a := range accts {
		out = append(out, ledgerAccountView{ID: a.ID, Kind: a.Kind, Currency: a.Currency, VaultID: a.Ref, Balance: a.Balance, CreatedAt: ts(a.CreatedAt)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": out})
	return nil
}

type balanceView struct {
	AccountID string `json:"accountId"`
	Type      string `json:"type"`
	Settled   int64  `json:"settled"`
	Pending   int64  `json:"pending"`
	Reserved  int64  `json:"reserved"`
	Currency  string `json:"currency"`
	AsOf      string `json:"asOf"`
}

// handleLedgerBalance: for the INR settlement account, settled = INR credited
// minus the tax reserve, pending = INR estimate of payouts confirmed but not
// settled, reserved = the tax reserve. Other accounts show
// their balance as settled.
func (s *Server) handleLedgerBalance(w http.ResponseWriter, c *call) error {
	ctx := c.r.Context()
	a, err := s.db.Ledger().FindLedgerAccount(ctx, c.p.UserID, c.r.PathValue("accountId"))
	if err != nil {
		return err
	}
	v := balanceView{AccountID: a.ID, Type: "SETTLED", Settled: a.Balance, Currency: a.Currency, AsOf: ts(time.Now())}
	if a.Kind == store.AccountSettlement {
		reserve, err := s.db.Ledger().UserLedgerAccount(ctx, c.p.UserID, store.AccountTaxReserve, "INR")
		if err != nil {
			return err
		}
		v.Reserved = reserve.Balance
		held, err := s.db.Ledger().ReservedByCurrency(ctx, c.p.UserID)
		if err != nil {
			return err
		}
		for cur, minor := range held {
			inr, _, err := s.cfg.Rates.ToINR(minor, cur)
			if err == nil {
				v.Pending += inr
			}
		}
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

type entryList struct {
	Entries []entryView `json:"entries"`
	pageInfo
}

type entryView struct {
	ID           string  `json:"id"`
	Type         string  `json:"type"`
	Amount       int64   `json:"amount"`
	Currency     string  `json:"currency"`
	Description  string  `json:"description"`
	PaymentID    string  `json:"paymentId,omitempty"`
	FIRAID       string  `json:"firaId,omitempty"`
	ReconciledAt *string `json:"reconciledAt,omitempty"`
	CreatedAt    string  `json:"createdAt"`
}

// parseBound reads an ISO 8601 bound: a full timestamp, or a date meaning
// the start of that day (from) or its last millisecond (to), in UTC.
func parseBound(field, v string, end bool) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	if d, err := time.Parse("2006-01-02", v); err == nil {
		if end {
			return d.Add(24*time.Hour - time.Millisecond), nil
		}
		return d, nil
	}
	return time.Time{}, fieldError(field, "must be an ISO 8601 date or timestamp")
}

// parseRange reads the inclusive from/to bounds of a list query.
func parseRange(q url.Values) (from, to time.Time, err error) {
	if from, err = parseBound("from", q.Get("from"), false); err != nil {
		return from, to, err
	}
	if to, err = parseBound("to", q.Get("to"), true); err != nil {
		return from, to, err
	}
	if !from.IsZero() && !to.IsZero() && to.Before(from) {
		return from, to, fieldError("to", "must not be before from")
	}
	return from, to, nil
}

func (s *Server) handleLedgerEntries(w http.ResponseWriter, c *call) error {
	win, err := listParams(c.r, 25, idPrefixed("je_"), "a ledger entry id (je_…)")
	if err != nil {
		return err
	}
	from, to, err := parseRange(c.r.URL.Query())
	if err != nil {
		return err
	}
	a, err := s.db.Ledger().FindLedgerAccount(c.r.Context(), c.p.UserID, c.r.PathValue("accountId"))
	if err != nil {
		return err
	}
	entries, total, err := s.db.Ledger().ListEntries(c.r.Context(), store.EntryFilter{AccountID: a.ID, From: from, To: to,
		After: win.After, Page: win.Page, Limit: win.Limit})
	if err != nil {
		return err
	}
	entries, info := pageOf(entries, win, total, func(e store.JournalEntry) string { return e.ID })
	out := entryList{Entries: make([]entryView, 0, len(entries)), pageInfo: info}
	for _, e := range entries {
		v := entryView{ID: e.ID, Type: "CREDIT", Amount: e.Amount, Currency: e.Currency, Description: e.Description,
			PaymentID: e.PaymentID, FIRAID: e.FIRAID, CreatedAt: ts(e.CreatedAt)}
		if e.Amount < 0 {
			v.Type, v.Amount = "DEBIT", -e.Amount
		}
		if e.ReconciledAt != nil && v.Type == "CREDIT" {
			r := ts(*e.ReconciledAt)
			v.ReconciledAt = &r
		}
		out.Entries = append(out.Entries, v)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

type reconView struct {
	PaymentID       string  `json:"paymentId"`
	Status          string  `json:"status"`
	InvoiceRef      *string `json:"invoiceRef"`
	FIRAID          string  `json:"firaId"`
	LedgerEntryID   string  `json:"ledgerEntryId"`
	ReconciledAt    string  `json:"reconciledAt,omitempty"`
	Reason          string  `json:"reason,omitempty"`
	CreatedAt       string  `json:"createdAt,omitempty"`
	ResolvedBy      string  `json:"resolvedBy,omitempty"`
	Note            string  `json:"note,omitempty"`
	MarkAsException bool    `json:"markAsException"`
}

func viewRecon(r store.Reconciliation) reconView {
	v := reconView{PaymentID: r.PaymentID, Status: r.Status, FIRAID: r.FIRAID, LedgerEntryID: r.LedgerEntryID,
		ResolvedBy: r.ResolvedBy, Note: r.Note, MarkAsException: r.Exception}
	if r.InvoiceRef != "" {
		v.InvoiceRef = &r.InvoiceRef
	}
	if r.ReconciledAt != nil {
		v.ReconciledAt = ts(*r.ReconciledAt)
	}
	if r.Status == store.PendingReconciliation {
		v.Reason, v.CreatedAt = r.Reason, ts(r.CreatedAt)
	}
	return v
}

func (s *Server) handleReconciliationGet(w http.ResponseWriter, c *call) error {
	r, err := s.db.Ledger().FindReconciliation(c.r.Context(), c.p.UserID, c.r.PathValue("paymentId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewRecon(r))
	return nil
}

type resolveRequest struct {
	InvoiceRef      string `json:"invoiceRef"`
	Note            string `json:"note"`
	MarkAsException bool   `json:"markAsException"`
}

func (s *Server) handleReconciliationResolve(w http.ResponseWriter, c *call) error {
	var q resolveRequest
	if err := c.decodeOptional(&q); err != nil {
		return err
	}
	err := asFieldErrors(validation.ValidateStruct(&q,
		validation.Field(&q.InvoiceRef, validation.RuneLength(0, 128)),
		validation.Field(&q.Note, validation.RuneLength(0, 512)),
	))
	if err != nil {
		return err
	}
	var r store.Reconciliation
	err = s.db.WithTx(c.r.Context(), func(tx *store.Tx) error {
		var err error
		if r, err = tx.Ledger().ResolveReconciliation(c.p.UserID, c.r.PathValue("paymentId"), q.InvoiceRef, q.Note, q.MarkAsException); err != nil {
			return err
		}
		// Every reconciliation refreshes the tax figures, in its transaction.
		return jobs.EnqueueTaxRefresh(tx, c.p.UserID)
	}, c.txOpts())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"paymentId": r.PaymentID, "status": r.Status, "resolvedAt": ts(*r.ReconciledAt),
		"resolvedBy": r.ResolvedBy, "invoiceRef": r.InvoiceRef, "markAsException": r.Exception})
	return nil
}
