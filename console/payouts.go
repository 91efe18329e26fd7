package console

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

// pageSize is how many rows a console list shows at a time.
const pageSize = 25

// statuses are the payout states the filter offers.
var statuses = []string{store.StatusInitiated, store.StatusComplianceCheck, store.StatusProcessing,
	store.StatusSubmitted, store.StatusConfirmed, store.StatusCompleted, store.StatusManualReview,
	store.StatusFailed, store.StatusPending, store.StatusUnknown}

// payoutFilter is the Payouts list's query, as typed.
type payoutFilter struct {
	Status, Currency, From, To, Search, Client, Sort string
}

// values are the filter's query parameters, empty ones left out.
func (f payoutFilter) values() url.Values {
	q := url.Values{}
	for k, v := range map[string]string{"status": f.Status, "currency": f.Currency, "from": f.From, "to": f.To,
		"q": f.Search, "client": f.Client, "sort": f.Sort} {
		if v != "" {
			q.Set(k, v)
		}
	}
	return q
}

type payoutsData struct {
	Filter   payoutFilter
	Statuses []string
	Clients  []store.Client
	Items    []store.Payment
	Total    int
	// Next, Prev and First are the addresses of those pages, "" when
	// there is none; whole URLs, so the template writes them as they are
	// rather than escaping a query into the path.
	Next, Prev, First string
	Export            string // the CSV of every payout the filter matches
}

// readPayoutFilter reads the list's query into the store's filter, with
// the fields it refuses.
func readPayoutFilter(q url.Values, userID string) (payoutFilter, store.PaymentFilter, map[string]string) {
	f := payoutFilter{Status: q.Get("status"), Currency: strings.ToUpper(strings.TrimSpace(q.Get("currency"))),
		From: q.Get("from"), To: q.Get("to"), Search: strings.TrimSpace(q.Get("q")), Client: q.Get("client"), Sort: q.Get("sort")}
	sf := store.PaymentFilter{UserID: userID, Status: f.Status, Currency: f.Currency, Search: f.Search, ClientID: f.Client,
		Sort: f.Sort, Page: 1, Limit: pageSize}
	fields := map[string]string{}
	if f.Status != "" && !slices.Contains(statuses, f.Status) {
		fields["status"] = "must be one of " + strings.Join(statuses, ", ")
	}
	if _, ok := money.Lookup(f.Currency); f.Currency != "" && !ok {
		fields["currency"] = "must be an ISO 4217 currency code"
	}
	if utf8.RuneCountInString(f.Search) > 128 {
		fields["q"] = "must be at most 128 characters"
	}
	if f.Sort != "" && f.Sort != store.SortDate && f.Sort != store.SortAmount {
		fields["sort"] = "must be date or amount"
	}
	var err error
	if sf.From, err = istDay(f.From, false); err != nil {
		fields["from"] = err.Error()
	}
	if sf.To, err = istDay(f.To, true); err != nil {
		fields["to"] = err.Error()
	}
	sf.Amounts = input.AmountsOf(f.Search, f.Currency)
	return f, sf, fields
}

