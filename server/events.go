package server

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// eventScopes may read the event log: it is the polling twin of webhooks
// (webhooks:manage), and it carries payout states (payments:read). Keys
// holding neither, e.g. a tax:read-only key, see no payout activity.
var eventScopes = []string{"webhooks:manage", "payments:read"}

func (c *call) needAny(scopes []string) error {
	for _, s := range scopes {
		if c.p.has(s) {
			return nil
		}
	}
	return apperr.Errorf(apperr.ErrInsufficientScope, "this operation needs scope %s", strings.Join(scopes, " or "))
}

type eventView struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Livemode  bool            `json:"livemode"`
	CreatedAt string          `json:"createdAt"`
	Data      json.RawMessage `json:"data"`
}

func viewEvent(ev store.Event) eventView {
	return eventView{ID: ev.ID, Type: ev.Type, Livemode: ev.Livemode, CreatedAt: ts(ev.CreatedAt), Data: ev.Data}
}

type eventList struct {
	Items []eventView `json:"items"`
	pageInfo
}

// validEventID accepts what store.NewID("evt") makes, loosely: the lookup
// decides whether it exists.
func validEventID(id string) bool {
	return strings.HasPrefix(id, "evt_") && len(id) <= 64
}

// handleEventList is GET /events: the caller's events oldest first, so a
// client can replay from the last id it handled (after=evt_…).
func (s *Server) handleEventList(w http.ResponseWriter, c *call) error {
	if err := c.needAny(eventScopes); err != nil {
		return err
	}
	win, err := listParams(c.r, 20, validEventID, "an event id (evt_…)")
	if err != nil {
		return err
	}
	q := c.r.URL.Query()
	f := store.EventFilter{UserID: c.p.UserID, Type: q.Get("type"), After: win.After, Page: win.Page, Limit: win.Limit}
	if f.Type != "" && !store.KnownEventType(f.Type) {
		return fieldError("type", "must be one of "+strings.Join(store.EventTypes, ", "))
	}
	evs, total, err := s.db.History().EventLog(c.r.Context(), f)
	if err != nil {
		return err
	}
	evs, info := pageOf(evs, win, total, func(ev store.Event) string { return ev.ID })
	out := eventList{Items: make([]eventView, 0, len(evs)), pageInfo: info}
	for _, ev := range evs {
		out.Items = append(out.Items, viewEvent(ev))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// handleEventGet is GET /events/{id}: a receiver can re-fetch an event named
// by a webhook-id. Another user's event is not found.
func (s *Server) handleEventGet(w http.ResponseWriter, c *call) error {
	if err := c.needAny(eventScopes); err != nil {
		return err
	}
	ev, err := s.db.History().FindEvent(c.r.Context(), c.r.PathValue("id"))
	if err == nil && ev.UserID != c.p.UserID {
		err = apperr.Errorf(apperr.ErrNotFound, "event not found")
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewEvent(ev))
	return nil
}
