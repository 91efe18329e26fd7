package metrics

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"
)

// maxRPCBody is the most of a request or reply read to name its method or
// result; a larger one is counted without them.
const maxRPCBody = 1 << 20

// RPCTransport counts the live rail's JSON-RPC calls made through base, by
// method and result, reading each request's "method" and each reply's
// "error" (the body is handed on unchanged). The rail sends every call
// through its HTTP client, so this is the one door its calls pass.
func (m *Metrics) RPCTransport(base http.RoundTripper) http.RoundTripper {
	if m == nil {
		return base
	}
	if base == nil {
		base = http.DefaultTransport
	}
	return &rpcTransport{base: base, m: m}
}

type rpcTransport struct {
	base http.RoundTripper
	m    *Metrics
}

func (t *rpcTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	method := "unknown"
	if req.Body != nil {
		body, err := io.ReadAll(io.LimitReader(req.Body, maxRPCBody+1))
		if err != nil {
			req.Body.Close()
			return nil, err
		}
		rest := req.Body
		req = req.Clone(req.Context())
		if len(body) > maxRPCBody { // too long to look into: sent on whole
			req.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(body), rest), rest}
		} else {
			rest.Close()
			req.Body = io.NopCloser(bytes.NewReader(body))
			var call struct {
				Method string `json:"method"`
			}
			if json.Unmarshal(body, &call) == nil && call.Method != "" && len(call.Method) <= 64 {
				method = call.Method
			}
		}
	}
	start := time.Now()
	res, err := t.base.RoundTrip(req)
	result := "unreachable"
	if err == nil {
		result = "http_" + strconv.Itoa(res.StatusCode)
		if res.StatusCode == http.StatusOK {
			result, err = t.readResult(res)
		}
	}
	t.m.rpcCalls.WithLabelValues(method, result).Inc()
	t.m.rpcLatency.WithLabelValues(method).Observe(time.Since(start).Seconds())
	if err != nil {
		return nil, err
	}
	return res, nil
}

// readResult reads a 200 reply (handing the same bytes on) and names its
// result: ok, or rpc_error when it carries a JSON-RPC error object.
func (t *rpcTransport) readResult(res *http.Response) (string, error) {
	body, err := io.ReadAll(io.LimitReader(res.Body, maxRPCBody+1))
	if err != nil {
		res.Body.Close()
		return "unreachable", err
	}
	if len(body) > maxRPCBody { // too long to look into: handed on whole
		res.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), res.Body), res.Body}
		return "ok", nil
	}
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(body))
	var reply struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &reply) == nil && len(reply.Error) > 0 && string(reply.Error) != "null" {
		return "rpc_error", nil
	}
	return "ok", nil
}
