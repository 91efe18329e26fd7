package server_test

import (
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/matryer/is"
)

var hexHash = regexp.MustCompile(`^[0-9a-f]{64}$`)

func TestAuditList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	clock := e.fixClock(ist(2026, time.November, 21, 15, 30))
	first := e.pay("10.00", map[string]any{"invoiceRef": "INV-1"})
	e.quiesce()
	clock.Set(ist(2026, time.November, 22, 15, 30))
	second := e.pay("20.00", map[string]any{"invoiceRef": "INV-2"})
	e.quiesce()
	other, _, _ := e.newUser("other@example.com", false, []string{"compliance:read"})

	t.Run("NewestFirstWithEveryField", func(t *testing.T) {
		is := is.New(t)
		m := e.getExact("/api/v1/compliance/audit?limit=100")
		items := m["items"].([]any)
		is.True(len(items) > 10)
		is.Equal(at(m, "total"), strconv.Itoa(len(items)))
		var prev int64 = 1 << 62
		sawRequestID := false
		for _, it := range items {
			a := it.(map[string]any)
			seq, err := a["seq"].(interface{ Int64() (int64, error) }).Int64()
			is.NoErr(err)
			is.True(seq < prev) // newest (highest seq) first
			prev = seq
			is.True(hexHash.MatchString(a["hash"].(string)))
			is.True(hexHash.MatchString(a["prevHash"].(string)))
			is.True(a["actor"] != "" && a["action"] != "" && a["resourceType"] != "" && a["at"] != nil && a["changes"] != nil)
			if a["action"] == "payment.initiated" && a["requestId"] != "" {
				sawRequestID = true // API requests label their rows
			}
		}
		is.True(sawRequestID)
	})

	cases := []struct {
		name, query string
		check       func(is *is.I, items []any)
	}{
		{"Action", "?action=payment.initiated", func(is *is.I, items []any) {
			is.Equal(len(items), 2)
			is.Equal(items[0].(map[string]any)["resourceId"], second)
		}},
		{"ResourceID", "?resourceId=" + first, func(is *is.I, items []any) {
			is.True(len(items) >= 5) // initiated … completed, reconciled
			for _, it := range items {
				is.Equal(it.(map[string]any)["resourceId"], first)
			}
		}},
		{"FromDay", "?from=2026-11-22&action=payment.initiated", func(is *is.I, items []any) {
			is.Equal(len(items), 1)
			is.Equal(items[0].(map[string]any)["resourceId"], second)
		}},
		{"ToDay", "?to=2026-11-21&action=payment.initiated", func(is *is.I, items []any) {
			is.Equal(len(items), 1)
			is.Equal(items[0].(map[string]any)["resourceId"], first)
			is.Equal(items[0].(map[string]any)["at"], "2026-11-21T10:00:00.000Z")
		}},
		{"Unknown", "?action=no.such.action", func(is *is.I, items []any) { is.Equal(len(items), 0) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.check(is.New(t), e.getExact("/api/v1/compliance/audit" + c.query)["items"].([]any))
		})
	}

	t.Run("OnlyTheCallersRows", func(t *testing.T) {
		is := is.New(t)
		r := e.reqAs(other, "GET", "/api/v1/compliance/audit?resourceId="+first, nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.JSON(t)["total"], float64(0))
	})

	t.Run("ErrInput", func(t *testing.T) {
		for _, q := range []string{"?page=0", "?limit=x", "?from=21-11-2026", "?from=2026-11-22&to=2026-11-21"} {
			is := is.New(t)
			r := e.req("GET", "/api/v1/compliance/audit"+q, nil)
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), "ERR_VALIDATION")
		}
	})
}

func TestAuditVerify(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.pay("10.00", map[string]any{"invoiceRef": "INV-1"})
	e.quiesce()

	is := is.New(t)
	var rows int64
	var last string
	is.NoErr(e.SQL.QueryRow("SELECT count(*), (SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1) FROM audit_log").Scan(&rows, &last))
	v := e.req("GET", "/api/v1/compliance/audit/verify", nil).JSON(t)
	is.Equal(v["intact"], true)
	is.Equal(v["rows"], float64(rows))
	is.Equal(v["lastHash"], last)
	is.Equal(v["brokenAt"], nil)

	t.Run("TamperingIsDetected", func(t *testing.T) {
		is := is.New(t)
		_, err := e.SQL.Exec("UPDATE audit_log SET changes = '{}' WHERE seq = 3")
		is.True(err != nil) // the trigger refuses it
		_, err = e.SQL.Exec("DROP TRIGGER audit_no_update")
		is.NoErr(err)
		_, err = e.SQL.Exec(`UPDATE audit_log SET changes = '{"amount":1}' WHERE seq = 3`)
		is.NoErr(err)
		v := e.req("GET", "/api/v1/compliance/audit/verify", nil).JSON(t)
		is.Equal(v["intact"], false)
		is.Equal(v["brokenAt"], float64(3))
		is.True(v["reason"] != "")
	})

	t.Run("ListStillServesABrokenRow", func(t *testing.T) {
		is := is.New(t)
		_, err := e.SQL.Exec(`UPDATE audit_log SET changes = 'not json' WHERE seq = (SELECT max(seq) FROM audit_log WHERE user_id = ?)`, e.UserID)
		is.NoErr(err)
		r := e.req("GET", "/api/v1/compliance/audit?limit=1", nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.JSON(t)["items"].([]any)[0].(map[string]any)["changes"], "not json")
	})
}
