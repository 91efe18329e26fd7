package store

import "strings"

// Settings rows, remembered by the committer: a user's KYC status, profile
// and sequestration policy are read by every initiate, confirm and
// settlement on the single write connection, and change rarely. Like the
// ledger account ids (ledger_account_cache.go) they are read inside the
// transaction that needs them, from memory when the committer has read
// them since they last changed, so a remembered row is exactly what a read
// would return:
//   - a statement naming the table (every write of it goes through
//     Tx.exec) forgets that table's rows at once, for the rest of the
//     batch too, and keeps its transaction from teaching any;
//   - a row read inside a transaction is remembered only when that
//     transaction succeeded;
//   - everything is forgotten when a batch fails and when another process
//     has written the file (PRAGMA data_version, DB.forget).
//
// Only the committer goroutine touches it.
type settingsCache struct {
	kyc      map[string]KYC
	profiles map[string]profileRow
	policies map[string]SequestrationPolicy
}

// profileRow is a profile as read, or the user's lack of one.
type profileRow struct {
	p     Profile
	found bool
}

// maxCachedSettings bounds each map; a miss only costs a read.
const maxCachedSettings = 100_000

// settingsTables are the tables remembered, one bit each.
const (
	settingsKYC = 1 << iota
	settingsProfiles
	settingsPolicies
)

// settingsLearnt is what one transaction read, remembered if it succeeds.
type settingsLearnt struct {
	written int // settings* bits of the tables its statements named
	settingsCache
}

// noteSettingsWrite forgets the rows of the settings table a statement
// names (the kyc table's name is part of its neighbours', kyc_sessions and
// kyc_documents: their writes forget KYC statuses too, at a read's cost).
func (tx *Tx) noteSettingsWrite(query string) {
	for _, t := range settingsTables {
		if strings.Contains(query, t.name) {
			tx.settings.forget(t.bit)
			tx.learntSettings.written |= t.bit
			tx.learntSettings.settingsCache.forget(t.bit)
		}
	}
}

var settingsTables = [...]struct {
	bit  int
	name string
}{{settingsKYC, "kyc"}, {settingsProfiles, "profiles"}, {settingsPolicies, "sequestration_policies"}}

func (c *settingsCache) forget(bits int) {
	if c == nil {
		return
	}
	if bits&settingsKYC != 0 {
		c.kyc = nil
	}
	if bits&settingsProfiles != 0 {
		c.profiles = nil
	}
	if bits&settingsPolicies != 0 {
		c.policies = nil
	}
}

// learn keeps what a transaction that succeeded read.
func (c *settingsCache) learn(l settingsLearnt) {
	if c == nil {
		return
	}
	c.kyc = learnInto(c.kyc, l.kyc)
	c.profiles = learnInto(c.profiles, l.profiles)
	c.policies = learnInto(c.policies, l.policies)
}

func learnInto[V any](m, learnt map[string]V) map[string]V {
	if len(learnt) == 0 {
		return m
	}
	if m == nil || len(m)+len(learnt) > maxCachedSettings {
		m = make(map[string]V, len(learnt))
	}
	for k, v := range learnt {
		m[k] = v
	}
	return m
}

// rememberedSetting answers userID's row of one settings table from this
// transaction's reads or the committer's, or reads it (read) and keeps it
// for the committer unless the transaction writes the table.
func rememberedSetting[V any](tx *Tx, bit int, userID string, maps func(*settingsCache) *map[string]V, read func() (V, error)) (V, error) {
	if v, ok := (*maps(&tx.learntSettings.settingsCache))[userID]; ok {
		return v, nil
	}
	if tx.settings != nil && tx.learntSettings.written&bit == 0 {
		if v, ok := (*maps(tx.settings))[userID]; ok {
			return v, nil
		}
	}
	v, err := read()
	if err != nil || tx.learntSettings.written&bit != 0 {
		return v, err
	}
	m := maps(&tx.learntSettings.settingsCache)
	if *m == nil {
		*m = map[string]V{}
	}
	(*m)[userID] = v
	return v, nil
}
