package server_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

type eventPage struct {
	Items []struct {
		ID        string         `json:"id"`
		Type      string         `json:"type"`
		Livemode  *bool          `json:"livemode"`
		CreatedAt string         `json:"createdAt"`
		Data      map[string]any `json:"data"`
	} `json:"items"`
	Total int `json:"total"`
	Page  int `json:"page"`
	Limit int `json:"limit"`
}

func (e *env) events(key, query string) eventPage {
	e.t.Helper()
	r := e.reqAs(key, "GET", "/api/v1/events"+query, nil)
	if r.Status != http.StatusOK {
		e.t.Fatalf("events%s: %d %s", query, r.Status, r.Body)
	}
	var p eventPage
	if err := json.Unmarshal(r.Body, &p); err != nil {
		e.t.Fatal(err)
	}
	return p
}

func TestEventList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	first := e.pay("10.00", nil)
	e.waitStatus(first, store.StatusCompleted, 5*time.Second)
	second := e.pay("20.00", nil)
	e.waitStatus(second, store.StatusCompleted, 5*time.Second)
	otherKey, _, _ := e.newUser("other@example.com", false, store.AllScopes)

	all := e.events(e.Key, "?limit=100")
	t.Run("OldestFirst", func(t *testing.T) {
		is := is.New(t)
		is.True(all.Total >= 6) // processing, submitted, settled, completed… per payout
		is.Equal(all.Total, len(all.Items))
		is.Equal(all.Page, 1)
		is.Equal(all.Limit, 100)
		lastOfFirst, firstOfSecond := -1, len(all.Items)
		for i, ev := range all.Items {
			is.True(ev.Livemode != nil && !*ev.Livemode)
			_, err := time.Parse("2006-01-02T15:04:05.000Z", ev.CreatedAt)
			is.NoErr(err)
			if i > 0 {
				is.True(ev.CreatedAt >= all.Items[i-1].CreatedAt)
			}
			switch ev.Data["paymentId"] {
			case first:
				lastOfFirst = i
			case second:
				firstOfSecond = min(firstOfSecond, i)
			}
		}
		// The first payout completed before the second was made.
		is.True(lastOfFirst >= 0 && lastOfFirst < firstOfSecond)
		is.Equal(all.Items[0].Type, "payout.processing")
	})
	t.Run("Type", func(t *testing.T) {
		is := is.New(t)
		p := e.events(e.Key, "?type=payout.settled")
		is.Equal(p.Total, 2)
		is.Equal(p.Items[0].Data["paymentId"], first)
		is.Equal(p.Items[1].Data["paymentId"], second)
		is.Equal(p.Items[0].Data["status"], store.StatusConfirmed)
	})
	t.Run("After", func(t *testing.T) {
		is := is.New(t)
		mid := all.Items[2].ID
		p := e.events(e.Key, "?limit=100&after="+mid)
		is.Equal(p.Total, all.Total-3)
		is.Equal(p.Items[0].ID, all.Items[3].ID)
		is.Equal(e.events(e.Key, "?after="+all.Items[len(all.Items)-1].ID).Total, 0)
		p = e.events(e.Key, "?type=payout.settled&after="+all.Items[0].ID)
		is.Equal(p.Total, 2)
	})
	t.Run("Pages", func(t *testing.T) {
		is := is.New(t)
		p := e.events(e.Key, "?limit=3&page=2")
		is.Equal(len(p.Items), 3)
		is.Equal(p.Items[0].ID, all.Items[3].ID)
		is.Equal(p.Total, all.Total)
		is.Equal(e.events(e.Key, "").Limit, 20)
		is.Equal(e.events(e.Key, "?limit=1000").Limit, 100)
	})
	t.Run("Get", func(t *testing.T) {
		is := is.New(t)
		r := e.req("GET", "/api/v1/events/"+all.Items[0].ID, nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.JSON(t)["type"], "payout.processing")
		r = e.reqAs(otherKey, "GET", "/api/v1/events/"+all.Items[0].ID, nil)
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(r.errCode(t), apperr.ErrNotFound)
	})
	t.Run("OtherUser", func(t *testing.T) {
		is := is.New(t)
		is.Equal(e.events(otherKey, "").Total, 0)
		r := e.reqAs(otherKey, "GET", "/api/v1/events?after="+all.Items[0].ID, nil)
		is.Equal(r.Status, http.StatusBadRequest) // not one of theirs
		is.True(r.field(t, "after") != "")
	})
	for _, c := range []struct{ name, query, field string }{
		{"ErrPage", "?page=0", "page"},
		{"ErrLimit", "?limit=x", "limit"},
		{"ErrType", "?type=payout.exploded", "type"},
		{"ErrAfterShape", "?after=123", "after"},
		{"ErrAfterUnknown", "?after=evt_00000000000000000000000000", "after"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("GET", "/api/v1/events"+c.query, nil)
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), apperr.ErrValidation)
			is.True(r.field(t, c.field) != "")
		})
	}
	t.Run("Scopes", func(t *testing.T) {
		is := is.New(t)
		taxOnly, _, _ := e.newUser("tax@example.com", false, []string{"tax:read"})
		r := e.reqAs(taxOnly, "GET", "/api/v1/events", nil)
		is.Equal(r.Status, http.StatusForbidden)
		is.Equal(r.errCode(t), apperr.ErrInsufficientScope)
		for _, scope := range []string{"payments:read", "webhooks:manage"} {
			key, _, _ := e.newUser(scope+"@example.com", false, []string{scope})
			is.Equal(e.reqAs(key, "GET", "/api/v1/events", nil).Status, http.StatusOK)
		}
	})
}
