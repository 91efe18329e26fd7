package server

import (
	"errors"
	"github.com/payoutd/payoutd/apperr"
	"log/slog"
	"net/http"

	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

// Codes that only the HTTP layer produces.
const (
	errRateLimited     = "ERR_RATE_LIMITED"
	errBodyTooLarge    = "ERR_BODY_TOO_LARGE"
	errUnsupportedType = "ERR_UNSUPPORTED_MEDIA_TYPE"
	errInternal        = "ERR_INTERNAL"
	errStorageFull     = "ERR_STORAGE_FULL"
)

// storageRetryAfter is the Retry-After of a write refused for lack of
// space, in seconds: long enough for an operator to free some.
const storageRetryAfter = "60"

// statusOf is the single mapping from application error code to HTTP status.
func statusOf(code string) int {
	switch code {
	case apperr.ErrValidation, apperr.ErrConfirmMismatch, apperr.ErrInsufficientFunds, apperr.ErrVaultNoKey,
		apperr.ErrCurrencyMismatch, apperr.ErrLiveNotConfigured:
		return http.StatusBadRequest
	case apperr.ErrUnauthorized:
		return http.StatusUnauthorized
	case apperr.ErrInsufficientScope, apperr.ErrKYCRequired, apperr.ErrSandboxOnly:
		return http.StatusForbidden
	case apperr.ErrNotFound, apperr.ErrPaymentNotFound, apperr.ErrWalletNotFound, apperr.ErrProfileNotFound, apperr.ErrFIRANotFound:
		return http.StatusNotFound
	case apperr.ErrInvalidState, apperr.ErrConflict, apperr.ErrIdempotencyRunning, taxes.ErrITR4NotApplicable:
		return http.StatusConflict
	case errMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case errBodyTooLarge:
		return http.StatusRequestEntityTooLarge
	case errUnsupportedType:
		return http.StatusUnsupportedMediaType
	case errHeadersTooLarge:
		return http.StatusRequestHeaderFieldsTooLarge
	case apperr.ErrIdempotencyReused:
		return http.StatusUnprocessableEntity
	case errRateLimited:
		return http.StatusTooManyRequests
	case errStorageFull, apperr.ErrRailUnavailable:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}

type errorBody struct {
	Error     errorDetail `json:"error"`
	RequestID string      `json:"requestId"`
}

type errorDetail struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Fields  map[string]string `json:"fields,omitempty"`
}

// writeError answers err with the documented error body. Unknown errors are
// logged with the request id and answered without detail.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var e *apperr.Error
	if store.IsStorageFull(err) {
		// Nothing was written; the request can be retried as it is once
		// space is freed, and /readyz says so until then.
		s.storageFull.Store(true)
		s.log.ErrorContext(r.Context(), "storage full", slog.String("requestId", requestID(r)), slog.String("error", err.Error()))
		w.Header().Set("Retry-After", storageRetryAfter)
		e = &apperr.Error{Code: errStorageFull, Message: "the server's storage is full and nothing was written; retry later with the same Idempotency-Key"}
	} else if !errors.As(err, &e) {
		s.log.ErrorContext(r.Context(), "internal error", slog.String("requestId", requestID(r)), slog.String("error", err.Error()))
		e = &apperr.Error{Code: errInternal, Message: "internal error; it is safe to retry with the same Idempotency-Key"}
	}
	if e.Code == apperr.ErrRailUnavailable {
		w.Header().Set("Retry-After", railRetryAfter)
	}
	writeJSON(w, statusOf(e.Code), errorBody{Error: errorDetail{Code: e.Code, Message: e.Message, Fields: e.Fields}, RequestID: requestID(r)})
}

func validationError(fields map[string]string) error {
	return &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed", Fields: fields}
}

func fieldError(field, msg string) error {
	return validationError(map[string]string{field: msg})
}
