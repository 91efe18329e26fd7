package stellar

import (
	"context"

	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/store"
)

// unknownPages bounds the getTransactions pages read for one ledger: a
// ledger holds at most about a thousand transactions.
const (
	unknownPages    = 5
	unknownPageSize = 200
)

// unknownTransactions names, when the vault is about to be quarantined
// for sequence numbers payoutd never used, the transactions that used
// them: those from the vault's account in the ledger that last changed it,
// with a sequence number above what payoutd accounts for. It finds the
// latest unknown transaction unless something else (an XLM deposit)
// changed the account after it; earlier ones an operator looks up on an
// explorer. The lookup only informs a person: a vault already quarantined
// or level with payoutd is not looked up, and an RPC server that cannot
// answer (its history no longer holds that ledger) leaves the list empty.
func (r *Rail) unknownTransactions(ctx context.Context, v store.Vault, read store.ChainRead) []string {
	if !read.Exists || read.Modified <= 0 {
		return nil
	}
	known, err := r.DB.Chain().KnownSeq(ctx, v.ID)
	if err != nil {
		return nil
	}
	above := store.ExplainedSeq(read.Seq, known)
	if read.Seq <= above {
		return nil // the common case: one read, level with payoutd
	}
	if _, open, err := r.DB.Movements().OpenQuarantine(ctx, v.ID); err != nil || open {
		return nil
	}
	ledger := uint32(read.Modified)
	req := protocol.GetTransactionsRequest{StartLedger: ledger, Pagination: &protocol.LedgerPaginationOptions{Limit: unknownPageSize}}
	var hashes []string
	for range unknownPages {
		resp, err := call(ctx, r, func(ctx context.Context, c *rpcclient.Client) (protocol.GetTransactionsResponse, error) {
			return c.GetTransactions(ctx, req)
		})
		if err != nil {
			r.Log.Warn("stellar: could not list the transactions of the ledger that last changed a vault's account", "vault", v.ID,
				"ledger", ledger, "error", err.Error())
			return hashes
		}
		for _, t := range resp.Transactions {
			if t.Ledger != ledger {
				return hashes
			}
			var env xdr.TransactionEnvelope
			if xdr.SafeUnmarshalBase64(t.EnvelopeXDR, &env) != nil {
				continue
			}
			if seq := env.SeqNum(); env.SourceAccount().ToAccountId().Address() == v.Address && seq > above && seq <= read.Seq {
				hashes = append(hashes, t.TransactionHash)
			}
		}
		if len(resp.Transactions) < unknownPageSize || resp.Cursor == "" {
			return hashes
		}
		req = protocol.GetTransactionsRequest{Pagination: &protocol.LedgerPaginationOptions{Cursor: resp.Cursor, Limit: unknownPageSize}}
	}
	return hashes
}
