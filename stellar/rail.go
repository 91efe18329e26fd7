// Package stellar is payoutd's live rail: payouts as Stellar payments from
// each vault's own account, sent through a Stellar RPC server with the
// official Go SDK. Each payout's transaction is signed once, stored with
// the payout's move to SUBMITTED, and only that envelope is ever sent and
// followed until it is final, so a crash at any point can neither lose a
// payout nor pay it twice.
package stellar

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	"github.com/stellar/go-stellar-sdk/txnbuild"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

// Rail settles live payouts on the Stellar network.
type Rail struct {
	DB     *store.DB
	Sealer *store.Sealer
	// RPCURL is the Stellar RPC server; HTTP carries its calls (nil:
	// http.DefaultClient).
	RPCURL     string
	HTTP       *http.Client
	Passphrase string
	Assets     Assets
	// Rate is the INR rate a payout settled at a time is valued at, with
	// the time the rate was true; an error (none that recent) leaves the
	// payout waiting for a value.
	Rate func(currency string, at time.Time) (money.Rate, time.Time, error)
	// TxTimeout is how long after signing (on the network's clock) a
	// transaction may still apply.
	TxTimeout time.Duration
	// FeePercentile of recent inclusion fees is the bid (0: 90); MaxFee
	// caps it, in stroops per operation (0: DefaultMaxFee).
	FeePercentile int
	MaxFee        int64
	// CallTimeout bounds one RPC call; 0 means 10 s.
	CallTimeout time.Duration
	Now         func() time.Time
	Log         *slog.Logger

	// verified is set once the RPC server has said it serves Passphrase's
	// network; until then the rail reads and signs nothing there.
	verified atomic.Bool

	// seen is the newest ledger an answer reported (behind.go).
	seenMu     sync.Mutex
	seen       uint32
	seenLoaded bool
}

// DefaultTxTimeout is the upper time bound of a payout's transaction: long
// enough for a busy network, short enough that a lost transaction is known
// to be dead, and a retry possible, within minutes.
const DefaultTxTimeout = 2 * time.Minute

func (r *Rail) callTimeout() time.Duration {
	if r.CallTimeout > 0 {
		return r.CallTimeout
	}
	return 10 * time.Second
}

func (r *Rail) txTimeout() time.Duration {
	if r.TxTimeout > 0 {
		return r.TxTimeout
	}
	return DefaultTxTimeout
}

// rpc is a client for one call. The SDK's client drops and rebuilds its
// connection state after any failed call, which fails the calls other
// goroutines have in flight on it; a client per call keeps one payout's
// lost reply from failing another's confirm. Connections are still pooled
// by HTTP.
func (r *Rail) rpc() *rpcclient.Client {
	return rpcclient.NewClient(r.RPCURL, r.HTTP)
}

// call makes one RPC request on its own client within the call timeout.
func call[T any](ctx context.Context, r *Rail, f func(context.Context, *rpcclient.Client) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, r.callTimeout())
	defer cancel()
	c := r.rpc()
	defer c.Close()
	return f(ctx, c)
}

// checked makes sure, once, that the RPC server serves the configured
// network. Serve checks at start, but an RPC server that did not answer
// then may turn out to serve another network: its balances would be posted
// as withdrawals and deposits, and nothing signed here could apply there.
func (r *Rail) checked(ctx context.Context) error {
	if r.verified.Load() {
		return nil
	}
	if err := r.CheckNetwork(ctx); err != nil {
		return fmt.Errorf("%w (%w)", err, payout.ErrTransient)
	}
	return nil
}

func transient(call string, err error) error {
	return fmt.Errorf("stellar rpc %s: %w (%w)", call, err, payout.ErrTransient)
}

// CheckPayment is what a live confirm checks before it reserves funds: the
// payout can be expressed as a Stellar payment at all.
func (r *Rail) CheckPayment(p store.Payment) error {
	if field, why := r.refuse(p); field != "" {
		return &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed", Fields: map[string]string{field: why}}
	}
	return nil
}

// ownAccount is why a payout to its vault's own account cannot go: Stellar
// lets an account pay itself, so it would settle with nothing moved, and be
// booked, certified and taxed as money out.
const ownAccount = "is the vault's own account: paying it would move nothing"

