package strkey

import "errors"

// The sentinel messages are written to follow a field name in an API error
// ("destinationAddress must be 56 characters long"); branch on them with
// errors.Is, since the returned error may carry a more specific message.
var (
	ErrLength   = errors.New("must be 56 characters long")
	ErrEncoding = errors.New("must contain only the letters A-Z and the digits 2-7")
	ErrVersion  = errors.New("is the wrong kind of Stellar key")
	ErrChecksum = errors.New("has an invalid checksum (check for a typo)")
)

// detailError gives a clearer message for a case the user can act on (a
// muxed address, a secret seed pasted as an address) while errors.Is still
// matches the sentinel.
type detailError struct {
	msg  string
	kind error
}

func (e *detailError) Error() string { return e.msg }
func (e *detailError) Unwrap() error { return e.kind }
