package stellartest_test

import (
	"fmt"
	"testing"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Topic segments for filters, built as a client builds them.
func sym(s string) protocol.SegmentFilter {
	v := xdr.ScVal{Type: xdr.ScValTypeScvSymbol, Sym: (*xdr.ScSymbol)(&s)}
	return protocol.SegmentFilter{ScVal: &v}
}

func addr(address string) protocol.SegmentFilter {
	id := xdr.MustAddress(address)
	v := xdr.ScVal{Type: xdr.ScValTypeScvAddress, Address: &xdr.ScAddress{Type: xdr.ScAddressTypeScAddressTypeAccount, AccountId: &id}}
	return protocol.SegmentFilter{ScVal: &v}
}

func wild(w string) protocol.SegmentFilter { return protocol.SegmentFilter{Wildcard: &w} }

// TestFakeGetEventsFilters: getEvents keeps the events a filter matches —
// by type, contract id, and topics position by position with wildcards,
// filters and topic filters OR-ed — in application order, and refuses a
// filter stellar-rpc refuses.
func TestFakeGetEventsFilters(t *testing.T) {
	n := newTestNet(t)
	alice, bob := n.account("alice").Address(), n.account("bob").Address()
	start := n.latest() + 1
	n.fake.Trust(n.vault, n.usdc, 100_0000000)
	n.fake.Deposit(alice, n.vault, n.usdc, 5_0000000, "a") // alice is minted her 5 first
	n.fake.OutsidePayment(n.vault, bob, n.usdc, 3_0000000)
	n.fake.Deposit(alice, n.vault, n.eurc, 2_0000000, "")
	n.fake.Clawback(n.vault, n.usdc, 1_0000000)
	n.fake.OutsidePayment(n.vault, n.issuer.Address(), n.usdc, 1_0000000)
	n.fake.Deposit(bob, alice, n.usdc, 1_0000000, "")

	all := []string{"mint →vault 100 USDC", "mint →alice 5 USDC", "transfer alice→vault 5 USDC", "transfer vault→bob 3 USDC",
		"mint →alice 2 EURC", "transfer alice→vault 2 EURC", "clawback vault→ 1 USDC", "burn vault→ 1 USDC", "transfer bob→alice 1 USDC"}
	vault := addr(n.vault)
	tooMany := make([]protocol.TopicFilter, 6)
	for i := range tooMany {
		tooMany[i] = protocol.TopicFilter{sym("mint"), wild("**")}
	}
	for _, tc := range []struct {
		name    string
		filters []protocol.EventFilter
		want    []string
		err     string
	}{
		{"None", nil, all, ""},
		{"TypeContract", []protocol.EventFilter{{EventType: protocol.EventTypeSet{"contract": nil}}}, all, ""},
		{"TypeSystem", []protocol.EventFilter{{EventType: protocol.EventTypeSet{"system": nil}}}, []string{}, ""},
		{"ContractEURC", []protocol.EventFilter{{ContractIDs: []string{n.contract(n.eurc)}}},
			[]string{"mint →alice 2 EURC", "transfer alice→vault 2 EURC"}, ""},
		{"VaultAsFrom", []protocol.EventFilter{{Topics: []protocol.TopicFilter{{sym("transfer"), vault, wild("*"), wild("*")}}}},
			[]string{"transfer vault→bob 3 USDC"}, ""},
		{"VaultAsTo", []protocol.EventFilter{{Topics: []protocol.TopicFilter{{sym("transfer"), wild("*"), vault, wild("*")}}}},
			[]string{"transfer alice→vault 5 USDC", "transfer alice→vault 2 EURC"}, ""},
		{"VaultAsToInUSDC", []protocol.EventFilter{{ContractIDs: []string{n.contract(n.usdc)},
			Topics: []protocol.TopicFilter{{sym("transfer"), wild("*"), vault, wild("*")}}}},
			[]string{"transfer alice→vault 5 USDC"}, ""},
		{"FiveTopicFiltersForTheVault", []protocol.EventFilter{{Topics: []protocol.TopicFilter{
			{sym("transfer"), vault, wild("*"), wild("*")},
			{sym("transfer"), wild("*"), vault, wild("*")},
			{sym("mint"), vault, wild("*")},
			{sym("burn"), vault, wild("*")},
			{sym("clawback"), vault, wild("*")},
		}}}, []string{"mint →vault 100 USDC", "transfer alice→vault 5 USDC", "transfer vault→bob 3 USDC",
			"transfer alice→vault 2 EURC", "clawback vault→ 1 USDC", "burn vault→ 1 USDC"}, ""},
		{"TrailingWildcard", []protocol.EventFilter{{Topics: []protocol.TopicFilter{{sym("mint"), wild("**")}}}},
			[]string{"mint →vault 100 USDC", "mint →alice 5 USDC", "mint →alice 2 EURC"}, ""},
		{"TopicCountMustMatch", []protocol.EventFilter{{Topics: []protocol.TopicFilter{{sym("mint"), wild("*")}}}}, []string{}, ""},
		{"FiltersOred", []protocol.EventFilter{{ContractIDs: []string{n.contract(n.eurc)}},
			{Topics: []protocol.TopicFilter{{sym("burn"), wild("**")}}}},
			[]string{"mint →alice 2 EURC", "transfer alice→vault 2 EURC", "burn vault→ 1 USDC"}, ""},
		{"ErrSixTopicFilters", []protocol.EventFilter{{Topics: tooMany}}, nil,
			"[-32602] filter 1 invalid: maximum 5 topics per filter"},
		{"ErrZeroOrMoreNotLast", []protocol.EventFilter{{Topics: []protocol.TopicFilter{{wild("**"), sym("mint")}}}}, nil,
			"[-32602] filter 1 invalid: topic 1 invalid: segment 1 invalid: wildcard '**' is only allowed as the last segment"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			page, err := n.rpc.GetEvents(n.ctx, protocol.GetEventsRequest{StartLedger: start, Filters: tc.filters})
			if tc.err != "" {
				is.True(err != nil)
				is.Equal(err.Error(), tc.err)
				return
			}
			is.NoErr(err)
			is.Equal(n.summaries(page.Events), tc.want)
		})
	}
}

