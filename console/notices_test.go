package console

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

var unreadCount = regexp.MustCompile(`Notices <span class="count">(\d+)<span class="visually-hidden"> unread`)

// TestNotices: a completed and a failed payout become notices with the
// header's unread count; a cancelled one does not; "mark all as read"
// clears the count and a reload of its redirect changes nothing.
func TestNotices(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{river: true})
	u, _ := h.newUser("asha@example.com", false)
	b := h.signIn(u)
	b.get("/console/notices")
	is.True(b.has("No notices yet"))
	is.True(!unreadCount.MatchString(b.page))

	done := b.initiate("250.00", "")
	is.Equal(b.confirm(done, ""), http.StatusSeeOther)
	failed := b.initiate("450.13", "")
	is.Equal(b.confirm(failed, ""), http.StatusSeeOther)
	cancelled := b.initiate("76.00", "")
	b.get("/console/payouts/" + cancelled)
	is.Equal(b.post("/console/payouts/"+cancelled+"/cancel", url.Values{}), http.StatusSeeOther)
	h.waitStatus(u.ID, done, store.StatusCompleted)
	h.waitStatus(u.ID, failed, store.StatusFailed)

	b.get("/console/")
	is.Equal(unreadCount.FindStringSubmatch(b.page)[1], "2")
	b.get("/console/notices")
	is.True(b.has(`<a href="/console/payouts/` + done + `">Payout of USD 250.00 completed</a>`))
	is.True(b.has(`<a href="/console/payouts/` + failed + `">Payout of USD 450.13 failed</a>`))
	is.True(!b.has(cancelled)) // the user cancelled it: nothing to tell

	is.Equal(b.post("/console/notices/read", url.Values{"upTo": {b.hidden("upTo")}}), http.StatusSeeOther)
	is.Equal(b.follow(), http.StatusOK)
	is.True(b.has("Notices marked as read."))
	is.True(!unreadCount.MatchString(b.page))
	is.True(!b.has("Mark all as read"))
	b.get("/console/notices") // the reload
	is.True(!unreadCount.MatchString(b.page))
	is.True(b.has("Payout of USD 250.00 completed"))
}

// TestNoticeMailChoices: Settings saves which kinds are e-mailed, says this
// server sends no e-mail without -smtp-url, and a reload keeps the choice.
func TestNoticeMailChoices(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, _ := h.newUser("asha@example.com", false)
	b := h.signIn(u)
	b.get("/console/settings")
	is.True(b.has("This server sends no e-mail"))
	is.True(b.has(`value="deposit.received" checked`)) // every kind on at first
	is.Equal(b.post("/console/settings/notices", url.Values{"mail": {"payout.failed", "payout.needs_you"}}), http.StatusSeeOther)
	is.Equal(b.location(), "/console/settings#notices")
	b.follow()
	is.True(b.has("2 of 8 kinds are e-mailed"))
	is.True(b.has(`value="payout.failed" checked`))
	is.True(!b.has(`value="deposit.received" checked`))
	b.get("/console/settings")
	is.True(!b.has("kinds are e-mailed")) // the notice of the save is shown once
	is.True(b.has(`value="payout.needs_you" checked`))
	// The same choice sent again (a resubmit) changes nothing: one audit row.
	is.Equal(b.post("/console/settings/notices", url.Values{"mail": {"payout.failed", "payout.needs_you"}}), http.StatusSeeOther)
	rows, _, err := h.db.ListAudit(context.Background(), store.AuditFilter{UserID: u.ID, Action: "notices.mail_set", Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(len(rows), 1)
	is.True(consoleActor.MatchString(rows[0].Actor))
}
