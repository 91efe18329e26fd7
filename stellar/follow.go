package stellar

import (
	"context"
	"fmt"
	"time"

	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/store"
)

// follow asks the network about an OPEN envelope and, while the answer is
// NOT_FOUND and the network's clock is still within its time bound, sends
// it (again). nil means sent, outcome not yet known. Answers that are not
// an answer (connection errors, TRY_AGAIN_LATER, garbage) are transient.
//
// A refusal or a NOT_FOUND is final only with proof that covers the
// envelope: the account has not used the envelope's sequence number (so
// it has not applied), or the RPC server's retained history reaches back
// to the ledger the envelope was signed at (so NOT_FOUND speaks for every
// ledger it could be in). Without proof the envelope stays open and the
// payout UNKNOWN: never read as unpaid and retried on a guess.
func (r *Rail) follow(ctx context.Context, sub store.Submission) (*store.SubmissionEnd, error) {
	if sub.State != store.SubmissionOpen {
		return &store.SubmissionEnd{State: sub.State, Result: sub.Result, Ledger: sub.Ledger, Fee: sub.Fee, ClosedAt: sub.ClosedAt}, nil
	}
	if err := r.checked(ctx); err != nil {
		return nil, err
	}
	tr, err := r.getTransaction(ctx, sub.Hash)
	if err != nil {
		return nil, err
	}
	if end, err := applied(tr); end != nil || err != nil {
		return end, err
	}
	// NOT_FOUND in a ledger the network closed after the time bound: the
	// transaction can never apply. The close time comes with the same
	// answer, so no ledger can slip in between the two.
	if tr.LatestLedgerCloseTime > sub.ValidUntil.Unix() {
		return r.expired(ctx, sub, tr)
	}
	return r.send(ctx, sub)
}

// applied is the end of a transaction getTransaction found in a ledger,
// or nil for NOT_FOUND.
func applied(tr protocol.GetTransactionResponse) (*store.SubmissionEnd, error) {
	switch tr.Status {
	case protocol.TransactionStatusSuccess, protocol.TransactionStatusFailed:
	case protocol.TransactionStatusNotFound:
		if tr.LatestLedger == 0 {
			return nil, transient("getTransaction", fmt.Errorf("answer without a latest ledger"))
		}
		return nil, nil
	default:
		return nil, transient("getTransaction", fmt.Errorf("unexpected status %q", tr.Status))
	}
	var res xdr.TransactionResult
	if err := xdr.SafeUnmarshalBase64(tr.ResultXDR, &res); err != nil {
		return nil, transient("getTransaction", fmt.Errorf("result: %w", err))
	}
	if tr.Ledger == 0 || tr.LedgerCloseTime <= 0 {
		return nil, transient("getTransaction", fmt.Errorf("a %s transaction without its ledger or close time", tr.Status))
	}
	end := &store.SubmissionEnd{State: store.SubmissionSuccess, Ledger: int64(tr.Ledger), Fee: int64(res.FeeCharged),
		ClosedAt: time.Unix(tr.LedgerCloseTime, 0).UTC()}
	if tr.Status == protocol.TransactionStatusFailed || !res.Successful() {
		end.State, end.Result = store.SubmissionFailed, ResultCode(res)
	}
	return end, nil
}

// covers reports whether an RPC server's retained history reaches back to
// the ledger the envelope was signed at: its NOT_FOUND then speaks for
// every ledger the envelope could have applied in. An envelope signed
// before payoutd stored that ledger (signed_ledger 0) is never covered.
func covers(oldest uint32, sub store.Submission) bool {
	return sub.SignedLedger > 0 && int64(oldest) <= sub.SignedLedger
}

// expired decides an envelope NOT_FOUND after its time bound. NOT_FOUND
// speaks only for the ledgers the RPC server still keeps (payoutd may have
// been off for longer than its retention window, or the node may be a
// resynced one): the account's sequence number still below the
// envelope's proves it never applied; else only a history that reaches
// back to its signing does.
func (r *Rail) expired(ctx context.Context, sub store.Submission, tr protocol.GetTransactionResponse) (*store.SubmissionEnd, error) {
	seq, _, err := r.readSeq(ctx, sourceOf(sub))
	if err != nil {
		return nil, err
	}
	if seq >= sub.Seq && !covers(tr.OldestLedger, sub) {
		r.Log.Warn("stellar: a transaction is past its time bound but the RPC server no longer keeps the ledgers it could be in; "+
			"its outcome stays unknown until checked on an explorer", "hash", sub.Hash, "vault", sub.VaultID,
			"signedLedger", sub.SignedLedger, "oldestLedger", tr.OldestLedger)
		return nil, nil
	}
	return &store.SubmissionEnd{State: store.SubmissionExpired, Result: "tx_too_late"}, nil
}

