package stellar

import (
	"context"
	"errors"
	"fmt"

	"github.com/creachadair/jrpc2"
	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// eventsPage is how many events one getEvents answer carries.
const eventsPage = 200

// errNoEvents is an RPC server that does not serve getEvents: payoutd
// falls back to comparing balances, and says so.
var errNoEvents = errors.New("the Stellar RPC server does not serve getEvents")

// eventsRead is what one read of a vault's events found.
type eventsRead struct {
	transfers []Transfer
	// through is the last ledger whose events are all in transfers (0:
	// none read).
	through int64
	// gapFrom..gapTo are ledgers the server no longer keeps (0: none).
	gapFrom, gapTo int64
}

// contractID is the Stellar Asset Contract of asset on the rail's
// network: every CAP-67 event of the asset comes from it.
func (r *Rail) contractID(asset txnbuild.CreditAsset) (string, error) {
	xa, err := asset.ToXDR()
	if err != nil {
		return "", err
	}
	id, err := xa.ContractID(r.Passphrase)
	if err != nil {
		return "", err
	}
	return strkey.Encode(strkey.VersionByteContract, id[:])
}

// vaultFilter asks for every movement of asset that debits or credits
// address: a transfer either way, a mint to it, a burn or clawback from it.
func (r *Rail) vaultFilter(address string, asset txnbuild.CreditAsset) (protocol.EventFilter, error) {
	cid, err := r.contractID(asset)
	if err != nil {
		return protocol.EventFilter{}, err
	}
	id, err := xdr.AddressToAccountId(address)
	if err != nil {
		return protocol.EventFilter{}, err
	}
	addr := xdr.ScVal{Type: xdr.ScValTypeScvAddress, Address: &xdr.ScAddress{Type: xdr.ScAddressTypeScAddressTypeAccount, AccountId: &id}}
	seg := func(v xdr.ScVal) protocol.SegmentFilter { return protocol.SegmentFilter{ScVal: &v} }
	sym := func(s string) protocol.SegmentFilter {
		v := xdr.ScSymbol(s)
		return seg(xdr.ScVal{Type: xdr.ScValTypeScvSymbol, Sym: &v})
	}
	one := protocol.WildCardExactOne
	wild := protocol.SegmentFilter{Wildcard: &one}
	return protocol.EventFilter{
		EventType:   protocol.EventTypeSet{protocol.EventTypeContract: nil},
		ContractIDs: []string{cid},
		Topics: []protocol.TopicFilter{
			{sym("transfer"), seg(addr), wild, wild},
			{sym("transfer"), wild, seg(addr), wild},
			{sym("mint"), seg(addr), wild},
			{sym("burn"), seg(addr), wild},
			{sym("clawback"), seg(addr), wild},
		},
	}, nil
}

// readEvents reads every movement of asset to or from address in ledgers
// from on, a page at a time, to the server's latest ledger. Ledgers before
// the server's oldest are a gap (reported, and skipped); a start past its
// latest finds nothing new. An answer from a node behind one already seen
// is transient.
func (r *Rail) readEvents(ctx context.Context, address string, asset txnbuild.CreditAsset, from int64) (eventsRead, error) {
	var out eventsRead
	if err := r.checked(ctx); err != nil {
		return out, err
	}
	filter, err := r.vaultFilter(address, asset)
	if err != nil {
		return out, err
	}
	req := protocol.GetEventsRequest{StartLedger: uint32(max(from, 1)), Filters: []protocol.EventFilter{filter},
		Pagination: &protocol.PaginationOptions{Limit: eventsPage}}
	askedAgain := false
	for {
		resp, err := call(ctx, r, func(ctx context.Context, c *rpcclient.Client) (protocol.GetEventsResponse, error) {
			return c.GetEvents(ctx, req)
		})
		if err != nil {
			var je *jrpc2.Error
			if errors.As(err, &je) && je.Code == jrpc2.MethodNotFound {
				return out, errNoEvents
			}
			if req.StartLedger == 0 {
				return out, transient("getEvents", err)
			}
			// A start outside the server's retained ledgers is refused: see
			// which side it fell on.
			oldest, latest, herr := r.retained(ctx)
			switch {
			case herr != nil:
				return out, herr
			case int64(req.StartLedger) > int64(latest):
				out.through = int64(req.StartLedger) - 1 // nothing closed since
				return out, nil
			case req.StartLedger < oldest:
				out.gapFrom, out.gapTo = int64(req.StartLedger), int64(oldest)-1
				req.StartLedger = oldest
				continue
			case !askedAgain:
				// The start is kept now: a ledger closed between the
				// two answers. Ask once more.
				askedAgain = true
				continue
			}
			return out, transient("getEvents", err)
		}
		if err := r.notBehind(ctx, "getEvents", resp.LatestLedger); err != nil {
			return out, err
		}
		for _, e := range resp.Events {
			t, err := decodeTransfer(e)
			if err != nil {
				return out, transient("getEvents", err)
			}
			out.transfers = append(out.transfers, t)
		}
		if len(resp.Events) < eventsPage {
			out.through = int64(resp.LatestLedger)
			return out, nil
		}
		cursor, err := protocol.ParseCursor(resp.Cursor)
		if err != nil {
			return out, transient("getEvents", fmt.Errorf("cursor %q: %w", resp.Cursor, err))
		}
		req = protocol.GetEventsRequest{Filters: req.Filters, Pagination: &protocol.PaginationOptions{Cursor: &cursor, Limit: eventsPage}}
	}
}

// retained is the range of ledgers the RPC server keeps, from getHealth.
func (r *Rail) retained(ctx context.Context) (oldest, latest uint32, err error) {
	h, err := call(ctx, r, func(ctx context.Context, c *rpcclient.Client) (protocol.GetHealthResponse, error) {
		return c.GetHealth(ctx)
	})
	if err != nil {
		return 0, 0, transient("getHealth", err)
	}
	if err := r.notBehind(ctx, "getHealth", h.LatestLedger); err != nil {
		return 0, 0, err
	}
	return h.OldestLedger, h.LatestLedger, nil
}