// refuse names the first field that keeps p from being a Stellar payment.
func (r *Rail) refuse(p store.Payment) (field, why string) {
	if _, err := r.Assets.For(p.Currency); err != nil {
		return "currency", err.Error()
	}
	if _, err := Memo(p.Memo, p.MemoType); err != nil {
		return "memo", err.Error()
	}
	cur, _ := money.Lookup(p.Currency)
	if _, err := ToStroops(p.Amount, cur); err != nil {
		return "amount", err.Error()
	}
	return "", ""
}

// Sign builds and signs p's payment from its vault's account with the next
// sequence number, a fee bid from the network's recent fees and a time
// bound on the network's clock. It sends nothing. It signs nothing for a
// quarantined vault, nor for one whose account has used a sequence number
// payoutd cannot account for (which quarantines it).
func (r *Rail) Sign(ctx context.Context, p store.Payment) (store.Submission, store.SubmissionMark, error) {
	var mark store.SubmissionMark
	if field, why := r.refuse(p); field != "" {
		return store.Submission{}, mark, &payout.Refusal{Reason: field + " " + why}
	}
	asset, _ := r.Assets.For(p.Currency)
	memo, _ := Memo(p.Memo, p.MemoType)
	cur, _ := money.Lookup(p.Currency)
	stroops, _ := ToStroops(p.Amount, cur)
	v, seed, err := r.vaultKey(ctx, p.VaultID)
	if err != nil {
		return store.Submission{}, mark, err
	}
	if p.DestinationAddress == v.Address {
		return store.Submission{}, mark, &payout.Refusal{Reason: "destinationAddress " + ownAccount}
	}
	// The mark is read before the chain: if any transaction of the account
	// starts or ends after this, recording the envelope fails and it is
	// signed again with a fresh sequence number.
	if mark, err = r.DB.Chain().SubmissionMark(ctx, v.ID); err != nil {
		return store.Submission{}, mark, err
	}
	if !mark.Idle() {
		return store.Submission{}, mark, store.ErrVaultBusy
	}
	acct, err := r.vaultAccount(ctx, v, asset)
	if err != nil {
		return store.Submission{}, mark, err
	}
	if !acct.Exists {
		return store.Submission{}, mark, &payout.Refusal{Reason: Explain("tx_no_source_account") + "; fund " + v.Address + " first"}
	}
	if err := r.guard(ctx, v, acct, mark); err != nil {
		return store.Submission{}, mark, err
	}
	prev, err := r.DB.Chain().PaymentSubmissions(ctx, p.ID)
	if err != nil {
		return store.Submission{}, mark, err
	}
	fee, err := r.feeBid(ctx, prev)
	if err != nil {
		return store.Submission{}, mark, err
	}
	now, err := r.networkNow(ctx)
	if err != nil {
		return store.Submission{}, mark, err
	}
	env, err := Signed(r.Passphrase, seed, acct.Seq+1, now.Add(r.txTimeout()), fee, memo,
		&txnbuild.Payment{Destination: p.DestinationAddress, Amount: amount.StringFromInt64(stroops), Asset: asset})
	if err != nil {
		return store.Submission{}, mark, &payout.Refusal{Reason: "cannot build the transaction: " + err.Error()}
	}
	return store.Submission{Hash: env.Hash, VaultID: v.ID, PaymentID: p.ID, Attempt: p.Attempt, Kind: store.SubmissionPayment,
		Seq: env.Seq, Envelope: env.XDR, ValidUntil: env.ValidUntil, SignedLedger: int64(acct.Ledger)}, mark, nil
}

