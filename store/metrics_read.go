package store

import (
	"context"
	"slices"
	"strings"

	"github.com/riverqueue/river/riverdriver"
)

// StatusCount is how many payouts of one mode are in one status.
type StatusCount struct {
	Status   string
	Livemode bool
	N        int64
}

// PayoutCounts counts payouts by status and mode from the maintained
// counts (payment_counts): as cheap at ten million payouts as at ten.
func (g Health) PayoutCounts(ctx context.Context) ([]StatusCount, error) {
	db := g.db
	rows, err := db.r.QueryContext(ctx, `SELECT c.status, u.livemode, sum(c.n) FROM payment_counts c
		JOIN users u ON u.id = c.user_id GROUP BY c.status, u.livemode`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []StatusCount
	for rows.Next() {
		var c StatusCount
		if err := rows.Scan(&c.Status, &c.Livemode, &c.N); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// JobCount is how many background jobs are in one state.
type JobCount struct {
	State string
	N     int64
}

// JobCounts counts River's jobs by state (River's own count): what is
// queued, running, retrying or given up (completed jobs are kept an hour).
func (g Health) JobCounts(ctx context.Context) ([]JobCount, error) {
	db := g.db
	byState, err := db.readExecutor().JobCountByAllStates(ctx, &riverdriver.JobCountByAllStatesParams{})
	if err != nil {
		return nil, err
	}
	out := make([]JobCount, 0, len(byState))
	for state, n := range byState {
		out = append(out, JobCount{State: string(state), N: int64(n)})
	}
	slices.SortFunc(out, func(a, b JobCount) int { return strings.Compare(a.State, b.State) })
	return out, nil
}
