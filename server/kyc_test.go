package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/store"
)

// kycSetState puts a user's KYC record straight into a state, as a fixture.
func kycSetState(e *env, userID, status string, attempts int) {
	e.t.Helper()
	if _, err := e.SQL.Exec("UPDATE kyc SET status = ?, attempts = ? WHERE user_id = ?", status, attempts, userID); err != nil {
		e.t.Fatal(err)
	}
}

type kycStatusBody struct {
	UserID             string   `json:"userId"`
	Status             string   `json:"status"`
	AllowedTransitions []string `json:"allowedTransitions"`
	Reason             string   `json:"reason"`
	ResubmissionsLeft  *int     `json:"resubmissionsLeft"`
}

func kycStatusOf(e *env, key string) kycStatusBody {
	e.t.Helper()
	r := e.reqAs(key, "GET", "/api/v1/kyc/status", nil)
	if r.Status != http.StatusOK {
		e.t.Fatalf("kyc/status: %d %s", r.Status, r.Body)
	}
	var b kycStatusBody
	if err := json.Unmarshal(r.Body, &b); err != nil {
		e.t.Fatal(err)
	}
	return b
}

// kycMoves lists the (from → to) pairs of a user's audit trail.
func kycMoves(e *env, userID string) []string {
	e.t.Helper()
	rows, err := e.SQL.Query("SELECT changes FROM audit_log WHERE action = 'kyc.updated' AND user_id = ? ORDER BY seq", userID)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var raw string
		var c struct{ From, To string }
		if err := rows.Scan(&raw); err != nil {
			e.t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(raw), &c); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, c.From+">"+c.To)
	}
	return out
}

func TestKYCStatusAllowedTransitions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true }, stopClock)
	cases := []struct {
		status   string
		attempts int
		allowed  string
	}{
		{store.KYCPending, 0, "IN_PROGRESS"},
		{store.KYCInProgress, 0, "DOCS_SUBMITTED"},
		{store.KYCDocsSubmitted, 0, "UNDER_REVIEW"},
		{store.KYCUnderReview, 0, "APPROVED,REJECTED"},
		{store.KYCApproved, 0, ""},
		{store.KYCRejected, 0, "DOCS_SUBMITTED"},
		{store.KYCRejected, 2, "DOCS_SUBMITTED"},
		{store.KYCRejected, 3, ""},
	}
	for _, c := range cases {
		t.Run(c.status, func(t *testing.T) {
			is := is.New(t)
			kycSetState(e, e.UserID, c.status, c.attempts)
			b := kycStatusOf(e, e.Key)
			is.Equal(b.UserID, e.UserID)
			is.Equal(b.Status, c.status)
			is.True(b.AllowedTransitions != nil) // [] rather than null
			is.Equal(strings.Join(b.AllowedTransitions, ","), c.allowed)
			if c.status == store.KYCRejected {
				is.Equal(*b.ResubmissionsLeft, kyc.MaxAttempts-c.attempts)
			} else {
				is.True(b.ResubmissionsLeft == nil)
			}
		})
	}
}