// guard is what must hold before anything is signed from the vault's
// account as read (after mark): the vault is not quarantined, and the
// account has used no sequence number that payoutd cannot account for. If
// it has, a transaction exists that this database does not know (a
// restored backup, a copy running elsewhere, a leaked key): the vault is
// quarantined, with what the chain shows, and nothing is signed.
func (r *Rail) guard(ctx context.Context, v store.Vault, acct Account, mark store.SubmissionMark) error {
	if _, open, err := r.DB.Movements().OpenQuarantine(ctx, v.ID); err != nil || open {
		if err == nil {
			err = store.ErrVaultQuarantined
		}
		return err
	}
	known, err := r.DB.Chain().KnownSeq(ctx, v.ID)
	if err != nil {
		return err
	}
	if acct.Seq <= store.ExplainedSeq(acct.Seq, known) {
		return nil
	}
	// The sync records what it can and quarantines the vault with all it
	// finds (the sequence numbers, any transfer out payoutd did not make).
	q, err := r.syncVaultAccount(ctx, v, acct.Asset)
	if err != nil {
		return err
	}
	if q == nil {
		return store.ErrVaultBusy // the account moved on: look again
	}
	return store.ErrVaultQuarantined
}

// vaultKey opens the vault's sealed signing seed.
func (r *Rail) vaultKey(ctx context.Context, vaultID string) (store.Vault, []byte, error) {
	v, err := r.DB.Chain().VaultKey(ctx, vaultID)
	if err != nil {
		return v.Vault, nil, err
	}
	if r.Sealer == nil || v.Sealed == nil {
		return v.Vault, nil, &payout.Refusal{Reason: "vault " + v.ID + " has no signing key"}
	}
	seed, err := r.Sealer.Open(v.Sealed, []byte(v.ID))
	if err != nil {
		return v.Vault, nil, &payout.Refusal{Reason: "vault " + v.ID + "'s signing key does not open under this master key"}
	}
	return v.Vault, seed, nil
}

// Status follows p's stored envelope: it asks the network, and while the
// transaction is unknown and can still apply, sends that same envelope
// again. A settled payout's time is the close time of the ledger that
// applied it, and its INR value the rate as of then.
func (r *Rail) Status(ctx context.Context, p store.Payment) (payout.Outcome, error) {
	sub, err := r.DB.Chain().FindSubmission(ctx, p.SettlementRef)
	if err != nil {
		return payout.Outcome{}, err
	}
	end, err := r.follow(ctx, sub)
	if err != nil {
		return payout.Outcome{}, err
	}
	out := payout.Outcome{State: payout.Unknown}
	if end == nil {
		return out, nil
	}
	out.Record = func(tx *store.Tx) error { return tx.Chain().FinishSubmission(sub.Hash, *end) }
	switch end.State {
	case store.SubmissionSuccess:
		out.State, out.SettledAt = payout.Settled, end.ClosedAt
		if out.Rate, out.AsOf, err = r.Rate(p.Currency, end.ClosedAt); err != nil {
			out.Waiting = err.Error()
		}
	case store.SubmissionExpired:
		sub.State = end.State
		if feeRefused(sub) && r.raisable(sub) {
			out.State, out.Reason = payout.Resign, "the network refused the fee offered (tx_insufficient_fee) until the transaction's time bound passed; signing it again with a higher bid"
			return out, nil
		}
		out.State, out.Reason = payout.Failed, "SETTLEMENT_EXPIRED: the transaction was not included in a ledger before its time bound "+
			sub.ValidUntil.Format(time.RFC3339)+", so it can never apply and nothing was paid"+lastRefusal(sub)+"; retry to send a new one"
	default:
		out.State, out.Reason = payout.Failed, "SETTLEMENT_REJECTED: "+Explain(end.Result)
	}
	return out, nil
}

// lastRefusal says why the network last refused an envelope that never
// applied, for its payout's reason.
func lastRefusal(sub store.Submission) string {
	if sub.LastRefusal == "" {
		return ""
	}
	s := " (the network last refused it: " + Explain(sub.LastRefusal)
	if bid, err := bidOf(sub); err == nil && sub.LastRefusal == "tx_insufficient_fee" {
		s += fmt.Sprintf("; it offered %d stroops, the most -stellar-max-fee allows", bid)
	}
	return s + ")"
}

// Submit is never called: the pipeline takes a Signer's path (Sign, store,
// then Status sends), because a rail call that both signs and sends would
// leave nothing stored to resend after a crash.
func (r *Rail) Submit(ctx context.Context, p store.Payment) (string, error) {
	return "", errors.New("stellar: payouts are signed and stored before they are sent; Submit is not used")
}
