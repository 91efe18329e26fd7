package resilience

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/stellar/stellartest"
	"github.com/payoutd/payoutd/store/storetest"
)

// chaosState is what the current database says of the payouts and vaults.
type chaosState struct {
	status      map[string]string // payout id → status; absent: this database never knew it
	reason      map[string]string // payout id → failedReason
	flagged     map[string]bool   // payout id → a job gave up on it
	quarantined map[string]bool   // vault id
	blocked     map[string]bool   // vault id → an UNKNOWN payout's envelope holds it
	tracks      map[string]chaosTrack
}

// chaosTrack is how far a vault's movements are read (store.Track).
type chaosTrack struct {
	opening, openingLedger, eventsLedger, gapFrom, gapTo int64
}

func (tr chaosTrack) gap() bool { return tr.gapFrom > 0 }

// db is raw SQL on the current database file.
func (c *chaos) db() *storetest.DB {
	if c.sqlDB == nil {
		c.sqlDB = storetest.Open(c.t, filepath.Join(c.dir, "payoutd.db"))
	}
	return c.sqlDB
}

func (c *chaos) read() chaosState {
	db := c.db()
	st := chaosState{status: map[string]string{}, reason: map[string]string{}, flagged: map[string]bool{},
		quarantined: map[string]bool{}, blocked: map[string]bool{}, tracks: map[string]chaosTrack{}}
	rows, err := db.Query("SELECT id, status, coalesce(failed_reason, ''), attention, coalesce(vault_id, '') FROM payments WHERE livemode = 1")
	if err != nil {
		c.t.Fatal(err)
	}
	for rows.Next() {
		var id, status, reason, attention, vault string
		if err := rows.Scan(&id, &status, &reason, &attention, &vault); err != nil {
			c.t.Fatal(err)
		}
		st.status[id], st.reason[id], st.flagged[id] = status, reason, attention != ""
		if status == "UNKNOWN" {
			st.blocked[vault] = true
		}
	}
	rows.Close()
	rows, err = db.Query("SELECT vault_id FROM vault_quarantines WHERE released_at IS NULL")
	if err != nil {
		c.t.Fatal(err)
	}
	for rows.Next() {
		var id string
		rows.Scan(&id)
		st.quarantined[id] = true
	}
	rows.Close()
	rows, err = db.Query("SELECT vault_id, opening_stroops, opening_ledger, events_ledger, gap_from, gap_to FROM vault_tracks")
	if err != nil {
		c.t.Fatal(err)
	}
	for rows.Next() {
		var id string
		var tr chaosTrack
		rows.Scan(&id, &tr.opening, &tr.openingLedger, &tr.eventsLedger, &tr.gapFrom, &tr.gapTo)
		st.tracks[id] = tr
	}
	rows.Close()
	return st
}

func (c *chaos) vaultID(u int) string   { return c.vaults[u]["id"].(string) }
func (c *chaos) vaultAddr(u int) string { return c.vaults[u]["address"].(string) }

// waitsForPerson reports a payout visibly waiting for a person: UNKNOWN,
// in review, flagged, or in a quarantined vault or one an UNKNOWN payout
// blocks (the wallet view's blocked).
func (c *chaos) waitsForPerson(p chaosPayout, st chaosState) bool {
	s := st.status[p.id]
	return s == "UNKNOWN" || s == "MANUAL_REVIEW" || st.flagged[p.id] || st.quarantined[c.vaultID(p.vault)] || st.blocked[c.vaultID(p.vault)]
}

// settled reports every payout this database knows final or waiting for
// a person.
func (c *chaos) settled(st chaosState) (bool, string) {
	for _, p := range c.payouts {
		s, known := st.status[p.id]
		if !known || s == "COMPLETED" || s == "FAILED" || c.waitsForPerson(p, st) {
			continue
		}
		return false, p.id + " " + s
	}
	return true, ""
}

// check asserts the invariants after a step (negative: after the
// operator acted on what it left; 0: at the end).
func (c *chaos) check(step int) {
	c.t.Helper()
	c.noDoublePay(step)
	var st chaosState
	wait.For(c.t, 120*time.Second, func() error {
		// A dropped envelope is decided by its time bound: move the
		// network's clock on while payouts wait on it.
		if time.Since(c.advanced) > time.Second {
			c.fake.Advance(time.Minute)
			c.advanced = time.Now()
		}
		st = c.read()
		if ok, why := c.settled(st); !ok {
			return fmt.Errorf("step %d: not every payout is final or waiting for a person: %s", step, why)
		}
		return nil
	})
	c.noDoublePay(step)
	c.outcomes(step)
	latest := c.fake.Latest()
	for u := range c.vaults {
		c.vaultFacts(step, u, latest)
	}
	c.books(step)
	c.checkCommand(step)
}

