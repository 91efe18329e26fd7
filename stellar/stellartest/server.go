// Package stellartest is a fake Stellar RPC server for tests: JSON-RPC over
// HTTP with the methods payoutd's rail uses. It is a small ledger, not a
// recording: every envelope sent is decoded with the SDK's XDR, its
// signature verified for the source account under the network passphrase,
// its sequence number and time bounds checked, and its operations applied
// to balances, so a wrong envelope fails here as it would on the network.
// Every asset movement emits its CAP-67 event, which getEvents serves as
// stellar-rpc does (events.go, get_events.go). Faults (busy, lost replies,
// dropped transactions, garbage) are injected per call; other endpoints
// on the same network serve full history (Archive) or fall behind (Node).
package stellartest

import (
	"sync"
	"time"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// Fault is an injected misbehaviour of the next sendTransaction.
type Fault int

const (
	// TryAgainLater answers TRY_AGAIN_LATER and drops the transaction.
	TryAgainLater Fault = iota + 1
	// LoseReply applies the transaction, then drops the connection
	// without answering.
	LoseReply
	// Drop answers PENDING but never applies the transaction, nor any
	// resend of it: it stays NOT_FOUND until its time bound passes.
	Drop
	// BadSeq has another wallet holding the same key use the account's next
	// sequence number just before this send.
	BadSeq
	// FeeRefused answers ERROR tx_insufficient_fee before looking at the
	// transaction, as a node whose queue is full of higher bids does: a
	// refusal about the network's state, not the envelope.
	FeeRefused
)

// Server is the fake network and its RPC endpoint.
type Server struct {
	URL        string
	Passphrase string

	mu       sync.Mutex
	main     endpoint
	now      time.Time
	ledger   uint32
	accounts map[string]*account
	txs      map[string]*txRecord
	order    []string // hashes of txs, in the order applied
	faults   []Fault
	garbage  int // calls still to answer with garbage
	applied  map[string]int
	dropped  map[string]bool
	crash    func(hash string, applied bool) bool
	sends    int
	// oldest is the first ledger whose transactions getTransaction still
	// knows, closed at oldestAt (Unix seconds); prunes is every window
	// the network had, for endpoints that are behind.
	oldest   uint32
	oldestAt int64
	prunes   []prune
	// closes is when each ledger closed (Unix seconds); versions is each
	// account's history, by ledger (ledger.go).
	closes   map[uint32]int64
	versions map[string][]version
	// events is every event emitted, in application order (events.go).
	events []event
	// minFee is the network's minimum fee per operation, in stroops, and
	// what it charges; feeStat is what getFeeStats reports as every
	// percentile of recent inclusion fees (0: minFee).
	minFee  int64
	feeStat int64
	entries []EntriesFault
	held    map[string]chan struct{} // method → closed when released
	waiting map[string]int           // calls held, by method
	paid    map[string][]string      // hashes of successful payments applied, by memo
	// archive is the endpoint with full history once started (Archive);
	// nodes are the other endpoints started (Node).
	archive *endpoint
	nodes   []*Node
}

type account struct {
	seq      int64
	native   int64
	modified uint32
	lines    map[string]*line // by asset, Asset.StringCanonical()
}

type line struct {
	asset   xdr.TrustLineAsset
	balance int64
	limit   int64
}

type txRecord struct {
	status   string // SUCCESS or FAILED
	ledger   uint32
	closedAt int64
	envelope string
	result   string
}

// New starts a fake network with the passphrase at ledger 1000, its clock
// at start.
func New(passphrase string, start time.Time) *Server {
	s := &Server{Passphrase: passphrase, now: start, ledger: 1000, accounts: map[string]*account{},
		txs: map[string]*txRecord{}, applied: map[string]int{}, dropped: map[string]bool{}, oldest: 1, minFee: 100,
		paid: map[string][]string{}, closes: map[uint32]int64{}, versions: map[string][]version{}}
	s.closes[s.ledger] = start.Unix()
	s.main = endpoint{faulty: true, latest: func() uint32 { return s.ledger }}
	s.start(&s.main)
	s.URL = s.main.http.URL
	return s
}

// Close stops the server and every other endpoint started on its network.
func (s *Server) Close() {
	s.main.http.Close()
	s.mu.Lock()
	others := append([]*Node(nil), s.nodes...)
	archive := s.archive
	s.mu.Unlock()
	if archive != nil {
		archive.http.Close()
	}
	for _, n := range others {
		n.ep.http.Close()
	}
}

// Advance moves the network's clock; each ledger closes at the clock.
func (s *Server) Advance(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = s.now.Add(d)
	s.nextLedger()
}

// Prune forgets every transaction and event applied so far, as an RPC
// server does with ledgers older than its retention window: getTransaction
// answers NOT_FOUND for them, getEvents refuses a start before now, and
// both report the history starting now. The archive (Archive) and a node
// behind (Node) still hold them.
func (s *Server) Prune() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextLedger()
	s.oldest, s.oldestAt = s.ledger, s.now.Unix()
	s.prunes = append(s.prunes, prune{oldest: s.oldest, closedAt: s.oldestAt})
}

