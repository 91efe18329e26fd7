package stellar_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

// TestLiveQuarantineNamesUnknownTransactions: a vault quarantined for a
// sequence number payoutd never used names the transaction that used it
// (looked up with getTransactions in the ledger that last changed the
// account) in the quarantine, its description and the vault.quarantined
// event, so a person knows what to look at. What the RPC server cannot say
// is left out, never guessed: only the latest of several unknown
// transactions is in that ledger, an XLM deposit after it moves the
// account's ledger on, and a server whose history no longer holds the
// ledger names none. The vault is quarantined all the same.
func TestLiveQuarantineNamesUnknownTransactions(t *testing.T) {
	for _, tc := range []struct {
		name string
		// unknown acts on the network behind payoutd's back and returns
		// the hashes the quarantine can name.
		unknown func(e *liveEnv, dest string) []string
		count   int64
	}{
		{"SignedElsewhere", func(e *liveEnv, dest string) []string {
			env, status := e.outside(e.vaultSeed(), e.Net.Sequence(e.Vault.Address)+1, dest, 10_0000000, nil)
			if status != "PENDING" {
				t.Fatalf("outside send: %s", status)
			}
			return []string{env.Hash}
		}, 1},
		{"OutsidePayment", func(e *liveEnv, dest string) []string {
			return []string{e.Net.OutsidePayment(e.Vault.Address, dest, usdc, 10_0000000)}
		}, 1},
		{"OnlyTheLatestOfTwo", func(e *liveEnv, dest string) []string {
			e.Net.OutsidePayment(e.Vault.Address, dest, usdc, 4_0000000)
			return []string{e.Net.OutsidePayment(e.Vault.Address, dest, usdc, 6_0000000)}
		}, 2},
		{"AccountChangedAfter", func(e *liveEnv, dest string) []string {
			e.Net.OutsidePayment(e.Vault.Address, dest, usdc, 10_0000000)
			e.Net.Advance(time.Second)
			e.Net.Fund(e.Vault.Address, 1_0000000) // XLM in: the account's last change is this ledger
			return nil
		}, 1},
		{"HistoryGone", func(e *liveEnv, dest string) []string {
			e.Net.OutsidePayment(e.Vault.Address, dest, usdc, 10_0000000)
			e.Net.Prune()
			return nil
		}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			e := newLiveEnvJobs(t, false)
			e.fundVault(100)
			want := tc.unknown(e, e.destination(true, true))
			is.NoErr(e.Rail.SyncVaults(e.ctx))

			q, open, err := e.DB.OpenQuarantine(e.ctx, e.Vault.ID)
			is.NoErr(err)
			is.True(open) // quarantined whatever the lookup found
			is.Equal(q.Reasons, []string{store.ReasonUnknownSequence, store.ReasonUnexplainedDebit})
			is.Equal(q.UnknownTxs(), tc.count)
			is.Equal(q.UnknownHashes(), append([]string{}, want...))
			for _, h := range want {
				is.True(strings.Contains(q.Describe(), "ledger "+strconv.FormatInt(q.LastModified, 10)+" by transaction "+h))
			}
			if len(want) == 0 {
				is.True(!strings.Contains(q.Describe(), " by transaction"))
			}

			var data string
			is.NoErr(e.SQL.QueryRow("SELECT data FROM events WHERE type = 'vault.quarantined' AND resource_id = ?", e.Vault.ID).Scan(&data))
			var ev struct {
				Hashes []string `json:"unknownTransactionHashes"`
			}
			is.NoErr(json.Unmarshal([]byte(data), &ev))
			is.Equal(ev.Hashes, append([]string{}, want...)) // the event says it too

			is.NoErr(e.Rail.SyncVaults(e.ctx)) // a quarantined vault is not looked up again
			q2, _, err := e.DB.OpenQuarantine(e.ctx, e.Vault.ID)
			is.NoErr(err)
			is.Equal(q2.ID, q.ID)
		})
	}
}
