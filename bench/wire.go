package bench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http/httputil"
	"net/url"
	"strconv"
)

// The load phases' clients. The load generator shares the two cores with
// the server it measures, so every cycle it spends is taken from the
// server and counted in the CPU per request; net/http's client (a request
// object, header maps, two goroutines per connection) spends about as much
// per request as the server's own HTTP handling. A load client is instead
// one keep-alive HTTP/1.1 connection written and read in place: the
// request in one write, the response's status, length and body read back.
// Real clients, on their own machines, pay for their libraries themselves.

// wireConn is one client's connection, dialled on first use and again
// after the server closes it or an error leaves it unusable.
type wireConn struct {
	addr      string // host:port, also the Host header
	conn      net.Conn
	r         *bufio.Reader
	req, body []byte
}

// wirePool holds one wireConn per concurrent client.
type wirePool chan *wireConn

func newWirePool(base string, n int) (wirePool, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("bench: load clients speak plain HTTP, not %s", u.Scheme)
	}
	p := make(wirePool, n)
	for range n {
		p <- &wireConn{addr: u.Host}
	}
	return p, nil
}

// post sends a POST with the key as bearer token and any further headers
// (name, value, …) and returns the status; read, if not nil, sees the
// response's body, which is only valid during the call.
func (p wirePool) post(path, key string, body []byte, read func([]byte), headers ...string) (int, error) {
	c := <-p
	defer func() { p <- c }()
	status, b, err := c.post(path, key, body, headers)
	if err != nil {
		c.close()
		return 0, err
	}
	if read != nil {
		read(b)
	}
	return status, nil
}

func (p wirePool) close() {
	for range cap(p) {
		(<-p).close()
	}
}

func (c *wireConn) close() {
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
}

func (c *wireConn) post(path, key string, body []byte, headers []string) (int, []byte, error) {
	if c.conn == nil {
		conn, err := net.Dial("tcp", c.addr)
		if err != nil {
			return 0, nil, err
		}
		c.conn, c.r = conn, bufio.NewReaderSize(conn, 8<<10)
	}
	q := append(c.req[:0], "POST "...)
	q = append(q, path...)
	q = append(q, " HTTP/1.1\r\nHost: "...)
	q = append(q, c.addr...)
	q = append(q, "\r\nAuthorization: Bearer "...)
	q = append(q, key...)
	q = append(q, "\r\nContent-Type: application/json\r\nContent-Length: "...)
	q = strconv.AppendInt(q, int64(len(body)), 10)
	for i := 0; i+1 < len(headers); i += 2 {
		q = append(q, "\r\n"...)
		q = append(q, headers[i]...)
		q = append(q, ": "...)
		q = append(q, headers[i+1]...)
	}
	q = append(q, "\r\n\r\n"...)
	q = append(q, body...)
	c.req = q
	if _, err := c.conn.Write(q); err != nil {
		return 0, nil, err
	}
	return c.readResponse()
}

var errBadResponse = errors.New("bench: malformed HTTP response")

// readResponse reads one response: the status line, the headers that
// frame the body, and the body (by Content-Length or chunked).
func (c *wireConn) readResponse() (int, []byte, error) {
	line, err := c.r.ReadSlice('\n')
	if err != nil {
		return 0, nil, err
	}
	// "HTTP/1.1 201 Created\r\n"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, nil, errBadResponse
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, nil, errBadResponse
	}
	length, chunked, closing := -1, false, false
	for {
		line, err := c.line()
		if err != nil {
			return 0, nil, err
		}
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, nil, errBadResponse
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil || length < 0 {
				return 0, nil, errBadResponse
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			closing = bytes.EqualFold(value, []byte("close"))
		}
	}
	switch {
	case status == 204 || status == 304:
		c.body = c.body[:0]
	case chunked:
		if c.body, err = io.ReadAll(httputil.NewChunkedReader(c.r)); err == nil {
			err = c.skipTrailer()
		}
	case length >= 0:
		if cap(c.body) < length {
			c.body = make([]byte, length)
		}
		c.body = c.body[:length]
		_, err = io.ReadFull(c.r, c.body)
	case closing: // the body runs to the connection's end
		c.body, err = io.ReadAll(c.r)
	default:
		return 0, nil, errBadResponse // a kept-alive connection's body is always framed
	}
	if err != nil {
		return 0, nil, err
	}
	if closing {
		c.close()
	}
	return status, c.body, nil
}

// skipTrailer reads what follows a chunked body's last chunk: trailer
// lines, if any, up to the empty line.
func (c *wireConn) skipTrailer() error {
	for {
		line, err := c.line()
		if err != nil || len(line) == 0 {
			return err
		}
	}
}

// line reads one header or trailer line, without its line end.
func (c *wireConn) line() ([]byte, error) {
	line, err := c.r.ReadSlice('\n')
	return bytes.TrimRight(line, "\r\n"), err
}
