package console

import (
	"net/http"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

// attention is a kind of payout that waits for the user, with the newest
// few and what to do about each.
type attention struct {
	Status    string
	Note      string
	Action    string // the link's words
	Path      string // after the payout's address: "/confirm", or "" for its page
	Retryable bool   // FAILED ones a retry can send, never cancelled ones
	Total     int
	Items     []store.Payment
}

type homeData struct {
	Vaults    []store.Vault
	Year      taxes.Year
	Reserve   int64
	Chart     chart
	Next      *india.InstalmentPaid // the next advance-tax instalment not yet past
	Attention []attention
	// Realisation lists the LUT invoices rule 96A is watching today.
	Realisation []taxes.Watch
	Deposits    []store.Movement // the newest few, of every vault
}

// attentionShown is how many payouts of each kind Home lists.
const attentionShown = 5

// handleHome is the week at a glance: vaults, this year's receipts and tax,
// and the payouts that need attention.
func (c *Console) handleHome(w http.ResponseWriter, r *http.Request, u user) {
	ctx := r.Context()
	var d homeData
	var err error
	if d.Vaults, err = c.db.Vaults().ListVaults(ctx, u.ID); err != nil {
		c.fail(w, r, err)
		return
	}
	fy := india.FYOf(c.db.Now())
	if d.Year, err = taxes.ReadYear(ctx, c.db, u.ID, fy); err != nil {
		c.fail(w, r, err)
		return
	}
	for i, in := range d.Year.Paid.Instalments {
		if !in.Past {
			d.Next = &d.Year.Paid.Instalments[i]
			break
		}
	}
	reserve, err := c.db.Ledger().UserLedgerAccount(ctx, u.ID, store.AccountTaxReserve, "INR")
	if err != nil {
		c.fail(w, r, err)
		return
	}
	d.Reserve = reserve.Balance
	d.Chart = receiptsChart(fy, d.Year.Days)
	if d.Realisation, err = taxes.RealisationDue(ctx, c.db, u.ID); err != nil {
		c.fail(w, r, err)
		return
	}
	if d.Deposits, err = c.db.Vaults().RecentDeposits(ctx, u.ID, u.Livemode, "", homeDeposits); err != nil {
		c.fail(w, r, err)
		return
	}
	if d.Attention, err = c.attention(r, u); err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, "home", page{Title: "Home", Nav: "home", Data: d})
}

// attention lists what waits for the user: payouts to confirm, in review,
// parked PENDING, UNKNOWN, and FAILED ones a retry can still send (a
// cancelled one never counts: nothing of it can be sent).
func (c *Console) attention(r *http.Request, u user) ([]attention, error) {
	kinds := []attention{
		{Status: store.StatusInitiated, Note: "to confirm: nothing moves until you do", Action: "Review and confirm", Path: "/confirm"},
		{Status: store.StatusManualReview, Note: "held for compliance review", Action: "Open"},
		{Status: store.StatusPending, Note: "submission failed for now; a retry sends it again", Action: "Open and retry"},
		{Status: store.StatusUnknown, Note: "the network has not said yet; payoutd keeps asking", Action: "Open"},
		{Status: store.StatusFailed, Note: "failed; a retry can send it again", Action: "Open and retry", Retryable: true},
	}
	var out []attention
	for _, k := range kinds {
		ps, total, err := c.db.Payments().ListPayments(r.Context(), store.PaymentFilter{UserID: u.ID, Status: k.Status,
			Retryable: k.Retryable, Page: 1, Limit: attentionShown})
		if err != nil {
			return nil, err
		}
		k.Total, k.Items = total, ps[:min(len(ps), attentionShown)]
		if len(k.Items) > 0 {
			out = append(out, k)
		}
	}
	return out, nil
}
