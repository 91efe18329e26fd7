package console

import (
	"bytes"
	"crypto/sha256"
	"net/http"
	"strings"

	"github.com/payoutd/payoutd/store"
)

// formReused is the answer to a form sent again under the key of an
// earlier submit but with other details: the first submit's outcome
// stands (at Target) and nothing new was written.
type formReused struct{ Target string }

func (e *formReused) Error() string { return "this form was already sent, with other details" }

// once runs a write whose form carried an Idempotency-Key: the first submit
// runs fn and stores where it led, with a digest of what was sent, in the
// same transaction (the API's idempotency table, under the user's console
// scope). A repeat with the same details, even one racing the first, is
// sent to the same place without running fn again; a repeat with other
// details is refused with *formReused.
func (c *Console) once(r *http.Request, u user, op, key string, details []string, fn func(tx *store.Tx) (string, error)) (string, error) {
	ctx := r.Context()
	scope, key := "console:"+u.ID, op+":"+strings.ToLower(key)
	digest := sha256.Sum256([]byte(op + "\x00" + strings.Join(details, "\x00")))
	seen := func(prev store.IdempotentResponse) (string, error) {
		if !bytes.Equal(prev.RequestHash, digest[:]) {
			return "", &formReused{Target: string(prev.Body)}
		}
		return string(prev.Body), nil
	}
	if prev, found, err := c.db.Payments().FindIdempotent(ctx, scope, key); err != nil || found {
		if err != nil {
			return "", err
		}
		return seen(prev)
	}
	var target string
	err := c.db.WithTx(ctx, func(tx *store.Tx) (err error) {
		if target, err = fn(tx); err != nil {
			return err
		}
		return tx.Payments().SaveIdempotent(scope, key, store.IdempotentResponse{RequestHash: digest[:], Status: http.StatusSeeOther, Body: []byte(target)})
	}, c.txOpts(r, u))
	if err != nil {
		// A twin submit that committed first wins; this one follows it.
		if prev, found, ferr := c.db.Payments().FindIdempotent(ctx, scope, key); ferr == nil && found {
			return seen(prev)
		}
	}
	return target, err
}

// sentBefore is where a form's key already led, "" when it is unused.
func (c *Console) sentBefore(r *http.Request, u user, op, key string) (string, error) {
	prev, found, err := c.db.Payments().FindIdempotent(r.Context(), "console:"+u.ID, op+":"+strings.ToLower(key))
	if err != nil || !found {
		return "", err
	}
	return string(prev.Body), nil
}