func TestKYCStart(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true }, stopClock)
	start := func(key string) (int, map[string]any) {
		r := e.reqAs(key, "POST", "/api/v1/kyc/start", nil)
		if r.Status != http.StatusOK {
			return r.Status, map[string]any{"code": r.errCode(t)}
		}
		return r.Status, r.JSON(t)
	}
	t.Run("FromPending", func(t *testing.T) {
		is := is.New(t)
		key, uid, _ := e.newUser("start-pending@example.com", false, store.AllScopes)
		status, m := start(key)
		is.Equal(status, http.StatusOK)
		is.Equal(m["success"], true)
		is.Equal(m["status"], "IN_PROGRESS")
		sid := m["sessionId"].(string)
		is.True(strings.HasPrefix(sid, "kys_"))
		is.Equal(m["redirectUrl"], "http://payoutd.test/verify/"+sid)
		is.True(m["message"].(string) != "")
		is.Equal(kycMoves(e, uid), []string{"PENDING>IN_PROGRESS"})
		// Again before any browser opened it: the same link.
		_, again := start(key)
		is.Equal(again["sessionId"], sid)
		is.Equal(again["status"], "IN_PROGRESS")
		is.Equal(kycMoves(e, uid), []string{"PENDING>IN_PROGRESS"})
		// Once a browser claimed it, a new link (to switch browsers).
		_, err := e.SQL.Exec("UPDATE kyc_sessions SET claimed_at = 1 WHERE id = ?", sid)
		is.NoErr(err)
		_, third := start(key)
		is.True(third["sessionId"] != sid)
		is.Equal(third["success"], true)
	})
	t.Run("EmptyObjectBody", func(t *testing.T) {
		is := is.New(t)
		key, _, _ := e.newUser("start-body@example.com", false, store.AllScopes)
		is.Equal(e.reqAs(key, "POST", "/api/v1/kyc/start", map[string]any{}).Status, http.StatusOK)
		r := e.reqAs(key, "POST", "/api/v1/kyc/start", map[string]any{"force": true})
		is.Equal(r.Status, http.StatusBadRequest)
		is.True(r.field(t, "force") != "")
	})
	noSession := []struct{ status, msg string }{
		{store.KYCApproved, "approved"},
		{store.KYCDocsSubmitted, "review"},
		{store.KYCUnderReview, "review"},
	}
	for _, c := range noSession {
		t.Run("SuccessFalseFrom"+c.status, func(t *testing.T) {
			is := is.New(t)
			key, uid, _ := e.newUser("start-"+strings.ToLower(c.status)+"@example.com", false, store.AllScopes)
			kycSetState(e, uid, c.status, 0)
			status, m := start(key)
			is.Equal(status, http.StatusOK) // APPROVED is final: not an error
			is.Equal(m["success"], false)
			is.Equal(m["status"], c.status)
			is.True(strings.Contains(m["message"].(string), c.msg))
			_, hasURL := m["redirectUrl"]
			is.True(!hasURL)
			is.Equal(len(kycMoves(e, uid)), 0)
		})
	}
	t.Run("FromRejectedGivesResubmissionLink", func(t *testing.T) {
		is := is.New(t)
		key, uid, _ := e.newUser("start-rejected@example.com", false, store.AllScopes)
		kycSetState(e, uid, store.KYCRejected, 1)
		status, m := start(key)
		is.Equal(status, http.StatusOK)
		is.Equal(m["success"], true)
		is.Equal(m["status"], "REJECTED") // the upload moves it, not the start
		is.True(m["sessionId"].(string) != "")
		is.Equal(len(kycMoves(e, uid)), 0)
	})
	t.Run("ErrInvalidStateWhenResubmissionsUsed", func(t *testing.T) {
		is := is.New(t)
		key, uid, _ := e.newUser("start-exhausted@example.com", false, store.AllScopes)
		kycSetState(e, uid, store.KYCRejected, kyc.MaxAttempts)
		status, m := start(key)
		is.Equal(status, http.StatusConflict)
		is.Equal(m["code"], "ERR_INVALID_STATE")
	})
	t.Run("ErrInsufficientScope", func(t *testing.T) {
		is := is.New(t)
		key, _, _ := e.newUser("start-readonly@example.com", false, []string{"account:read"})
		status, m := start(key)
		is.Equal(status, http.StatusForbidden)
		is.Equal(m["code"], "ERR_INSUFFICIENT_SCOPE")
	})
}

func TestSandboxKYCWalks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true }, stopClock)
	cases := []struct {
		name     string
		from     string
		attempts int
		approve  bool
		status   int
		moves    string // the audited moves, or the error code
	}{
		{"ApproveFromPending", store.KYCPending, 0, true, 200,
			"PENDING>IN_PROGRESS IN_PROGRESS>DOCS_SUBMITTED DOCS_SUBMITTED>UNDER_REVIEW UNDER_REVIEW>APPROVED"},
		{"RejectFromPending", store.KYCPending, 0, false, 200,
			"PENDING>IN_PROGRESS IN_PROGRESS>DOCS_SUBMITTED DOCS_SUBMITTED>UNDER_REVIEW UNDER_REVIEW>REJECTED"},
		{"ApproveFromInProgress", store.KYCInProgress, 0, true, 200,
			"IN_PROGRESS>DOCS_SUBMITTED DOCS_SUBMITTED>UNDER_REVIEW UNDER_REVIEW>APPROVED"},
		{"ApproveFromDocsSubmitted", store.KYCDocsSubmitted, 0, true, 200, "DOCS_SUBMITTED>UNDER_REVIEW UNDER_REVIEW>APPROVED"},
		{"RejectFromUnderReview", store.KYCUnderReview, 0, false, 200, "UNDER_REVIEW>REJECTED"},
		{"ApproveFromUnderReview", store.KYCUnderReview, 0, true, 200, "UNDER_REVIEW>APPROVED"},
		{"ApproveFromRejected", store.KYCRejected, 0, true, 200, "REJECTED>DOCS_SUBMITTED DOCS_SUBMITTED>UNDER_REVIEW UNDER_REVIEW>APPROVED"},
		{"RejectFromRejected", store.KYCRejected, 2, false, 200, "REJECTED>DOCS_SUBMITTED DOCS_SUBMITTED>UNDER_REVIEW UNDER_REVIEW>REJECTED"},
		{"ErrApproveFromApproved", store.KYCApproved, 0, true, 409, "ERR_INVALID_STATE"},
		{"ErrRejectFromApproved", store.KYCApproved, 0, false, 409, "ERR_INVALID_STATE"},
		{"ErrApproveWhenResubmissionsUsed", store.KYCRejected, 3, true, 409, "ERR_INVALID_STATE"},
		{"ErrRejectWhenResubmissionsUsed", store.KYCRejected, 3, false, 409, "ERR_INVALID_STATE"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			key, uid, _ := e.newUser("walk"+string(rune('a'+i))+"@example.com", false, store.AllScopes)
			kycSetState(e, uid, c.from, c.attempts)
			path := "/api/v1/sandbox/kyc/reject"
			if c.approve {
				path = "/api/v1/sandbox/kyc/approve"
			}
			r := e.reqAs(key, "POST", path, nil)
			is.Equal(r.Status, c.status)
			if c.status != 200 {
				is.Equal(r.errCode(t), c.moves)
				is.Equal(len(kycMoves(e, uid)), 0) // nothing moved
				return
			}
			is.Equal(strings.Join(kycMoves(e, uid), " "), c.moves)
			final := "APPROVED"
			if !c.approve {
				final = "REJECTED"
			}
			is.Equal(r.JSON(t)["status"], final)
			is.Equal(kycStatusOf(e, key).Status, final)
			// Every move emitted kyc.updated in its transaction.
			var events int
			is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM events WHERE user_id = ? AND type = 'kyc.updated'", uid).Scan(&events))
			is.Equal(events, len(kycMoves(e, uid)))
		})
	}
}

