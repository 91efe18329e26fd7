package metrics

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestRPCTransportCountsByMethodAndResult: each JSON-RPC call through the
// transport is counted by its method and what came back, and the request
// and reply bodies pass through unchanged.
func TestRPCTransportCountsByMethodAndResult(t *testing.T) {
	rpc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case bytes.Contains(body, []byte(`"getHealth"`)):
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"status":"healthy"}}`)
		case bytes.Contains(body, []byte(`"sendTransaction"`)):
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid"}}`)
		default:
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
		}
	}))
	defer rpc.Close()
	m := New()
	client := &http.Client{Transport: m.RPCTransport(nil)}
	call := func(method string) string {
		t.Helper()
		res, err := client.Post(rpc.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":{}}`))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	if got := call("getHealth"); got != `{"jsonrpc":"2.0","id":1,"result":{"status":"healthy"}}` {
		t.Fatalf("reply changed on the way: %q", got)
	}
	call("getHealth")
	call("sendTransaction")
	call("getLedgerEntries")
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	if _, err := client.Post(closed.URL, "application/json", strings.NewReader(`{"method":"getNetwork"}`)); err == nil {
		t.Fatal("a call to a closed server succeeded")
	}
	for _, c := range []struct {
		method, result string
		want           float64
	}{
		{"getHealth", "ok", 2},
		{"sendTransaction", "rpc_error", 1},
		{"getLedgerEntries", "http_503", 1},
		{"getNetwork", "unreachable", 1},
	} {
		if got := testutil.ToFloat64(m.rpcCalls.WithLabelValues(c.method, c.result)); got != c.want {
			t.Errorf("%s %s: %v, want %v", c.method, c.result, got, c.want)
		}
	}
	var nilM *Metrics
	if nilM.RPCTransport(http.DefaultTransport) != http.DefaultTransport {
		t.Error("a nil *Metrics should leave the transport as it is")
	}
}
