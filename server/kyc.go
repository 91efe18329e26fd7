package server

import (
	"net/http"

	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/store"
)

// kycView is the KYC status, plus the rejection reason and how many
// resubmissions are left when REJECTED.
type kycView struct {
	UserID             string   `json:"userId"`
	Status             string   `json:"status"`
	AllowedTransitions []string `json:"allowedTransitions"`
	Reason             string   `json:"reason,omitempty"`
	ResubmissionsLeft  *int     `json:"resubmissionsLeft,omitempty"`
}

func viewKYC(k store.KYC) kycView {
	v := kycView{UserID: k.UserID, Status: k.Status, AllowedTransitions: kyc.Allowed(k)}
	if k.Status == store.KYCRejected {
		left := kyc.ResubmitsLeft(k)
		v.Reason, v.ResubmissionsLeft = k.Reason, &left
	}
	return v
}

func (s *Server) handleKYCStatus(w http.ResponseWriter, c *call) error {
	k, err := kyc.Current(c.r.Context(), s.db, c.p.UserID, requestID(c.r))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewKYC(k))
	return nil
}

// kycStartView is the POST /kyc/start answer. Without a session
// (APPROVED, or documents in review) success is false and the link fields
// are left out.
type kycStartView struct {
	Success     bool   `json:"success"`
	SessionID   string `json:"sessionId,omitempty"`
	Status      string `json:"status"`
	RedirectURL string `json:"redirectUrl,omitempty"`
	ExpiresAt   string `json:"expiresAt,omitempty"`
	Message     string `json:"message"`
}

func (s *Server) verifyURL(sessionID string) string { return s.cfg.BaseURL + "/verify/" + sessionID }

// handleKYCStart takes no body (an empty JSON object is accepted too).
func (s *Server) handleKYCStart(w http.ResponseWriter, c *call) error {
	if err := c.noBody(); err != nil {
		return err
	}
	return s.reply(w, c, http.StatusOK, func(tx *store.Tx) (any, error) {
		res, err := kyc.Start(tx, c.p.UserID, c.p.Livemode)
		if err != nil {
			return nil, err
		}
		v := kycStartView{Success: res.Started, Status: res.KYC.Status, Message: res.Message}
		if res.Started {
			v.SessionID, v.RedirectURL, v.ExpiresAt = res.Session.ID, s.verifyURL(res.Session.ID), ts(res.Session.ExpiresAt)
		}
		return v, nil
	})
}
