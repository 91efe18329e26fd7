package server

import (
	"net/http"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/store"
)

// lutRecordView is a recorded LUT (docs/tax.md, "LUTs").
type lutRecordView struct {
	ID          string `json:"id"`
	ARN         string `json:"arn"`
	FY          string `json:"fy"`
	FurnishedOn string `json:"furnishedOn"`
	// Covers is the span of export dates the LUT covers: its whole
	// financial year; exports before furnishedOn are covered ex post facto.
	CoversFrom  string  `json:"coversFrom"`
	CoversTo    string  `json:"coversTo"`
	ExPostFacto string  `json:"exPostFacto"`
	Status      string  `json:"status"`
	CreatedAt   string  `json:"createdAt"`
	WithdrawnAt *string `json:"withdrawnAt"`
}

func viewLUTRecord(l store.LUT) lutRecordView {
	fy, _ := india.ParseFY(l.FY)
	cover := india.LUTFurnished(l.ARN, fy, l.FurnishedOn)
	v := lutRecordView{ID: l.ID, ARN: l.ARN, FY: l.FY, FurnishedOn: l.FurnishedOn, CoversFrom: india.DateOf(fy.Start()),
		CoversTo: cover.Until, ExPostFacto: india.ExPostFacto, Status: "recorded", CreatedAt: ts(l.CreatedAt)}
	if l.WithdrawnAt != nil {
		at := ts(*l.WithdrawnAt)
		v.Status, v.WithdrawnAt = "withdrawn", &at
	}
	return v
}

// handleLUTCreate records a LUT furnished on the GST portal.
func (s *Server) handleLUTCreate(w http.ResponseWriter, c *call) error {
	var q input.LUT
	if err := c.decode(&q); err != nil {
		return err
	}
	if err := q.Validate(s.db.Now()); err != nil {
		return err
	}
	l := store.LUT{UserID: c.p.UserID, Livemode: c.p.Livemode, ARN: q.ARN, FY: q.FY, FurnishedOn: q.FurnishedOn}
	return s.reply(w, c, http.StatusCreated, func(tx *store.Tx) (any, error) {
		rec, err := tx.Invoices().RecordLUT(l)
		return viewLUTRecord(rec), err
	})
}

func (s *Server) handleLUTList(w http.ResponseWriter, c *call) error {
	ls, err := s.db.Invoices().ListLUTs(c.r.Context(), c.p.UserID)
	if err != nil {
		return err
	}
	out := make([]lutRecordView, 0, len(ls))
	for _, l := range ls {
		out = append(out, viewLUTRecord(l))
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": out})
	return nil
}

func (s *Server) handleLUTGet(w http.ResponseWriter, c *call) error {
	l, err := s.db.Invoices().FindLUT(c.r.Context(), c.p.UserID, c.r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewLUTRecord(l))
	return nil
}

// handleLUTWithdraw withdraws a LUT recorded by mistake; it stays listed.
func (s *Server) handleLUTWithdraw(w http.ResponseWriter, c *call) error {
	id := c.r.PathValue("id")
	return s.reply(w, c, http.StatusOK, func(tx *store.Tx) (any, error) {
		l, err := tx.Invoices().WithdrawLUT(c.p.UserID, id)
		return viewLUTRecord(l), err
	})
}