// send submits the stored envelope byte for byte. PENDING and DUPLICATE
// mean it is on its way. An ERROR that the transaction may already have
// applied would also produce (bad sequence: its number was used, perhaps
// by itself; too late: the network's clock moved on; insufficient fee: a
// full queue, or a minimum above the bid) is not final: the proof rules
// decide. Other errors are the network refusing this envelope for good.
// Every refusal's code is kept for the payout's reason.
func (r *Rail) send(ctx context.Context, sub store.Submission) (*store.SubmissionEnd, error) {
	sr, err := call(ctx, r, func(ctx context.Context, c *rpcclient.Client) (protocol.SendTransactionResponse, error) {
		return c.SendTransaction(ctx, protocol.SendTransactionRequest{Transaction: sub.Envelope})
	})
	if err != nil {
		return nil, transient("sendTransaction", err)
	}
	switch sr.Status {
	case "PENDING", "DUPLICATE":
		return nil, nil
	case "TRY_AGAIN_LATER":
		return nil, transient("sendTransaction", fmt.Errorf("TRY_AGAIN_LATER"))
	case "ERROR":
		var res xdr.TransactionResult
		if err := xdr.SafeUnmarshalBase64(sr.ErrorResultXDR, &res); err != nil {
			return nil, transient("sendTransaction", fmt.Errorf("error result: %w", err))
		}
		code := ResultCode(res)
		switch code {
		case "tx_bad_seq":
			if err := r.noteRefusal(ctx, sub, code); err != nil {
				return nil, err
			}
			return r.badSeq(ctx, sub)
		case "tx_too_late", "tx_insufficient_fee":
			// The network's clock passed the bound, or its queue or
			// minimum wants a higher bid (refused before the transaction
			// is even looked at, so also what a copy already applied or
			// queued elsewhere gets): whether it applies is for
			// getTransaction and the time bound to say.
			return nil, r.noteRefusal(ctx, sub, code)
		}
		return &store.SubmissionEnd{State: store.SubmissionRejected, Result: code}, nil
	}
	return nil, transient("sendTransaction", fmt.Errorf("unexpected status %q", sr.Status))
}

// noteRefusal keeps the refusal's code with the envelope when it differs
// from the last one kept.
func (r *Rail) noteRefusal(ctx context.Context, sub store.Submission, code string) error {
	if sub.LastRefusal == code {
		return nil
	}
	return r.DB.WithTx(ctx, func(tx *store.Tx) error { return tx.Chain().NoteRefusal(sub.Hash, code) }, store.WithActor("system:settlement", ""))
}

// badSeq decides a send refused for its sequence number, which is also
// what a resend of a transaction that already applied gets. It is final
// only when provably so: the account has used the number, and
// getTransaction, answering from a ledger at least as new as the
// account's and from a history reaching back to the envelope's signing,
// does not know the transaction (the number went to another transaction,
// which the vault's next look at the chain finds unknown). Found in a
// ledger, that is its end. Else the next look decides.
func (r *Rail) badSeq(ctx context.Context, sub store.Submission) (*store.SubmissionEnd, error) {
	seq, modified, err := r.readSeq(ctx, sourceOf(sub))
	if err != nil || seq < sub.Seq {
		return nil, err
	}
	tr, err := r.getTransaction(ctx, sub.Hash)
	if err != nil {
		return nil, err
	}
	if end, err := applied(tr); end != nil || err != nil {
		return end, err
	}
	if tr.LatestLedger < modified || !covers(tr.OldestLedger, sub) {
		return nil, nil
	}
	return &store.SubmissionEnd{State: store.SubmissionRejected, Result: "tx_bad_seq"}, nil
}

// sourceOf is the account that signed the stored envelope.
func sourceOf(sub store.Submission) string {
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(sub.Envelope, &env); err != nil {
		return ""
	}
	return env.SourceAccount().ToAccountId().Address()
}

// getTransaction asks the network about one transaction by hash; any
// failure to get an answer is transient.
func (r *Rail) getTransaction(ctx context.Context, hash string) (protocol.GetTransactionResponse, error) {
	tr, err := call(ctx, r, func(ctx context.Context, c *rpcclient.Client) (protocol.GetTransactionResponse, error) {
		return c.GetTransaction(ctx, protocol.GetTransactionRequest{Hash: hash})
	})
	if err != nil {
		return tr, transient("getTransaction", err)
	}
	return tr, r.notBehind(ctx, "getTransaction", tr.LatestLedger)
}
