// Package mailtest is a real SMTP server for tests (emersion/go-smtp) on a
// loopback port: STARTTLS with a certificate of its own, authentication
// required once encrypted, every message kept as it arrived, and a switch
// that makes it refuse mail as a server in trouble does.
package mailtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// User and Password are what the server accepts.
const (
	User     = "payoutd"
	Password = "mail-secret"
)

// Message is one message the server accepted.
type Message struct {
	From    string
	To      []string
	TLS     bool // the session was encrypted (STARTTLS) when it was sent
	Authed  string
	Header  mail.Header
	Body    string // decoded from its transfer encoding
	Arrived time.Time
}

// Server is a running test SMTP server.
type Server struct {
	Addr string
	// CAFile holds the server certificate, PEM, for a process that trusts
	// it through SSL_CERT_FILE.
	CAFile string
	roots  *x509.CertPool

	mu      sync.Mutex
	msgs    []Message
	refuse  bool
	refused int
}

// Start runs a server until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	cert, pemBytes, err := selfSigned()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Addr: ln.Addr().String(), roots: x509.NewCertPool()}
	s.roots.AppendCertsFromPEM(pemBytes)
	s.CAFile = filepath.Join(t.TempDir(), "mailtest-ca.pem")
	if err := os.WriteFile(s.CAFile, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &session{s: s, c: c}, nil }))
	srv.Domain = "mail.test"
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.ErrorLog = quiet{}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

// URL is the -smtp-url that reaches the server with its credentials.
func (s *Server) URL() string {
	return "smtp://" + url.UserPassword(User, Password).String() + "@" + s.Addr
}

// Roots trusts the server's certificate.
func (s *Server) Roots() *x509.CertPool { return s.roots }

// Refuse makes the server refuse (or accept again) every message at
// RCPT, with a temporary failure.
func (s *Server) Refuse(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = on
}

// Refused counts the messages refused so far.
func (s *Server) Refused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

// Messages are the messages accepted so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

type session struct {
	s      *Server
	c      *smtp.Conn
	authed string
	from   string
	to     []string
}

var _ smtp.AuthSession = (*session)(nil)

func (x *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (x *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		if username != User || password != Password {
			return smtp.ErrAuthFailed
		}
		x.authed = username
		return nil
	}), nil
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	if x.authed == "" {
		return smtp.ErrAuthRequired
	}
	x.from = from
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.s.mu.Lock()
	defer x.s.mu.Unlock()
	if x.s.refuse {
		x.s.refused++
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "mailbox busy, try again later"}
	}
	x.to = append(x.to, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	m, err := mail.ReadMessage(r)
	if err != nil {
		return err
	}
	var rd io.Reader = m.Body
	if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		rd = quotedprintable.NewReader(m.Body)
	}
	body, err := io.ReadAll(rd)
	if err != nil {
		return err
	}
	_, encrypted := x.c.TLSConnectionState()
	x.s.mu.Lock()
	x.s.msgs = append(x.s.msgs, Message{From: x.from, To: x.to, TLS: encrypted, Authed: x.authed, Header: m.Header,
		Body: strings.ReplaceAll(string(body), "\r\n", "\n"), Arrived: time.Now()})
	x.s.mu.Unlock()
	return nil
}

func (x *session) Reset()        { x.from, x.to = "", nil }
func (x *session) Logout() error { return nil }

type quiet struct{}

func (quiet) Printf(string, ...any) {}
func (quiet) Println(...any)        {}

// selfSigned makes a certificate for 127.0.0.1 that is its own root.
func selfSigned() (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mailtest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
}