// handlePayouts lists the user's payouts, newest (or largest) first,
// filtered and searched, a page at a time with a keyset cursor both ways.
func (c *Console) handlePayouts(w http.ResponseWriter, r *http.Request, u user) {
	q := r.URL.Query()
	f, sf, fields := readPayoutFilter(q, u.ID)
	if id := q.Get("after"); validCursor(id) {
		sf.After = id
	} else if id := q.Get("before"); validCursor(id) {
		sf.Before = id
	}
	clients, err := c.db.Invoices().ListClients(r.Context(), u.ID)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	p := page{Title: "Payouts", Nav: "payouts"}
	d := payoutsData{Filter: f, Statuses: statuses, Clients: clients}
	if len(fields) > 0 {
		p.setErrors(input.Invalid(fields))
		p.Data = d
		c.render(w, r, http.StatusBadRequest, "payouts", p)
		return
	}
	items, total, err := c.db.Payments().ListPayments(r.Context(), sf)
	if apperr.Code(err) == apperr.ErrValidation {
		sf.After, sf.Before = "", "" // a cursor of another list: start at its top
		items, total, err = c.db.Payments().ListPayments(r.Context(), sf)
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	base := f.values()
	more := len(items) > pageSize
	items = items[:min(len(items), pageSize)]
	if len(items) > 0 && (more || sf.Before != "") {
		d.Next = listURL("payouts", with(base, "after", items[len(items)-1].ID))
	}
	if len(items) > 0 && (sf.After != "" || (sf.Before != "" && more)) {
		d.Prev = listURL("payouts", with(base, "before", items[0].ID))
	}
	if sf.After != "" || sf.Before != "" {
		d.First = listURL("payouts", base)
	}
	d.Items, d.Total, d.Export = items, total, listURL("payouts.csv", base)
	p.Data = d
	c.render(w, r, http.StatusOK, "payouts", p)
}

// validCursor: a payout id as a list's cursor.
func validCursor(id string) bool { return strings.HasPrefix(id, "pay_") && len(id) <= 64 }

// with is q and one more parameter.
func with(q url.Values, k, v string) url.Values {
	out := url.Values{k: {v}}
	for key, vs := range q {
		out[key] = vs
	}
	return out
}

// listURL is the address of a console list with its query.
func listURL(list string, q url.Values) string {
	if len(q) == 0 {
		return Prefix + list
	}
	return Prefix + list + "?" + q.Encode()
}

// istDay reads a date filter (YYYY-MM-DD, an IST day) as the first or last
// instant of that day.
func istDay(s string, end bool) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	d, err := time.ParseInLocation(time.DateOnly, s, india.IST)
	if err != nil {
		return time.Time{}, errorString("must be a date in the form YYYY-MM-DD")
	}
	if end {
		d = d.AddDate(0, 0, 1).Add(-time.Millisecond)
	}
	return d, nil
}

type errorString string

func (e errorString) Error() string { return string(e) }

// timelineEntry is one audit row of a payout, as its page shows it.
type timelineEntry struct {
	At     time.Time
	Status string
	Actor  string
	Reason string
}

type payoutData struct {
	P          store.Payment
	Words      payoutWords
	FIRA       *store.FIRA
	RateAsOf   time.Time
	Timeline   []timelineEntry
	CanConfirm bool // and cancel: both only before anything moved
	CanRetry   bool
	CanReview  bool
	Reason     string // a refused review's reason, as typed
	Estimate   *estimate
}

// handlePayout shows one payout: amounts, rate and its as-of time,
// settlement reference, FIRA, the timeline from the audit log, and the
// actions its state allows.
func (c *Console) handlePayout(w http.ResponseWriter, r *http.Request, u user) {
	c.payoutPage(w, r, u, http.StatusOK, nil)
}

