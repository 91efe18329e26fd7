package payout

import (
	"time"

	"github.com/payoutd/payoutd/store"
)

// DefaultWaitMax is the longest a live payout waits between two looks at
// the network.
const DefaultWaitMax = 5 * time.Minute

// waitShare is the share of its time in the current status a live payout
// waits before it looks again.
const waitShare = 8

// liveWait is how long a live payout waiting on the network (an UNKNOWN
// outcome, an RPC server that does not answer, its vault's transaction in
// flight) waits before it looks again: LivePoll at first, since an answer
// usually comes with the next ledger, then an eighth of the time it has
// been in its status, up to WaitMax. A payout that stays UNKNOWN for a day
// asks every few minutes rather than every second; one whose vault frees
// up is woken at once by the payout that freed it (NextWaiting).
func (pl *Pipeline) liveWait(p store.Payment) time.Duration {
	since := pl.DB.Now().Sub(p.UpdatedAt)
	return min(max(since/waitShare, pl.livePoll()), pl.waitMax())
}

func (pl *Pipeline) waitMax() time.Duration {
	if pl.WaitMax > 0 {
		return pl.WaitMax
	}
	return DefaultWaitMax
}
