package console

import (
	"net/http"
	"strings"

	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// reserveView is the tax reserve policy as the Settings form shows it.
type reserveView struct {
	Enabled bool
	Rate    string // percent, as typed or as stored (12.50)
	Balance int64  // paise in the reserve now
}

func (c *Console) readReserve(r *http.Request, u user, d *settingsData) error {
	pol, err := c.db.Payments().SequestrationPolicy(r.Context(), u.ID)
	if err != nil {
		return err
	}
	acct, err := c.db.Ledger().UserLedgerAccount(r.Context(), u.ID, store.AccountTaxReserve, "INR")
	if err != nil {
		return err
	}
	if d.Reserve == nil {
		inr, _ := money.Lookup("INR") // two decimals, like a percentage with 2 dp
		d.Reserve = &reserveView{Enabled: pol.Enabled, Rate: money.Format(pol.RateBP, inr)}
	}
	d.Reserve.Balance = acct.Balance
	return nil
}

// handleReserve saves the tax reserve policy (input.ReservePolicy and
// SetSequestrationPolicy, as POST /tax/sequestration/policy); it applies
// to settlements from now on.
func (c *Console) handleReserve(w http.ResponseWriter, r *http.Request, u user) {
	enabled := r.PostForm.Get("enabled") == "on"
	rate := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(r.PostForm.Get("rate")), "%"))
	trigger := "on_settlement"
	bp, err := input.ReservePolicy{Enabled: &enabled, Rate: rate, Trigger: &trigger}.Validate()
	if err == nil {
		err = c.db.WithTx(r.Context(), func(tx *store.Tx) error {
			_, err := tx.Payments().SetSequestrationPolicy(u.ID, u.Livemode, enabled, bp, trigger)
			return err
		}, c.txOpts(r, u))
	}
	if _, ok := asStoreError(err); ok {
		c.settingsPage(w, r, u, http.StatusBadRequest, settingsData{Reserve: &reserveView{Enabled: enabled, Rate: rate}}, err)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if enabled {
		c.flash(r, "Tax reserve on: "+rate+"% of each settlement from now on is set aside.")
	} else {
		c.flash(r, "Tax reserve off: nothing more is set aside; what the reserve holds stays there.")
	}
	http.Redirect(w, r, Prefix+"settings#reserve", http.StatusSeeOther)
}
