package jobs

import (
	"context"
	"sync"

	"github.com/payoutd/payoutd/store"
)

// Dispatcher advances payouts handed over when the transaction that made
// them ready commits (store.ReadyHook), on a pool of goroutines, without a
// River job: a River job costs an insert, a fetch and a completion on the
// single SQLite writer, about a fifth of a sandbox payout's writer time
// (docs/performance.md). The payout's own status is the durable record
// that it is owed a step, so nothing is lost when a hand-over is: whatever
// the dispatcher never saw (its queue full, the process killed) is found by
// the sweep (sweep.go). Whatever it cannot finish in one go — a live rail,
// a transient submit failure's backoff, UNKNOWN polling, an error — it
// hands to River as a payment_advance job, whose retries and snoozes are
// durable.
type Dispatcher struct {
	pl     *Pipeline
	queue  chan store.Payment
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// dispatchQueue bounds the payouts waiting for a dispatcher goroutine;
// beyond it a hand-over is dropped and left to the sweep.
const dispatchQueue = 8192

// StartDispatcher starts `workers` goroutines and makes them the DB's
// ready hook.
func StartDispatcher(pl *Pipeline, workers int) *Dispatcher {
	ctx, cancel := context.WithCancel(context.Background())
	d := &Dispatcher{pl: pl, queue: make(chan store.Payment, dispatchQueue), cancel: cancel}
	for i := 0; i < workers; i++ {
		d.wg.Add(1)
		go d.work(ctx)
	}
	pl.DB.SetReadyHook(d.handOver)
	return d
}

// Stop detaches the dispatcher and waits for its goroutines; payouts still
// queued are the next start's sweep's.
func (d *Dispatcher) Stop() {
	d.pl.DB.SetReadyHook(nil)
	d.cancel()
	d.wg.Wait()
}

func (d *Dispatcher) handOver(p store.Payment) {
	select {
	case d.queue <- p:
	default: // full: the sweep will find it
	}
}

func (d *Dispatcher) work(ctx context.Context) {
	defer d.wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case p := <-d.queue:
			d.advance(ctx, p)
		}
	}
}

// advance takes the payout as its ready transaction committed it; should
// it have moved since, the instant path's status guard refuses, and the
// River job below reads it afresh.
func (d *Dispatcher) advance(ctx context.Context, p store.Payment) {
	pl := d.pl
	if _, ok := pl.advanceInstant(ctx, p, true); ok || !store.OwesStep(p.Status) {
		return // at rest, or its River job queued in the same transaction
	}
	// Not advanced (a live rail, a failing step): the payout is as it was
	// handed over, which the sweep also covers should this insert not
	// happen.
	err := pl.DB.WithTx(ctx, func(tx *store.Tx) error {
		return tx.Enqueue(AdvanceArgs{PaymentID: p.ID}, advanceOpts)
	})
	if err != nil && ctx.Err() == nil && pl.Log != nil {
		pl.Log.Warn("dispatcher: hand-over to River failed; the sweep will retry", "payment", p.ID, "err", err)
	}
}
