package stellar_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

// TestLiveQuarantineNamesUnknownTransactions: a vault quarantined for a
// sequence number payoutd never used names the transactions behind it, so
// a person knows what to look at: every transfer out of the account read
// from the chain's events (with destination and amount), and the one found
// in the ledger that last changed the account. What the RPC server cannot
// say is left out, never guessed: a server whose history no longer holds
// those ledgers names none, and the gap in the vault's movements is shown.
// The vault is quarantined all the same.
func TestLiveQuarantineNamesUnknownTransactions(t *testing.T) {
	both := []string{store.ReasonUnknownSequence, store.ReasonOutsideTransfer}
	for _, tc := range []struct {
		name string
		// unknown acts on the network behind payoutd's back and returns
		// the hashes the quarantine can name.
		unknown func(e *liveEnv, dest string) []string
		count   int64
		reasons []string
		gap     bool
	}{
		{"SignedElsewhere", func(e *liveEnv, dest string) []string {
			env, status := e.outside(e.vaultSeed(), e.Net.Sequence(e.Vault.Address)+1, dest, 10_0000000, nil)
			if status != "PENDING" {
				t.Fatalf("outside send: %s", status)
			}
			return []string{env.Hash}
		}, 1, both, false},
		{"OutsidePayment", func(e *liveEnv, dest string) []string {
			return []string{e.Net.OutsidePayment(e.Vault.Address, dest, usdc, 10_0000000)}
		}, 1, both, false},
		{"BothOfTwo", func(e *liveEnv, dest string) []string {
			first := e.Net.OutsidePayment(e.Vault.Address, dest, usdc, 4_0000000)
			return []string{e.Net.OutsidePayment(e.Vault.Address, dest, usdc, 6_0000000), first}
		}, 2, both, false},
		{"AccountChangedAfter", func(e *liveEnv, dest string) []string {
			h := e.Net.OutsidePayment(e.Vault.Address, dest, usdc, 10_0000000)
			e.Net.Advance(time.Second)
			e.Net.Fund(e.Vault.Address, 1_0000000) // XLM in: the account's last change is this ledger
			return []string{h}
		}, 1, both, false},
		{"HistoryGone", func(e *liveEnv, dest string) []string {
			e.Net.OutsidePayment(e.Vault.Address, dest, usdc, 10_0000000)
			e.Net.Prune()
			return nil
		}, 1, []string{store.ReasonUnknownSequence}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			e := newLiveEnvJobs(t, false)
			e.fundVault(100)
			want := tc.unknown(e, e.destination(true, true))
			is.NoErr(e.Rail.SyncVaults(e.ctx))

			q, open, err := e.DB.Movements().OpenQuarantine(e.ctx, e.Vault.ID)
			is.NoErr(err)
			is.True(open) // quarantined whatever the lookup found
			is.Equal(q.Reasons, tc.reasons)
			is.Equal(q.UnknownTxs(), tc.count)
			is.Equal(q.UnknownHashes(), append([]string{}, want...))
			for _, h := range want {
				is.True(strings.Contains(q.Describe(), h))
			}
			if len(want) == 0 {
				is.True(!strings.Contains(q.Describe(), " by transaction"))
			}
			track, err := e.DB.Movements().Track(e.ctx, e.Vault.ID)
			is.NoErr(err)
			is.Equal(track.Gap(), tc.gap) // events the server no longer keeps are a gap, shown
			row, _, _ := e.balances()
			is.Equal(row, int64(100_00)) // nothing booked on a guess

			var data string
			is.NoErr(e.SQL.QueryRow("SELECT data FROM events WHERE type = 'vault.quarantined' AND resource_id = ?", e.Vault.ID).Scan(&data))
			var ev struct {
				Hashes []string `json:"unknownTransactionHashes"`
			}
			is.NoErr(json.Unmarshal([]byte(data), &ev))
			is.Equal(ev.Hashes, append([]string{}, want...)) // the event says it too

			is.NoErr(e.Rail.SyncVaults(e.ctx)) // a quarantined vault keeps its quarantine
			q2, _, err := e.DB.Movements().OpenQuarantine(e.ctx, e.Vault.ID)
			is.NoErr(err)
			is.Equal(q2.ID, q.ID)
		})
	}
}
