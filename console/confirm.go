package console

import (
	"fmt"
	"net/http"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// confirmation is the page that asks once more before a write nobody can
// undo (revoke, delete, reverse, reject), saying what will happen.
type confirmation struct {
	Title  string
	Lines  []string // what will happen, one sentence each
	Action string   // where the form posts
	Button string
	Back   string            // where "Keep it" leads
	Fields map[string]string // carried to the write as hidden fields
	Nav    string
}

// ask shows the confirmation page.
func (c *Console) ask(w http.ResponseWriter, r *http.Request, q confirmation) {
	c.render(w, r, http.StatusOK, "confirm", page{Title: q.Title, Nav: q.Nav, Data: q})
}

// confirmedOr reports whether a destructive form was sent from its
// confirmation page; a form sent from anywhere else does nothing and the
// browser is sent to that page, at ask ("" for the GET of the same
// address).
func confirmedOr(w http.ResponseWriter, r *http.Request, ask string) bool {
	if r.PostForm.Get("confirmed") == "yes" {
		return true
	}
	if ask == "" {
		ask = r.URL.Path
	}
	http.Redirect(w, r, ask, http.StatusSeeOther)
	return false
}

// askKeyRevoke asks before an API key is revoked.
func (c *Console) askKeyRevoke(w http.ResponseWriter, r *http.Request, u user) {
	k, err := c.ownKey(r, u)
	if err == nil && k.RevokedAt != nil {
		err = errAlready("API key " + k.ID + " is already revoked")
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	name := k.Prefix + "…"
	if k.Name != "" {
		name += " (" + k.Name + ")"
	}
	c.ask(w, r, confirmation{Title: "Revoke API key " + name + "?", Nav: "settings",
		Lines: []string{"Every request made with this key is refused from now on, and so is every session token made from it.",
			"This cannot be undone: a program that uses it needs a new key (Settings, Create a key)."},
		Action: r.URL.Path, Button: "Revoke the key", Back: Prefix + "settings#keys"})
}

// askWebhookDelete asks before a webhook endpoint is deleted.
func (c *Console) askWebhookDelete(w http.ResponseWriter, r *http.Request, u user) {
	ep, err := c.db.Webhooks().FindWebhookEndpoint(r.Context(), u.ID, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.ask(w, r, confirmation{Title: "Delete the webhook endpoint " + ep.URL + "?", Nav: "settings",
		Lines: []string{"payoutd stops sending events to it at once, deliveries waiting for a retry included.",
			"Its signing secrets and its delivery log are deleted. Events stay readable with GET /api/v1/events.",
			"This cannot be undone: adding the URL again makes a new endpoint with a new secret."},
		Action: r.URL.Path, Button: "Delete the endpoint", Back: Prefix + "settings/webhooks/" + ep.ID})
}

// askTaxReverse asks before a recorded challan is reversed.
func (c *Console) askTaxReverse(w http.ResponseWriter, r *http.Request, u user) {
	p, err := c.db.Tax().FindTaxPayment(r.Context(), u.ID, r.PathValue("id"))
	if err == nil && p.ReversedAt != nil {
		err = errAlready("challan " + p.ChallanSerial + " is already reversed")
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	lines := []string{fmt.Sprintf("The challan of %s paid on %s (BSR %s, serial %s) stops counting as %s tax paid for %s: "+
		"the year's tax paid, balance and interest are worked out again without it.", inr(p.Amount), day(p.PaidOn), p.BSRCode,
		p.ChallanSerial, kindWords(p.Kind), p.FY)}
	if p.FromReserve {
		lines = append(lines, inr(p.Amount)+" goes back into the tax reserve it was drawn from.")
	}
	lines = append(lines, "The record and its reversal stay in the audit log; a challan paid after all can be recorded again.")
	c.ask(w, r, confirmation{Title: "Reverse challan " + p.ChallanSerial + "?", Nav: "tax", Lines: lines,
		Action: r.URL.Path, Button: "Reverse the challan", Back: Prefix + "tax?fy=" + p.FY + "#challans"})
}

// kindWords names a challan's kind as the Tax page does.
func kindWords(kind string) string {
	if kind == "self_assessment" {
		return "self-assessment"
	}
	return kind
}

// askReject asks before a sandbox payout in review is rejected.
func (c *Console) askReject(w http.ResponseWriter, r *http.Request, u user) {
	p, err := c.db.Payments().FindPayment(r.Context(), u.ID, r.PathValue("id"))
	if err == nil && p.Status != store.StatusManualReview {
		err = errAlready("payout " + p.ID + " is " + p.Status + ", not in review")
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	reason := r.URL.Query().Get("reason")
	c.ask(w, r, confirmation{Title: "Reject the payout of " + amount(p.Amount, p.Currency) + "?", Nav: "payouts",
		Lines: []string{"It becomes FAILED (COMPLIANCE_REJECTED) and nothing is sent; its reserved " + amount(p.Amount, p.Currency) +
			" is available in the vault again.", "A retry can still send it later, which takes the funds again."},
		Action: Prefix + "payouts/" + p.ID + "/review", Button: "Reject the payout", Back: Prefix + "payouts/" + p.ID,
		Fields: map[string]string{"decision": "reject", "reason": reason}})
}

// errAlready is a confirmation asked for what is already done.
func errAlready(msg string) error { return apperr.Errorf(apperr.ErrInvalidState, "%s", msg) }
