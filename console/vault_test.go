package console

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

// TestVaultDeposits: Home lists the newest deposits and the vault page
// all of them, each with sender, memo, amount and ledger time in IST.
func TestVaultDeposits(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, key := h.newUser("asha@example.com", false)
	vs, err := h.db.Vaults().ListVaults(context.Background(), u.ID)
	is.NoErr(err)
	status, _ := h.api("POST", "/api/v1/sandbox/vaults/"+vs[0].ID+"/deposits", key,
		`{"amount":"1234.56","from":"GACLIENTSENDERADDRESS","memo":"INV/26-27/00007"}`)
	is.Equal(status, http.StatusCreated)
	b := h.signIn(u)
	b.get("/console/")
	is.True(b.has("Latest deposits"))
	is.True(b.has("GACLIENTSENDERADDRESS"))
	is.True(b.has("INV/26-27/00007"))
	is.True(b.has("USD 1,234.56"))
	is.Equal(b.get("/console/vaults/"+vs[0].ID), http.StatusOK)
	is.True(b.has(`<td data-label="From" class="mono">GACLIENTSENDERADDRESS</td>`))
	is.True(b.has(`<td data-label="Amount" class="num">USD 1,234.56</td>`))
	is.True(b.has(" IST</td>"))
	is.True(!b.has("Quarantined since"))
}

// TestLiveVaultTroubles: a live vault whose events have a gap says so in
// the track's words; a quarantined one names each transfer out that no
// payout explains; a deposit read from the chain shows its transaction.
func TestLiveVaultTroubles(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, _ := h.newUser("ravi@example.com", true)
	vs, err := h.db.Vaults().ListVaults(context.Background(), u.ID)
	is.NoErr(err)
	v := vs[0]
	closed := time.Date(2026, 11, 21, 4, 30, 0, 0, time.UTC)
	err = h.db.WithTx(context.Background(), func(tx *store.Tx) error {
		if err := tx.Movements().SaveTrack(store.Track{VaultID: v.ID, OpeningLedger: 100, EventsLedger: 400, GapFrom: 150, GapTo: 160,
			Source: store.TrackEvents}); err != nil {
			return err
		}
		in := store.Movement{VaultID: v.ID, UserID: u.ID, Livemode: true, EventID: "0000000001-1", Direction: store.MovementIn,
			Kind: "transfer", Counterparty: "GBSENDER", Amount: 500_00, Stroops: 5_000_000_000, Currency: "USD",
			TxHash: "aa11", Ledger: 300, ClosedAt: closed, Memo: "INV-9"}
		if _, err := tx.Movements().RecordMovement(&in); err != nil {
			return err
		}
		if err := tx.Movements().BookDeposit(in, "Deposit"); err != nil {
			return err
		}
		out := store.Movement{VaultID: v.ID, UserID: u.ID, Livemode: true, EventID: "0000000002-1", Direction: store.MovementOut,
			Kind: "transfer", Counterparty: "GTHIEF", Amount: 123_45, Stroops: 1_234_500_000, Currency: "USD", TxHash: "bb22",
			Ledger: 310, ClosedAt: closed, OutsideAt: &closed}
		if _, err := tx.Movements().RecordMovement(&out); err != nil {
			return err
		}
		_, _, err := tx.Movements().QuarantineVault(v.ID, store.QuarantineFacts{Reasons: []string{store.ReasonOutsideTransfer}, Ledger: 310})
		return err
	}, store.WithActor("test", ""))
	is.NoErr(err)
	b := h.signIn(u)
	is.Equal(b.get("/console/vaults/"+v.ID), http.StatusOK)
	is.True(b.has("Movements payoutd cannot vouch for"))
	is.True(b.has("ledgers 150 to 160 were no longer kept"))
	is.True(b.has("this vault signs no payout"))
	is.True(b.has(`<td data-label="To" class="mono">GTHIEF</td>`))
	is.True(b.has("USD 123.45"))
	is.True(b.has(`aa11 <span class="muted">ledger 300</span>`))
	is.True(b.has("21 Nov 2026, 10:00 IST"))
	b.get("/console/notices")
	is.True(b.has("A vault was quarantined"))
	is.True(b.has("Deposit of USD 500.00 received"))
}
