package store

import (
	"context"
	"database/sql"
	"errors"
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
func (db *DB) SubmissionMark(ctx context.Context, vaultID string) (SubmissionMark, error) {
	var m SubmissionMark
	err := db.queryRow(ctx, markSQL, vaultID).Scan(&m.Recorded, &m.Finished)
	return m, err
}

// SubmissionMark reads the vault's mark in the transaction.
func (tx *Tx) SubmissionMark(vaultID string) (SubmissionMark, error) {
	var m SubmissionMark
	err := tx.queryRow(markSQL, vaultID).Scan(&m.Recorded, &m.Finished)
	return m, err
}

// markStill reports whether the vault's mark is still read and idle: no
// envelope in flight, none recorded or finished since the caller read it.
func (tx *Tx) markStill(vaultID string, read SubmissionMark) (bool, error) {
	m, err := tx.SubmissionMark(vaultID)
	return err == nil && m == read && m.Idle(), err
}

// RecordSubmission stores a signed envelope as OPEN, if the vault's mark
// is still the one the caller read before signing and nothing is in
// flight; else ErrVaultBusy and nothing is written.
func (tx *Tx) RecordSubmission(s Submission, read SubmissionMark) error {
	still, err := tx.markStill(s.VaultID, read)
	if err != nil {
		return err
	}
	if !still {
		return ErrVaultBusy
	}
	var payment any
	if s.PaymentID != "" {
		payment = s.PaymentID
	}
	_, err = tx.exec(`INSERT INTO stellar_submissions (hash, vault_id, payment_id, attempt, kind, seq, envelope, valid_until, created_at)
		VALUES (?,?,?,?,?,?,?,?,?)`, s.Hash, s.VaultID, payment, s.Attempt, s.Kind, s.Seq, s.Envelope, ms(s.ValidUntil), ms(tx.now))
	if isUniqueViolation(err) {
		return ErrVaultBusy
	}
	return err
}

// FinishSubmission records an OPEN envelope's final state. It is a guarded
// UPDATE: an envelope already final keeps its first outcome.
func (tx *Tx) FinishSubmission(hash, state, result string, ledger, fee int64) error {
	res, err := tx.exec(`UPDATE stellar_submissions SET state = ?, result = ?, ledger = ?, fee = ?, finished_at = ?
		WHERE hash = ? AND state = 'OPEN'`, state, result, nullInt(ledger), nullInt(fee), ms(tx.now), hash)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return apperr.Errorf(apperr.ErrInvalidState, "submission %s is not open", hash)
	}
	return nil
}

func nullInt(v int64) any {
	if v == 0 {
		return nil
	}
	return v
}

const submissionCols = `hash, vault_id, coalesce(payment_id, ''), attempt, kind, seq, envelope, valid_until, state, result,
	coalesce(ledger, 0), coalesce(fee, 0), created_at`

func scanSubmission(row interface{ Scan(...any) error }) (Submission, error) {
	var s Submission
	var until, created int64
	err := row.Scan(&s.Hash, &s.VaultID, &s.PaymentID, &s.Attempt, &s.Kind, &s.Seq, &s.Envelope, &until, &s.State, &s.Result,
		&s.Ledger, &s.Fee, &created)
	s.ValidUntil, s.CreatedAt = fromMS(until), fromMS(created)
	return s, err
}

// FindSubmission reads an envelope by hash.
func (db *DB) FindSubmission(ctx context.Context, hash string) (Submission, error) {
	s, err := scanSubmission(db.queryRow(ctx, "SELECT "+submissionCols+" FROM stellar_submissions WHERE hash = ?", hash))
	return s, notFound(err, apperr.ErrNotFound, "submission")
}

// OpenSubmission returns the vault's envelope in flight, if any.
func (db *DB) OpenSubmission(ctx context.Context, vaultID string) (Submission, bool, error) {
	s, err := scanSubmission(db.queryRow(ctx, "SELECT "+submissionCols+" FROM stellar_submissions WHERE vault_id = ? AND state = 'OPEN'", vaultID))
	if errors.Is(err, sql.ErrNoRows) {
		return s, false, nil
	}
	return s, err == nil, err
}

// PaymentSubmissions lists a payout's envelopes, oldest first.
func (db *DB) PaymentSubmissions(ctx context.Context, paymentID string) ([]Submission, error) {
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

// SyncVaultBalance makes the vault's balance equal chain (minor units),
// posting the difference as funding from or to the network, if the
// vault's mark is still read and idle: with an envelope in flight the chain
// may be ahead of the ledger by a payout not yet recorded. It returns the
// difference posted; skipped reports that it did nothing for that reason.
func (tx *Tx) SyncVaultBalance(vaultID string, chain int64, read SubmissionMark) (delta int64, skipped bool, err error) {
	still, err := tx.markStill(vaultID, read)
	if err != nil {
		return 0, false, err
	}
	if !still {
		return 0, true, nil
	}
	v, err := scanVault(tx.queryRow("SELECT "+vaultCols+" FROM vaults WHERE id = ?", vaultID))
	if err != nil {
		return 0, false, notFound(err, apperr.ErrWalletNotFound, "wallet")
	}
	// Payouts settled on chain but awaiting their INR value have left the
	// account but not yet the vault row.
	awaiting, err := tx.awaitingValue(vaultID)
	if err != nil {
		return 0, false, err
	}
	switch delta = chain + awaiting - v.Balance; {
	case delta > 0:
		return delta, false, tx.creditVault(v, delta, "Stellar deposit")
	case delta < 0:
		return delta, false, tx.debitVault(v, -delta, "Stellar withdrawal outside payoutd")
	}
	return 0, false, nil
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
func (db *DB) LiveVaults(ctx context.Context) ([]VaultWithKey, error) {
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
func (db *DB) VaultKey(ctx context.Context, vaultID string) (VaultWithKey, error) {
	var v VaultWithKey
	var err error
	v.Vault, err = scanVault(db.queryRow(ctx, "SELECT "+vaultCols+", key_sealed FROM vaults WHERE id = ?", vaultID), &v.Sealed)
	return v, notFound(err, apperr.ErrWalletNotFound, "wallet")
}

// NextWaiting is the user's oldest other PROCESSING payout from the vault:
// the one to submit next when the vault's envelope becomes final.
func (tx *Tx) NextWaiting(p Payment) (Payment, bool, error) {
	n, err := scanPayment(tx.queryRow("SELECT "+paymentCols+` FROM payments
		WHERE user_id = ? AND status = ? AND vault_id = ? AND id != ? ORDER BY created_at, id LIMIT 1`,
		p.UserID, StatusProcessing, p.VaultID, p.ID))
	if errors.Is(err, sql.ErrNoRows) {
		return n, false, nil
	}
	return n, err == nil, err
}
