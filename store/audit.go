package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// genesisHash is the prevHash of the first audit row.
const genesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// AuditEntry is one append-only audit row.
type AuditEntry struct {
	Seq          int64           `json:"seq"`
	At           string          `json:"at"`
	UserID       string          `json:"userId,omitempty"`
	Actor        string          `json:"actor"`
	Action       string          `json:"action"`
	ResourceType string          `json:"resourceType"`
	ResourceID   string          `json:"resourceId"`
	RequestID    string          `json:"requestId,omitempty"`
	Changes      json.RawMessage `json:"changes"`
	PrevHash     string          `json:"prevHash"`
	Hash         string          `json:"hash"`

	atMS     int64
	livemode bool
}

// auditHash chains one row to its predecessor. Fields are length-prefixed so
// no two different rows can serialise to the same bytes.
func auditHash(prev string, seq, at int64, userID, actor, action, rtype, rid, reqID, changes string) string {
	// Most rows fit the array; a longer one grows into the heap.
	var buf [768]byte
	b := buf[:0]
	for _, f := range [...]string{prev, strconv.FormatInt(seq, 10), strconv.FormatInt(at, 10), userID, actor, action, rtype, rid, reqID, changes} {
		b = strconv.AppendInt(b, int64(len(f)), 10)
		b = append(b, ':')
		b = append(b, f...)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Audit appends a row to the audit log in this transaction.
func (tx *Tx) Audit(userID string, livemode bool, action, rtype, rid string, changes any) error {
	raw := []byte("{}")
	if changes != nil {
		var err error
		if raw, err = json.Marshal(changes); err != nil {
			return fmt.Errorf("audit changes: %w", err)
		}
	}
	if !tx.head.ok {
		err := tx.queryRow("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1").Scan(&tx.head.seq, &tx.head.hash)
		if errors.Is(err, sql.ErrNoRows) {
			tx.head.seq, tx.head.hash = 0, genesisHash
		} else if err != nil {
			return err
		}
		tx.head.ok = true
	}
	prev, seq := tx.head.hash, tx.head.seq+1
	at := ms(tx.now)
	h := auditHash(prev, seq, at, userID, tx.Actor, action, rtype, rid, tx.RequestID, string(raw))
	// Inserted when the transaction ends, see log_rows.go.
	tx.auditRows = append(tx.auditRows, seq, at, userID, livemode, tx.Actor, action, rtype, rid, tx.RequestID, string(raw), prev, h)
	tx.countRow(userID, kindAudit, action)
	tx.head.seq, tx.head.hash = seq, h
	return nil
}

// auditHead is the newest row of the chain as the committer last wrote it,
// so appending costs no lookup. Only the committer goroutine touches it; it
// restores the head when a transaction rolls back to its savepoint and
// forgets it when a whole batch fails.
type auditHead struct {
	seq  int64
	hash string
	ok   bool
}

// AuditVerdict is the result of walking the hash chain.
type AuditVerdict struct {
	Intact   bool   `json:"intact"`
	Rows     int64  `json:"rows"`
	BrokenAt int64  `json:"brokenAt,omitempty"`
	Reason   string `json:"reason,omitempty"`
	LastHash string `json:"lastHash"`
}
