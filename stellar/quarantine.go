package stellar

import (
	"slices"

	"github.com/payoutd/payoutd/store"
)

// quarantineFacts is when a vault stops signing: its account used a
// sequence number payoutd cannot account for (a transaction this database
// does not know exists: a restored backup, a copy running elsewhere, a
// leaked key), or a transfer out of it that no payout of the vault
// explains was recorded. It returns what was found and whether it stops
// the vault.
func quarantineFacts(book store.ChainRead, known int64, outside []store.Movement) (store.QuarantineFacts, bool) {
	f := store.QuarantineFacts{ChainSeq: book.Seq, KnownSeq: store.ExplainedSeq(book.Seq, known), Ledger: book.Ledger, LastModified: book.Modified}
	if book.Exists && book.Seq > f.KnownSeq {
		f.Reasons, f.Hashes = append(f.Reasons, store.ReasonUnknownSequence), book.Unknown
	}
	if len(outside) > 0 {
		f.Reasons, f.Outside = append(f.Reasons, store.ReasonOutsideTransfer), outside
		for _, m := range outside {
			f.Shortfall += m.Amount
			if !slices.Contains(f.Hashes, m.TxHash) {
				f.Hashes = append(f.Hashes, m.TxHash)
			}
		}
	}
	return f, len(f.Reasons) > 0
}
