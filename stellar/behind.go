package stellar

import (
	"context"
	"errors"
	"fmt"

	"github.com/payoutd/payoutd/payout"
)

// ErrBehind is an RPC answer from a ledger older than one payoutd has
// already seen (a lagging or frozen node, a load balancer's other
// backend): nothing is booked from it and nothing is judged by it.
var ErrBehind = errors.New("the Stellar RPC server is behind")

// seenLedger is the newest ledger any answer reported, loaded once from
// the database (where every sync raises it) so a restart against a node
// that is behind is caught too.
func (r *Rail) seenLedger(ctx context.Context) (uint32, error) {
	r.seenMu.Lock()
	defer r.seenMu.Unlock()
	if !r.seenLoaded {
		l, err := r.DB.Movements().LatestLedger(ctx)
		if err != nil {
			return 0, err
		}
		r.seen, r.seenLoaded = max(r.seen, uint32(l)), true
	}
	return r.seen, nil
}

// notBehind accepts an answer's latest ledger, raising the newest seen, or
// refuses it as transient when it is older than one already seen.
func (r *Rail) notBehind(ctx context.Context, call string, latest uint32) error {
	seen, err := r.seenLedger(ctx)
	if err != nil {
		return err
	}
	if latest < seen {
		return fmt.Errorf("stellar rpc %s: %w: its latest ledger is %d, payoutd has seen %d (%w)", call, ErrBehind, latest, seen, payout.ErrTransient)
	}
	r.seenMu.Lock()
	r.seen = max(r.seen, latest)
	r.seenMu.Unlock()
	return nil
}

// Seen is the newest ledger any answer reported (0 before the first).
func (r *Rail) Seen() uint32 {
	r.seenMu.Lock()
	defer r.seenMu.Unlock()
	return r.seen
}
