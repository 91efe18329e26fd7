package bench

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestWireClientSpeaksHTTP: the load client's requests reach a net/http
// server as it sent them (method, path, bearer key, extra headers, body),
// over one connection kept alive, and it reads back bodies framed by
// length or chunked, and dials again after the server closes.
func TestWireClientSpeaksHTTP(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.Method != "POST" || r.Header.Get("Authorization") != "Bearer k1" || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "bad request line or headers", http.StatusBadRequest)
			return
		}
		switch r.URL.Path {
		case "/small":
			w.Header().Set("Idem-Seen", r.Header.Get("Idempotency-Key"))
			w.WriteHeader(http.StatusCreated)
			w.Write(append([]byte(`{"id":"pay_1","echo":`), append(b, '}')...))
		case "/big": // past net/http's buffer: sent chunked
			w.WriteHeader(http.StatusOK)
			w.Write([]byte(`{"id":"pay_2","pad":"` + strings.Repeat("x", 20000) + `"}`))
		case "/close":
			w.Header().Set("Connection", "close")
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	pool, err := newWirePool(srv.URL, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.close()

	var body string
	status, err := pool.post("/small", "k1", []byte(`{"a":1}`), func(b []byte) { body = string(b) }, "Idempotency-Key", "abc")
	if err != nil || status != http.StatusCreated || body != `{"id":"pay_1","echo":{"a":1}}` {
		t.Fatalf("small: %d %q %v", status, body, err)
	}
	status, err = pool.post("/big", "k1", nil, func(b []byte) { body = string(b) })
	if err != nil || status != http.StatusOK || len(body) != 20000+len(`{"id":"pay_2","pad":""}`) || paymentID([]byte(body)) != "pay_2" {
		t.Fatalf("big: %d, %d bytes, %v", status, len(body), err)
	}
	status, err = pool.post("/close", "k1", nil, nil)
	if err != nil || status != http.StatusAccepted {
		t.Fatalf("close: %d %v", status, err)
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("three requests took %d connections, want one kept alive", n)
	}
	status, err = pool.post("/small", "wrong", nil, nil)
	if err != nil || status != http.StatusBadRequest {
		t.Fatalf("after the server closed: %d %v", status, err)
	}
	if n := conns.Load(); n != 2 {
		t.Errorf("%d connections after the server closed one, want a second dialled", n)
	}
}

func TestPaymentID(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`{"id":"pay_01","txnId":"x"}`, "pay_01"},
		{`{"txnId":"x","id":"pay_02"}`, "pay_02"}, // not first: decoded
		{`{"id":""}`, ""},
		{`not json`, ""},
	} {
		if got := paymentID([]byte(c.body)); got != c.want {
			t.Errorf("paymentID(%s) = %q, want %q", c.body, got, c.want)
		}
	}
}
