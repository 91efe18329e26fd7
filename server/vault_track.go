package server

import (
	"context"

	"github.com/payoutd/payoutd/store"
)

// trackView is how far payoutd has read a live vault's account as
// movements, shown by the wallet view and /readyz.
type trackView struct {
	VaultID string `json:"vaultId"`
	// Source is events (movements read from the chain's events) or
	// balance (the RPC server serves no events: balances compared, as a
	// fallback).
	Source        string `json:"source"`
	EventsLedger  int64  `json:"eventsLedger"`
	GapFromLedger int64  `json:"gapFromLedger,omitempty"`
	GapToLedger   int64  `json:"gapToLedger,omitempty"`
	CheckedLedger int64  `json:"checkedLedger,omitempty"`
	// MismatchStroops is the chain balance minus the opening balance and
	// the movements recorded, at CheckedLedger (0: they agree).
	MismatchStroops int64  `json:"mismatchStroops"`
	Status          string `json:"status"` // ok, gap, mismatch or fallback
	Description     string `json:"description"`
}

func viewTrack(t store.Track, currency string) trackView {
	v := trackView{VaultID: t.VaultID, Source: t.Source, EventsLedger: t.EventsLedger, CheckedLedger: t.CheckedLedger,
		MismatchStroops: t.MismatchStroops, Status: trackStatus(t), Description: describeTrack(t, currency)}
	if t.Gap() {
		v.GapFromLedger, v.GapToLedger = t.GapFrom, t.GapTo
	}
	return v
}

func trackStatus(t store.Track) string {
	switch {
	case t.Source == store.TrackBalance:
		return "fallback"
	case t.Gap():
		return "gap"
	case t.MismatchStroops != 0:
		return "mismatch"
	}
	return "ok"
}

// describeTrack says in a sentence what payoutd can vouch for.
func describeTrack(t store.Track, _ string) string { return t.Describe() }

// withTrack adds a live vault's track, once its movements are read, to
// its view.
func (s *Server) withTrack(ctx context.Context, v store.Vault, view walletView) (walletView, error) {
	if !v.Livemode {
		return view, nil
	}
	t, err := s.db.Movements().Track(ctx, v.ID)
	if err != nil || !t.Tracked() {
		return view, err
	}
	tv := viewTrack(t, v.Currency)
	view.Track = &tv
	return view, nil
}
