package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/payoutd/payoutd/store/internal/sqlitex"
)

// Error is the application's error: a stable code the HTTP layer maps to a
// status, a message safe to show, and per-field details for validation.
type Error struct {
	Code    string
	Message string
	Fields  map[string]string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf builds an *Error.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Error codes shared by the store and the HTTP layer.
const (
	ErrValidation        = "ERR_VALIDATION"
	ErrNotFound          = "ERR_NOT_FOUND"
	ErrPaymentNotFound   = "ERR_PAYMENT_NOT_FOUND"
	ErrWalletNotFound    = "ERR_WALLET_NOT_FOUND"
	ErrProfileNotFound   = "ERR_PROFILE_NOT_FOUND"
	ErrFIRANotFound      = "ERR_FIRA_NOT_FOUND"
	ErrInvalidState      = "ERR_INVALID_STATE"
	ErrConfirmMismatch   = "ERR_CONFIRM_MISMATCH"
	ErrInsufficientFunds = "ERR_INSUFFICIENT_FUNDS"
	ErrVaultNoKey        = "ERR_VAULT_NO_KEY"
	ErrCurrencyMismatch  = "ERR_CURRENCY_MISMATCH"
	ErrKYCRequired       = "ERR_KYC_REQUIRED"
	ErrUnauthorized      = "ERR_UNAUTHORIZED"
	ErrInsufficientScope = "ERR_INSUFFICIENT_SCOPE"
	ErrSandboxOnly       = "ERR_SANDBOX_ONLY"
	ErrConflict          = "ERR_CONFLICT"
	ErrLiveNotConfigured = "ERR_LIVE_NOT_CONFIGURED"
	// ErrRailUnavailable: the live rail's network cannot be reached just
	// now; the request can be repeated as it stands (503, Retry-After).
	ErrRailUnavailable    = "ERR_RAIL_UNAVAILABLE"
	ErrIdempotencyReused  = "ERR_IDEMPOTENCY_KEY_REUSED"
	ErrIdempotencyRunning = "ERR_IDEMPOTENCY_IN_PROGRESS"
)

// ErrorCode returns the application code of err, or "" for other errors.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// notFound turns sql.ErrNoRows into an application not-found error.
func notFound(err error, code, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return &Error{Code: code, Message: what + " not found"}
	}
	return err
}

// isUniqueViolation reports a UNIQUE or PRIMARY KEY constraint failure, by
// SQLite's extended result code, never by message text.
func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		c := se.Code()
		return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// IsStorageFull reports a write that failed for lack of space (a full
// disk, or a size limit on the file); nothing of it was committed.
func IsStorageFull(err error) bool { return sqlitex.IsStorageFull(err) }

// ProbeStorage commits a write that needs a fresh page, so it fails while
// the file cannot grow and succeeds once it can again.
func (db *DB) ProbeStorage(ctx context.Context) error {
	return db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(tx.ctx, "INSERT OR REPLACE INTO storage_probe (id, pad, at) VALUES (1, zeroblob(16384), ?)", ms(tx.now)); err != nil {
			return err
		}
		_, err := tx.ExecContext(tx.ctx, "UPDATE storage_probe SET pad = NULL WHERE id = 1")
		return err
	})
}
