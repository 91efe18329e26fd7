package store

import (
	"context"
	"database/sql"
	"errors"
)

// TrustlineAttempt is a vault's last changeTrust: its transaction as
// stored, and the XLM (stroops) the account held when it was signed.
type TrustlineAttempt struct {
	Submission
	NativeBefore int64
}

// RecordTrustlineAttempt notes the vault's changeTrust hash, signed while
// its account held nativeBefore stroops of XLM, in place of the last one.
func (g ChainTx) RecordTrustlineAttempt(vaultID, hash string, nativeBefore int64) error {
	tx := g.tx
	_, err := tx.exec(`INSERT INTO trustline_attempts (vault_id, hash, native_before, created_at) VALUES (?,?,?,?)
		ON CONFLICT (vault_id) DO UPDATE SET hash = excluded.hash, native_before = excluded.native_before, created_at = excluded.created_at`,
		vaultID, hash, nativeBefore, ms(tx.now))
	return err
}

// LastTrustlineAttempt reads the vault's last changeTrust, if any.
func (g Chain) LastTrustlineAttempt(ctx context.Context, vaultID string) (TrustlineAttempt, bool, error) {
	db := g.db
	var a TrustlineAttempt
	var hash string
	err := db.queryRow(ctx, "SELECT hash, native_before FROM trustline_attempts WHERE vault_id = ?", vaultID).Scan(&hash, &a.NativeBefore)
	if errors.Is(err, sql.ErrNoRows) {
		return a, false, nil
	}
	if err != nil {
		return a, false, err
	}
	a.Submission, err = db.Chain().FindSubmission(ctx, hash)
	return a, err == nil, err
}
