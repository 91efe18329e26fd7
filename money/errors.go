package money

import "errors"

// The sentinel messages are written to be shown as an API field error after
// the field name ("amount must be a positive decimal number"), so callers can
// pass err.Error() through and still branch with errors.Is.
var (
	ErrFormat          = errors.New("must be a positive decimal number")
	ErrTooManyDecimals = errors.New("has more decimal places than the currency allows")
	ErrNotPositive     = errors.New("must be greater than zero")
	ErrTooLarge        = errors.New("is too large")
	// ErrOverflow reports a conversion whose result does not fit in int64.
	ErrOverflow = errors.New("is too large to convert")
	// ErrInvalid reports a zero Rate or a Currency whose Exponent this package
	// cannot represent: a programming error, not bad user input.
	ErrInvalid = errors.New("money: invalid rate or currency")
)

// detailError carries a message that names the currency or limit while
// errors.Is still matches the sentinel it wraps.
type detailError struct {
	msg  string
	kind error
}

func (e *detailError) Error() string { return e.msg }
func (e *detailError) Unwrap() error { return e.kind }

func detail(kind error, msg string) error { return &detailError{msg: msg, kind: kind} }
