package taxes

import (
	"context"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// LUTsOf reads the user's LUTs as the GST figures count them: each recorded
// one, then the profile's, for a year no record covers.
func LUTsOf(ctx context.Context, db *store.DB, userID string) (india.LUTs, error) {
	var out india.LUTs
	err := db.Snapshot(ctx, func(s *store.Snapshot) error {
		p, err := s.Profile(userID)
		if err != nil {
			return err
		}
		out, err = lutsOf(s, p)
		return err
	})
	return out, err
}
