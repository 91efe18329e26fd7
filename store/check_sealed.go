package store

import (
	"context"
	"fmt"
)

// CheckSealed proves the master key opens what it sealed: every vault key
// (and that it is the key of the vault's address), session signing key,
// webhook secret and KYC document. It returns how many it opened and one
// problem per item that does not open. A restored database whose key is
// missing or another one's fails here rather than at the next serve.
func (g Health) CheckSealed(ctx context.Context, sealer *Sealer) (opened int, problems []string, err error) {
	db := g.db
	for _, q := range sealedItems {
		rows, err := db.r.QueryContext(ctx, q.sql)
		if err != nil {
			return 0, nil, err
		}
		for rows.Next() {
			var id, extra string
			var sealed []byte
			if err := rows.Scan(&id, &extra, &sealed); err != nil {
				rows.Close()
				return 0, nil, err
			}
			if q.opens(sealer, id, extra, sealed) {
				opened++
			} else {
				problems = append(problems, fmt.Sprintf("%s %s does not open with this master key", q.what, id))
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return 0, nil, err
		}
	}
	return opened, problems, nil
}

var sealedItems = []struct {
	what, sql string
	opens     func(s *Sealer, id, extra string, sealed []byte) bool
}{
	{"vault key", `SELECT id, address, key_sealed FROM vaults WHERE key_sealed IS NOT NULL`, openAndMatch},
	{"session signing key", `SELECT kid, '', private_key FROM signing_keys`, opensWith(func(id, _ string) []byte { return []byte(id) })},
	{"webhook secret", `SELECT id, endpoint_id, sealed FROM webhook_secrets`, opensWith(secretAD)},
	{"KYC document", `SELECT id, '', data FROM kyc_documents`, opensWith(func(id, _ string) []byte { return []byte(id) })},
}

func opensWith(ad func(id, extra string) []byte) func(*Sealer, string, string, []byte) bool {
	return func(s *Sealer, id, extra string, sealed []byte) bool {
		_, err := s.Open(sealed, ad(id, extra))
		return err == nil
	}
}