// noDoublePay: the network never paid a payout's memo twice.
func (c *chaos) noDoublePay(step int) {
	for _, p := range c.payouts {
		if n := c.fake.Paid(p.memo); n > 1 {
			c.doubles++
			c.t.Fatalf("step %d: payout %s (memo %s) was paid %d times: %v", step, p.id, p.memo, n, c.fake.PaidBy(p.memo))
		}
	}
}

// outcomes: a COMPLETED payout was paid once; a FAILED one was not paid,
// or (a transaction this database does not know paid it) its vault is
// quarantined naming it, as soon as its movements are read.
func (c *chaos) outcomes(step int) {
	wait.For(c.t, 30*time.Second, func() error {
		st := c.read()
		for _, p := range c.payouts {
			switch paid := c.fake.Paid(p.memo); st.status[p.id] {
			case "COMPLETED":
				if paid != 1 {
					c.t.Fatalf("step %d: %s is COMPLETED but the network paid it %d times", step, p.id, paid)
				}
			case "FAILED":
				if paid != 0 && !st.quarantined[c.vaultID(p.vault)] {
					return fmt.Errorf("step %d: %s is FAILED, the network paid it (%v), and its vault is not quarantined", step, p.id,
						c.fake.PaidBy(p.memo))
				}
			}
		}
		return nil
	})
}

// chaosMovement is a movement as the database recorded it.
type chaosMovement struct {
	eventID, direction, hash, payment string
	stroops, ledger                   int64
}

