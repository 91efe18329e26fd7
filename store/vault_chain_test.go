package store

import (
	"context"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/apperr"
)

// TestSyncVault is the chain sync's rule, one read of the vault's account
// against books holding 100.00 after an account that started at ledger 7
// (sequence 7<<32) used one sequence number, stored: a rise is a deposit;
// a fall, or a sequence number payoutd cannot account for, quarantines the
// vault and books nothing; a read lacking what was seen before is refused;
// a moved mark or a quarantined vault does nothing; a release accepts a
// fall up to what it found, once.
func TestSyncVault(t *testing.T) {
	const start = int64(7) << 32
	for _, tc := range []struct {
		name       string
		read       ChainRead
		moveMark   bool
		quarantine bool   // the vault is quarantined before the read
		released   int64  // a released quarantine found this shortfall before the read
		reasons    string // the quarantine found ("" none)
		balance    int64  // the books after
		code       string // the error's code
	}{
		{"Equal", ChainRead{Exists: true, Trusts: true, Seq: start + 1, Balance: 100_00}, false, false, 0, "", 100_00, ""},
		{"Deposit", ChainRead{Exists: true, Trusts: true, Seq: start + 1, Balance: 125_00}, false, false, 0, "", 125_00, ""},
		{"ErrFall", ChainRead{Exists: true, Trusts: true, Seq: start + 1, Balance: 70_00}, false, false, 0, "unexplained_debit", 100_00, ""},
		{"ErrUnknownSequence", ChainRead{Exists: true, Trusts: true, Seq: start + 2, Balance: 100_00}, false, false, 0, "unknown_sequence", 100_00, ""},
		{"ErrBoth", ChainRead{Exists: true, Trusts: true, Seq: start + 3, Balance: 90_00}, false, false, 0, "unknown_sequence,unexplained_debit", 100_00, ""},
		{"ErrLacksTrustline", ChainRead{Exists: true, Seq: start + 1}, false, false, 0, "", 100_00, apperr.ErrRailUnavailable},
		{"ErrLacksAccount", ChainRead{}, false, false, 0, "", 100_00, apperr.ErrRailUnavailable},
		{"MarkMovedSkips", ChainRead{Exists: true, Trusts: true, Seq: start + 1, Balance: 10_00}, true, false, 0, "", 100_00, ""},
		{"QuarantinedBooksNothing", ChainRead{Exists: true, Trusts: true, Seq: start + 1, Balance: 150_00}, false, true, 0, "unexplained_debit", 100_00, ""},
		{"ReleasedFallBooked", ChainRead{Exists: true, Trusts: true, Seq: start + 1, Balance: 80_00}, false, false, 20_00, "", 80_00, ""},
		{"ErrFallBeyondRelease", ChainRead{Exists: true, Trusts: true, Seq: start + 1, Balance: 70_00}, false, false, 20_00, "unexplained_debit", 100_00, ""},
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
			var res SyncResult
			err = db.WithTx(ctx, func(tx *Tx) (err error) { res, err = tx.SyncVault(v.ID, tc.read, mark); return err })
			is.Equal(apperr.Code(err), tc.code)
			q, open, err := db.OpenQuarantine(ctx, v.ID)
			is.NoErr(err)
			reasons := ""
			if open {
				reasons = strings.Join(q.Reasons, ",")
			}
			is.Equal(reasons, tc.reasons)
			is.Equal(res.Quarantine != nil, tc.reasons != "")
			var balance int64
			is.NoErr(db.r.QueryRow("SELECT balance FROM vaults WHERE id = ?", v.ID).Scan(&balance))
			is.Equal(balance, tc.balance)
			problems, err := db.Check(ctx)
			is.NoErr(err)
			wantProblems := 0
			if open {
				wantProblems = 1 // the quarantine, waiting for a person
			}
			is.Equal(len(problems), wantProblems) // the books balance
		})
	}
}
