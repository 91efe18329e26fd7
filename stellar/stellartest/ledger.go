package stellartest

import "sort"

// The network's history by ledger: when each ledger closed, what every
// account held at its close, and where the retention window started. An
// endpoint that is behind (Node) answers from it as of its own ledger.

// version is an account as it stood from the close of ledger on, until
// the next version.
type version struct {
	ledger uint32
	acct   *account
}

// prune is a retention window starting at ledger oldest, closed at
// closedAt (Unix seconds), from that ledger on.
type prune struct {
	oldest   uint32
	closedAt int64
}

// nextLedger closes the current ledger and opens the next one at the
// clock. Every change to the network happens in the ledger it opens, so
// what the closed ledger held is kept first.
func (s *Server) nextLedger() {
	s.keep()
	s.ledger++
	s.closes[s.ledger] = s.now.Unix()
}

// keep records, copy on write, the accounts that changed since the last
// close, as the closing ledger left them. Comparing instead of marking
// each change keeps every mutation site (and its undo) unaware of history.
func (s *Server) keep() {
	for addr, a := range s.accounts {
		vs := s.versions[addr]
		if n := len(vs); n > 0 && vs[n-1].acct.same(a) {
			continue
		}
		s.versions[addr] = append(vs, version{ledger: s.ledger, acct: a.clone()})
	}
}

// accountAt is the account as it stood at the close of ledger (nil: it did
// not exist yet). The current ledger reads the live state.
func (s *Server) accountAt(addr string, ledger uint32) *account {
	if ledger >= s.ledger {
		return s.accounts[addr]
	}
	vs := s.versions[addr]
	i := sort.Search(len(vs), func(i int) bool { return vs[i].ledger > ledger })
	if i == 0 {
		return nil
	}
	return vs[i-1].acct
}

// closedAt is when ledger closed, in Unix seconds (0: before the fake's
// first ledger).
func (s *Server) closedAt(ledger uint32) int64 {
	return s.closes[ledger]
}

// oldestAsOf is the first ledger the retention window held when ledger
// was the latest, and when it closed.
func (s *Server) oldestAsOf(ledger uint32) (uint32, int64) {
	for i := len(s.prunes) - 1; i >= 0; i-- {
		if p := s.prunes[i]; p.oldest <= ledger {
			return p.oldest, p.closedAt
		}
	}
	return 1, 0
}

func (a *account) clone() *account {
	c := *a
	c.lines = make(map[string]*line, len(a.lines))
	for k, l := range a.lines {
		lc := *l
		c.lines[k] = &lc
	}
	return &c
}

func (a *account) same(b *account) bool {
	if a.seq != b.seq || a.native != b.native || a.modified != b.modified || len(a.lines) != len(b.lines) {
		return false
	}
	for k, l := range a.lines {
		m := b.lines[k]
		if m == nil || l.balance != m.balance || l.limit != m.limit {
			return false
		}
	}
	return true
}
