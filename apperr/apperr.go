// Package apperr is the application's one error type and its codes. It is a
// leaf: the store, the rules packages, the pipeline and the HTTP layer all
// return these errors, and server/errors.go maps each code to one HTTP
// status and body.
package apperr

import (
	"errors"
	"fmt"
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

// Code returns the application code of err, or "" for other errors.
func Code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// The application's error codes.
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
