package stellartest

// Node is another RPC server on the same network whose view can fall
// behind: every read (getLatestLedger, getHealth, getLedgerEntries,
// getEvents, getTransaction(s), getFeeStats) answers as of its own latest
// ledger — accounts, transactions and events as they were then — while
// sendTransaction is relayed to the network, as a lagging node still does.
// Its retention window is the network's as it was at that ledger.
type Node struct {
	URL string
	s   *Server
	ep  endpoint
	// lag is how many ledgers behind the network it reads; frozen, when
	// set, is the ledger it is stuck at instead.
	lag    uint32
	frozen uint32
}

// Node starts another RPC endpoint on the network, answering as this one
// does (Live) until told otherwise. Each call starts a new one; Close
// stops them.
func (s *Server) Node() *Node {
	n := &Node{s: s}
	n.ep = endpoint{latest: n.latest}
	s.start(&n.ep)
	n.URL = n.ep.http.URL
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nodes = append(s.nodes, n)
	return n
}

// latest is the last ledger the node has; s.mu is held.
func (n *Node) latest() uint32 {
	switch {
	case n.frozen != 0:
		return n.frozen
	case n.s.ledger > n.lag:
		return n.s.ledger - n.lag
	}
	return 1
}

// Live makes the node answer as the main server does, caught up.
func (n *Node) Live() {
	n.s.mu.Lock()
	defer n.s.mu.Unlock()
	n.lag, n.frozen = 0, 0
}

// Lag makes every read answer as of ledgers ledgers ago, however far the
// network moves on: its latest ledger is that many behind, and so are its
// balances, sequence numbers, transactions and events.
func (n *Node) Lag(ledgers uint32) {
	n.s.mu.Lock()
	defer n.s.mu.Unlock()
	n.lag, n.frozen = ledgers, 0
}

// Freeze sticks the node at the ledger it has now, forever, while the
// network moves on: once the network's clock is 30s past that ledger's
// close, getHealth answers unhealthy, as stellar-rpc does.
func (n *Node) Freeze() {
	n.s.mu.Lock()
	defer n.s.mu.Unlock()
	n.frozen = n.latest()
}

// SetDown makes every call to the node fail at the connection, or stops
// that.
func (n *Node) SetDown(down bool) {
	n.s.mu.Lock()
	defer n.s.mu.Unlock()
	n.ep.down = down
}

// DisableEvents makes getEvents on the node answer "method not found", or
// stops that.
func (n *Node) DisableEvents(disabled bool) {
	n.s.mu.Lock()
	defer n.s.mu.Unlock()
	n.ep.noEvents = disabled
}
