package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// Submission is one signed Stellar transaction of a vault account.
type Submission struct {
	Hash       string
	VaultID    string
	PaymentID  string // "" for the vault's own changeTrust
	Attempt    int
	Kind       string // SubmissionPayment or SubmissionChangeTrust
	Seq        int64
	Envelope   string // base64 XDR, the exact bytes every send repeats
	ValidUntil time.Time
	State      string
	Result     string
	Ledger     int64
	Fee        int64
	CreatedAt  time.Time
	// SignedLedger is the network's latest ledger when the envelope was
	// signed: it can only apply in a later one.
	SignedLedger int64
	// ClosedAt is the close time of the ledger that applied it.
	ClosedAt time.Time
	// LastRefusal is the last code a send of it was refused with.
	LastRefusal string
}

// SubmissionEnd is how an OPEN envelope ended: its final state, result
// code, and for one in a ledger the ledger, its close time and the fee
// charged.
type SubmissionEnd struct {
	State    string
	Result   string
	Ledger   int64
	Fee      int64
	ClosedAt time.Time
}

// Submission kinds and states. OPEN may still apply on the network; every
// other state is final.
const (
	SubmissionPayment     = "payment"
	SubmissionChangeTrust = "change_trust"

	SubmissionOpen     = "OPEN"
	SubmissionSuccess  = "SUCCESS"  // applied
	SubmissionFailed   = "FAILED"   // in a ledger, failed: fee and sequence number spent
	SubmissionRejected = "REJECTED" // refused at send, never in a ledger
	SubmissionExpired  = "EXPIRED"  // its time bound passed on the network's clock
)

// ErrVaultBusy is a submission refused because the vault account has an
// envelope that may still apply, or had one recorded or finished since the
// caller read its chain state: signing now could reuse a sequence number.
var ErrVaultBusy = errors.New("vault account has a transaction in flight")

// SubmissionMark is how far a vault's submissions have come: how many were
// ever recorded and how many finished. Both only grow, so a caller that
// reads the mark, then the chain, then finds the same mark in its
// transaction knows no transaction of the vault started or ended between.
type SubmissionMark struct{ Recorded, Finished int64 }

// Idle reports no envelope in flight.
func (m SubmissionMark) Idle() bool { return m.Recorded == m.Finished }

const markSQL = "SELECT count(*), count(finished_at) FROM stellar_submissions WHERE vault_id = ?"

// SubmissionMark reads the vault's mark outside a transaction.
func (g Chain) SubmissionMark(ctx context.Context, vaultID string) (SubmissionMark, error) {
	db := g.db
	var m SubmissionMark
	err := db.queryRow(ctx, markSQL, vaultID).Scan(&m.Recorded, &m.Finished)
	return m, err
}

// SubmissionMark reads the vault's mark in the transaction.
func (g ChainTx) SubmissionMark(vaultID string) (SubmissionMark, error) {
	tx := g.tx
	var m SubmissionMark
	err := tx.queryRow(markSQL, vaultID).Scan(&m.Recorded, &m.Finished)
	return m, err
}

// markStill reports whether the vault's mark is still read and idle: no
// envelope in flight, none recorded or finished since the caller read it.
func (tx *Tx) markStill(vaultID string, read SubmissionMark) (bool, error) {
	m, err := tx.Chain().SubmissionMark(vaultID)
	return err == nil && m == read && m.Idle(), err
}

// RecordSubmission stores a signed envelope as OPEN, if the vault's mark
// is still the one the caller read before signing, nothing is in flight
// and the vault is not quarantined; else ErrVaultBusy or
// ErrVaultQuarantined and nothing is written. Its sequence number is from
// then on one payoutd knows it used (KnownSeq).
func (g ChainTx) RecordSubmission(s Submission, read SubmissionMark) error {
	tx := g.tx
	still, err := tx.markStill(s.VaultID, read)
	if err != nil {
		return err
	}
	if !still {
		return ErrVaultBusy
	}
	if _, open, err := tx.openQuarantine(s.VaultID); err != nil {
		return err
	} else if open {
		return ErrVaultQuarantined
	}
	var payment any
	if s.PaymentID != "" {
		payment = s.PaymentID
	}
	_, err = tx.exec(`INSERT INTO stellar_submissions (hash, vault_id, payment_id, attempt, kind, seq, envelope, valid_until,
		created_at, signed_ledger) VALUES (?,?,?,?,?,?,?,?,?,?)`, s.Hash, s.VaultID, payment, s.Attempt, s.Kind, s.Seq, s.Envelope,
		ms(s.ValidUntil), ms(tx.now), s.SignedLedger)
	if isUniqueViolation(err) {
		return ErrVaultBusy
	}
	if err != nil {
		return err
	}
	// Signing read the account: it exists.
	return tx.Chain().MarkSeen(s.VaultID, s.SignedLedger, true, false)
}