func (c *chaos) recorded(vaultID string) []chaosMovement {
	rows, err := c.db().Query(`SELECT event_id, direction, tx_hash, coalesce(payment_id, ''), stroops, ledger FROM vault_movements
		WHERE vault_id = ? AND event_id IS NOT NULL`, vaultID)
	if err != nil {
		c.t.Fatal(err)
	}
	defer rows.Close()
	var out []chaosMovement
	for rows.Next() {
		var m chaosMovement
		if err := rows.Scan(&m.eventID, &m.direction, &m.hash, &m.payment, &m.stroops, &m.ledger); err != nil {
			c.t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// vaultFacts: once the vault's movements are read up to the network's
// latest ledger, each movement on the chain is recorded once and nothing
// else is; each payout's payment is tied to it; outside an open gap the
// deposits the API lists are the network's transfers into the vault, and
// the opening balance plus the movements is the chain balance.
func (c *chaos) vaultFacts(step, u int, latest uint32) {
	id, addr, key := c.vaultID(u), c.vaultAddr(u), c.keys[u]
	wait.For(c.t, 60*time.Second, func() error {
		st := c.read()
		tr := st.tracks[id]
		if tr.eventsLedger < int64(latest) {
			return fmt.Errorf("step %d: vault %s's movements are read to ledger %d, the network is at %d", step, id, tr.eventsLedger, latest)
		}
		chain := map[string]stellartest.Movement{}
		var chainSum int64
		for _, m := range c.fake.Movements(addr, testUSDC) {
			if int64(m.Ledger) > tr.eventsLedger {
				continue
			}
			chain[m.EventID] = m
			chainSum += signed(m.In, m.Stroops)
		}
		seen := map[string]bool{}
		tied := map[string]string{} // payout → the hash of the transfer tied to it
		books := tr.opening
		for _, m := range c.recorded(id) {
			if m.ledger > tr.eventsLedger {
				continue
			}
			cm, ok := chain[m.eventID]
			if !ok || seen[m.eventID] || cm.In != (m.direction == "in") || cm.Stroops != m.stroops || cm.Hash != m.hash {
				c.t.Fatalf("step %d: vault %s recorded %+v, which the network has as %+v (or already recorded)", step, id, m, cm)
			}
			seen[m.eventID] = true
			if m.payment != "" {
				if h, ok := tied[m.payment]; ok && h != m.hash {
					c.t.Fatalf("step %d: payout %s is tied to two transfers, %s and %s", step, m.payment, h, m.hash)
				}
				tied[m.payment] = m.hash
			}
			if m.ledger > tr.openingLedger {
				books += signed(m.direction == "in", m.stroops)
			}
		}
		for eid, m := range chain {
			if !seen[eid] && !(tr.gap() && int64(m.Ledger) >= tr.gapFrom && int64(m.Ledger) <= tr.gapTo) {
				return fmt.Errorf("step %d: vault %s has not recorded %+v", step, id, m)
			}
		}
		if err := c.paymentsTied(st, u, tied, tr); err != nil {
			return fmt.Errorf("step %d: %w", step, err)
		}
		if tr.gap() {
			return nil
		}
		if books != chainSum {
			return fmt.Errorf("step %d: vault %s: opening balance and movements are %d stroops, the chain holds %d at ledger %d",
				step, id, books, chainSum, tr.eventsLedger)
		}
		if track := wallet(c.t, c.url(), key)["track"].(map[string]any); track["status"] != "ok" {
			return fmt.Errorf("step %d: vault %s's track is %v", step, id, track)
		}
		return c.depositsListed(id, key, chain, tr.eventsLedger)
	})
}

func signed(in bool, stroops int64) int64 {
	if in {
		return stroops
	}
	return -stroops
}

// paymentsTied: each payout of the vault this database has COMPLETED is
// tied to the transfer that paid it, once its ledger is read.
func (c *chaos) paymentsTied(st chaosState, u int, tied map[string]string, tr chaosTrack) error {
	byHash := map[string]stellartest.Movement{}
	for _, m := range c.fake.Movements(c.vaultAddr(u), testUSDC) {
		byHash[m.Hash] = m
	}
	for _, p := range c.payouts {
		if p.vault != u || st.status[p.id] != "COMPLETED" {
			continue
		}
		by := c.fake.PaidBy(p.memo)
		if len(by) != 1 || int64(byHash[by[0]].Ledger) > tr.eventsLedger {
			continue
		}
		if tied[p.id] != by[0] {
			return fmt.Errorf("payout %s is COMPLETED, paid by %s, but its transfer is tied to %q", p.id, by[0], tied[p.id])
		}
	}
	return nil
}

// depositsListed: GET /api/v1/deposits lists each of the network's
// transfers into the vault up to ledger through once, and nothing else.
func (c *chaos) depositsListed(vaultID, key string, chain map[string]stellartest.Movement, through int64) error {
	var want, got []string
	for _, m := range chain {
		if m.In {
			want = append(want, fmt.Sprintf("%s %d", m.Hash, m.Stroops/100_000))
		}
	}
	after := ""
	for {
		_, _, page := liveCall(c.t, "GET", c.url()+"/api/v1/deposits?limit=100&vaultId="+vaultID+after, key, nil)
		items, ok := page["items"].([]any)
		if !ok {
			return fmt.Errorf("GET /api/v1/deposits: %v", page)
		}
		for _, it := range items {
			d := it.(map[string]any)
			if int64(d["ledger"].(float64)) <= through {
				got = append(got, fmt.Sprintf("%s %d", d["transactionHash"], int64(d["amountMinor"].(float64))))
			}
		}
		if page["hasMore"] != true {
			break
		}
		after = "&after=" + page["nextCursor"].(string)
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(want, ",") != strings.Join(got, ",") {
		return fmt.Errorf("vault %s's deposits are %d (%v), the network's transfers into it %d (%v)", vaultID, len(got), got, len(want), want)
	}
	return nil
}

// books: the wallet, the ledger and the chain agree for every vault that
// is neither quarantined, nor blocked by an UNKNOWN payout, nor missing
// ledgers.
func (c *chaos) books(step int) {
	for u, key := range c.keys {
		id, addr := c.vaultID(u), c.vaultAddr(u)
		wait.Until(c.t, 30*time.Second, fmt.Sprintf("step %d: vault %s's wallet, ledger and chain to agree", step, id), func() bool {
			w := wallet(c.t, c.url(), key)
			if w["quarantine"] != nil || w["blocked"] != nil || w["track"].(map[string]any)["status"] == "gap" {
				return true // waits for a person: an UNKNOWN payout the network may have paid holds its funds
			}
			chain, _ := c.fake.Balance(addr, testUSDC)
			return w["balance"] == fmt.Sprintf("%d.%02d", chain/1_0000000, chain%1_0000000/100_000) && c.ledgerMatches(id)
		})
	}
}

// ledgerMatches: the vault row equals its ledger account.
func (c *chaos) ledgerMatches(vaultID string) bool {
	var balance, ledger int64
	if c.db().QueryRow("SELECT balance FROM vaults WHERE id = ?", vaultID).Scan(&balance) != nil ||
		c.db().QueryRow("SELECT balance FROM ledger_accounts WHERE kind = 'vault' AND ref = ?", vaultID).Scan(&ledger) != nil {
		return false
	}
	return balance == ledger
}

// checkCommand: payoutd check finds nothing but vaults waiting for a
// person (quarantined, or missing ledgers until a resync).
func (c *chaos) checkCommand(step int) {
	out, err := exec.Command(binary, "check", "-db", filepath.Join(c.dir, "payoutd.db")).CombinedOutput()
	waiting := 0
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(line, "FAIL") {
			continue
		}
		if !strings.Contains(line, "is quarantined") && !strings.Contains(line, "were no longer kept by the RPC server") {
			c.t.Fatalf("step %d: payoutd check: %s", step, line)
		}
		waiting++
	}
	if err != nil && waiting == 0 {
		c.t.Fatalf("step %d: payoutd check: %v\n%s", step, err, out)
	}
}

// statuses counts the payouts by their status in the current database
// ("" for those it never knew).
func (c *chaos) statuses() map[string]int {
	st := c.read()
	out := map[string]int{}
	for _, p := range c.payouts {
		out[st.status[p.id]]++
	}
	return out
}
