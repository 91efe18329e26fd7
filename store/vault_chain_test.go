package store

import (
	"context"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/apperr"
)

// TestReadBalanceBooks: what the comparison of balances reads, against
// books holding 100.00 after an account that started at ledger 7 (sequence
// 7<<32) used one sequence number, stored: a read lacking what was seen
// before is refused; a moved mark reads nothing; a quarantined vault
// returns its quarantine; a released quarantine's shortfall is read once.
func TestReadBalanceBooks(t *testing.T) {
	const start = int64(7) << 32
	full := ChainRead{Exists: true, Trusts: true, Seq: start + 1, Balance: 100_00}
	for _, tc := range []struct {
		name       string
		read       ChainRead
		moveMark   bool
		quarantine bool  // the vault is quarantined before the read
		released   int64 // a released quarantine found this shortfall before the read
		ok         bool
		code       string
	}{
		{"Read", full, false, false, 0, true, ""},
		{"ErrLacksTrustline", ChainRead{Exists: true, Seq: start + 1}, false, false, 0, false, apperr.ErrRailUnavailable},
		{"ErrLacksAccount", ChainRead{}, false, false, 0, false, apperr.ErrRailUnavailable},
		{"MarkMovedSkips", full, true, false, 0, false, ""},
		{"Quarantined", full, false, true, 0, true, ""},
		{"ReleasedShortfall", full, false, false, 20_00, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			ctx := context.Background()
			db, sealer := openTestDB(t)
			var v Vault
			is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
				u, _, err := tx.EnsureUser("chain@example.com", true, "Chain", sealer)
				if err != nil {
					return err
				}
				if v, err = tx.DefaultVault(u.ID); err != nil {
					return err
				}
				return tx.creditVault(v, 100_00, "Stellar deposit")
			}))
			// The account has been read with its trustline, and used one
			// sequence number for a changeTrust that applied.
			mark, err := db.SubmissionMark(ctx, v.ID)
			is.NoErr(err)
			is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
				if err := tx.MarkSeen(v.ID, 10, true, true); err != nil {
					return err
				}
				s := Submission{Hash: "ct", VaultID: v.ID, Kind: SubmissionChangeTrust, Seq: start + 1, Envelope: "AAAA", SignedLedger: 9}
				if err := tx.RecordSubmission(s, mark); err != nil {
					return err
				}
				return tx.FinishSubmission("ct", SubmissionEnd{State: SubmissionSuccess, Ledger: 11, Fee: 100})
			}))
			if tc.quarantine || tc.released > 0 {
				is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
					_, _, err := tx.QuarantineVault(v.ID, QuarantineFacts{Reasons: []string{ReasonUnexplainedDebit}, ChainSeq: start + 1,
						KnownSeq: start + 1, Shortfall: tc.released})
					return err
				}))
			}
			if tc.released > 0 {
				is.NoErr(db.WithTx(ctx, func(tx *Tx) error { _, err := tx.ReleaseQuarantine(v.ID, "looked"); return err }))
			}
			mark, err = db.SubmissionMark(ctx, v.ID)
			is.NoErr(err)
			if tc.moveMark {
				mark.Recorded--
			}
			read := func() (BalanceBooks, bool, error) {
				var b BalanceBooks
				var ok bool
				err := db.WithTx(ctx, func(tx *Tx) (err error) { b, ok, err = tx.ReadBalanceBooks(v.ID, tc.read, mark); return err })
				return b, ok, err
			}
			b, ok, err := read()
			is.Equal(apperr.Code(err), tc.code)
			is.Equal(ok, tc.ok)
			if !ok {
				return
			}
			is.Equal(b.Quarantine != nil, tc.quarantine)
			if tc.quarantine {
				return
			}
			is.Equal(b.Vault.Balance, int64(100_00))
			is.Equal(b.KnownSeq, start+1)
			is.Equal(b.Accepted.Shortfall, tc.released)
			b, _, err = read() // a person's acceptance is read once
			is.NoErr(err)
			is.Equal(b.Accepted.Shortfall, int64(0))
		})
	}
}
