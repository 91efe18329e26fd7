package server

import (
	"context"
	"log/slog"
	"net/http"
	"time"

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
	v := kycView{UserID: k.UserID, Status: k.Status, AllowedTransitions: k.AllowedTransitions()}
	if k.Status == store.KYCRejected {
		left := max(store.MaxKYCAttempts-k.Attempts, 0)
		v.Reason, v.ResubmissionsLeft = k.Reason, &left
	}
	return v
}

// sandboxProviderActor labels the audit rows of the sandbox provider's moves.
const sandboxProviderActor = "kyc-provider:sandbox"

// currentKYC reads a user's KYC record after letting the sandbox provider
// take any step that is due, so a reader never sees a stale review state.
func (s *Server) currentKYC(ctx context.Context, userID, reqID string) (store.KYC, error) {
	due, err := s.db.SandboxKYCDue(ctx, s.db.Now(), userID, 1)
	if err != nil {
		return store.KYC{}, err
	}
	if len(due) == 0 {
		return s.db.KYCStatus(ctx, userID)
	}
	var k store.KYC
	err = s.db.WithTx(ctx, func(tx *store.Tx) (err error) {
		k, err = tx.AdvanceSandboxKYC(userID)
		return err
	}, store.WithActor(sandboxProviderActor, reqID))
	return k, err
}

func (s *Server) handleKYCStatus(w http.ResponseWriter, c *call) error {
	k, err := s.currentKYC(c.r.Context(), c.p.UserID, requestID(c.r))
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
	if err := noBody(c.body); err != nil {
		return err
	}
	return s.reply(w, c, http.StatusOK, func(tx *store.Tx) (any, error) {
		res, err := tx.StartKYC(c.p.UserID, c.p.Livemode)
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

// RunSandboxKYCReviewer plays the sandbox verification provider in the
// background until ctx ends, so kyc.updated events fire even when nobody
// reads the status. It is River-free on purpose: a review step is a cheap,
// idempotent state check, repeated every tick until it is done.
func (s *Server) RunSandboxKYCReviewer(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		ids, err := s.db.SandboxKYCDue(ctx, s.db.Now(), "", 100)
		if err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "sandbox kyc reviewer", slog.String("error", err.Error()))
		}
		for _, id := range ids {
			err := s.db.WithTx(ctx, func(tx *store.Tx) error {
				_, err := tx.AdvanceSandboxKYC(id)
				return err
			}, store.WithActor(sandboxProviderActor, ""))
			if err != nil && ctx.Err() == nil {
				s.log.ErrorContext(ctx, "sandbox kyc reviewer", slog.String("userId", id), slog.String("error", err.Error()))
			}
		}
	}
}
