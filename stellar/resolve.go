package stellar

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

// An operator's resolve (payoutd payouts resolve) finishes a live payout
// the rail could not: ProvePaid and ProveUnpaid ask the network for the
// proof, and return the outcome to record with a sentence saying what
// proved it. A missing proof is an error that says what is missing; nothing
// is recorded on a guess.

// ProvePaid proves that the transaction hash paid p: the network applied
// it successfully, it comes from p's vault account, and its one operation
// pays p's destination exactly p's amount in the vault's asset, with p's
// memo. When it is not the envelope p has in flight, that envelope must be
// provably dead too (the same sequence number, used by hash, or ProveUnpaid's
// proof), or p could be paid twice.
func (r *Rail) ProvePaid(ctx context.Context, p store.Payment, hash string) (payout.Outcome, string, error) {
	if !isHash(hash) {
		return payout.Outcome{}, "", fmt.Errorf("%q is not a Stellar transaction hash (64 hexadecimal digits)", hash)
	}
	if err := r.checked(ctx); err != nil {
		return payout.Outcome{}, "", err
	}
	v, err := r.DB.Chain().VaultKey(ctx, p.VaultID)
	if err != nil {
		return payout.Outcome{}, "", err
	}
	tr, err := r.getTransaction(ctx, hash)
	if err != nil {
		return payout.Outcome{}, "", err
	}
	switch tr.Status {
	case protocol.TransactionStatusSuccess:
	case protocol.TransactionStatusFailed:
		return payout.Outcome{}, "", fmt.Errorf("transaction %s was applied in ledger %d but failed: it paid nothing", hash, tr.Ledger)
	default:
		return payout.Outcome{}, "", fmt.Errorf("transaction %s is not on the network as far as this RPC server knows "+
			"(its history covers ledgers %d to %d)", hash, tr.OldestLedger, tr.LatestLedger)
	}
	fin, err := finalOf(tr)
	if err != nil {
		return payout.Outcome{}, "", err
	}
	if fin.State != store.SubmissionSuccess {
		return payout.Outcome{}, "", fmt.Errorf("transaction %s was applied in ledger %d but failed (%s): it paid nothing", hash, tr.Ledger, Explain(fin.Result))
	}
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(tr.EnvelopeXDR, &env); err != nil {
		return payout.Outcome{}, "", transient("getTransaction", fmt.Errorf("envelope: %w", err))
	}
	if err := r.paysExactly(env, p, v.Vault); err != nil {
		return payout.Outcome{}, "", fmt.Errorf("transaction %s did not pay payout %s: %w", hash, p.ID, err)
	}
	record, err := r.recordPaid(ctx, p, hash, env, fin)
	if err != nil {
		return payout.Outcome{}, "", err
	}
	out := payout.Outcome{State: payout.Settled, Record: record, SettledAt: fin.ClosedAt}
	if hash != p.SettlementRef {
		out.Ref = hash
	}
	if r.Rate == nil {
		out.Waiting = "valued at the running server's live rate"
	} else if out.Rate, out.AsOf, err = r.Rate(p.Currency, fin.ClosedAt); err != nil {
		out.Waiting = err.Error()
	}
	proof := fmt.Sprintf("transaction %s applied in ledger %d, closed %s, from %s paying %s exactly this payout's amount and memo",
		hash, tr.Ledger, time.Unix(tr.LedgerCloseTime, 0).UTC().Format(time.RFC3339), v.Address, p.DestinationAddress)
	return out, proof, nil
}

