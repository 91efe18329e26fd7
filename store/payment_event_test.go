package store

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestPaymentEventBytes: the payout.* payload and the transition's audit
// record are structs for speed; they must marshal to exactly the bytes a
// map of the documented keys would (keys sorted, optional keys absent when
// empty).
func TestPaymentEventBytes(t *testing.T) {
	inr := int64(12345)
	at := time.Date(2026, 11, 21, 10, 0, 0, 7_000_000, time.UTC)
	for _, tc := range []struct {
		name   string
		reason string
		inr    *int64
		meta   map[string]string
		review string
		fira   string
	}{{"bare", "", nil, nil, "", ""}, {"failed", "COMPLIANCE_REJECTED: x", nil, nil, "", ""}, {"settled", "", &inr, nil, "", ""},
		{"both", "r", &inr, nil, "", ""}, {"metadata", "", &inr, map[string]string{"order": "A-1", "customer": "c_9"}, "", ""},
		{"review", "", nil, nil, "AMOUNT_ABOVE_REVIEW_THRESHOLD: x", ""}, {"fira", "", &inr, nil, "", "fira_1"}} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			p := Payment{ID: "pay_1", TxnID: "t1", Status: StatusFailed, Amount: 500, Currency: "USD", FailedReason: tc.reason,
				AmountINR: tc.inr, UpdatedAt: at, Metadata: tc.meta, Version: 4, ReviewReason: tc.review, FiraID: tc.fira}
			want := map[string]any{"paymentId": p.ID, "txnId": p.TxnID, "status": p.Status, "amountMinor": p.Amount,
				"currency": p.Currency, "updatedAt": "2026-11-21T10:00:00.007Z", "version": 4}
			if tc.review != "" {
				want["reviewReason"] = tc.review
			}
			if tc.fira != "" {
				want["firaId"] = tc.fira
			}
			changes := map[string]any{"from": StatusSubmitted, "to": StatusFailed}
			if tc.reason != "" {
				want["failedReason"], changes["failedReason"] = tc.reason, tc.reason
			}
			if tc.inr != nil {
				want["amountInrPaise"] = *tc.inr
			}
			if tc.meta != nil {
				want["metadata"] = tc.meta
			}
			got, err := json.Marshal(eventDataOf(p))
			is.NoErr(err)
			exp, _ := json.Marshal(want)
			is.Equal(string(got), string(exp))
			got, err = json.Marshal(transitionChanges{FailedReason: tc.reason, From: StatusSubmitted, To: StatusFailed})
			is.NoErr(err)
			exp, _ = json.Marshal(changes)
			is.Equal(string(got), string(exp))
		})
	}
}
