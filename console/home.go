package console

import (
	"net/http"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

// attention is a kind of payout that needs the user, with the newest few.
type attention struct {
	Status string
	Note   string
	Total  int
	Items  []store.Payment
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
}

// attentionShown is how many payouts of each kind Home lists.
const attentionShown = 5

// handleHome is the week at a glance: vaults, this year's receipts and tax,
// and the payouts that need attention.
func (c *Console) handleHome(w http.ResponseWriter, r *http.Request, u user) {
	ctx := r.Context()
	var d homeData
	var err error
	if d.Vaults, err = c.db.ListVaults(ctx, u.ID); err != nil {
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
	reserve, err := c.db.UserLedgerAccount(ctx, u.ID, store.AccountTaxReserve, "INR")
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
	if d.Attention, err = c.attention(r, u); err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, "home", page{Title: "Home", Nav: "home", Data: d})
}

// attention lists the payouts waiting for someone: in review, parked
// PENDING, UNKNOWN, and FAILED ones a retry can still send.
func (c *Console) attention(r *http.Request, u user) ([]attention, error) {
	kinds := []attention{
		{Status: store.StatusManualReview, Note: "held for compliance review"},
		{Status: store.StatusPending, Note: "submission failed for now; retry sends it again"},
		{Status: store.StatusUnknown, Note: "the network has not said yet; payoutd keeps asking"},
		{Status: store.StatusFailed, Note: "failed; a retry can send it again"},
	}
	var out []attention
	for _, k := range kinds {
		limit := attentionShown
		if k.Status == store.StatusFailed {
			limit = 4 * attentionShown // some FAILED ones cannot be retried
		}
		ps, total, err := c.db.ListPayments(r.Context(), store.PaymentFilter{UserID: u.ID, Status: k.Status, Page: 1, Limit: limit})
		if err != nil {
			return nil, err
		}
		k.Total = total
		for _, p := range ps {
			if len(k.Items) < attentionShown && (k.Status != store.StatusFailed || payout.CanRetry(p)) {
				k.Items = append(k.Items, p)
			}
		}
		if len(k.Items) > 0 {
			out = append(out, k)
		}
	}
	return out, nil
}