func TestSandboxKYCResubmissionLimit(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true }, stopClock)
	reject := func() int {
		return e.req("POST", "/api/v1/sandbox/kyc/reject", map[string]any{"reason": "blurry scan"}).Status
	}
	is.Equal(reject(), http.StatusOK) // first submission rejected
	b := kycStatusOf(e, e.Key)
	is.Equal(b.Reason, "blurry scan")
	is.Equal(*b.ResubmissionsLeft, 3)
	for left := 2; left >= 0; left-- {
		is.Equal(reject(), http.StatusOK) // a resubmission, rejected again
		b = kycStatusOf(e, e.Key)
		is.Equal(*b.ResubmissionsLeft, left)
	}
	is.Equal(b.AllowedTransitions, []string{})
	r := e.req("POST", "/api/v1/sandbox/kyc/approve", nil)
	is.Equal(r.Status, http.StatusConflict)
	is.Equal(r.errCode(t), "ERR_INVALID_STATE")
	r = e.req("POST", "/api/v1/kyc/start", nil)
	is.Equal(r.Status, http.StatusConflict)

	// The events carry the state and what may come next.
	var data string
	is.NoErr(e.SQL.QueryRow("SELECT data FROM events WHERE user_id = ? AND type = 'kyc.updated' ORDER BY rowid DESC LIMIT 1", e.UserID).Scan(&data))
	var ev map[string]any
	is.NoErr(json.Unmarshal([]byte(data), &ev))
	is.Equal(ev["status"], "REJECTED")
	is.Equal(ev["previousStatus"], "UNDER_REVIEW")
	is.Equal(ev["allowedTransitions"], []any{})
	is.Equal(ev["reason"], "blurry scan")
}

func TestSandboxKYCRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true }, stopClock)
	t.Run("ErrSandboxOnly", func(t *testing.T) {
		is := is.New(t)
		live, _, _ := e.newUser("live@example.com", true, store.AllScopes)
		for _, p := range []string{"/api/v1/sandbox/kyc/approve", "/api/v1/sandbox/kyc/reject"} {
			r := e.reqAs(live, "POST", p, nil)
			is.Equal(r.Status, http.StatusForbidden)
			is.Equal(r.errCode(t), "ERR_SANDBOX_ONLY")
		}
	})
	t.Run("ErrReasonOnApprove", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/sandbox/kyc/approve", map[string]any{"reason": "x"})
		is.Equal(r.Status, http.StatusBadRequest)
		is.True(r.field(t, "reason") != "")
	})
	t.Run("ErrReasonTooLong", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/sandbox/kyc/reject", map[string]any{"reason": strings.Repeat("x", 257)})
		is.Equal(r.Status, http.StatusBadRequest)
		is.True(r.field(t, "reason") != "")
	})
	t.Run("ApprovedUnlocksCrossBorder", func(t *testing.T) {
		is := is.New(t)
		cross := map[string]any{"amount": "10.00", "currency": "USD", "destinationAddress": testAddress, "counterpartyCountry": "US", "counterpartyName": "Acme Inc"}
		is.Equal(e.req("POST", "/api/v1/payments/initiate", cross).Status, http.StatusForbidden)
		is.Equal(e.req("POST", "/api/v1/sandbox/kyc/approve", nil).Status, http.StatusOK)
		is.Equal(e.req("POST", "/api/v1/payments/initiate", cross).Status, http.StatusCreated)
	})
}