// FinishSubmission records an OPEN envelope's end. It is a guarded UPDATE:
// an envelope already final keeps its first outcome.
func (g ChainTx) FinishSubmission(hash string, end SubmissionEnd) error {
	tx := g.tx
	var closed any
	if !end.ClosedAt.IsZero() {
		closed = ms(end.ClosedAt)
	}
	res, err := tx.exec(`UPDATE stellar_submissions SET state = ?, result = ?, ledger = ?, fee = ?, closed_at = ?, finished_at = ?
		WHERE hash = ? AND state = 'OPEN'`, end.State, end.Result, nullInt(end.Ledger), nullInt(end.Fee), closed, ms(tx.now), hash)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return apperr.Errorf(apperr.ErrInvalidState, "submission %s is not open", hash)
	}
	return nil
}

// NoteRefusal keeps the code a send of an OPEN envelope was just refused
// with, for the reason its payout gives if it never applies.
func (g ChainTx) NoteRefusal(hash, code string) error {
	tx := g.tx
	_, err := tx.exec("UPDATE stellar_submissions SET last_refusal = ? WHERE hash = ? AND state = 'OPEN'", code, hash)
	return err
}

// KnownSeq is the highest sequence number of the vault's account that
// payoutd can account for: one of its envelopes that is in flight or was
// in a ledger, or one an operator accepted when releasing a quarantine
// (0: none). An envelope refused or expired never used its number.
func (g Chain) KnownSeq(ctx context.Context, vaultID string) (int64, error) {
	db := g.db
	var n int64
	err := db.queryRow(ctx, knownSeqSQL, vaultID, vaultID).Scan(&n)
	return n, err
}

// KnownSeq is KnownSeq read in the transaction.
func (g ChainTx) KnownSeq(vaultID string) (int64, error) {
	tx := g.tx
	var n int64
	err := tx.queryRow(knownSeqSQL, vaultID, vaultID).Scan(&n)
	return n, err
}

const knownSeqSQL = `SELECT max(
	coalesce((SELECT max(seq) FROM stellar_submissions WHERE vault_id = ?1 AND state IN ('OPEN', 'SUCCESS', 'FAILED')), 0),
	coalesce((SELECT max(chain_seq) FROM vault_quarantines WHERE vault_id = ?2 AND released_at IS NOT NULL), 0))`

func nullInt(v int64) any {
	if v == 0 {
		return nil
	}
	return v
}

const submissionCols = `hash, vault_id, coalesce(payment_id, ''), attempt, kind, seq, envelope, valid_until, state, result,
	coalesce(ledger, 0), coalesce(fee, 0), created_at, signed_ledger, closed_at, last_refusal`

func scanSubmission(row interface{ Scan(...any) error }) (Submission, error) {
	var s Submission
	var until, created int64
	var closed sql.NullInt64
	err := row.Scan(&s.Hash, &s.VaultID, &s.PaymentID, &s.Attempt, &s.Kind, &s.Seq, &s.Envelope, &until, &s.State, &s.Result,
		&s.Ledger, &s.Fee, &created, &s.SignedLedger, &closed, &s.LastRefusal)
	s.ValidUntil, s.CreatedAt = fromMS(until), fromMS(created)
	if closed.Valid {
		s.ClosedAt = fromMS(closed.Int64)
	}
	return s, err
}

