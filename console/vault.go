package console

import (
	"net/http"

	"github.com/payoutd/payoutd/store"
)

// depositsShown is how many deposits the vault page lists at a time, and
// homeDeposits how many Home lists.
const (
	depositsShown = 25
	homeDeposits  = 5
)

type vaultData struct {
	V        store.Vault
	Deposits []store.Movement
	Next     string // the cursor of the next (older) page
	// Trouble is what payoutd cannot vouch for in a live vault's movements
	// (a gap, a mismatch, an RPC without events); "" when none.
	Trouble string
	Tracked string // what it can, for a tracked live vault without trouble
	// Quarantine is the vault's open quarantine, with its outside transfers.
	Quarantine *store.Quarantine
}

// handleVault shows one vault: its balances, its deposits (sender, memo,
// amount, transaction, ledger time), and for a live vault what payoutd
// can vouch for in its movements and its quarantine, if any.
func (c *Console) handleVault(w http.ResponseWriter, r *http.Request, u user) {
	ctx := r.Context()
	v, err := c.db.Vaults().FindVault(ctx, u.ID, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	d := vaultData{V: v}
	deps, _, err := c.db.Vaults().ListDeposits(ctx, store.DepositFilter{UserID: u.ID, Livemode: v.Livemode, VaultID: v.ID,
		After: r.URL.Query().Get("after"), Page: 1, Limit: depositsShown})
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if len(deps) > depositsShown {
		deps = deps[:depositsShown]
		d.Next = deps[len(deps)-1].ID
	}
	d.Deposits = deps
	if v.Livemode {
		if err := c.vaultChain(r, u, &d); err != nil {
			c.fail(w, r, err)
			return
		}
	}
	c.render(w, r, http.StatusOK, "vault", page{Title: v.Name, Nav: "home", Data: d})
}

// vaultChain reads what the chain's movements say of a live vault.
func (c *Console) vaultChain(r *http.Request, u user, d *vaultData) error {
	t, err := c.db.Movements().Track(r.Context(), d.V.ID)
	if err != nil {
		return err
	}
	switch {
	case t.Source == store.TrackBalance || t.Gap() || t.MismatchStroops != 0:
		d.Trouble = t.Describe()
	case t.Tracked():
		d.Tracked = t.Describe()
	}
	qs, err := c.db.Movements().UserQuarantines(r.Context(), u.ID)
	if q, ok := qs[d.V.ID]; ok && err == nil {
		d.Quarantine = &q
	}
	return err
}
