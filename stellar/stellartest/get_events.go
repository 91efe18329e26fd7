package stellartest

import (
	"fmt"
	"sort"

	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// stellar-rpc's defaults: events per page when the request sets no limit,
// the most a request may ask for, and the ledgers one request scans.
const (
	defaultEventsLimit = 100
	maxEventsLimit     = 10000
	ledgerScanLimit    = 10000
)

// getEvents answers as stellar-rpc's getEvents handler does, over the
// events of the ledgers the view holds: the request is validated by the
// SDK's rules; the search starts at startLedger, or just after the cursor,
// and ends before endLedger, at most ledgerScanLimit ledgers on and never
// past the latest; a start outside the retention window is refused. The
// cursor returned is the last event's id when the page is full, else the
// end of the search window, so a client polls on from it.
func (s *Server) getEvents(v view, req protocol.GetEventsRequest) (any, *rpcError, bool) {
	if err := req.Valid(maxEventsLimit); err != nil {
		return nil, &rpcError{Code: -32602, Message: err.Error()}, false
	}
	if req.Format == protocol.FormatJSON {
		return nil, &rpcError{Code: -32602, Message: "stellartest: xdrFormat json is not supported"}, false
	}
	start := protocol.Cursor{Ledger: req.StartLedger}
	limit := uint(defaultEventsLimit)
	if p := req.Pagination; p != nil {
		if p.Cursor != nil {
			start = *p.Cursor
			start.Event++ // the page starts after the cursor
		}
		if p.Limit > 0 {
			limit = p.Limit
		}
	}
	endLedger := min(start.Ledger+ledgerScanLimit, v.latest+1)
	if req.EndLedger != 0 {
		endLedger = min(req.EndLedger, endLedger)
	}
	if !v.holds(start.Ledger) {
		return nil, &rpcError{Code: -32600, Message: fmt.Sprintf("startLedger must be within the ledger range: %d - %d",
			v.oldest, v.latest)}, false
	}
	end := protocol.Cursor{Ledger: endLedger}
	resp := protocol.GetEventsResponse{Events: []protocol.EventInfo{}, LatestLedger: v.latest, OldestLedger: v.oldest,
		LatestLedgerCloseTime: v.latestAt, OldestLedgerCloseTime: v.oldestAt}
	i := sort.Search(len(s.events), func(i int) bool { return s.events[i].cursor.Cmp(start) >= 0 })
	for ; i < len(s.events) && uint(len(resp.Events)) < limit; i++ {
		e := s.events[i]
		if e.cursor.Cmp(end) >= 0 {
			break
		}
		if !req.Matches(xdr.DiagnosticEvent{InSuccessfulContractCall: true, Event: e.body}) {
			continue
		}
		info, err := e.info()
		if err != nil {
			return nil, &rpcError{Code: -32603, Message: err.Error()}, false
		}
		resp.Events = append(resp.Events, info)
	}
	if uint(len(resp.Events)) == limit {
		resp.Cursor = resp.Events[len(resp.Events)-1].ID
	} else {
		last := protocol.MaxCursor
		last.Ledger = endLedger - 1
		resp.Cursor = last.String()
	}
	return resp, nil, false
}