// recordPaid is what a paid resolve stores: the envelope in flight, when
// it is hash, finished as applied; else hash recorded as applied beside it
// and the one in flight finished as dead, once proven so.
func (r *Rail) recordPaid(ctx context.Context, p store.Payment, hash string, env xdr.TransactionEnvelope, fin *store.SubmissionEnd) (func(tx *store.Tx) error, error) {
	known, err := r.DB.Chain().FindSubmission(ctx, hash)
	switch {
	case err == nil && known.PaymentID != p.ID:
		return nil, fmt.Errorf("transaction %s is recorded for another payout (%s)", hash, known.PaymentID)
	case err == nil && known.State == store.SubmissionSuccess:
		return nil, fmt.Errorf("transaction %s is already recorded as paying this payout", hash)
	case err == nil && known.State != store.SubmissionOpen:
		return nil, fmt.Errorf("transaction %s is recorded as %s for this payout: the network now says it applied; "+
			"this payout may have been paid twice, look at its other transactions before anything else", hash, known.State)
	case err == nil:
		return func(tx *store.Tx) error {
			if err := tx.Chain().FinishSubmission(hash, *fin); err != nil {
				return err
			}
			return tx.Movements().ExplainMovements(p.VaultID, hash, p.ID)
		}, nil
	case apperr.Code(err) != apperr.ErrNotFound:
		return nil, err
	}
	applied := store.Submission{Hash: hash, VaultID: p.VaultID, PaymentID: p.ID, Attempt: p.Attempt, Kind: store.SubmissionPayment,
		Seq: env.SeqNum(), Envelope: xdrString(env), State: fin.State, Result: fin.Result, Ledger: fin.Ledger, Fee: fin.Fee,
		ClosedAt: fin.ClosedAt}
	if tb := env.TimeBounds(); tb != nil {
		applied.ValidUntil = time.Unix(int64(tb.MaxTime), 0)
	}
	// None of the payout's own envelopes may still apply: each OPEN one
	// must be provably dead, or the payout could be paid twice.
	subs, err := r.DB.Chain().PaymentSubmissions(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	type death struct {
		hash string
		end  store.SubmissionEnd
	}
	var deaths []death
	for _, sub := range subs {
		if sub.State != store.SubmissionOpen || sub.Hash == hash {
			continue
		}
		dead, _, err := r.deadProof(ctx, sub, env.SeqNum())
		if err != nil {
			return nil, fmt.Errorf("the payout's own transaction %s may still apply, and would pay it a second time: %w", sub.Hash, err)
		}
		deaths = append(deaths, death{sub.Hash, *dead})
	}
	return func(tx *store.Tx) error {
		for _, d := range deaths {
			if err := tx.Chain().FinishSubmission(d.hash, d.end); err != nil {
				return err
			}
		}
		if err := tx.Chain().RecordAppliedSubmission(applied); err != nil {
			return err
		}
		return tx.Movements().ExplainMovements(p.VaultID, hash, p.ID)
	}, nil
}

// ProveUnpaid proves that p's transaction in flight can never apply: it
// failed in a ledger, or its time bound has passed on the network's clock
// and either the vault account's sequence number is still below the
// envelope's or the RPC server's history reaches back to its signing and
// does not hold it.
func (r *Rail) ProveUnpaid(ctx context.Context, p store.Payment) (payout.Outcome, string, error) {
	if err := r.checked(ctx); err != nil {
		return payout.Outcome{}, "", err
	}
	if p.SettlementRef == "" || p.Status == store.StatusProcessing {
		return payout.Outcome{}, "", fmt.Errorf("payout %s has no transaction in flight to prove unpaid", p.ID)
	}
	sub, err := r.DB.Chain().FindSubmission(ctx, p.SettlementRef)
	if err != nil {
		return payout.Outcome{}, "", err
	}
	if sub.State != store.SubmissionOpen {
		return payout.Outcome{}, "", fmt.Errorf("transaction %s is already final (%s)", sub.Hash, sub.State)
	}
	fin, proof, err := r.deadProof(ctx, sub, 0)
	if err != nil {
		return payout.Outcome{}, "", err
	}
	out := payout.Outcome{State: payout.Failed, Record: func(tx *store.Tx) error {
		return tx.Chain().FinishSubmission(sub.Hash, *fin)
	}}
	if fin.State == store.SubmissionExpired {
		out.Reason = "SETTLEMENT_EXPIRED: the transaction was not included in a ledger before its time bound " +
			sub.ValidUntil.Format(time.RFC3339) + ", so it can never apply and nothing was paid (proven for an operator: " + proof + "); retry to send a new one"
	} else {
		out.Reason = "SETTLEMENT_REJECTED: " + Explain(fin.Result)
	}
	return out, proof, nil
}

// isHash reports 64 hexadecimal digits.
func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// errUnproven wraps every "cannot prove it" answer.
var errUnproven = errors.New("no proof")
