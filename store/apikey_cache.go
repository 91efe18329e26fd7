package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// keyCache remembers the keys presented to this process by the hash of
// their secret, so authenticating a request costs a map lookup instead of
// a read on the pool (about 0.03 ms of CPU per request under load).
//
// It is never wrong for longer than this:
//   - a key written in this process (revoke, rotate, scopes, rate exemption,
//     or any statement naming api_keys) is forgotten when its transaction
//     commits, before WithTx returns (Tx.exec marks the transaction,
//     DB.WithTx calls forget);
//   - a key written by another process (`payoutd keys revoke` while the
//     server runs, a shell on the file) is forgotten within keyCheckEvery
//     plus one read: triggers on api_keys move api_key_generation.n in the
//     writing transaction (schema.sql), and the first request after
//     keyCheckEvery reads it, before using anything remembered.
//
// A read begun before a forget is not remembered after it (epoch), so a
// request racing a revoke cannot put the old row back. Only keys that
// exist are remembered: an unknown secret is read every time (and counted
// by the failed-authentication limit).
type keyCache struct {
	mu     sync.RWMutex
	byHash map[[sha256.Size]byte]APIKey
	epoch  uint64 // moves on every forget
	gen    int64  // api_key_generation.n when last read

	checkMu sync.Mutex   // one generation read at a time
	due     atomic.Int64 // keyClock when the generation must be read again
}

// keyCheckEvery is how often the generation is read while requests come
// in: a key revoked by another process is refused within this plus one read.
const keyCheckEvery = 500 * time.Millisecond

// maxCachedKeys bounds memory; a key dropped is only read again.
const maxCachedKeys = 10_000

// keyClockStart makes keyClock monotonic (time.Since reads the monotonic clock).
var keyClockStart = time.Now()

func keyClock() int64 { return int64(time.Since(keyClockStart)) }

// fresh reads the generation when keyCheckEvery has passed since the last
// read began, and forgets every key if another process changed one.
func (c *keyCache) fresh(ctx context.Context, r *sql.DB) error {
	if keyClock() < c.due.Load() {
		return nil
	}
	c.checkMu.Lock()
	defer c.checkMu.Unlock()
	began := keyClock()
	if began < c.due.Load() {
		return nil // another request read it meanwhile
	}
	var gen int64
	err := r.QueryRowContext(ctx, "SELECT n FROM api_key_generation WHERE id = 1").Scan(&gen)
	if err != nil && !errors.Is(err, sql.ErrNoRows) { // no row: no key changed since the table was made
		return err
	}
	c.mu.Lock()
	if gen != c.gen {
		c.gen = gen
		c.forgetLocked()
	}
	c.mu.Unlock()
	c.due.Store(began + int64(keyCheckEvery))
	return nil
}

func (c *keyCache) get(h [sha256.Size]byte) (APIKey, uint64, bool) {
	c.mu.RLock()
	k, ok := c.byHash[h]
	epoch := c.epoch
	c.mu.RUnlock()
	return k, epoch, ok
}

// put remembers k unless something was forgotten since the read of it
// began (epoch).
func (c *keyCache) put(h [sha256.Size]byte, k APIKey, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch != epoch {
		return
	}
	if c.byHash == nil || len(c.byHash) >= maxCachedKeys {
		c.byHash = map[[sha256.Size]byte]APIKey{}
	}
	c.byHash[h] = k
}

// forget drops every remembered key.
func (c *keyCache) forget() {
	c.mu.Lock()
	c.forgetLocked()
	c.mu.Unlock()
}

func (c *keyCache) forgetLocked() {
	c.byHash = nil
	c.epoch++
}

// noteKeyWrite marks the transaction when a statement writes api_keys, so
// the keys remembered are forgotten when it commits.
func (tx *Tx) noteKeyWrite(query string) {
	if !tx.keysWritten && strings.Contains(query, "api_keys") {
		tx.keysWritten = true
	}
}

// copyKey hands out a key no caller can change the remembered one through.
func copyKey(k APIKey) APIKey {
	k.Scopes = slices.Clone(k.Scopes)
	if k.ExpiresAt != nil {
		t := *k.ExpiresAt
		k.ExpiresAt = &t
	}
	if k.RevokedAt != nil {
		t := *k.RevokedAt
		k.RevokedAt = &t
	}
	return k
}
