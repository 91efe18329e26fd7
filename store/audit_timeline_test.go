package store

import (
	"context"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestResourceAuditUsesItsIndex: a payout's timeline is its own audit rows
// in chain order, found through audit_resource whatever the user's log
// holds; SQLite's plan searches that index and sorts nothing, so the
// oldest payout's page costs what the newest's does.
func TestResourceAuditUsesItsIndex(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	is.NoErr(db.Bench().SeedSettled(ctx, Seed{UserID: u.ID, From: 0, To: 1000, Destination: "GDEST", History: true}))
	all, _, err := db.Payments().ListPayments(ctx, PaymentFilter{UserID: u.ID, Page: 1, Limit: 1000})
	is.NoErr(err)
	oldest := all[len(all)-1].ID

	rows, err := db.History().ResourceAudit(ctx, u.ID, oldest, 100)
	is.NoErr(err)
	var actions []string
	for i, r := range rows {
		is.Equal(r.ResourceID, oldest)
		is.True(i == 0 || rows[i-1].Seq < r.Seq)
		actions = append(actions, r.Action)
	}
	is.Equal(strings.Join(actions, " "), "payment.initiated payment.compliance_check payment.processing payment.submitted payment.confirmed payment.completed")
	none, err := db.History().ResourceAudit(ctx, "usr_other", oldest, 100)
	is.NoErr(err)
	is.Equal(len(none), 0) // another user's rows are not this user's timeline

	plan := explain(t, db, resourceAuditSQL, oldest, u.ID, 100)
	is.True(strings.Contains(plan, "SEARCH audit_log USING INDEX audit_resource (resource_id=?)"))
	is.True(!strings.Contains(plan, "TEMP B-TREE")) // no sort: the index is in seq order
}
