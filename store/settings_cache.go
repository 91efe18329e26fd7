package store

import (
	"database/sql/driver"
	"sync/atomic"

	"modernc.org/sqlite"
)

// Per-user settings remembered by the committer. Every payout reads three
// rows that almost never change on the single write connection: the KYC
// status (confirm), the profile (the FIRA's beneficiary) and the
// sequestration policy (settlement), ~90 us per payout under load. Any
// insert, update or delete of those tables runs a trigger that calls
// payoutd_settings_changed(), which moves settingsChanges; a remembered
// row is used only while that counter stands still. Another process's
// commit is caught by the committer's data_version check, which forgets
// everything at the start of the next batch. (A counter in the file would
// need a query per lookup, and under load a one-row query costs about what
// the reads it saves do.) As with ledger account ids, what a transaction
// read joins the shared memory only when the transaction succeeded (a
// rolled-back one may have read its own uncommitted change), and
// everything is forgotten when a whole batch fails.
//
// The trigger's function exists only in payoutd's own connections, so a
// change to kyc, profiles or sequestration_policies made from another
// SQLite client (or an older payoutd) fails with "no such function"; such
// changes belong to payoutd's API and CLI anyway (docs/decisions.md,
// Storage, says how to drop the triggers before a downgrade).
var settingsChanges atomic.Int64

// settingsChanged is payoutd_settings_changed(), registered on every
// connection by sqliteDriver (db.go).
func settingsChanged(*sqlite.FunctionContext, []driver.Value) (driver.Value, error) {
	settingsChanges.Add(1)
	return nil, nil
}

type settingKey struct {
	table  string
	userID string
}

type settingRead struct {
	epoch int64 // settingsChanges when read
	val   any
	err   error // a not-found answer is remembered too
}

type settingsCache struct {
	epoch int64
	known bool
	vals  map[settingKey]settingRead
}

func (c *settingsCache) forget() { c.known, c.vals = false, nil }

func (c *settingsCache) learn(staged map[settingKey]settingRead) {
	now := settingsChanges.Load()
	for k, r := range staged {
		if r.epoch != now {
			continue // read before a change: of no use to anyone
		}
		if !c.known || c.epoch != r.epoch {
			c.epoch, c.known, c.vals = r.epoch, true, map[settingKey]settingRead{}
		}
		c.vals[k] = r
	}
}

// setting returns what read answers for k, remembered while the settings
// change counter stands still. read's not-found error (code notFound, if not
// empty) is remembered as an answer; any other error is returned, not kept.
func setting[T any](tx *Tx, k settingKey, notFound string, read func() (T, error)) (T, error) {
	epoch := settingsChanges.Load()
	if r, ok := tx.readSettings[k]; ok && r.epoch == epoch {
		return r.val.(T), r.err
	}
	if c := tx.settings; c != nil && c.known && c.epoch == epoch {
		if r, ok := c.vals[k]; ok {
			return r.val.(T), r.err
		}
	}
	v, err := read()
	if err == nil || notFound != "" && ErrorCode(err) == notFound {
		if tx.readSettings == nil {
			tx.readSettings = map[settingKey]settingRead{}
		}
		tx.readSettings[k] = settingRead{epoch: epoch, val: v, err: err}
	}
	return v, err
}
