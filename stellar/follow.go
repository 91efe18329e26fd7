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

// final is a stored envelope's end: it applied, failed in a ledger, was
// refused outright, or its time bound passed.
type final struct {
	state  string
	code   string
	ledger int64
	fee    int64
}

// follow asks the network about an OPEN envelope and, while the answer is
// NOT_FOUND and the network's clock is still within its time bound, sends
// it (again). nil means sent, outcome not yet known. Answers that are not
// an answer (connection errors, TRY_AGAIN_LATER, garbage) are transient.
func (r *Rail) follow(ctx context.Context, sub store.Submission) (*final, error) {
	if sub.State != store.SubmissionOpen {
		return &final{state: sub.State, code: sub.Result, ledger: sub.Ledger, fee: sub.Fee}, nil
	}
	if err := r.checked(ctx); err != nil {
		return nil, err
	}
	tr, err := r.getTransaction(ctx, sub.Hash)
	if err != nil {
		return nil, transient("getTransaction", err)
	}
	switch tr.Status {
	case protocol.TransactionStatusSuccess, protocol.TransactionStatusFailed:
		var res xdr.TransactionResult
		if err := xdr.SafeUnmarshalBase64(tr.ResultXDR, &res); err != nil {
			return nil, transient("getTransaction", fmt.Errorf("result: %w", err))
		}
		f := &final{state: store.SubmissionSuccess, ledger: int64(tr.Ledger), fee: int64(res.FeeCharged)}
		if tr.Status == protocol.TransactionStatusFailed || !res.Successful() {
			f.state, f.code = store.SubmissionFailed, ResultCode(res)
		}
		return f, nil
	case protocol.TransactionStatusNotFound:
	default:
		return nil, transient("getTransaction", fmt.Errorf("unexpected status %q", tr.Status))
	}
	// NOT_FOUND in a ledger the network closed after the time bound: the
	// transaction can never apply. The close time comes with the same
	// answer, so no ledger can slip in between the two.
	if tr.LatestLedger == 0 {
		return nil, transient("getTransaction", fmt.Errorf("answer without a latest ledger"))
	}
	if tr.LatestLedgerCloseTime > sub.ValidUntil.Unix() {
		return r.expired(ctx, sub, tr.OldestLedgerCloseTime)
	}
	return r.send(ctx, sub)
}

// historySlack allows for payoutd's clock running ahead of the network's
// when judging whether the RPC server's history reaches back to signing.
const historySlack = time.Hour

// expired decides an envelope NOT_FOUND after its time bound. NOT_FOUND
// speaks only for the ledgers the RPC server still keeps (payoutd may have
// been off for longer than its retention window): the account's sequence
// number still below the envelope's proves it never applied; else only a
// history that reaches back to its signing does. Without proof it stays
// open (UNKNOWN) rather than read as unpaid and be retried.
func (r *Rail) expired(ctx context.Context, sub store.Submission, oldestCloseTime int64) (*final, error) {
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(sub.Envelope, &env); err != nil {
		return nil, err
	}
	seq, _, err := r.readSeq(ctx, env.SourceAccount().ToAccountId().Address())
	if err != nil {
		return nil, err
	}
	if seq >= sub.Seq && oldestCloseTime > sub.CreatedAt.Add(-historySlack).Unix() {
		r.Log.Warn("stellar: a transaction is past its time bound but the RPC server no longer keeps the ledgers it could be in; "+
			"its outcome stays unknown until checked on an explorer", "hash", sub.Hash, "vault", sub.VaultID)
		return nil, nil
	}
	return &final{state: store.SubmissionExpired, code: "tx_too_late"}, nil
}

// send submits the stored envelope byte for byte. PENDING and DUPLICATE
// mean it is on its way. An ERROR that the transaction may already have
// applied would also produce (bad sequence: its number was used, perhaps
// by itself; too late: the network's clock moved on; insufficient fee: a
// full queue) is not final: the time bound decides. Other errors are the
// network refusing this envelope for good.
func (r *Rail) send(ctx context.Context, sub store.Submission) (*final, error) {
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
			return r.badSeq(ctx, sub)
		case "tx_too_late", "tx_insufficient_fee":
			// The network's clock passed the bound, or its queue is full of
			// higher bids (refused before the transaction is even looked
			// at, so also what a copy already applied or queued elsewhere
			// gets): whether it applies is for getTransaction and the
			// time bound to say.
			return nil, nil
		}
		return &final{state: store.SubmissionRejected, code: code}, nil
	}
	return nil, transient("sendTransaction", fmt.Errorf("unexpected status %q", sr.Status))
}

// badSeq decides a send refused for its sequence number, which is also
// what a resend of a transaction that already applied gets. It is final
// only when provably so: the account has used the number, and
// getTransaction, answering from a ledger at least as new as the
// account's, does not know the transaction. Else the next look decides.
func (r *Rail) badSeq(ctx context.Context, sub store.Submission) (*final, error) {
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(sub.Envelope, &env); err != nil {
		return nil, err
	}
	seq, modified, err := r.readSeq(ctx, env.SourceAccount().ToAccountId().Address())
	if err != nil || seq < sub.Seq {
		return nil, err
	}
	tr, err := r.getTransaction(ctx, sub.Hash)
	if err != nil || tr.Status != protocol.TransactionStatusNotFound || tr.LatestLedger < modified {
		return nil, nil
	}
	return &final{state: store.SubmissionRejected, code: "tx_bad_seq"}, nil
}

// getTransaction asks the network about one transaction by hash.
func (r *Rail) getTransaction(ctx context.Context, hash string) (protocol.GetTransactionResponse, error) {
	return call(ctx, r, func(ctx context.Context, c *rpcclient.Client) (protocol.GetTransactionResponse, error) {
		return c.GetTransaction(ctx, protocol.GetTransactionRequest{Hash: hash})
	})
}
