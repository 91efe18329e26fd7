package stellar

import (
	"context"

	"github.com/payoutd/payoutd/store"
)

// balanceVerdict is what the comparison of a vault's balance with its
// books decides, used to start a vault's track and while the RPC server
// serves no events: a rise is a deposit (from nobody known); a fall up to
// what a person accepted on releasing a quarantine is a withdrawal outside
// payoutd, if the vault's reservations can take it; any other fall, or a
// sequence number payoutd cannot account for, stops the vault and books
// nothing (a fall nobody explained is never booked silently).
type balanceVerdict struct {
	rise, acceptedFall int64
	facts              store.QuarantineFacts
}

func judgeBalance(c store.ChainRead, b store.BalanceBooks) balanceVerdict {
	v := b.Vault
	var out balanceVerdict
	delta := c.Balance + b.Awaiting - v.Balance
	f := store.QuarantineFacts{ChainSeq: c.Seq, KnownSeq: store.ExplainedSeq(c.Seq, b.KnownSeq), Ledger: c.Ledger, LastModified: c.Modified}
	if c.Exists && c.Seq > f.KnownSeq {
		f.Reasons, f.Hashes = append(f.Reasons, store.ReasonUnknownSequence), c.Unknown
	}
	switch {
	case delta < 0 && -delta <= b.Accepted.Shortfall && v.Balance+delta >= v.Reserved:
		out.acceptedFall = -delta
	case delta < 0:
		f.Reasons, f.Shortfall = append(f.Reasons, store.ReasonUnexplainedDebit), -delta
	case delta > 0 && len(f.Reasons) == 0:
		out.rise = delta
	}
	out.facts = f
	return out
}

// sync compares the vault's books with its balance as read after mark, in
// its own transaction, and books or quarantines as judgeBalance decides.
// It returns the vault's quarantine if it has one, found or opened now
// (naming the unknown transactions it can find).
func (r *Rail) sync(ctx context.Context, v store.Vault, acct Account, mark store.SubmissionMark) (*store.Quarantine, error) {
	read, err := acct.booked()
	if err != nil {
		return nil, err
	}
	read.Unknown = r.unknownTransactions(ctx, v, read)
	var q *store.Quarantine
	var opened bool
	err = r.DB.WithTx(ctx, func(tx *store.Tx) error {
		q, opened = nil, false
		b, ok, err := tx.ReadBalanceBooks(v.ID, read, mark)
		if err != nil || !ok {
			return err
		}
		if b.Quarantine != nil {
			q = b.Quarantine
			return nil
		}
		verdict := judgeBalance(read, b)
		if verdict.acceptedFall > 0 {
			if err := tx.BookAcceptedFall(b.Vault, verdict.acceptedFall, b.Accepted); err != nil {
				return err
			}
		}
		if len(verdict.facts.Reasons) > 0 {
			found, isNew, err := tx.QuarantineVault(v.ID, verdict.facts)
			q, opened = &found, isNew
			return err
		}
		if verdict.rise > 0 {
			return tx.BookBalanceRise(b.Vault, verdict.rise)
		}
		return nil
	}, store.WithActor("system:chain_sync", ""))
	if err != nil {
		return nil, err
	}
	if opened {
		r.Log.Error("stellar: "+q.Describe(), "vault", v.ID, "reasons", q.Reasons, "chainSequence", q.ChainSeq,
			"knownSequence", q.KnownSeq, "shortfall", q.Shortfall, "unknownTransactions", q.Hashes)
	}
	return q, nil
}