// TestFakeGetEventsPaging: paging through 1,000 events seven at a time
// returns each exactly once, in order, as a client following the cursor
// sees them; a full page's cursor is its last event, a short one's the end
// of the search window, from which polling finds only what came after.
func TestFakeGetEventsPaging(t *testing.T) {
	is := is.New(t)
	n := newTestNet(t)
	alice := n.account("alice").Address()
	start := n.latest() + 1
	n.fake.Trust(alice, n.usdc, 1000_0000000)
	for range 999 {
		n.fake.Deposit(alice, n.vault, n.usdc, 1_0000000, "")
	}
	want := n.fake.Events()
	is.Equal(len(want), 1000)

	got, cursor := n.events(n.rpc, start, 7)
	is.Equal(len(got), len(want))
	seen := map[string]bool{}
	for i := range got {
		is.True(!seen[got[i].ID]) // each event once
		seen[got[i].ID] = true
		is.Equal(got[i], want[i]) // in order
	}
	end := protocol.MaxCursor
	end.Ledger = n.latest()
	is.Equal(cursor, end.String())

	// Without a limit a page holds 100, and its cursor is its last event.
	page, err := n.rpc.GetEvents(n.ctx, protocol.GetEventsRequest{StartLedger: start})
	is.NoErr(err)
	is.Equal(len(page.Events), 100)
	is.Equal(page.Cursor, want[99].ID)

	// Polling on from the end of the window finds the next deposit only.
	hash := n.fake.Deposit(alice, n.vault, n.usdc, 1_0000000, "next")
	from, err := protocol.ParseCursor(cursor)
	is.NoErr(err)
	page, err = n.rpc.GetEvents(n.ctx, protocol.GetEventsRequest{Pagination: &protocol.PaginationOptions{Cursor: &from}})
	is.NoErr(err)
	is.Equal(len(page.Events), 1)
	is.Equal(page.Events[0].TransactionHash, hash)
}

