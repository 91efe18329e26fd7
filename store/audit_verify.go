package store

import (
	"context"
	"fmt"
)

// VerifyAudit walks the whole audit hash chain and reports the first row whose
// stored hash or link does not match a recomputation.
func (g History) VerifyAudit(ctx context.Context) (AuditVerdict, error) {
	db := g.db
	rows, err := db.r.QueryContext(ctx, `SELECT seq, at, user_id, actor, action, resource_type,
		resource_id, request_id, changes, prev_hash, hash FROM audit_log ORDER BY seq`)
	if err != nil {
		return AuditVerdict{}, err
	}
	defer rows.Close()
	v := AuditVerdict{Intact: true, LastHash: genesisHash}
	prev, expectSeq := genesisHash, int64(1)
	for rows.Next() {
		var seq, at int64
		var uid, actor, action, rtype, rid, reqID, changes, prevHash, hash string
		if err := rows.Scan(&seq, &at, &uid, &actor, &action, &rtype, &rid, &reqID, &changes, &prevHash, &hash); err != nil {
			return AuditVerdict{}, err
		}
		v.Rows++
		switch {
		case seq != expectSeq:
			return broken(v, seq, fmt.Sprintf("row %d missing", expectSeq)), rows.Close()
		case prevHash != prev:
			return broken(v, seq, "prevHash does not link to the previous row"), rows.Close()
		case auditHash(prevHash, seq, at, uid, actor, action, rtype, rid, reqID, changes) != hash:
			return broken(v, seq, "row content does not match its hash"), rows.Close()
		}
		prev, expectSeq = hash, seq+1
		v.LastHash = hash
	}
	return v, rows.Err()
}

func broken(v AuditVerdict, seq int64, reason string) AuditVerdict {
	v.Intact, v.BrokenAt, v.Reason = false, seq, reason
	return v
}