// Inject queues faults for the next sends, in order.
func (s *Server) Inject(f ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, f...)
}

// Garbage makes the next n calls of any method to this endpoint answer
// with garbage.
func (s *Server) Garbage(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.garbage = n
}

// SetDown makes every call to this endpoint fail at the connection, or
// stops that (the archive and nodes still answer).
func (s *Server) SetDown(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.main.down = down
}

// DisableEvents makes getEvents on this endpoint answer "method not
// found", as an RPC server without the method does, or stops that.
func (s *Server) DisableEvents(disabled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.main.noEvents = disabled
}

// Fund creates the account if needed and adds native stroops (friendbot).
func (s *Server) Fund(address string, stroops int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accounts[address]
	if a == nil {
		// New accounts start at ledger<<32, as on the network.
		a = &account{seq: int64(s.ledger) << 32, lines: map[string]*line{}}
		s.accounts[address] = a
	}
	a.native += stroops
	a.modified = s.ledger
}

// Trust gives the account a trustline for asset holding balance stroops
// more. A positive balance arrives as the network would carry it: a
// payment from the issuer (a mint event), applied in a new ledger as a
// transaction getTransaction(s) and getEvents find. A negative one is
// taken silently, with no transaction or event: the RPC server's view
// changing by itself, or what a clawback looked like before events.
func (s *Server) Trust(address string, asset xdr.Asset, balance int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accounts[address]
	k := asset.StringCanonical()
	if a.lines[k] == nil {
		a.lines[k] = &line{asset: asset.ToTrustLineAsset(), limit: 1<<63 - 1}
		a.modified = s.ledger
	}
	if balance > 0 {
		s.mint(xdr.MustMuxedAddress(address), asset, balance)
		return
	}
	a.lines[k].balance += balance
	a.modified = s.ledger
}

// Balance is the account's trustline balance for asset, and whether the
// line exists.
func (s *Server) Balance(address string, asset xdr.Asset) (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accounts[address]
	if a == nil || a.lines[asset.StringCanonical()] == nil {
		return 0, false
	}
	return a.lines[asset.StringCanonical()].balance, true
}

// BumpSequence uses the account's next sequence number elsewhere, as
// another wallet holding the same key would.
func (s *Server) BumpSequence(address string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.accounts[address].seq++
}

// Applied is how many times the transaction with hash was applied in a
// ledger (successfully or not); a correct client never sees more than one.
func (s *Server) Applied(hash string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.applied[hash]
}

// AppliedTotal is the number of transactions applied.
func (s *Server) AppliedTotal() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.applied {
		n += c
	}
	return n
}

// Sends is the number of sendTransaction calls answered.
func (s *Server) Sends() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sends
}

// Now is the network's clock, for a client that should agree with it.
func (s *Server) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now
}

// OnSend sets a hook called for every valid send, before the transaction
// is applied (applied false) and after (true); answering true before
// applying drops the send unapplied and unanswered. A crash test kills the
// client from it: before applying is a client dead between storing its
// envelope and sending it, after is one dead before recording the outcome.
func (s *Server) OnSend(hook func(hash string, applied bool) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.crash = hook
}

// Hold makes calls of method to this endpoint wait, unanswered, until the
// returned release is called (or the caller gives up): a client caught
// between two calls, as a crash or a backup would find it.
func (s *Server) Hold(method string) (release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held == nil {
		s.held, s.waiting = map[string]chan struct{}{}, map[string]int{}
	}
	ch := make(chan struct{})
	s.held[method] = ch
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			delete(s.held, method)
			s.mu.Unlock()
			close(ch)
		})
	}
}

// Waiting is how many calls of method are held now.
func (s *Server) Waiting(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.waiting[method]
}
