package console

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store"
)

// noticesShown is how many notices one page lists.
const noticesShown = 25

// unreadCap is how far the header counts unread notices ("99+" beyond).
const unreadCap = 100

type noticesData struct {
	Notices []store.Notice
	Next    string // the cursor of the next (older) page, "" when none
	Newest  string // the newest notice shown, up to which "mark read" marks
	Unread  bool   // some notice shown is unread
}

// handleNotices lists the user's notices, newest first, a page at a time.
func (c *Console) handleNotices(w http.ResponseWriter, r *http.Request, u user) {
	after := r.URL.Query().Get("after")
	ns, err := c.db.ListNotices(r.Context(), store.NoticeFilter{UserID: u.ID, After: after, Limit: noticesShown})
	if err != nil {
		c.fail(w, r, err)
		return
	}
	var d noticesData
	if len(ns) > noticesShown {
		ns = ns[:noticesShown]
		d.Next = ns[len(ns)-1].ID
	}
	d.Notices = ns
	if len(ns) > 0 && after == "" {
		d.Newest = ns[0].ID
	}
	d.Unread = slices.ContainsFunc(ns, func(n store.Notice) bool { return n.ReadAt == nil })
	c.render(w, r, http.StatusOK, "notices", page{Title: "Notices", Nav: "notices", Data: d})
}

// handleNoticesRead marks every notice up to the newest the page showed
// read; one that arrived since stays unread.
func (c *Console) handleNoticesRead(w http.ResponseWriter, r *http.Request, u user) {
	err := c.db.WithTx(r.Context(), func(tx *store.Tx) error {
		_, err := tx.MarkNoticesRead(u.ID, u.Livemode, r.PostForm.Get("upTo"))
		return err
	}, c.txOpts(r, u))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Notices marked as read.")
	http.Redirect(w, r, Prefix+"notices", http.StatusSeeOther)
}

// noticeMailView is one kind of notice in Settings, with whether it is
// mailed.
type noticeMailView struct {
	jobs.NoticeKind
	Mailed bool
}

// noticeMail reads which kinds the user has mailed.
func (c *Console) noticeMail(r *http.Request, u user) ([]noticeMailView, error) {
	off, err := c.db.NoticeMailOff(r.Context(), u.ID)
	if err != nil {
		return nil, err
	}
	out := make([]noticeMailView, 0, len(jobs.NoticeKinds))
	for _, k := range jobs.NoticeKinds {
		out = append(out, noticeMailView{NoticeKind: k, Mailed: !slices.Contains(off, k.Kind)})
	}
	return out, nil
}

// handleNoticeMail saves which kinds of notice are e-mailed: every kind
// not ticked is turned off.
func (c *Console) handleNoticeMail(w http.ResponseWriter, r *http.Request, u user) {
	on := r.PostForm["mail"]
	var off []string
	for _, k := range jobs.NoticeKinds {
		if !slices.Contains(on, k.Kind) {
			off = append(off, k.Kind)
		}
	}
	err := c.db.WithTx(r.Context(), func(tx *store.Tx) error { return tx.SetNoticeMailOff(u.ID, u.Livemode, off) }, c.txOpts(r, u))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "E-mail choices saved: "+strconv.Itoa(len(jobs.NoticeKinds)-len(off))+" of "+strconv.Itoa(len(jobs.NoticeKinds))+" kinds are e-mailed.")
	http.Redirect(w, r, Prefix+"settings#notices", http.StatusSeeOther)
}
