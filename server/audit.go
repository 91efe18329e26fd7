package server

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/payoutd/payoutd/store"
)

type auditView struct {
	Seq          int64           `json:"seq"`
	At           string          `json:"at"`
	Actor        string          `json:"actor"`
	Action       string          `json:"action"`
	ResourceType string          `json:"resourceType"`
	ResourceID   string          `json:"resourceId"`
	RequestID    string          `json:"requestId"`
	Changes      json.RawMessage `json:"changes"`
	PrevHash     string          `json:"prevHash"`
	Hash         string          `json:"hash"`
}

type auditList struct {
	Items []auditView `json:"items"`
	pageInfo
}

// isAuditSeq accepts a positive whole number, an audit entry's seq.
func isAuditSeq(v string) bool {
	n, err := strconv.ParseInt(v, 10, 64)
	return err == nil && n > 0 && strconv.FormatInt(n, 10) == v
}

// handleAuditList pages the caller's own audit rows, newest first. prevHash
// and hash are the chain links, so a client can check its rows against
// GET /compliance/audit/verify's lastHash or an earlier copy.
func (s *Server) handleAuditList(w http.ResponseWriter, c *call) error {
	win, err := listParams(c.r, 20, isAuditSeq, "an audit entry's seq (a whole number)")
	if err != nil {
		return err
	}
	q := c.r.URL.Query()
	f := store.AuditFilter{UserID: c.p.UserID, Action: q.Get("action"), ResourceID: q.Get("resourceId"),
		After: win.After, Page: win.Page, Limit: win.Limit}
	if len(f.Action) > 64 {
		return fieldError("action", "is too long")
	}
	if len(f.ResourceID) > 128 {
		return fieldError("resourceId", "is too long")
	}
	if f.From, f.To, err = parseRange(q); err != nil {
		return err
	}
	rows, total, err := s.db.History().ListAudit(c.r.Context(), f)
	if err != nil {
		return err
	}
	rows, info := pageOf(rows, win, total, func(a store.AuditRow) string { return strconv.FormatInt(a.Seq, 10) })
	out := auditList{Items: make([]auditView, 0, len(rows)), pageInfo: info}
	for _, a := range rows {
		out.Items = append(out.Items, auditView{Seq: a.Seq, At: ts(a.At), Actor: a.Actor, Action: a.Action,
			ResourceType: a.ResourceType, ResourceID: a.ResourceID, RequestID: a.RequestID, Changes: a.Changes,
			PrevHash: a.PrevHash, Hash: a.Hash})
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// handleAuditVerify walks the whole chain. The chain spans every user of the
// file (one hash chain), so rows, brokenAt and lastHash
// describe it as a whole; no other user's row content is revealed.
func (s *Server) handleAuditVerify(w http.ResponseWriter, c *call) error {
	v, err := s.db.History().VerifyAudit(c.r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}