// TestFakeGetEventsWindow: getEvents searches only the retention window,
// refusing a start outside it with stellar-rpc's error, stops at
// endLedger, and after Prune no longer has what the archive still serves.
func TestFakeGetEventsWindow(t *testing.T) {
	is := is.New(t)
	n := newTestNet(t)
	alice := n.account("alice").Address()
	first := n.latest() + 1
	for range 3 {
		n.fake.Deposit(alice, n.vault, n.usdc, 1_0000000, "")
	}
	before, cursor := n.events(n.rpc, first, 100)
	is.Equal(len(before), 6) // a mint to alice and her deposit, thrice

	// endLedger is exclusive: the first two deposits' ledgers only.
	page, err := n.rpc.GetEvents(n.ctx, protocol.GetEventsRequest{StartLedger: first, EndLedger: first + 4})
	is.NoErr(err)
	is.Equal(page.Events, before[:4])

	n.fake.Prune()
	n.fake.Deposit(alice, n.vault, n.usdc, 1_0000000, "after")
	latest := n.latest()
	health, err := n.rpc.GetHealth(n.ctx)
	is.NoErr(err)
	oldest := health.OldestLedger
	is.True(oldest > uint32(before[len(before)-1].Ledger))
	after, _ := n.events(n.rpc, oldest, 100)
	is.Equal(n.summaries(after), []string{"mint →alice 1 USDC", "transfer alice→vault 1 USDC"})
	page, err = n.rpc.GetEvents(n.ctx, protocol.GetEventsRequest{StartLedger: oldest})
	is.NoErr(err)
	is.Equal([2]uint32{page.OldestLedger, page.LatestLedger}, [2]uint32{oldest, latest})
	is.Equal([2]int64{page.OldestLedgerCloseTime, page.LatestLedgerCloseTime}, [2]int64{health.OldestLedgerCloseTime, health.LatestLedgerCloseTime})

	outside := fmt.Sprintf("[-32600] startLedger must be within the ledger range: %d - %d", oldest, latest)
	c, err := protocol.ParseCursor(cursor)
	is.NoErr(err)
	for _, tc := range []struct {
		name string
		req  protocol.GetEventsRequest
		err  string
	}{
		{"ErrPruned", protocol.GetEventsRequest{StartLedger: first}, outside},
		{"ErrCursorPruned", protocol.GetEventsRequest{Pagination: &protocol.PaginationOptions{Cursor: &c}}, outside},
		{"ErrPastLatest", protocol.GetEventsRequest{StartLedger: latest + 1}, outside},
		{"ErrNoStart", protocol.GetEventsRequest{}, "[-32602] startLedger must be positive"},
		{"ErrStartAndCursor", protocol.GetEventsRequest{StartLedger: oldest, Pagination: &protocol.PaginationOptions{Cursor: &c}},
			"[-32602] ledger ranges and cursor cannot both be set"},
		{"ErrLimit", protocol.GetEventsRequest{StartLedger: oldest, Pagination: &protocol.PaginationOptions{Limit: 10001}},
			"[-32602] limit must not exceed 10000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			_, err := n.rpc.GetEvents(n.ctx, tc.req)
			is.True(err != nil)
			is.Equal(err.Error(), tc.err)
		})
	}

	archive := rpcclient.NewClient(n.fake.Archive(), nil)
	defer archive.Close()
	full, _ := n.events(archive, first, 100)
	is.Equal(full, append(before, after...))
}

// TestFakeDisableEvents: an RPC server without getEvents answers it as
// jrpc2 answers any method it does not have.
func TestFakeDisableEvents(t *testing.T) {
	is := is.New(t)
	n := newTestNet(t)
	start := n.latest()
	n.fake.DisableEvents(true)
	_, err := n.rpc.GetEvents(n.ctx, protocol.GetEventsRequest{StartLedger: start})
	is.True(err != nil)
	is.Equal(err.Error(), "[-32601] method not found")
	n.fake.DisableEvents(false)
	_, err = n.rpc.GetEvents(n.ctx, protocol.GetEventsRequest{StartLedger: start})
	is.NoErr(err)
}
