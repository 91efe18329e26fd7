package server

import (
	"encoding/json"
	"net/http"

	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/store"
)

type taxPaymentView struct {
	ID            string      `json:"id"`
	FY            string      `json:"fy"`
	Kind          string      `json:"kind"`
	Amount        json.Number `json:"amount"`
	AmountPaise   int64       `json:"amountPaise"`
	PaidOn        string      `json:"paidOn"`
	BSRCode       string      `json:"bsrCode"`
	ChallanSerial string      `json:"challanSerial"`
	FromReserve   bool        `json:"fromReserve"`
	Note          string      `json:"note"`
	Status        string      `json:"status"`
	CreatedAt     string      `json:"createdAt"`
	ReversedAt    *string     `json:"reversedAt"`
}

func viewTaxPayment(p store.TaxPayment) taxPaymentView {
	v := taxPaymentView{ID: p.ID, FY: p.FY, Kind: p.Kind, Amount: inr(p.Amount), AmountPaise: p.Amount, PaidOn: p.PaidOn, BSRCode: p.BSRCode,
		ChallanSerial: p.ChallanSerial, FromReserve: p.FromReserve, Note: p.Note, Status: p.Status(), CreatedAt: ts(p.CreatedAt)}
	if p.ReversedAt != nil {
		at := ts(*p.ReversedAt)
		v.ReversedAt = &at
	}
	return v
}

type taxPaymentList struct {
	Items []taxPaymentView `json:"items"`
	pageInfo
}

// handleTaxPaymentCreate records a challan; with fromReserve its amount
// leaves the tax reserve in the same transaction.
func (s *Server) handleTaxPaymentCreate(w http.ResponseWriter, c *call) error {
	var q input.TaxPayment
	if err := c.decode(&q); err != nil {
		return err
	}
	paise, err := q.Validate(s.db.Now())
	if err != nil {
		return err
	}
	p := store.TaxPayment{UserID: c.p.UserID, Livemode: c.p.Livemode, FY: q.FY, Kind: q.Kind, Amount: paise, PaidOn: q.PaidOn,
		BSRCode: q.BSRCode, ChallanSerial: q.ChallanSerial, FromReserve: q.FromReserve, Note: q.Note}
	return s.reply(w, c, http.StatusCreated, func(tx *store.Tx) (any, error) {
		rec, err := tx.Tax().RecordTaxPayment(p)
		return viewTaxPayment(rec), err
	})
}

func (s *Server) handleTaxPaymentList(w http.ResponseWriter, c *call) error {
	win, err := listParams(c.r, 20, idPrefixed("taxp_"), "a tax payment id (taxp_…)")
	if err != nil {
		return err
	}
	f := store.TaxPaymentFilter{UserID: c.p.UserID, After: win.After, Page: win.Page, Limit: win.Limit}
	if c.r.URL.Query().Get("fy") != "" {
		fy, err := s.fyParam(c.r)
		if err != nil {
			return err
		}
		f.FY = fy.String()
	}
	ps, total, err := s.db.Tax().ListTaxPayments(c.r.Context(), f)
	if err != nil {
		return err
	}
	ps, info := pageOf(ps, win, total, func(p store.TaxPayment) string { return p.ID })
	out := taxPaymentList{Items: make([]taxPaymentView, 0, len(ps)), pageInfo: info}
	for _, p := range ps {
		out.Items = append(out.Items, viewTaxPayment(p))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) handleTaxPaymentGet(w http.ResponseWriter, c *call) error {
	p, err := s.db.Tax().FindTaxPayment(c.r.Context(), c.p.UserID, c.r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewTaxPayment(p))
	return nil
}

// handleTaxPaymentReverse reverses a wrong entry: the row stays, marked
// reversed, and a payment drawn from the reserve is put back.
func (s *Server) handleTaxPaymentReverse(w http.ResponseWriter, c *call) error {
	id := c.r.PathValue("id")
	return s.reply(w, c, http.StatusOK, func(tx *store.Tx) (any, error) {
		p, err := tx.Tax().ReverseTaxPayment(c.p.UserID, id)
		return viewTaxPayment(p), err
	})
}