// FindSubmission reads an envelope by hash.
func (g Chain) FindSubmission(ctx context.Context, hash string) (Submission, error) {
	db := g.db
	s, err := scanSubmission(db.queryRow(ctx, "SELECT "+submissionCols+" FROM stellar_submissions WHERE hash = ?", hash))
	return s, notFound(err, apperr.ErrNotFound, "submission")
}

// SubmissionsByHash reads the envelopes with these hashes (the settlement
// references of live payouts), by hash; unknown hashes are left out.
func (g Chain) SubmissionsByHash(ctx context.Context, hashes []string) (map[string]Submission, error) {
	db := g.db
	out := map[string]Submission{}
	if len(hashes) == 0 {
		return out, nil
	}
	args := make([]any, len(hashes))
	for i, h := range hashes {
		args[i] = h
	}
	rows, err := db.query(ctx, "SELECT "+submissionCols+" FROM stellar_submissions WHERE hash IN (?"+strings.Repeat(",?", len(hashes)-1)+")", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		s, err := scanSubmission(rows)
		if err != nil {
			return nil, err
		}
		out[s.Hash] = s
	}
	return out, rows.Err()
}

// OpenSubmission returns the vault's envelope in flight, if any.
func (g Chain) OpenSubmission(ctx context.Context, vaultID string) (Submission, bool, error) {
	db := g.db
	s, err := scanSubmission(db.queryRow(ctx, "SELECT "+submissionCols+" FROM stellar_submissions WHERE vault_id = ? AND state = 'OPEN'", vaultID))
	if errors.Is(err, sql.ErrNoRows) {
		return s, false, nil
	}
	return s, err == nil, err
}

// PaymentSubmissions lists a payout's envelopes, oldest first.
func (g Chain) PaymentSubmissions(ctx context.Context, paymentID string) ([]Submission, error) {
	db := g.db
	rows, err := db.query(ctx, "SELECT "+submissionCols+" FROM stellar_submissions WHERE payment_id = ? ORDER BY created_at, attempt", paymentID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Submission
	for rows.Next() {
		s, err := scanSubmission(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// debitVault records money that left the vault's account other than by a
// payout, in the vault row and the ledger together. It cannot take the
// balance below what confirmed payouts have reserved.
func (tx *Tx) debitVault(v Vault, amount int64, description string) error {
	if v.Balance-amount < v.Reserved {
		return apperr.Errorf(apperr.ErrInsufficientFunds, "vault %s: the chain balance is below the %d reserved by payouts in flight", v.ID, v.Reserved)
	}
	return tx.moveExternal(v, -amount, description, "vault.withdrawn")
}

// LiveVaults lists every live vault with a signing key, for the chain sync.
func (g Chain) LiveVaults(ctx context.Context) ([]VaultWithKey, error) {
	db := g.db
	rows, err := db.query(ctx, "SELECT "+vaultCols+", key_sealed FROM vaults WHERE livemode = 1 AND key_sealed IS NOT NULL ORDER BY id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []VaultWithKey
	for rows.Next() {
		var v VaultWithKey
		if v.Vault, err = scanVault(rows, &v.Sealed); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// VaultKey reads a vault with its sealed key by id, regardless of owner
// (the rail signs for whichever vault a payout drew on).
func (g Chain) VaultKey(ctx context.Context, vaultID string) (VaultWithKey, error) {
	db := g.db
	var v VaultWithKey
	var err error
	v.Vault, err = scanVault(db.queryRow(ctx, "SELECT "+vaultCols+", key_sealed FROM vaults WHERE id = ?", vaultID), &v.Sealed)
	return v, notFound(err, apperr.ErrWalletNotFound, "wallet")
}

// NextWaiting is the user's oldest other PROCESSING payout from the vault:
// the one to submit next when the vault's envelope becomes final.
func (g ChainTx) NextWaiting(p Payment) (Payment, bool, error) {
	tx := g.tx
	n, err := scanPayment(tx.queryRow("SELECT "+paymentCols+` FROM payments
		WHERE user_id = ? AND status = ? AND vault_id = ? AND id != ? ORDER BY created_at, id LIMIT 1`,
		p.UserID, StatusProcessing, p.VaultID, p.ID))
	if errors.Is(err, sql.ErrNoRows) {
		return n, false, nil
	}
	return n, err == nil, err
}