// payoutPage shows the payout of the request's path, with a refused
// review's messages next to its fields.
func (c *Console) payoutPage(w http.ResponseWriter, r *http.Request, u user, status int, formErr error) {
	ctx := r.Context()
	p, err := c.db.Payments().FindPayment(ctx, u.ID, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	d := payoutData{P: p, Words: wordsOf(p), CanConfirm: p.Status == store.StatusInitiated, CanRetry: payout.CanRetry(p),
		CanReview: p.Status == store.StatusManualReview && !p.Livemode, Reason: r.PostForm.Get("reason")}
	rows, err := c.db.History().ResourceAudit(ctx, u.ID, p.ID, 100)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	for _, a := range rows {
		d.Timeline = append(d.Timeline, timelineOf(a))
	}
	firas, _, err := c.db.Tax().ListFIRAs(ctx, store.FIRAFilter{UserID: u.ID, PaymentID: p.ID, Page: 1, Limit: 1})
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if len(firas) > 0 {
		d.FIRA = &firas[0]
		d.RateAsOf = firas[0].RateTime()
	} else if p.SettledAt != nil {
		at, ok, err := c.db.Ledger().RateAsOf(ctx, p.ID)
		if err != nil {
			c.fail(w, r, err)
			return
		}
		if d.RateAsOf = *p.SettledAt; ok {
			d.RateAsOf = at
		}
	}
	if p.AmountINR == nil {
		d.Estimate = c.estimate(p.Amount, p.Currency)
	}
	pg := page{Title: "Payout " + p.ID, Nav: "payouts", Data: d}
	pg.setErrors(formErr)
	c.render(w, r, status, "payout", pg)
}

// timelineOf reads an audit row of a payout: its action names the status
// it moved to; a cancel is shown as what it was, not as a failure.
func timelineOf(a store.AuditRow) timelineEntry {
	e := timelineEntry{At: a.At, Actor: actorName(a.Actor),
		Status: strings.ToUpper(strings.TrimPrefix(a.Action, "payment."))}
	var ch struct {
		FailedReason string `json:"failedReason"`
	}
	if json.Unmarshal(a.Changes, &ch) == nil {
		e.Reason = ch.FailedReason
	}
	if e.Status == store.StatusFailed && e.Reason == payout.CancelledReason {
		e.Status, e.Reason = statusCancelled, ""
	}
	return e
}

// statusCancelled is how the console shows a payout cancelled before it
// was confirmed: the API's FAILED with failedReason CANCELLED.
const statusCancelled = "CANCELLED"

// statusOf is the status the console shows for p.
func statusOf(p store.Payment) string {
	if payout.IsCancelled(p) {
		return statusCancelled
	}
	return p.Status
}

// actorName says who an audit actor is in words.
func actorName(actor string) string {
	kind, id, _ := strings.Cut(actor, ":")
	switch kind {
	case "key":
		return "API key " + id
	case "session":
		return "API session on key " + id
	case "console":
		return "Console session " + id
	case "cli":
		return "Command line"
	case "system":
		return "payoutd"
	}
	return actor
}

// handleRetry moves a FAILED or PENDING payout back to PROCESSING
// (payout.Retry, as POST /payments/{id}/retry).
func (c *Console) handleRetry(w http.ResponseWriter, r *http.Request, u user) {
	id := r.PathValue("id")
	err := c.db.WithTx(r.Context(), func(tx *store.Tx) error {
		_, err := payout.Retry(tx, u.ID, id)
		return err
	}, c.txOpts(r, u))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Retry started: the payout is PROCESSING again.")
	http.Redirect(w, r, Prefix+"payouts/"+id, http.StatusSeeOther)
}

// handleCancel ends an INITIATED payout before anything moved
// (payout.Cancel, as POST /payments/{id}/cancel).
func (c *Console) handleCancel(w http.ResponseWriter, r *http.Request, u user) {
	id := r.PathValue("id")
	err := c.db.WithTx(r.Context(), func(tx *store.Tx) error {
		_, err := payout.Cancel(tx, u.ID, id)
		return err
	}, c.txOpts(r, u))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Payout cancelled: nothing was sent.")
	http.Redirect(w, r, Prefix+"payouts/"+id, http.StatusSeeOther)
}

// handleReview approves or rejects a sandbox payout in MANUAL_REVIEW
// (payout.Review, as POST /sandbox/payments/{id}/review).
func (c *Console) handleReview(w http.ResponseWriter, r *http.Request, u user) {
	id := r.PathValue("id")
	if u.Livemode {
		c.fail(w, r, apperr.Errorf(apperr.ErrSandboxOnly, "live payouts in review are decided by the operator with payoutd review"))
		return
	}
	q := input.Review{Decision: r.PostForm.Get("decision"), Reason: strings.TrimSpace(r.PostForm.Get("reason"))}
	err := q.Validate()
	if err == nil {
		err = textFields(map[string]string{"reason": q.Reason})
	}
	if err != nil {
		c.payoutPage(w, r, u, http.StatusBadRequest, err)
		return
	}
	if q.Decision == "reject" && !confirmedOr(w, r, Prefix+"payouts/"+id+"/reject?"+url.Values{"reason": {q.Reason}}.Encode()) {
		return
	}
	err = c.db.WithTx(r.Context(), func(tx *store.Tx) error {
		_, err := payout.Review(tx, u.ID, id, q.Decision == "approve", q.Reason)
		return err
	}, c.txOpts(r, u))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Review recorded: "+q.Decision+"d.")
	http.Redirect(w, r, Prefix+"payouts/"+id, http.StatusSeeOther)
}
