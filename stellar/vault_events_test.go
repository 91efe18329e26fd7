package stellar_test

import (
	"testing"
	"time"

	"github.com/matryer/is"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/store"
)

// TestLiveLedgerClosesBetweenReads: a confirm reads the vault's events
// from the ledger after the last one read, which has not closed yet, so
// the RPC server refuses the start; a ledger closes before payoutd asks
// the server which ledgers it keeps, and the start is then among them.
// That is nobody's fault: the events are asked for again and the confirm
// is checked, not refused as the network being out of reach.
func TestLiveLedgerClosesBetweenReads(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(100)
	is.NoErr(e.Rail.SyncVaults(e.ctx)) // every ledger read: the next read starts after the latest
	p := store.Payment{Currency: "USD", Amount: 10_00, DestinationAddress: e.destination(true, true)}
	release := e.Net.Hold(protocol.GetHealthMethodName)
	defer release()
	done := make(chan error, 1)
	go func() {
		_, err := e.Rail.CheckConfirm(e.ctx, p, e.Vault)
		done <- err
	}()
	wait.Until(t, 5*time.Second, "the confirm to ask which ledgers the server keeps", func() bool {
		return e.Net.Waiting(protocol.GetHealthMethodName) > 0
	})
	e.Net.Advance(5 * time.Second) // a ledger closes
	release()
	is.NoErr(<-done)
}
