package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestBadInputGetsDocumentedErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	const path = "/api/v1/payments/initiate"
	valid := `{"amount":10,"currency":"USD","destinationAddress":"` + testAddress + `"}`
	cases := []struct {
		name   string
		body   string
		ctype  string
		status int
		code   string
		field  string
	}{
		{"Malformed", `{"amount":`, "application/json", 400, "ERR_VALIDATION", "body"},
		{"NotObject", `[1,2]`, "application/json", 400, "ERR_VALIDATION", "body"},
		{"Empty", ``, "application/json", 400, "ERR_VALIDATION", "body"},
		{"Null", `null`, "application/json", 400, "ERR_VALIDATION", "body"},
		{"TrailingData", valid + `{}`, "application/json", 400, "ERR_VALIDATION", "body"},
		{"UnknownField", `{"amount":10,"currency":"USD","destinationAddress":"` + testAddress + `","admin":true}`, "application/json", 400, "ERR_VALIDATION", "admin"},
		{"WrongTypeCurrency", `{"amount":10,"currency":5,"destinationAddress":"` + testAddress + `"}`, "application/json", 400, "ERR_VALIDATION", "currency"},
		{"WrongTypeAmount", `{"amount":true,"currency":"USD","destinationAddress":"` + testAddress + `"}`, "application/json", 400, "ERR_VALIDATION", "amount"},
		{"TooLarge", `{"memo":"` + strings.Repeat("x", 70<<10) + `"}`, "application/json", 413, "ERR_BODY_TOO_LARGE", ""},
		{"WrongContentType", valid, "text/plain", 415, "ERR_UNSUPPORTED_MEDIA_TYPE", ""},
		{"NoContentType", valid, "", 415, "ERR_UNSUPPORTED_MEDIA_TYPE", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("POST", path, []byte(c.body), "Content-Type", c.ctype)
			is.Equal(r.Status, c.status)
			is.Equal(r.errCode(t), c.code)
			if c.field != "" {
				is.True(r.field(t, c.field) != "")
			}
		})
	}
	var n int
	is.New(t).NoErr(e.SQL.QueryRow("SELECT count(*) FROM payments").Scan(&n))
	is.New(t).Equal(n, 0) // nothing was written
}

func TestSQLMetacharactersAreData(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	evil := `'; DROP TABLE payments; -- "\x00`
	id := e.initiate("12.34", map[string]any{"memo": evil, "invoiceRef": `INV' OR 1=1 --`, "counterpartyName": `Robert"); DELETE FROM users; --`})
	p, err := e.DB.Payments().FindPayment(context.Background(), e.UserID, id)
	is.NoErr(err)
	is.Equal(p.Memo, evil)
	is.Equal(p.InvoiceRef, `INV' OR 1=1 --`)
	r := e.req("GET", "/api/v1/payments?invoiceRef="+`'%20OR%20'1'='1`, nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(r.JSON(t)["total"], float64(0))
	r = e.req("GET", "/api/v1/payments?invoiceRef="+`INV'%20OR%201=1%20--`, nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(r.JSON(t)["total"], float64(1))
	r = e.req("GET", "/api/v1/payments/x'%20OR%201=1--/status", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(strings.TrimSpace(string(r.Body)), "null")
}

func TestPagination(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	for i := 0; i < 3; i++ {
		e.initiate("1.00", nil)
	}
	cases := []struct {
		name, query string
		status      int
		limit       float64
		items       int
	}{
		{"Default", "", 200, 20, 3},
		{"Clamped", "?limit=1000", 200, 100, 3},
		{"Small", "?limit=2", 200, 2, 2},
		{"SecondPage", "?limit=2&page=2", 200, 2, 1},
		{"EmptyPage", "?limit=2&page=9", 200, 2, 0},
		{"ErrPageZero", "?page=0", 400, 0, 0},
		{"ErrPageText", "?page=abc", 400, 0, 0},
		{"ErrLimitNegative", "?limit=-1", 400, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("GET", "/api/v1/payments"+c.query, nil)
			is.Equal(r.Status, c.status)
			if c.status != 200 {
				is.Equal(r.errCode(t), "ERR_VALIDATION")
				return
			}
			m := r.JSON(t)
			is.Equal(m["limit"], c.limit)
			is.Equal(len(m["items"].([]any)), c.items)
			is.Equal(m["total"], float64(3))
		})
	}
}

func TestRequestIDAndHealth(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	r := e.reqAs("", "GET", "/healthz", nil)
	is.Equal(r.Status, 200)
	is.True(strings.HasPrefix(r.Header.Get("X-Request-Id"), "req_"))
	r = e.reqAs("", "GET", "/readyz", nil, "X-Request-Id", "client-chosen-id")
	is.Equal(r.Status, 200)
	is.Equal(r.Header.Get("X-Request-Id"), "client-chosen-id")
	r = e.req("GET", "/api/v1/nope", nil)
	is.Equal(r.Status, 404)
	is.Equal(r.errCode(t), "ERR_NOT_FOUND")
}
