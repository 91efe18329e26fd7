package store

// Ledger account ids, remembered by the committer. Every settlement posts to
// four accounts and looked each id up by its natural key: four indexed
// SELECTs per payout on the single write connection. An account's id never changes and accounts are never deleted, so
// the committer keeps the ids it has seen. An id learnt inside a
// transaction joins the shared map only when that transaction succeeded;
// the map is dropped when a whole batch fails (an account it created may
// not exist), when another process has written the file, and when it grows
// past maxCachedAccounts (a few per active user).
// post still checks that each account row exists (RowsAffected), so a wrong
// id could never post silently.

const maxCachedAccounts = 1 << 16

type accountKey struct {
	userID   string
	livemode bool
	kind     string
	currency string
	ref      string
}

type accountCache struct {
	ids map[accountKey]string
}

func (c *accountCache) lookup(k accountKey) (string, bool) {
	id, ok := c.ids[k]
	return id, ok
}

func (c *accountCache) forget() { c.ids = nil }

func (c *accountCache) learn(learnt map[accountKey]string) {
	if c.ids == nil || len(c.ids)+len(learnt) > maxCachedAccounts {
		c.ids = make(map[accountKey]string, len(learnt))
	}
	for k, id := range learnt {
		c.ids[k] = id
	}
}

// accountID returns the id of the account with key k known to this
// transaction or the committer.
func (tx *Tx) accountID(k accountKey) (string, bool) {
	if id, ok := tx.learnt[k]; ok {
		return id, true
	}
	if tx.accounts == nil {
		return "", false
	}
	return tx.accounts.lookup(k)
}

func (tx *Tx) learnAccount(k accountKey, id string) {
	if tx.learnt == nil {
		tx.learnt = map[accountKey]string{}
	}
	tx.learnt[k] = id
}
