package stellar

import (
	"context"
	"encoding/base64"
	"fmt"
	"time"

	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// deadProof proves that the OPEN envelope sub can never apply and returns
// the final state to record with a sentence of proof; usedBy, when not 0,
// is the sequence number of a transaction of the same account known to
// have applied (the same number means sub never can). Without proof it is
// an error saying what is missing.
func (r *Rail) deadProof(ctx context.Context, sub store.Submission, usedBy int64) (*store.SubmissionEnd, string, error) {
	if usedBy != 0 && usedBy == sub.Seq {
		return &store.SubmissionEnd{State: store.SubmissionRejected, Result: "tx_bad_seq"},
			fmt.Sprintf("its sequence number %d was used by the transaction that applied", sub.Seq), nil
	}
	tr, err := r.getTransaction(ctx, sub.Hash)
	if err != nil {
		return nil, "", err
	}
	switch tr.Status {
	case protocol.TransactionStatusSuccess:
		return nil, "", fmt.Errorf("%w: transaction %s applied in ledger %d (resolve --paid %s)", errUnproven, sub.Hash, tr.Ledger, sub.Hash)
	case protocol.TransactionStatusFailed:
		fin, err := finalOf(tr)
		if err != nil {
			return nil, "", err
		}
		return fin, fmt.Sprintf("transaction %s failed in ledger %d (%s)", sub.Hash, tr.Ledger, fin.Result), nil
	case protocol.TransactionStatusNotFound:
	default:
		return nil, "", transient("getTransaction", fmt.Errorf("unexpected status %q", tr.Status))
	}
	if tr.LatestLedger == 0 {
		return nil, "", transient("getTransaction", fmt.Errorf("answer without a latest ledger"))
	}
	closed := time.Unix(tr.LatestLedgerCloseTime, 0).UTC()
	if tr.LatestLedgerCloseTime <= sub.ValidUntil.Unix() {
		return nil, "", fmt.Errorf("%w: transaction %s may still apply until its time bound %s (the network's latest ledger closed %s); ask again after it",
			errUnproven, sub.Hash, sub.ValidUntil.UTC().Format(time.RFC3339), closed.Format(time.RFC3339))
	}
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(sub.Envelope, &env); err != nil {
		return nil, "", err
	}
	asset, err := r.Assets.For(r.vaultCurrency(ctx, sub.VaultID))
	if err != nil {
		return nil, "", err
	}
	acct, err := r.readAccount(ctx, env.SourceAccount().ToAccountId().Address(), asset)
	if err != nil {
		return nil, "", err
	}
	if !acct.Exists {
		// An answer without the account proves nothing about it.
		return nil, "", transient("getLedgerEntries", fmt.Errorf("no entry for the vault's account %s", acct.Address))
	}
	dead := &store.SubmissionEnd{State: store.SubmissionExpired, Result: "tx_too_late"}
	past := fmt.Sprintf("its time bound %s has passed (the network's latest ledger closed %s)", sub.ValidUntil.UTC().Format(time.RFC3339), closed.Format(time.RFC3339))
	if acct.Seq < sub.Seq {
		return dead, fmt.Sprintf("%s and the vault account's sequence number %d is still below the envelope's %d", past, acct.Seq, sub.Seq), nil
	}
	if covers(tr.OldestLedger, sub) {
		return dead, fmt.Sprintf("%s and the RPC server, whose history reaches back before its signing (ledger %d), does not hold it", past, tr.OldestLedger), nil
	}
	return nil, "", fmt.Errorf("%w: %s, but the vault account's sequence number %d has passed the envelope's %d and the RPC server keeps "+
		"ledgers only from %d (closed %s), after the transaction was signed (%s): it may have applied in a ledger this server "+
		"no longer keeps. Look %s up on an explorer or an RPC server with full history; if it applied, resolve --paid it",
		errUnproven, past, acct.Seq, sub.Seq, tr.OldestLedger, time.Unix(tr.OldestLedgerCloseTime, 0).UTC().Format(time.RFC3339),
		sub.CreatedAt.Format(time.RFC3339), sub.Hash)
}

// vaultCurrency is the vault's currency ("" when it cannot be read).
func (r *Rail) vaultCurrency(ctx context.Context, vaultID string) string {
	v, err := r.DB.Chain().VaultKey(ctx, vaultID)
	if err != nil {
		return ""
	}
	return v.Currency
}

// paysExactly says how env differs from the payment p would be from v: one
// payment operation, from the vault's account, to p's destination, of p's
// amount in the vault's asset, with p's memo.
func (r *Rail) paysExactly(env xdr.TransactionEnvelope, p store.Payment, v store.Vault) error {
	if src := env.SourceAccount().ToAccountId().Address(); src != v.Address {
		return fmt.Errorf("it comes from %s, not the vault's account %s", src, v.Address)
	}
	ops := env.Operations()
	if len(ops) != 1 || ops[0].Body.Type != xdr.OperationTypePayment {
		return fmt.Errorf("it is not one payment operation (%d operations)", len(ops))
	}
	op := ops[0]
	if op.SourceAccount != nil && op.SourceAccount.ToAccountId().Address() != v.Address {
		return fmt.Errorf("its payment is made from %s, not the vault's account", op.SourceAccount.ToAccountId().Address())
	}
	pay := op.Body.MustPaymentOp()
	if dst := pay.Destination.ToAccountId().Address(); dst != p.DestinationAddress {
		return fmt.Errorf("it pays %s, not the payout's destination %s", dst, p.DestinationAddress)
	}
	asset, err := r.Assets.For(p.Currency)
	if err != nil {
		return err
	}
	want, err := asset.ToXDR()
	if err != nil {
		return err
	}
	if !pay.Asset.Equals(want) {
		return fmt.Errorf("it pays %s, not %s:%s", pay.Asset.StringCanonical(), asset.Code, asset.Issuer)
	}
	cur, _ := money.Lookup(p.Currency)
	stroops, err := ToStroops(p.Amount, cur)
	if err != nil {
		return err
	}
	if int64(pay.Amount) != stroops {
		return fmt.Errorf("it pays %s %s, the payout is %s", stroopString(int64(pay.Amount)), asset.Code, stroopString(stroops))
	}
	memo, err := Memo(p.Memo, p.MemoType)
	if err != nil {
		return err
	}
	wantMemo := xdr.Memo{Type: xdr.MemoTypeMemoNone}
	if memo != nil {
		if wantMemo, err = memo.ToXDR(); err != nil {
			return err
		}
	}
	if got := env.Memo(); xdrString(got) != xdrString(wantMemo) {
		return fmt.Errorf("its memo is %s, the payout's is %s", memoText(got), memoText(wantMemo))
	}
	return nil
}

// memoText renders a memo for a person: its type and value.
func memoText(m xdr.Memo) string {
	switch m.Type {
	case xdr.MemoTypeMemoNone:
		return "none"
	case xdr.MemoTypeMemoText:
		return fmt.Sprintf("text %q", m.MustText())
	case xdr.MemoTypeMemoId:
		return fmt.Sprintf("id %d", uint64(m.MustId()))
	}
	return m.Type.String()
}

// xdrString is a value's XDR in base64, for comparing and storing.
func xdrString(v interface{ MarshalBinary() ([]byte, error) }) string {
	b, err := v.MarshalBinary()
	if err != nil {
		return ""
	}
	return base64.StdEncoding.EncodeToString(b)
}

// finalOf reads a getTransaction answer for a transaction in a ledger.
func finalOf(tr protocol.GetTransactionResponse) (*store.SubmissionEnd, error) {
	end, err := applied(tr)
	if err == nil && end == nil {
		err = transient("getTransaction", fmt.Errorf("transaction %s is not in a ledger", tr.TransactionHash))
	}
	return end, err
}
